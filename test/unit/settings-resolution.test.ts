/**
 * Settings resolution: stack config → WSBRIDGE_* → TFE_* / TF_TOKEN_<host> → credentials file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  DEFAULT_LIMITS, clientSettingsFor, configure, resetConfigForTests, resolveSettings, sharedClient, type ConfigSource,
} from "../../provider/runtime/config";
import { DEFAULT_ADDRESS, LIMIT_NAMES, SETTINGS, SETTING_NAMES } from "../../provider/runtime/settings";

let home: string;

function source(values: Record<string, string>): ConfigSource {
  return { get: (key) => values[key] };
}

function writeCredentials(credentials: Record<string, { token: string }>): void {
  fs.mkdirSync(path.join(home, ".terraform.d"), { recursive: true });
  fs.writeFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials }));
}

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-config-"));
  resetConfigForTests();
});

afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
  resetConfigForTests();
});

describe("resolveSettings", () => {
  test("with nothing set, the address is app.terraform.io and there is no token", () => {
    expect(resolveSettings({ HOME: home })).toEqual({ address: "https://app.terraform.io" });
  });

  test("stack config wins over every environment variable", () => {
    configure(source({
      "wsbridge:address": "https://tfe.example.com/", "wsbridge:token": "cfg-token",
      "wsbridge:organization": "cfg-org", "wsbridge:edition": "self-managed",
    }));
    const env = { HOME: home, WSBRIDGE_TOKEN: "ws-token", TFE_TOKEN: "tfe-token", WSBRIDGE_ADDRESS: "https://other", TFE_ORGANIZATION: "x" };
    expect(resolveSettings(env)).toEqual({
      address: "https://tfe.example.com", token: "cfg-token", tokenSource: "config", organization: "cfg-org", edition: "self-managed",
    });
  });

  test("WSBRIDGE_* variables win over TFE_* variables", () => {
    const env = {
      HOME: home, WSBRIDGE_ADDRESS: "http://127.0.0.1:9", WSBRIDGE_TOKEN: "ws-token", WSBRIDGE_ORGANIZATION: "ws-org",
      WSBRIDGE_EDITION: "hosted", TFE_ADDRESS: "https://tfe", TFE_TOKEN: "tfe-token", TFE_ORGANIZATION: "tfe-org",
    };
    expect(resolveSettings(env)).toEqual({
      address: "http://127.0.0.1:9", token: "ws-token", tokenSource: "env", organization: "ws-org", edition: "hosted",
    });
  });

  test("TFE_HOSTNAME becomes an https address when TFE_ADDRESS is absent", () => {
    expect(resolveSettings({ HOME: home, TFE_HOSTNAME: "tfe.example.com", TFE_TOKEN: "t" })).toMatchObject({
      address: "https://tfe.example.com", token: "t", tokenSource: "env",
    });
  });

  test("Terraform CLI's TF_TOKEN_<host> variable is used for the address's host", () => {
    expect(resolveSettings({ HOME: home, TFE_HOSTNAME: "tfe.example.com", TF_TOKEN_tfe_example_com: "cli" })).toMatchObject({
      token: "cli", tokenSource: "env",
    });
  });

  test("the credentials file supplies the token for the address's host only", () => {
    writeCredentials({ "app.terraform.io": { token: "file-token" }, "tfe.example.com": { token: "other" } });
    expect(resolveSettings({ HOME: home })).toMatchObject({ token: "file-token", tokenSource: "credentials-file" });
    expect(resolveSettings({ HOME: home, TFE_ADDRESS: "https://nowhere.example.com" }).token).toBeUndefined();
  });

  test("an environment token wins over the credentials file", () => {
    writeCredentials({ "app.terraform.io": { token: "file-token" } });
    expect(resolveSettings({ HOME: home, TFE_TOKEN: "env-token" }).token).toBe("env-token");
  });

  test("a malformed credentials file counts as absent", () => {
    fs.mkdirSync(path.join(home, ".terraform.d"));
    fs.writeFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), "{ not json");
    expect(resolveSettings({ HOME: home }).token).toBeUndefined();
  });

  test("TFE_ADDRESS wins over TFE_HOSTNAME", () => {
    expect(resolveSettings({ HOME: home, TFE_ADDRESS: "https://a.example.com", TFE_HOSTNAME: "b.example.com" }).address)
      .toBe("https://a.example.com");
  });

  test("the credentials file entry of a host with a port is used for an address with that port", () => {
    writeCredentials({ "tfe.example.com:8443": { token: "port-token" } });
    expect(resolveSettings({ HOME: home, TFE_ADDRESS: "https://tfe.example.com:8443" })).toMatchObject({
      address: "https://tfe.example.com:8443", token: "port-token", tokenSource: "credentials-file",
    });
  });

  test("an unknown edition is ignored so that it is detected from ping instead", () => {
    configure(source({ "wsbridge:edition": "enterprise" }));
    expect(resolveSettings({ HOME: home }).edition).toBeUndefined();
  });
});

describe("configure", () => {
  test("a missing config, a missing key and a throwing source are all fine", () => {
    expect(() => configure(undefined)).not.toThrow();
    expect(() => configure(source({}))).not.toThrow();
    expect(() => configure({ get: () => { throw new Error("Missing required configuration variable"); } })).not.toThrow();
    expect(resolveSettings({ HOME: home }).token).toBeUndefined();
  });

  test("a later configure replaces the earlier one", () => {
    configure(source({ "wsbridge:token": "one" }));
    configure(source({ "wsbridge:organization": "org" }));
    expect(resolveSettings({ HOME: home })).toEqual({ address: "https://app.terraform.io", organization: "org" });
  });
});

describe("sharedClient", () => {
  test("returns one client per address and token, built without a token when none is set", () => {
    const saved = { ...process.env };
    try {
      for (const k of ["WSBRIDGE_TOKEN", "TFE_TOKEN", "WSBRIDGE_ADDRESS", "TFE_ADDRESS", "TFE_HOSTNAME"]) delete process.env[k];
      process.env["HOME"] = home;
      configure(source({ "wsbridge:address": "http://127.0.0.1:1" }));
      const a = sharedClient();
      expect(sharedClient()).toBe(a);
      expect(a.address).toBe("http://127.0.0.1:1");
      configure(source({ "wsbridge:address": "http://127.0.0.1:1", "wsbridge:token": "t" }));
      expect(sharedClient()).not.toBe(a);
    } finally {
      process.env = saved;
    }
  });
});

describe("the client's limits", () => {
  test("unset, they keep the client's defaults: 30 s per attempt, 4 retries, a 2-minute budget, 10 waits of at most a minute for 429, 30 s for unlock", () => {
    expect(DEFAULT_LIMITS).toEqual({
      requestTimeoutMs: 30_000, maxRetries: 4, retryBudgetMs: 120_000, maxRateLimitRetries: 10, rateLimitMaxWaitMs: 60_000,
      unlockRetryPeriodMs: 30_000,
    });
    expect(clientSettingsFor(resolveSettings({ HOME: home }))).toEqual({ address: "https://app.terraform.io" });
  });

  test("stack config wins over the environment, key by key", () => {
    configure(source({ "wsbridge:requestTimeoutMs": "5000", "wsbridge:maxRetries": "0" }));
    const env = { HOME: home, WSBRIDGE_REQUEST_TIMEOUT_MS: "9000", WSBRIDGE_MAX_RETRIES: "7", WSBRIDGE_RETRY_BUDGET_MS: "60000" };
    const settings = resolveSettings(env);
    expect(settings).toEqual({ address: "https://app.terraform.io", requestTimeoutMs: 5000, maxRetries: 0, retryBudgetMs: 60_000 });
    expect(clientSettingsFor(settings)).toEqual({
      address: "https://app.terraform.io", timeoutMs: 5000, retry: { maxAttempts: 1, budgetMs: 60_000 },
    });
  });

  test("the 429 and unlock budgets reach the client's retry options", () => {
    configure(source({ "wsbridge:maxRateLimitRetries": "2", "wsbridge:unlockRetryPeriodMs": "5000" }));
    const settings = resolveSettings({ HOME: home, WSBRIDGE_RATE_LIMIT_MAX_WAIT_MS: "1500", WSBRIDGE_MAX_RATE_LIMIT_RETRIES: "9" });
    expect(clientSettingsFor(settings)).toEqual({
      address: "https://app.terraform.io",
      retry: { maxRateLimitRetries: 2, rateLimitMaxWaitMs: 1500, unlockRetryPeriodMs: 5000 },
    });
  });

  test("surrounding spaces are ignored and the bounds themselves are accepted", () => {
    const env = { HOME: home, WSBRIDGE_REQUEST_TIMEOUT_MS: " 3600000 ", WSBRIDGE_MAX_RETRIES: "50", WSBRIDGE_RETRY_BUDGET_MS: "0" };
    expect(resolveSettings(env)).toMatchObject({ requestTimeoutMs: 3_600_000, maxRetries: 50, retryBudgetMs: 0 });
  });

  test("unusable values never throw; they are listed under the name the user wrote, with the rule", () => {
    expect(() => configure(source({ "wsbridge:maxRetries": "lots", "wsbridge:requestTimeoutMs": "0" }))).not.toThrow();
    const env = { HOME: home, WSBRIDGE_RETRY_BUDGET_MS: "-5", WSBRIDGE_MAX_RETRIES: "3" };
    let settings: ReturnType<typeof resolveSettings> | undefined;
    expect(() => { settings = resolveSettings(env); }).not.toThrow();
    expect(settings).toEqual({
      address: "https://app.terraform.io",
      invalid: [
        { key: "wsbridge:requestTimeoutMs", reason: 'must be a whole number of milliseconds from 1 to 3600000, got "0"' },
        { key: "wsbridge:maxRetries", reason: 'must be a whole number from 0 to 50, got "lots"' },
        { key: "WSBRIDGE_RETRY_BUDGET_MS", reason: 'must be a whole number of milliseconds from 0 to 3600000, got "-5"' },
      ],
    });
    expect(clientSettingsFor(settings!).invalidSettings).toEqual(settings!.invalid);
  });

  test("fractions, exponents and values above the range are refused", () => {
    for (const value of ["1.5", "1e3", "51", "30s"]) {
      expect(resolveSettings({ HOME: home, WSBRIDGE_MAX_RETRIES: value }).invalid?.[0]?.key).toBe("WSBRIDGE_MAX_RETRIES");
    }
  });
});

describe("the README's configuration table states the settings table (provider/runtime/settings.ts)", () => {
  const readme = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  /** Each table row's cells: setting, stack config, environment, default. */
  const rows = section.split("\n").filter((line) => line.startsWith("| ") && line.includes("`wsbridge:"))
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
  const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
  const byName = new Map(rows.map((cells) => [codeSpans(cells[1] ?? "")[0]?.replace(/^wsbridge:/, "") ?? "", cells]));

  test("it has one row per setting, and no other", () => {
    expect([...byName.keys()].sort()).toEqual([...SETTING_NAMES].sort());
  });

  test.each(SETTING_NAMES)("%s: its environment variables, in the order they are read", (name) => {
    const variables = (text: string): string[] => codeSpans(text).filter((span) => /^[A-Z][A-Z0-9_]+$/.test(span));
    const setting: { environment: readonly string[]; thenFrom?: string } = SETTINGS[name];
    expect(variables(byName.get(name)?.[2] ?? "")).toEqual([...setting.environment, ...variables(setting.thenFrom ?? "")]);
  });

  test.each(LIMIT_NAMES)("%s: its range and its default", (name) => {
    const cells = byName.get(name) ?? [];
    const rule = SETTINGS[name];
    expect(cells[0]).toContain(`${rule.min}–${rule.max})`);
    expect(codeSpans(cells[3] ?? "")).toEqual([String(DEFAULT_LIMITS[name])]);
  });

  test("the address's default is the one the settings resolve to", () => {
    expect(codeSpans(byName.get("address")?.[3] ?? "")).toEqual([DEFAULT_ADDRESS]);
  });
});

/**
 * Settings resolution: stack config → WSBRIDGE_* → TFE_* / TF_TOKEN_<host> → credentials file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { configure, resetConfigForTests, resolveSettings, sharedClient, type ConfigSource } from "../provider/runtime/config";

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

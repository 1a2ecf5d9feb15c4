/**
 * Settings as a Pulumi program gets them (sharedClient() reading stack config and the environment)
 * against the emulator: the credentials-file fallback, and the limits users can set
 * (`wsbridge:requestTimeoutMs`, `wsbridge:maxRetries`, `wsbridge:retryBudgetMs`, the 429 budgets and
 * their WSBRIDGE_* variables). Attempts are counted in the emulator's request log (a silent scripted server stands in
 * for the timeout).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { InvalidConfigError, RateLimitedError, ServerError, TransportError, closeAllPools } from "../../provider/runtime/api";
import { resetRateLimits } from "../../provider/runtime/api/rate-limiter";
import { configure, resetConfigForTests, sharedClient } from "../../provider/runtime/config";
import { ErrorRecorder, attempts, clientFor, uniqueName } from "../support/client-emulator";
import { startScriptedServer } from "../support/client-server";

const SETTING_VARIABLES = [
  "WSBRIDGE_ADDRESS", "WSBRIDGE_TOKEN", "WSBRIDGE_ORGANIZATION", "WSBRIDGE_EDITION", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_TOKEN",
  "TFE_ORGANIZATION", "WSBRIDGE_REQUEST_TIMEOUT_MS", "WSBRIDGE_MAX_RETRIES", "WSBRIDGE_RETRY_BUDGET_MS",
  "WSBRIDGE_MAX_RATE_LIMIT_RETRIES", "WSBRIDGE_RATE_LIMIT_MAX_WAIT_MS", "WSBRIDGE_UNLOCK_RETRY_PERIOD_MS",
];

let emu: RunningEmulator;
let home: string;
let savedEnv: NodeJS.ProcessEnv;
let workspaceId: string;
let workspacePath: string;
const recorder = new ErrorRecorder();

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  const ws = await clientFor(emu).createWorkspace(emu.organization, { name: uniqueName("config") });
  workspaceId = ws.id;
  workspacePath = `/api/v2/workspaces/${ws.id}`;
});

afterAll(async () => {
  await emu.close();
  await closeAllPools();
  for (const message of recorder.messages) expect(message).not.toContain(emu.token);
});

beforeEach(() => {
  savedEnv = { ...process.env };
  home = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-config-emu-"));
  for (const name of SETTING_VARIABLES) delete process.env[name];
  for (const name of Object.keys(process.env)) if (name.startsWith("TF_TOKEN_")) delete process.env[name];
  process.env["HOME"] = home;
  resetConfigForTests();
  resetRateLimits();
  emu.clearFaults();
  emu.clearRequests();
});

afterEach(() => {
  process.env = savedEnv;
  fs.rmSync(home, { recursive: true, force: true });
  resetConfigForTests();
  emu.clearFaults();
});

/** Stack config as `configure` receives it. */
function stackConfig(values: Record<string, string>): void {
  configure({ get: (key) => values[key] });
}

describe("the token from the CLI credentials file", () => {
  test("is used for the emulator's host and port when neither stack config nor the environment has one", async () => {
    const host = new URL(emu.url).host;
    fs.mkdirSync(path.join(home, ".terraform.d"));
    fs.writeFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials: { [host]: { token: emu.token } } }));
    stackConfig({ "wsbridge:address": emu.url });
    await expect(sharedClient().readWorkspace(workspaceId)).resolves.toMatchObject({ id: workspaceId });
    expect(attempts(emu, "GET", workspacePath).map((r) => [r.status, r.tokenKind])).toEqual([[200, "owner"]]);
  });
});

describe("the limits users can set", () => {
  test("WSBRIDGE_MAX_RETRIES=1: a read answered 503 is tried twice, then fails", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token });
    process.env["WSBRIDGE_MAX_RETRIES"] = "1";
    emu.setFaults({ script: [{ match: { method: "GET", path: workspacePath }, status: 503, times: 10 }] });
    const e = (await recorder.failure(sharedClient().readWorkspace(workspaceId))) as ServerError;
    expect(e).toBeInstanceOf(ServerError);
    expect(e.attempts).toBe(2);
    expect(attempts(emu, "GET", workspacePath).map((r) => r.status)).toEqual([503, 503]);
  });

  test("wsbridge:maxRetries wins over WSBRIDGE_MAX_RETRIES", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token, "wsbridge:maxRetries": "0" });
    process.env["WSBRIDGE_MAX_RETRIES"] = "3";
    emu.setFaults({ script: [{ match: { method: "GET", path: workspacePath }, status: 503, times: 10 }] });
    expect(await recorder.failure(sharedClient().readWorkspace(workspaceId))).toBeInstanceOf(ServerError);
    expect(attempts(emu, "GET", workspacePath).map((r) => r.status)).toEqual([503]);
  });

  test("wsbridge:maxRateLimitRetries=0 gives up at the first 429 with RateLimitedError", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token, "wsbridge:maxRateLimitRetries": "0" });
    emu.setFaults({ script: [{ match: { method: "GET", path: workspacePath }, status: 429, retryAfterSeconds: 0, times: 5 }] });
    expect(await recorder.failure(sharedClient().readWorkspace(workspaceId))).toBeInstanceOf(RateLimitedError);
    expect(attempts(emu, "GET", workspacePath).map((r) => r.status)).toEqual([429]);
  });

  test("WSBRIDGE_RATE_LIMIT_MAX_WAIT_MS refuses a 429 that asks for a longer wait, without waiting", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token });
    process.env["WSBRIDGE_RATE_LIMIT_MAX_WAIT_MS"] = "1000";
    emu.setFaults({ script: [{ match: { method: "GET", path: workspacePath }, status: 429, retryAfterSeconds: 30, times: 5 }] });
    expect(await recorder.failure(sharedClient().readWorkspace(workspaceId))).toBeInstanceOf(RateLimitedError);
    expect(attempts(emu, "GET", workspacePath).map((r) => r.status)).toEqual([429]);
  });

  test("wsbridge:retryBudgetMs=0 leaves no time for a retry, even of a read", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token, "wsbridge:retryBudgetMs": "0" });
    emu.setFaults({ script: [{ match: { method: "GET", path: workspacePath }, drop: "before", times: 10 }] });
    const e = (await recorder.failure(sharedClient().readWorkspace(workspaceId))) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(attempts(emu, "GET", workspacePath).map((r) => r.fault)).toEqual(["drop-before"]);
  });

  test("WSBRIDGE_REQUEST_TIMEOUT_MS bounds the wait for each response", async () => {
    // A server that never answers (the emulator's latency would leave a timer behind after the suite).
    const silent = await startScriptedServer(() => "hang");
    try {
      stackConfig({ "wsbridge:address": silent.url, "wsbridge:token": emu.token, "wsbridge:maxRetries": "0" });
      process.env["WSBRIDGE_REQUEST_TIMEOUT_MS"] = "50";
      const e = (await recorder.failure(sharedClient().readWorkspace(workspaceId))) as TransportError;
      expect(e).toBeInstanceOf(TransportError);
      expect(e.causeCode).toBe("UND_ERR_HEADERS_TIMEOUT");
      expect(silent.requests).toHaveLength(1);
    } finally {
      await silent.close();
    }
  });

  test("an unusable value is an InvalidConfigError at the first call, naming the key and the rule; nothing is sent", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token });
    process.env["WSBRIDGE_MAX_RETRIES"] = "lots";
    const client = sharedClient();
    const e = (await recorder.failure(client.readWorkspace(workspaceId))) as InvalidConfigError;
    expect(e).toBeInstanceOf(InvalidConfigError);
    expect(e).toMatchObject({ code: "WSB_INVALID_CONFIG", key: "WSBRIDGE_MAX_RETRIES" });
    expect(e.message).toBe('Invalid setting WSBRIDGE_MAX_RETRIES: must be a whole number from 0 to 50, got "lots"');
    expect(await recorder.failure(client.ping())).toBeInstanceOf(InvalidConfigError);
    expect(emu.requests()).toEqual([]);
  });

  test("an unusable stack config value is named by its stack config key", async () => {
    stackConfig({ "wsbridge:address": emu.url, "wsbridge:token": emu.token, "wsbridge:requestTimeoutMs": "30s" });
    const e = (await recorder.failure(sharedClient().readWorkspace(workspaceId))) as InvalidConfigError;
    expect(e.message).toBe('Invalid setting wsbridge:requestTimeoutMs: must be a whole number of milliseconds from 1 to 3600000, got "30s"');
    expect(emu.requests()).toEqual([]);
  });
});

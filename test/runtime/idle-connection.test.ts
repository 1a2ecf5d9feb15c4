// The race behind "SocketError: other side closed": a client keeps a keep-alive connection in its
// pool, the server closes it after its idle timeout, and the client, whose process was blocked
// meanwhile, writes its next request on that socket before it reads the close. Reproduced here
// against the emulator as a separate process with a 3 s keep-alive: two requests (undici's pool then
// holds two connections), the event loop blocked for longer than the server's keep-alive, then the
// request under test. With undici 7.30 the pool sends it on the closed connection; each test first
// checks that this happened, so it proves something only while the race is really reproduced.
import { spawn, type ChildProcess } from "node:child_process";
import * as diagnostics from "node:diagnostics_channel";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Agent, request, type Dispatcher } from "undici";
import { parseArgs } from "../../emulator/cli";
import * as runtime from "../../provider/runtime";
import { WsbridgeClient } from "../../provider/runtime/api";
import { closeAllPools } from "../../provider/runtime/api/transport";
import { resetConfigForTests } from "../../provider/runtime/config";
import { TEST_RETRY } from "../support/client-emulator";
import { freshConnectionPerRequest } from "../support/fresh-connection-per-request";
import { isolatedHome } from "../support/isolated-home";

const repoRoot = path.resolve(__dirname, "../..");
const KEEP_ALIVE_MS = 3_000;
/** Longer than the server's keep-alive: the server has closed every idle connection by the end. */
const IDLE_MS = KEEP_ALIVE_MS + 1_500;

let emulator: ChildProcess;
let settings: { url: string; token: string; organization: string };

/** Blocks the event loop, as execFileSync does: timers and socket events wait until it returns. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Requests that went out and met a closed connection, from undici's diagnostics channel. */
const closedUnder: { method: string; path: string }[] = [];
function onRequestError(message: unknown): void {
  const { request: req, error } = message as { request: { method: string; path: string }; error: { code?: string } };
  if (error.code === "UND_ERR_SOCKET") closedUnder.push({ method: req.method, path: req.path.split("?")[0] ?? "" });
}

interface Logged { method: string; path: string; status?: number }

async function requestLog(): Promise<Logged[]> {
  const res = await request(`${settings.url}/_emulator/requests`, { dispatcher: freshConnectionPerRequest });
  return (await res.body.json()) as Logged[];
}

async function clearRequestLog(): Promise<void> {
  const res = await request(`${settings.url}/_emulator/requests`, { method: "DELETE", dispatcher: freshConnectionPerRequest });
  await res.body.dump();
}

async function statusOf(dispatcher: Dispatcher, name: string): Promise<number> {
  const res = await request(`${settings.url}/api/v2/organizations/${settings.organization}/workspaces/${name}`, {
    headers: { authorization: `Bearer ${settings.token}` }, dispatcher,
  });
  await res.body.dump();
  return res.statusCode;
}

function workspacesPath(): string {
  return `/api/v2/organizations/${settings.organization}/workspaces`;
}

beforeAll(async () => {
  diagnostics.subscribe("undici:request:error", onRequestError);
  for (const name of ["TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION", "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION"]) {
    delete process.env[name];
  }
  process.env.HOME = isolatedHome();
  // Its own process, as the service is: its timers run while this process is blocked.
  emulator = spawn(process.execPath, [
    "-r", path.join(repoRoot, "scripts/lib/register-ts.js"), path.join(repoRoot, "emulator/cli.ts"),
    "--port", "0", "--keep-alive-timeout-ms", String(KEEP_ALIVE_MS), "--quiet",
  ], { stdio: ["ignore", "pipe", "inherit"] });
  const child = emulator;
  settings = await new Promise((resolve, reject) => {
    let text = "";
    child.on("exit", (code) => reject(new Error(`the emulator exited with ${String(code)} before printing its address`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const value = (name: string) => new RegExp(`^${name}=(.*)$`, "m").exec(text)?.[1];
      const [url, token, organization] = ["URL", "TOKEN", "ORGANIZATION"].map((k) => value(`WSBRIDGE_EMULATOR_${k}`));
      if (url && token && organization) resolve({ url, token, organization });
    });
  });
}, 60_000);

afterAll(async () => {
  diagnostics.unsubscribe("undici:request:error", onRequestError);
  await closeAllPools();
  emulator?.kill("SIGTERM");
});

beforeEach(async () => {
  closedUnder.length = 0;
  // Each test starts from empty pools, so that the sequence below sets up the same pooled connections.
  await closeAllPools();
  await clearRequestLog();
});

test("the emulator's keep-alive is settable (default 30 s), from the command line too", () => {
  expect(parseArgs(["--keep-alive-timeout-ms", "3000"])).toEqual({ keepAliveTimeoutMs: 3000 });
  expect(() => parseArgs(["--keep-alive-timeout-ms", "0"])).toThrow("--keep-alive-timeout-ms must be a whole number above 0");
});

test("undici's pool, as test helpers used it, sends a request after a long block on the connection the server closed", async () => {
  const pooled = new Agent();
  try {
    expect(await statusOf(pooled, "none")).toBe(404);
    expect(await statusOf(pooled, "none")).toBe(404);
    blockFor(IDLE_MS);
    await expect(statusOf(pooled, "none")).rejects.toMatchObject({ code: "UND_ERR_SOCKET" });
  } finally {
    await pooled.close();
  }
});

test("a test helper's request after the same block goes out on a new connection and is answered", async () => {
  expect(await statusOf(freshConnectionPerRequest, "none")).toBe(404);
  expect(await statusOf(freshConnectionPerRequest, "none")).toBe(404);
  blockFor(IDLE_MS);
  expect(await statusOf(freshConnectionPerRequest, "none")).toBe(404);
  expect(closedUnder).toEqual([]);
});

test("the provider's client answers a read whose first attempt went out on the closed connection", async () => {
  const client = new WsbridgeClient({ address: settings.url, token: settings.token, retry: TEST_RETRY, rateLimit: { enabled: false } });
  const created = await client.createWorkspace(settings.organization, { name: "read-after-idle" });
  await client.readWorkspace(created.id);
  blockFor(IDLE_MS);

  const read = await client.readWorkspace(created.id);

  expect(read.name).toBe("read-after-idle");
  // The race happened: the read's first attempt met the closed connection…
  expect(closedUnder).toEqual([{ method: "GET", path: `/api/v2/workspaces/${created.id}` }]);
  // …which the server never saw; the retry is the only read it answered after the block.
  const reads = (await requestLog()).filter((r) => r.method === "GET" && r.path === `/api/v2/workspaces/${created.id}`);
  expect(reads.map((r) => r.status)).toEqual([200, 200]);
});

test("a Workspace create whose POST went out on the closed connection looks the name up, then creates it exactly once", async () => {
  resetConfigForTests();
  await runtime.configure({ config: { get: (key: string) => ({
    "wsbridge:address": settings.url, "wsbridge:token": settings.token, "wsbridge:organization": settings.organization,
  } as Record<string, string>)[key] } });
  await runtime.workspace.create({ name: "warm-up", organization: settings.organization });
  await clearRequestLog();
  blockFor(IDLE_MS);

  const created = await runtime.workspace.create({ name: "create-after-idle", organization: settings.organization });

  expect(created.id).toMatch(/^ws-/);
  // The race happened: the POST met the closed connection, so its outcome was unknown to the client.
  expect(closedUnder).toEqual([{ method: "POST", path: workspacesPath() }]);
  // The server saw one POST, and before it the lookup by name that found no workspace: the create was
  // sent again because it had provably not been applied, never blindly.
  const log = (await requestLog()).filter((r) => r.path.startsWith(workspacesPath()));
  expect(log.map((r) => `${r.method} ${r.path.slice(workspacesPath().length)} ${String(r.status)}`).slice(0, 2)).toEqual([
    "GET /create-after-idle 404",
    "POST  201",
  ]);
  expect(log.filter((r) => r.method === "POST")).toHaveLength(1);
  expect(await statusOf(freshConnectionPerRequest, "create-after-idle")).toBe(200);
});

/**
 * What the provider plugin's Cancel (the engine's first Ctrl-C) does to the client's calls: a call
 * waiting out a 429 or a retry backoff ends at once, without sending again; requests queued by the
 * client-side rate limit are refused before they are sent; a request already on the wire finishes and
 * its result is returned (a create in flight is not left unrecorded). Counted from the request log.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { CancelledError, WsbridgeClient, closeAllPools, collect } from "../../provider/runtime/api";
import { cancelRequests, resetCancellation } from "../../provider/runtime/api/cancellation";
import { resetRateLimits } from "../../provider/runtime/api/rate-limiter";
import { ErrorRecorder, TEST_RETRY, attempts, clientFor, uniqueName } from "../support/client-emulator";

let emu: RunningEmulator;
const recorder = new ErrorRecorder();
const ORG = "example-org";
const CREATE = `/api/v2/organizations/${ORG}/workspaces`;

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

/** Waits until the emulator has answered `count` requests (the call under test is then waiting). */
async function answered(count: number): Promise<void> {
  while (emu.requests().filter((r) => r.status !== null).length < count) await tick();
}

/** Waits until a request has arrived and is not answered yet (the emulator logs it on arrival). */
async function onTheWire(): Promise<void> {
  while (!emu.requests().some((r) => r.status === null)) await tick();
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
});

beforeEach(() => {
  emu.clearFaults();
  emu.clearRequests();
  resetRateLimits();
  resetCancellation();
});

afterAll(async () => {
  resetCancellation();
  await emu.close();
  await closeAllPools();
  for (const message of recorder.messages) expect(message).not.toContain(emu.token);
});

test("a create waiting out a 429 ends when cancelled, not sent again, and nothing was created", async () => {
  // The wait the server asks for is long, and allowed: without the cancellation the call would retry.
  const client = clientFor(emu, { retry: { ...TEST_RETRY, rateLimitMaxWaitMs: 600_000, budgetMs: 600_000 } });
  const name = uniqueName("cancel-429");
  emu.setFaults({ script: [{ match: { method: "POST", path: CREATE }, status: 429, retryAfterSeconds: 300 }] });
  const creating = recorder.failure(client.createWorkspace(ORG, { name }));
  await answered(1);
  cancelRequests();
  const e = await creating;
  expect(e).toBeInstanceOf(CancelledError);
  expect(e.message).toBe(`POST ${CREATE} was not sent again: the deployment was cancelled (after 1 attempt that did not succeed)`);
  expect((e as CancelledError).code).toBe("WSB_CANCELLED");
  expect(attempts(emu, "POST", CREATE).map((r) => r.status)).toEqual([429]);
  resetCancellation();
  expect((await collect(client.listWorkspaces(ORG, { search: name }))).filter((w) => w.name === name)).toEqual([]);
});

test("a read waiting out a retry backoff after a 503 ends when cancelled, not sent again", async () => {
  const client = clientFor(emu, { retry: { ...TEST_RETRY, minDelayMs: 300_000, maxDelayMs: 300_000, budgetMs: 600_000 } });
  const path = "/api/v2/workspaces/ws-anything0000000";
  emu.setFaults({ script: [{ match: { method: "GET", path }, status: 503, times: 5 }] });
  const reading = recorder.failure(client.readWorkspace("ws-anything0000000"));
  await answered(1);
  cancelRequests();
  expect(await reading).toBeInstanceOf(CancelledError);
  expect(attempts(emu, "GET", path).map((r) => r.status)).toEqual([503]);
});

test("requests queued by the client-side rate limit are refused before they are sent", async () => {
  // Until the first answer, the client sends one request at a time: the others wait in the queue.
  const client = clientFor(emu, { rateLimit: { enabled: true } });
  emu.setFaults({ latencyMs: 400 });
  const reads = Array.from({ length: 5 }, () => client.readWorkspace("ws-anything0000000").then(() => "read", (e: unknown) => e));
  await onTheWire();
  cancelRequests();
  const outcomes = await Promise.all(reads);
  expect(outcomes.filter((o) => o instanceof CancelledError)).toHaveLength(4);
  expect(attempts(emu, "GET", /^\/api\/v2\/workspaces\//)).toHaveLength(1);
});

test("a create on the wire when the deployment is cancelled finishes, and its workspace is returned", async () => {
  const client = clientFor(emu);
  const name = uniqueName("cancel-in-flight");
  emu.setFaults({ latencyMs: 400 });
  const creating = client.createWorkspace(ORG, { name });
  await onTheWire();
  cancelRequests();
  await expect(creating).resolves.toMatchObject({ name });
  expect(attempts(emu, "POST", CREATE).map((r) => r.status)).toEqual([201]);
});

test("after the cancellation, a new call is refused without a request", async () => {
  const client: WsbridgeClient = clientFor(emu);
  cancelRequests();
  const e = await recorder.failure(client.readWorkspace("ws-anything0000000"));
  expect(e).toBeInstanceOf(CancelledError);
  expect(e.message).toBe("GET /api/v2/workspaces/ws-anything0000000 was not sent: the deployment was cancelled");
  expect(emu.requests()).toEqual([]);
});

/**
 * The error classes the other emulator suites do not reach (a status without a class of its own, a 409
 * outside the lock and delete actions, a connection that keeps dropping, a missing token, a malformed
 * request body, a configured edition), unlock's 503 past its retry period, and edition detection under
 * concurrent first calls. Attempts are counted in the emulator's request log.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import {
  ApiError, ConflictError, MissingTokenError, RequestShapeError, ServerError, TransportError, UnsupportedEditionError,
  WsbridgeClient, closeAllPools,
} from "../../provider/runtime/api";
import { resetEditionCache } from "../../provider/runtime/api/operations/ping";
import { ErrorRecorder, TEST_RETRY, attempts, clientFor, uniqueName } from "../support/client-emulator";

let emu: RunningEmulator;
let client: WsbridgeClient;
const recorder = new ErrorRecorder();
const ORG = "example-org";

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  client = clientFor(emu);
});

beforeEach(() => {
  emu.clearFaults();
  emu.clearRequests();
});

afterAll(async () => {
  await emu.close();
  await closeAllPools();
  for (const message of recorder.messages) expect(message).not.toContain(emu.token);
});

describe("error classes", () => {
  test("a status without a class of its own is a plain ApiError with the generic code", async () => {
    const ws = await client.createWorkspace(ORG, { name: uniqueName("generic") });
    const path = `/api/v2/workspaces/${ws.id}`;
    emu.setFaults({ script: [{ match: { method: "GET", path }, status: 413 }] });
    const e = (await recorder.failure(client.readWorkspace(ws.id))) as ApiError;
    expect(e.constructor).toBe(ApiError);
    expect(e).toMatchObject({ code: "WSB_HTTP_ERROR", status: 413, method: "GET", path, title: "payload too large", detail: "Injected fault" });
    expect(e.requestId).toBeDefined();
    expect(e.message).toBe(`GET ${path} failed with 413 payload too large: Injected fault [request id ${e.requestId}]`);
    expect(attempts(emu, "GET", path)).toHaveLength(1);
  });

  test("a 409 outside the lock and delete actions is a ConflictError with reason 'other'", async () => {
    const ws = await client.createWorkspace(ORG, { name: uniqueName("conflict") });
    const path = `/api/v2/workspaces/${ws.id}`;
    emu.setFaults({ script: [{ match: { method: "PATCH", path }, status: 409 }] });
    const e = (await recorder.failure(client.updateWorkspace(ws.id, { description: "x" }))) as ConflictError;
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.reason).toBe("other");
    expect(attempts(emu, "PATCH", path)).toHaveLength(1);
  });

  test("a read whose connection keeps dropping ends in a TransportError after maxAttempts", async () => {
    const ws = await client.createWorkspace(ORG, { name: uniqueName("dropping") });
    const path = `/api/v2/workspaces/${ws.id}`;
    emu.setFaults({ script: [{ match: { method: "GET", path }, drop: "before", times: 10 }] });
    const e = (await recorder.failure(client.readWorkspace(ws.id))) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ code: "WSB_TRANSPORT", sent: true, attempts: TEST_RETRY.maxAttempts });
    expect(attempts(emu, "GET", path).map((r) => r.fault)).toEqual(Array(TEST_RETRY.maxAttempts).fill("drop-before"));
  });

  test("without a token the first call is a MissingTokenError and nothing reaches the emulator", async () => {
    const anonymous = new WsbridgeClient({ address: emu.url, retry: TEST_RETRY });
    const e = await recorder.failure(anonymous.readWorkspaceByName(ORG, "anything"));
    expect(e).toBeInstanceOf(MissingTokenError);
    expect(emu.requests()).toEqual([]);
  });

  test("a malformed request body is a RequestShapeError and nothing reaches the emulator", async () => {
    const ws = await client.createWorkspace(ORG, { name: uniqueName("shape") });
    emu.clearRequests();
    const e = (await recorder.failure(client.updateWorkspace(ws.id, { queueAllRuns: "yes" as unknown as boolean }))) as RequestShapeError;
    expect(e).toBeInstanceOf(RequestShapeError);
    expect(e.fields).toEqual(["data.attributes.queue-all-runs"]);
    expect(emu.requests()).toEqual([]);
    await expect(client.readWorkspace(ws.id)).resolves.toMatchObject({ queueAllRuns: false });
  });

  test("with the hosted edition configured, data retention is refused without a request", async () => {
    const hosted = clientFor(emu, { edition: "hosted" });
    const e = await recorder.failure(hosted.setDataRetentionPolicy("ws-anything00000", { kind: "dont-delete" }));
    expect(e).toBeInstanceOf(UnsupportedEditionError);
    expect(e.message).toBe("The data retention policy is only available in the self-managed edition; this server is the hosted edition");
    expect(emu.requests()).toEqual([]);
  });
});

describe("unlock's 503", () => {
  test("past the retry period it is a ServerError and the workspace stays locked", async () => {
    const ws = await client.createWorkspace(ORG, { name: uniqueName("unlock-503") });
    await client.lockWorkspace(ws.id);
    const path = `/api/v2/workspaces/${ws.id}/actions/unlock`;
    emu.setFaults({ script: [{ match: { method: "POST", path }, status: 503, times: 100 }] });
    // A zero period allows no wait at all, so exactly one attempt is made whatever the machine's speed.
    const impatient = clientFor(emu, { retry: { ...TEST_RETRY, unlockRetryPeriodMs: 0 } });
    const e = (await recorder.failure(impatient.unlockWorkspace(ws.id))) as ServerError;
    expect(e).toBeInstanceOf(ServerError);
    expect(e.status).toBe(503);
    expect(attempts(emu, "POST", path).map((r) => r.status)).toEqual([503]);
    emu.clearFaults();
    await expect(client.readWorkspace(ws.id)).resolves.toMatchObject({ locked: true });
  });
});

describe("edition detection", () => {
  beforeEach(() => resetEditionCache());

  test("concurrent first calls of several clients share one ping", async () => {
    const ws = await client.createWorkspace(ORG, { name: uniqueName("edition") });
    emu.clearRequests();
    const editions = await Promise.all([client.edition(), clientFor(emu).edition(), clientFor(emu).edition()]);
    expect(editions).toEqual(["hosted", "hosted", "hosted"]);
    expect(await recorder.failure(clientFor(emu).readDataRetentionPolicy(ws.id))).toBeInstanceOf(UnsupportedEditionError);
    expect(attempts(emu, "GET", "/api/v2/ping")).toHaveLength(1);
  });

  test("a failed detection is not remembered: the next call pings again", async () => {
    emu.setFaults({ script: [{ match: { method: "GET", path: "/api/v2/ping" }, status: 401 }] });
    expect(await recorder.failure(client.edition())).toBeInstanceOf(ApiError);
    expect(await client.edition()).toBe("hosted");
    expect(attempts(emu, "GET", "/api/v2/ping").map((r) => r.status)).toEqual([401, 204]);
  });
});

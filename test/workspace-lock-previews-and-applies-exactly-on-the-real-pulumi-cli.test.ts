// A WorkspaceLock through the real Pulumi CLI against the emulator, in one stack with the Workspace it
// locks (`workspaceId: ws.id`): a first preview while the id is still unknown, up, a no-op preview
// that sends nothing, a reason change previewed and applied as a replacement, forceUnlockOnDestroy
// as an update that sends nothing, refresh after the lock was released outside Pulumi and after someone else took it (reported, never adopted, never
// unlocked by destroy, and a create that names them), the unlock's 503 retried during a replacement,
// and destroy through force-unlock. Bad inputs and two locks on one workspace: workspace-lock-invalid-inputs-….
import type { EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { notesOf } from "./support/engine-events";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";
import type { WorkspaceLockArgs } from "pulumi-wsbridge";
import { failureOf } from "./support/failure";

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);
const TYPE = "pulumi-nodejs:dynamic/wsbridge:WorkspaceLock";
const WS_NAME = "locked-by-pulumi";

type Args = Record<string, unknown>;
/** The lock the program declares (null: none); `workspaceId` is the workspace's id unless given. */
let lockArgs: Args | null = { reason: "change freeze" };

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
let printed = "";
const log = (text: string): void => {
  printed += text;
};

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({ port: 0, edition: "hosted" });
  harness = await createStack({
    cli,
    projectName: "wsbridge-workspace-lock",
    config: emulatorStackConfig(emulator),
    program: async () => {
      const { Workspace, WorkspaceLock } = await import("pulumi-wsbridge");
      const ws = new Workspace("subject", { name: WS_NAME });
      const out: Record<string, unknown> = { workspaceId: ws.id };
      if (lockArgs !== null) {
        const lock = new WorkspaceLock("lock", { workspaceId: ws.id, ...lockArgs } as unknown as WorkspaceLockArgs);
        Object.assign(out, { lockedById: lock.lockedById, lockedByKind: lock.lockedByKind, lockedReason: lock.lockedReason, held: lock.heldByThisResource });
      }
      return out;
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.dispose();
  await emulator?.close();
});

// ---- helpers ---------------------------------------------------------------------------------

type Doc = { data: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string; type: string } | null }> } };

async function api(method: string, path: string, body?: unknown, token = emulator.token): Promise<{ status: number; doc: Doc }> {
  const res = await request(`${emulator.url}/api/v2${path}`, {
    method: method as "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, doc: (text ? JSON.parse(text) : {}) as Doc };
}

async function live(): Promise<{ id: string; locked: unknown; reason: unknown; by: { id: string; type: string } | null | undefined }> {
  const { status, doc } = await api("GET", `/organizations/${emulator.organization}/workspaces/${WS_NAME}`);
  expect(status).toBe(200);
  return { id: doc.data.id, locked: doc.data.attributes["locked"], reason: doc.data.attributes["locked-reason"], by: doc.data.relationships["locked-by"]?.data };
}

interface Step { op: string; name: string; changedInputs: string[] }

function stepsOf(events: EngineEvent[]): Step[] {
  return events.flatMap((event) => {
    const m = event.resourcePreEvent?.metadata;
    if (!m || m.type !== TYPE) return [];
    const before = m.old?.inputs ?? {};
    const after = m.new?.inputs ?? {};
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    keys.delete("__provider");
    const changedInputs = m.op === "create" ? [] : [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
    return [{ op: m.op, name: m.urn.split("::").pop() ?? "", changedInputs }];
  }).filter((s) => s.op !== "same");
}


async function preview(): Promise<{ steps: Step[]; summary: Record<string, number | undefined>; requests: string[] }> {
  const events: EngineEvent[] = [];
  emulator.clearRequests();
  const result = await harness.stack.preview({ onEvent: (e) => events.push(e), onOutput: log, diff: true });
  return { steps: stepsOf(events), summary: result.changeSummary, requests: emulator.requests().map((r) => `${r.method} ${r.path}`) };
}

async function up(): Promise<{ changes: Record<string, number | undefined>; requests: string[]; notes: string[]; outputs: Record<string, unknown> }> {
  const events: EngineEvent[] = [];
  emulator.clearRequests();
  const result = await harness.stack.up({ onOutput: log, onEvent: (e) => events.push(e) });
  expect(result.summary.result).toBe("succeeded");
  return {
    changes: result.summary.resourceChanges ?? {},
    requests: emulator.requests().map((r) => `${r.method} ${r.path.replace("/api/v2", "")}`),
    notes: notesOf(events),
    outputs: Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value])),
  };
}

/** The lock resource's outputs in the state (stack outputs change only when the program runs). */
async function lockOutputs(): Promise<Record<string, unknown> | undefined> {
  const state = await harness.stack.exportStack();
  const resources = (state.deployment as { resources?: { type: string; outputs?: Record<string, unknown> }[] }).resources ?? [];
  return resources.find((r) => r.type === TYPE)?.outputs;
}

async function refresh(): Promise<{ changes: Record<string, number | undefined>; notes: string[] }> {
  const events: EngineEvent[] = [];
  const result = await harness.stack.refresh({ onOutput: log, onEvent: (e) => events.push(e) });
  return { changes: result.summary.resourceChanges ?? {}, notes: notesOf(events) };
}

// ---- create, no-op, update, replace ------------------------------------------------------------

test("a preview before the first up plans both creates while the workspace id is unknown, and sends nothing", async () => {
  const { steps, summary, requests } = await preview();
  expect(steps).toEqual([{ op: "create", name: "lock", changedInputs: [] }]);
  expect(summary).toEqual({ create: 3 });
  expect(requests).toEqual([]);
});

test("up creates the workspace and locks it with the reason: a read and one lock request", async () => {
  const { changes, requests, outputs } = await up();
  expect(changes).toEqual({ create: 3 });
  const ws = await live();
  expect(ws).toMatchObject({ locked: true, reason: "change freeze", by: { type: "users" } });
  expect(requests).toEqual([`POST /organizations/${emulator.organization}/workspaces`, `GET /workspaces/${ws.id}`, `POST /workspaces/${ws.id}/actions/lock`]);
  expect(outputs).toEqual({ workspaceId: ws.id, lockedById: ws.by?.id, lockedByKind: "users", lockedReason: "change freeze", held: true });
  expect(harness.allStoredText()).not.toContain(emulator.token);
});

test("a preview with nothing changed plans nothing and sends no request", async () => {
  const { steps, summary, requests } = await preview();
  expect(steps).toEqual([]);
  expect(summary).toEqual({ same: 3 });
  expect(requests).toEqual([]);
});

test("a reason change previews exactly a replacement that unlocks first; up applies it, retrying the unlock's 503", async () => {
  lockArgs = { reason: "release 42 in progress" };
  const { steps, summary, requests } = await preview();
  // Delete first (one workspace, one lock), then lock again; the replacement is the reason's.
  expect(steps.map((s) => s.op)).toEqual(["delete-replaced", "replace", "create-replacement"]);
  expect(steps.find((s) => s.op === "replace")?.changedInputs).toEqual(["reason"]);
  expect(summary).toEqual({ same: 2, replace: 1 });
  expect(requests).toEqual([]);
  const ws = await live();
  // The service answers 503 while the latest intermediate state version is not finalized.
  emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${ws.id}/actions/unlock` }, status: 503, times: 2 }] });
  const applied = await up();
  emulator.clearFaults();
  expect(applied.changes).toEqual({ same: 2, replace: 1 });
  expect(applied.requests).toEqual([
    `GET /workspaces/${ws.id}`, `POST /workspaces/${ws.id}/actions/unlock`, `POST /workspaces/${ws.id}/actions/unlock`,
    `POST /workspaces/${ws.id}/actions/unlock`, `GET /workspaces/${ws.id}`, `POST /workspaces/${ws.id}/actions/lock`,
  ]);
  expect(await live()).toMatchObject({ locked: true, reason: "release 42 in progress", by: { type: "users" } });
});

test("forceUnlockOnDestroy previews exactly an update, and up sends nothing", async () => {
  lockArgs = { ...lockArgs, forceUnlockOnDestroy: true };
  const { steps, requests } = await preview();
  expect(steps).toEqual([{ op: "update", name: "lock", changedInputs: ["forceUnlockOnDestroy"] }]);
  expect(requests).toEqual([]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, update: 1 });
  expect(applied.requests).toEqual([]);
});

// ---- refresh ---------------------------------------------------------------------------------

test("a lock released outside Pulumi leaves the state at refresh, and up locks again", async () => {
  const ws = await live();
  expect((await api("POST", `/workspaces/${ws.id}/actions/unlock`)).status).toBe(200);
  expect((await refresh()).changes).toMatchObject({ delete: 1 });
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, create: 1 });
  expect(await live()).toMatchObject({ locked: true, reason: "release 42 in progress", by: { type: "users" } });
});

test("someone else's lock: refresh reports it without adopting it, destroy leaves it, and a create names them", async () => {
  const ws = await live();
  expect((await api("POST", `/workspaces/${ws.id}/actions/unlock`)).status).toBe(200);
  const team = emulator.issueToken({ kind: "team", access: "lock" });
  const theirs = await api("POST", `/workspaces/${ws.id}/actions/lock`, { reason: "hotfix by the on-call team" }, team);
  const teamId = theirs.doc.data.relationships["locked-by"]?.data?.id ?? "";
  expect(teamId).toMatch(/^team-/);

  const refreshed = await refresh();
  expect(refreshed.notes).toEqual(expect.arrayContaining([expect.stringContaining(`now locked by team ${teamId}`)]));
  expect(await lockOutputs()).toMatchObject({ lockedById: teamId, lockedByKind: "teams", locked: true, heldByThisResource: false });
  // The next preview proposes to lock again (a replacement), and sends nothing.
  const planned = await preview();
  expect(planned.steps.map((s) => s.op)).toEqual(["delete-replaced", "replace", "create-replacement"]);
  expect(planned.requests).toEqual([]);

  // Removing the lock from the program: their lock is left in place, with a warning.
  lockArgs = null;
  const removed = await up();
  expect(removed.changes).toEqual({ same: 2, delete: 1 });
  expect(removed.requests).toEqual([`GET /workspaces/${ws.id}`]);
  expect(removed.notes).toEqual(expect.arrayContaining([expect.stringContaining(`not unlocked: the workspace is locked by team ${teamId}`)]));
  expect((await live()).by).toEqual({ type: "teams", id: teamId });

  // Declaring it again while they hold it: the create fails naming them, without a lock request.
  lockArgs = { reason: "release 42 in progress", forceUnlockOnDestroy: true };
  emulator.clearRequests();
  const message = await messageOf(harness.stack.up({ onOutput: log }));
  expect(message).toContain(`already locked by team ${teamId} (reason: "hotfix by the on-call team")`);
  expect(message).toContain("Ask the holder to unlock it");
  expect(emulator.requests().filter((r) => r.path.endsWith("/actions/lock"))).toEqual([]);

  // Once they release it, up locks.
  expect((await api("POST", `/workspaces/${ws.id}/actions/unlock`, undefined, team)).status).toBe(200);
  expect((await up()).changes).toEqual({ same: 2, create: 1 });
  expect((await live()).by?.type).toBe("users");
});

// ---- destroy ---------------------------------------------------------------------------------

test("destroy force-unlocks (forceUnlockOnDestroy, the owner is an admin) and deletes the workspace", async () => {
  const ws = await live();
  emulator.clearRequests();
  const result = await harness.stack.destroy({ onOutput: log });
  expect(result.summary.result).toBe("succeeded");
  expect(emulator.requests().map((r) => `${r.method} ${r.path.replace("/api/v2", "")}`)).toEqual([
    `GET /workspaces/${ws.id}`, `POST /workspaces/${ws.id}/actions/force-unlock`, `POST /workspaces/${ws.id}/actions/safe-delete`,
  ]);
  expect((await api("GET", `/workspaces/${ws.id}`)).status).toBe(404);
  expect(printed).not.toContain(emulator.token);
});

// A WorkspaceLock through the real Pulumi CLI against the emulator, in one stack with the Workspace it
// locks (`workspaceId: ws.id`): a first preview while the id is still unknown, up, a no-op preview
// that sends nothing, a reason change previewed and applied as a replacement, forceUnlockOnDestroy
// as an update that sends nothing, refresh after the lock was released outside Pulumi and after someone else took it (reported, never adopted, never
// unlocked by destroy, and a create that names them), the unlock's 503 retried during a replacement,
// and destroy through force-unlock. Bad inputs and two locks on one workspace: workspace-lock-invalid-inputs-….
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { notesOf } from "../support/engine-events";
import type { WorkspaceLockArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { belowApi, useRealCliStack } from "../support/real-cli-stack";

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);
const TYPE = "pulumi-nodejs:dynamic/wsbridge:WorkspaceLock";
const WS_NAME = "locked-by-pulumi";

type Args = Record<string, unknown>;
/** The lock the program declares (null: none); `workspaceId` is the workspace's id unless given. */
let lockArgs: Args | null = { reason: "change freeze" };

const e2e = useRealCliStack({
  projectName: "wsbridge-workspace-lock",
  emulator: { edition: "hosted" },
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

// ---- helpers ---------------------------------------------------------------------------------

type Doc = { data: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string; type: string } | null }> } };

async function live(): Promise<{ id: string; locked: unknown; reason: unknown; by: { id: string; type: string } | null | undefined }> {
  const { status, doc } = await e2e.api<Doc>("GET", `/organizations/${e2e.emulator.organization}/workspaces/${WS_NAME}`);
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
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  return { steps: stepsOf(events), summary: result.changeSummary, requests: e2e.requestLines() };
}

async function up(): Promise<{ changes: Record<string, number | undefined>; requests: string[]; notes: string[]; outputs: Record<string, unknown> }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log, onEvent: (e) => events.push(e) });
  expect(result.summary.result).toBe("succeeded");
  return {
    changes: result.summary.resourceChanges ?? {},
    requests: e2e.requestLines(belowApi),
    notes: notesOf(events),
    outputs: Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value])),
  };
}

/** The lock resource's outputs in the state (stack outputs change only when the program runs). */
async function lockOutputs(): Promise<Record<string, unknown> | undefined> {
  const state = await e2e.stack.exportStack();
  const resources = (state.deployment as { resources?: { type: string; outputs?: Record<string, unknown> }[] }).resources ?? [];
  return resources.find((r) => r.type === TYPE)?.outputs;
}

async function refresh(): Promise<{ changes: Record<string, number | undefined>; notes: string[] }> {
  const events: EngineEvent[] = [];
  const result = await e2e.stack.refresh({ onOutput: e2e.log, onEvent: (e) => events.push(e) });
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
  expect(requests).toEqual([`POST /organizations/${e2e.emulator.organization}/workspaces`, `GET /workspaces/${ws.id}`, `POST /workspaces/${ws.id}/actions/lock`]);
  expect(outputs).toEqual({ workspaceId: ws.id, lockedById: ws.by?.id, lockedByKind: "users", lockedReason: "change freeze", held: true });
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
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
  e2e.emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${ws.id}/actions/unlock` }, status: 503, times: 2 }] });
  const applied = await up();
  e2e.emulator.clearFaults();
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
  expect((await e2e.api("POST", `/workspaces/${ws.id}/actions/unlock`)).status).toBe(200);
  expect((await refresh()).changes).toMatchObject({ delete: 1 });
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, create: 1 });
  expect(await live()).toMatchObject({ locked: true, reason: "release 42 in progress", by: { type: "users" } });
});

test("someone else's lock: refresh reports it without adopting it, destroy leaves it, and a create names them", async () => {
  const ws = await live();
  expect((await e2e.api("POST", `/workspaces/${ws.id}/actions/unlock`)).status).toBe(200);
  const team = e2e.emulator.issueToken({ kind: "team", access: "lock" });
  const theirs = await e2e.api<Doc>("POST", `/workspaces/${ws.id}/actions/lock`, { reason: "hotfix by the on-call team" }, team);
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
  e2e.emulator.clearRequests();
  const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
  expect(message).toContain(`already locked by team ${teamId} (reason: "hotfix by the on-call team")`);
  expect(message).toContain("Ask the holder to unlock it");
  expect(e2e.emulator.requests().filter((r) => r.path.endsWith("/actions/lock"))).toEqual([]);

  // Once they release it, up locks.
  expect((await e2e.api("POST", `/workspaces/${ws.id}/actions/unlock`, undefined, team)).status).toBe(200);
  expect((await up()).changes).toEqual({ same: 2, create: 1 });
  expect((await live()).by?.type).toBe("users");
});

// ---- destroy ---------------------------------------------------------------------------------

test("destroy force-unlocks (forceUnlockOnDestroy, the owner is an admin) and deletes the workspace", async () => {
  const ws = await live();
  e2e.emulator.clearRequests();
  const result = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  expect(e2e.requestLines(belowApi)).toEqual([
    `GET /workspaces/${ws.id}`, `POST /workspaces/${ws.id}/actions/force-unlock`, `POST /workspaces/${ws.id}/actions/safe-delete`,
  ]);
  expect((await e2e.api("GET", `/workspaces/${ws.id}`)).status).toBe(404);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

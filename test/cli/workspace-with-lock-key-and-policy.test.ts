// WorkspaceLock, SshKeyAssignment and DataRetentionPolicy on the dynamic route through the real Pulumi
// CLI, where they show what the route comparison (plugin-matches-lock-key-policy) does not: one stack
// (self-managed emulator, organization default policy 90 days) with two workspaces, the lock and the
// policy on one, the key on the other, so that each request names its resource.
//
// - The first preview plans every create while the workspaces' ids are still unknown, and its only
//   request is the policy's edition ping; the one `up` creates all.
// - Two assignments and two policies for one workspace fail one preview, both pairs named, no write.
// - `up --replace` of the key beside a new lock reason: the key's replacement assigns it before the old
//   one's delete reads and leaves it; the lock is unlocked first, its two 503s retried, then locked.
// - Drift made outside (someone else's lock, the key unassigned, the policy removed): refresh reports
//   the lock without adopting it and drops the policy; the preview proposes exactly the restore, sending
//   only the ping; dropping the lock from the program leaves their lock with a warning while the same
//   `up` restores the key and sets the policy again; a read-only token's `up` fails saying what the key
//   assignment needs, and prints no token; declaring the lock again fails `up` naming them (the message
//   as the CLI prints it), and once they release it, `up` locks.
// - `destroy --target` of the policy, the key and the key's workspace: the locked workspace is back on
//   the organization's default; a key someone else assigned since is left, with a warning, and its
//   workspace is deleted after it.
// - Against a hosted server, the usual program (workspace + policy) fails the preview after one ping.
//
// Per-kind input rules are tables at the runtime (test/runtime/workspace-lock, ssh-key-assignment,
// data-retention-policy); the CLI's framing of a bad input is proven on both routes by the comparison.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { notesOf, stepsOf } from "../support/engine-events";
import { failureOf } from "../support/failure";
import { UNKNOWN_IN_EVENTS } from "../support/plugin-route";
import { belowApi, useRealCliStack } from "../support/real-cli-stack";

const ORG = DEFAULT_ORGANIZATION;
const ORG_DEFAULT_DAYS = 90;
const KEY_A = "sshkey-lkpaaaaaaaaaaaaa01";
const KEY_B = "sshkey-lkpbbbbbbbbbbbbb02";
const THEIRS = "sshkey-lkptheirssssssss03";
const WS_NAMES = { locked: "lkp-locked", keyed: "lkp-keyed" } as const;
type On = keyof typeof WS_NAMES;

const KINDS = ["WorkspaceLock", "SshKeyAssignment", "DataRetentionPolicy"] as const;
type Kind = (typeof KINDS)[number];
const typeOf = (kind: Kind): string => `pulumi-nodejs:dynamic/wsbridge:${kind}`;

/** What the program declares; tests change it between operations. */
const desired = {
  lock: { reason: "change freeze" } as Record<string, unknown> | null,
  sshKeyId: KEY_A,
  policy: { deleteOlderThanNDays: 30 } as Record<string, unknown>,
  /** A second assignment and a second policy for the same workspaces. */
  duplicates: false,
};

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

const e2e = useRealCliStack({
  projectName: "wsbridge-lock-key-policy",
  emulator: {
    edition: "self-managed",
    fixtures: {
      organizations: [{
        name: ORG,
        sshKeys: [{ id: KEY_A, name: "deploy-a" }, { id: KEY_B, name: "deploy-b" }, { id: THEIRS, name: "someone-elses" }],
        dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: ORG_DEFAULT_DAYS },
      }],
    },
  },
  program: async () => {
    const { Workspace, WorkspaceLock, SshKeyAssignment, DataRetentionPolicy } = await import("pulumi-wsbridge");
    const ws = { locked: new Workspace("locked", { name: WS_NAMES.locked }), keyed: new Workspace("keyed", { name: WS_NAMES.keyed }) };
    const key = new SshKeyAssignment("key", { workspaceId: ws.keyed.id, sshKeyId: desired.sshKeyId });
    const policy = new DataRetentionPolicy("policy", { workspaceId: ws.locked.id, ...desired.policy });
    if (desired.duplicates) {
      new SshKeyAssignment("key-again", { workspaceId: ws.keyed.id, sshKeyId: KEY_B });
      new DataRetentionPolicy("policy-again", { workspaceId: ws.locked.id, dontDelete: true });
    }
    const out: Record<string, unknown> = {
      keyWorkspaceId: key.workspaceId, sshKeyId: key.sshKeyId,
      policyWorkspaceId: policy.workspaceId, policyKind: policy.kind, days: policy.deleteOlderThanNDays, source: policy.source, policyId: policy.policyId,
    };
    if (desired.lock !== null) {
      const lock = new WorkspaceLock("lock", { workspaceId: ws.locked.id, ...desired.lock });
      Object.assign(out, { lockedById: lock.lockedById, lockedByKind: lock.lockedByKind, lockedReason: lock.lockedReason, held: lock.heldByThisResource });
    }
    return out;
  },
});

// A hosted server, where data retention policies do not exist: the usual program, ids unknown at preview.
const hosted = useRealCliStack({
  projectName: "wsbridge-lkp-hosted",
  emulator: { edition: "hosted" },
  program: async () => {
    const { Workspace, DataRetentionPolicy } = await import("pulumi-wsbridge");
    const ws = new Workspace("app", { name: "hosted-app" });
    new DataRetentionPolicy("retention", { workspaceId: ws.id, deleteOlderThanNDays: 30 });
  },
});

// ---- helpers ---------------------------------------------------------------------------------

type Relationships = Record<string, { data?: { id: string; type: string } | null }>;
type WorkspaceDoc = { data: { id: string; attributes: Record<string, unknown>; relationships: Relationships } };
type PolicyDoc = { data: { id: string; type: string; attributes: Record<string, unknown>; relationships: { target: { data: { id: string; type: string } } } } };

const ids: Partial<Record<On, string>> = {};
const id = (on: On): string => String(ids[on]);
/** A request line below /api/v2, each workspace's id replaced by `ws-LOCKED` or `ws-KEYED`. */
const named = (line: string): string => {
  let shown = belowApi(line);
  for (const on of ["locked", "keyed"] as const) if (ids[on] !== undefined) shown = shown.split(id(on)).join(`ws-${on.toUpperCase()}`);
  return shown;
};
const requests = (): string[] => e2e.requestLines().map(named);
const sorted = (lines: string[]): string[] => [...lines].sort();
const urnOf = (kind: Kind | "Workspace", name: string): string =>
  `urn:pulumi:${e2e.stack.name}::wsbridge-lock-key-policy::pulumi-nodejs:dynamic/wsbridge:${kind}::${name}`;

async function live(on: On): Promise<{ id: string; locked: unknown; reason: unknown; by: { id: string; type: string } | null; sshKey: string | null; ownPolicy: unknown }> {
  const { status, doc } = await e2e.api<WorkspaceDoc>("GET", `/organizations/${ORG}/workspaces/${WS_NAMES[on]}`);
  expect(status).toBe(200);
  const r = doc.data.relationships;
  return {
    id: doc.data.id, locked: doc.data.attributes["locked"], reason: doc.data.attributes["locked-reason"], by: r["locked-by"]?.data ?? null,
    sshKey: r["ssh-key"]?.data?.id ?? null, ownPolicy: r["data-retention-policy"]?.data ?? null,
  };
}

/** The policy that applies to the locked workspace: its own, or the organization's default. */
async function livePolicy(): Promise<PolicyDoc["data"]> {
  const { status, doc } = await e2e.api<PolicyDoc>("GET", `/workspaces/${id("locked")}/relationships/data-retention-policy`);
  expect(status).toBe(200);
  return doc.data;
}

interface Shown { kind: Kind; name: string; op: string; changed?: string[] }

/**
 * The steps of the three kinds, with the inputs whose values differ (what the CLI shows for a dynamic
 * provider); none for the delete-replaced half of a replacement, where the comparison says nothing.
 */
const shownSteps = (events: EngineEvent[]): Shown[] => KINDS.flatMap((kind) => stepsOf(events, typeOf(kind))
  .map((s) => (s.op === "delete-replaced" ? { kind, name: s.name, op: s.op } : { kind, name: s.name, op: s.op, changed: s.changedInputs })));

/** The workspaceId each planned step of the three kinds carries. */
const plannedWorkspaceIds = (events: EngineEvent[]): Record<string, unknown> => Object.fromEntries(events.flatMap((e) => {
  const m = e.resourcePreEvent?.metadata;
  return m && KINDS.some((k) => m.type === typeOf(k)) ? [[m.urn.split("::").pop() ?? "", m.new?.inputs?.["workspaceId"]]] : [];
}));

async function preview(): Promise<{ events: EngineEvent[]; steps: Shown[]; summary: Record<string, number | undefined>; requests: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  return { events, steps: shownSteps(events), summary: result.changeSummary, requests: requests() };
}

interface Applied { changes: Record<string, number | undefined>; requests: string[]; notes: string[]; outputs: Record<string, unknown> }

async function up(options: { replace?: string[] } = {}): Promise<Applied> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ ...options, onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  const lines = requests();
  const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
  return { changes: result.summary.resourceChanges ?? {}, requests: lines, notes: notesOf(events), outputs };
}

/** The lock resource's outputs in the state (stack outputs change only when the program runs). */
async function lockOutputs(): Promise<Record<string, unknown> | undefined> {
  const state = await e2e.stack.exportStack();
  const resources = (state.deployment as { resources?: { type: string; outputs?: Record<string, unknown> }[] }).resources ?? [];
  return resources.find((r) => r.type === typeOf("WorkspaceLock"))?.outputs;
}

// ---- create ------------------------------------------------------------------------------------

test("the first preview plans every create while the workspaces' ids are unknown; its only request is the policy's edition ping", async () => {
  const { events, steps, summary, requests: sent } = await preview();
  expect(steps).toEqual([
    // With what check fills in for what the program leaves out (forceUnlockOnDestroy: false).
    { kind: "WorkspaceLock", name: "lock", op: "create", changed: ["forceUnlockOnDestroy", "reason", "workspaceId"] },
    { kind: "SshKeyAssignment", name: "key", op: "create", changed: ["sshKeyId", "workspaceId"] },
    { kind: "DataRetentionPolicy", name: "policy", op: "create", changed: ["deleteOlderThanNDays", "workspaceId"] },
  ]);
  expect(plannedWorkspaceIds(events)).toEqual({ lock: UNKNOWN_IN_EVENTS, key: UNKNOWN_IN_EVENTS, policy: UNKNOWN_IN_EVENTS });
  expect(summary).toEqual({ create: 6 }); // with the stack
  // The lock and the key send nothing at preview; the policy's check asks the edition, read-only.
  expect(sent).toEqual(["GET /ping"]);
});

test("one up creates the workspaces, locks one, assigns the other's key and sets the policy", async () => {
  const applied = await up();
  expect(applied.changes).toEqual({ create: 6 });
  [ids.locked, ids.keyed] = [(await live("locked")).id, (await live("keyed")).id];
  const locked = await live("locked");
  expect(locked).toMatchObject({ locked: true, reason: "change freeze", by: { type: "users" } });
  expect((await live("keyed")).sshKey).toBe(KEY_A);
  const policy = await livePolicy();
  expect(policy).toMatchObject({ type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 30 } });
  expect(policy.relationships.target.data).toEqual({ id: id("locked"), type: "workspaces" });
  expect(sorted(applied.requests.map(named))).toEqual([
    "GET /ping",
    "GET /workspaces/ws-LOCKED", // the lock's read before it locks
    "PATCH /workspaces/ws-KEYED/relationships/ssh-key",
    `POST /organizations/${ORG}/workspaces`,
    `POST /organizations/${ORG}/workspaces`,
    "POST /workspaces/ws-LOCKED/actions/lock",
    "POST /workspaces/ws-LOCKED/relationships/data-retention-policy",
  ]);
  expect(applied.outputs).toEqual({
    lockedById: locked.by?.id, lockedByKind: "users", lockedReason: "change freeze", held: true,
    keyWorkspaceId: id("keyed"), sshKeyId: KEY_A,
    policyWorkspaceId: id("locked"), policyKind: "delete-older", days: 30, source: "workspace", policyId: policy.id,
  });
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

// ---- what preview refuses --------------------------------------------------------------------

test("two assignments and two policies for one workspace fail one preview, naming both pairs, with no write", async () => {
  desired.duplicates = true;
  try {
    e2e.emulator.clearRequests();
    const message = await messageOf(e2e.stack.preview({ onOutput: e2e.log }));
    // Which of a pair is named first follows registration, which the engine does not fix.
    expect(message).toMatch(new RegExp(`SshKeyAssignment resources "(key|key-again)" and "(key|key-again)" both declare "${id("keyed")}"; a workspace has one SSH key`));
    expect(message).toMatch(new RegExp(`DataRetentionPolicy resources "(policy|policy-again)" and "(policy|policy-again)" both declare "${id("locked")}"; a workspace has one data retention policy`));
    expect(e2e.writes()).toEqual([]);
  } finally {
    desired.duplicates = false;
  }
});

// ---- replacements ------------------------------------------------------------------------------

test("up --replace of the key beside a new lock reason: the key is assigned again before the old one's delete leaves it, and the lock's unlock is retried through two 503s", async () => {
  desired.lock = { reason: "release 42 in progress" };
  // The service answers 503 while the latest intermediate state version is not finalized.
  e2e.emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${id("locked")}/actions/unlock` }, status: 503, times: 2 }] });
  let applied: Applied;
  try {
    applied = await up({ replace: [urnOf("SshKeyAssignment", "key")] });
  } finally {
    e2e.emulator.clearFaults();
  }
  expect(applied.changes).toEqual({ same: 4, replace: 2 });
  // The lock: a workspace has one, so the old one goes first; each unlock 503 is retried inside one delete.
  expect(applied.requests.filter((r) => r.includes("ws-LOCKED"))).toEqual([
    "GET /workspaces/ws-LOCKED", "POST /workspaces/ws-LOCKED/actions/unlock", "POST /workspaces/ws-LOCKED/actions/unlock",
    "POST /workspaces/ws-LOCKED/actions/unlock", "GET /workspaces/ws-LOCKED", "POST /workspaces/ws-LOCKED/actions/lock",
  ]);
  expect(e2e.emulator.requests().filter((r) => r.path.endsWith("/actions/unlock")).map((r) => r.status)).toEqual([503, 503, 200]);
  // The key: the replacement assigns first; the old one's delete reads, sees the key is still assigned
  // by a resource of this stack's (the replacement), and leaves it.
  expect(applied.requests.filter((r) => r.includes("ws-KEYED"))).toEqual(["PATCH /workspaces/ws-KEYED/relationships/ssh-key", "GET /workspaces/ws-KEYED"]);
  expect(applied.requests.filter((r) => !r.includes("ws-LOCKED") && !r.includes("ws-KEYED"))).toEqual([]);
  expect(await live("locked")).toMatchObject({ locked: true, reason: "release 42 in progress", by: { type: "users" } });
  expect((await live("keyed")).sshKey).toBe(KEY_A);
});

// ---- drift -----------------------------------------------------------------------------------

// Someone else's lock, a key unassigned and a policy removed outside Pulumi.
let team = "";
let teamId = "";

test("refresh reports the other holder without adopting the lock, reads the key as none, and drops the policy", async () => {
  expect((await e2e.api("POST", `/workspaces/${id("locked")}/actions/unlock`)).status).toBe(200);
  team = e2e.emulator.issueToken({ kind: "team", access: "lock" });
  const theirs = await e2e.api<WorkspaceDoc>("POST", `/workspaces/${id("locked")}/actions/lock`, { reason: "hotfix by the on-call team" }, team);
  teamId = theirs.doc.data.relationships["locked-by"]?.data?.id ?? "";
  expect(teamId).toMatch(/^team-/);
  expect((await e2e.api("PATCH", `/workspaces/${id("keyed")}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: null } } })).status).toBe(200);
  expect((await e2e.api("DELETE", `/workspaces/${id("locked")}/relationships/data-retention-policy`)).status).toBe(204);

  const events: EngineEvent[] = [];
  const refreshed = await e2e.stack.refresh({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(refreshed.summary.resourceChanges).toEqual({ same: 3, update: 2, delete: 1 });
  expect(notesOf(events)).toEqual(expect.arrayContaining([expect.stringContaining(`now locked by team ${teamId}`)]));
  expect(await lockOutputs()).toMatchObject({ lockedById: teamId, lockedByKind: "teams", locked: true, heldByThisResource: false });
});

test("the preview proposes exactly the restore: lock again (a replacement), assign the key, set the policy; it sends only the ping", async () => {
  const { steps, requests: sent } = await preview();
  expect(steps).toEqual([
    // The inputs are unchanged: the provider's diff asks for the lock again, as its holder is not this resource.
    { kind: "WorkspaceLock", name: "lock", op: "delete-replaced" },
    { kind: "WorkspaceLock", name: "lock", op: "replace", changed: [] },
    { kind: "WorkspaceLock", name: "lock", op: "create-replacement", changed: [] },
    { kind: "SshKeyAssignment", name: "key", op: "update", changed: ["sshKeyId"] },
    { kind: "DataRetentionPolicy", name: "policy", op: "create", changed: ["deleteOlderThanNDays", "workspaceId"] },
  ]);
  // The policy is declared anew, so its check asks the edition; the lock and the key send nothing.
  expect(sent).toEqual(["GET /ping"]);
});

test("dropping the lock from the program leaves their lock, with a warning; the same up assigns the key and sets the policy again", async () => {
  desired.lock = null;
  const applied = await up();
  expect(applied.changes).toEqual({ same: 3, delete: 1, update: 1, create: 1 });
  expect(sorted(applied.requests)).toEqual([
    "GET /ping",
    "GET /workspaces/ws-LOCKED", // the lock's delete: still this resource's lock? No: left alone
    "PATCH /workspaces/ws-KEYED/relationships/ssh-key",
    "POST /workspaces/ws-LOCKED/relationships/data-retention-policy",
  ]);
  expect(applied.notes).toEqual(expect.arrayContaining([expect.stringContaining(`not unlocked: the workspace is locked by team ${teamId}`)]));
  expect((await live("locked")).by).toEqual({ type: "teams", id: teamId });
  expect((await live("keyed")).sshKey).toBe(KEY_A);
  expect((await livePolicy()).relationships.target.data).toEqual({ id: id("locked"), type: "workspaces" });
});

// A failed up records the settings it ran with (refresh and destroy use them), so the next operations
// here are ups with the owner's token. The lock is not declared now: only the key changes.
test("a read-only token's up fails saying the key assignment needs admin access on the workspace, and prints no token", async () => {
  const readOnly = e2e.emulator.issueToken({ kind: "team", access: "read" });
  await e2e.stack.setConfig("wsbridge:token", { value: readOnly, secret: true });
  desired.sshKeyId = KEY_B;
  try {
    const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
    expect(message).toContain("the SSH key was not assigned because the token may not change the workspace's settings");
    expect(message).toContain("it needs admin access on the workspace");
    expect(message).not.toContain(readOnly);
    expect((await live("keyed")).sshKey).toBe(KEY_A);
  } finally {
    desired.sshKeyId = KEY_A;
    await e2e.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: true });
  }
  expect(e2e.printed).not.toContain(readOnly);
});

test("declaring the lock again while they hold it fails up, naming them, without a lock request", async () => {
  desired.lock = { reason: "release 42 in progress", forceUnlockOnDestroy: true };
  e2e.emulator.clearRequests();
  const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
  expect(message).toContain(`already locked by team ${teamId} (reason: "hotfix by the on-call team")`);
  expect(message).toContain("Ask the holder to unlock it");
  expect(e2e.emulator.requests().filter((r) => r.path.endsWith("/actions/lock"))).toEqual([]);
  expect(e2e.printed).toContain(`already locked by team ${teamId}`);
});

test("once they release it, up locks as a user", async () => {
  expect((await e2e.api("POST", `/workspaces/${id("locked")}/actions/unlock`, undefined, team)).status).toBe(200);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 5, create: 1 });
  expect(applied.requests).toEqual(["GET /workspaces/ws-LOCKED", "POST /workspaces/ws-LOCKED/actions/lock"]);
  expect(await live("locked")).toMatchObject({ locked: true, reason: "release 42 in progress", by: { type: "users" } });
});

// ---- destroy -----------------------------------------------------------------------------------

test("destroy --target of the policy, the key and its workspace: the locked workspace is back on the organization's default; a key someone else assigned since is left, with a warning, and its workspace goes after it", async () => {
  expect((await e2e.api("PATCH", `/workspaces/${id("keyed")}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: THEIRS } } })).status).toBe(200);
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.destroy({
    target: [urnOf("DataRetentionPolicy", "policy"), urnOf("SshKeyAssignment", "key"), urnOf("Workspace", "keyed")],
    onEvent: (e) => events.push(e), onOutput: e2e.log,
  });
  expect(result.summary.resourceChanges).toEqual({ delete: 3, same: 3 });
  // One removal for the policy; for the key only its read (the key there now is not the one it
  // assigned), then its workspace's safe delete.
  const sent = requests();
  expect(sorted(sent)).toEqual([
    "DELETE /workspaces/ws-LOCKED/relationships/data-retention-policy", "GET /workspaces/ws-KEYED", "POST /workspaces/ws-KEYED/actions/safe-delete",
  ]);
  expect(sent.filter((r) => r.includes("ws-KEYED"))).toEqual(["GET /workspaces/ws-KEYED", "POST /workspaces/ws-KEYED/actions/safe-delete"]);
  expect(notesOf(events)).toContainEqual(expect.stringContaining(
    `the workspace now uses SSH key "${THEIRS}", not "${KEY_A}" that this resource assigned, so it was left assigned`));
  expect((await e2e.api("GET", `/workspaces/${id("keyed")}`)).status).toBe(404);
  const fallback = await livePolicy();
  expect(fallback.attributes).toEqual({ "delete-older-than-n-days": ORG_DEFAULT_DAYS });
  expect(fallback.relationships.target.data).toEqual({ id: ORG, type: "organizations" });
  // The locked workspace stays, no longer pointing at a policy of its own.
  expect(await live("locked")).toMatchObject({ locked: true, ownPolicy: null });
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

// ---- the hosted edition ------------------------------------------------------------------------

test("against the hosted edition the usual program fails the preview, saying the policy exists only in the self-managed edition, after one ping", async () => {
  hosted.emulator.clearRequests();
  const message = await messageOf(hosted.stack.preview({ onOutput: hosted.log }));
  expect(message).toContain("property deleteOlderThanNDays value {30} has a problem: cannot be set: data retention policies exist only in the self-managed edition");
  expect(message).toContain(`${hosted.emulator.url} is the hosted edition`);
  expect(hosted.requestLines()).toEqual(["GET /api/v2/ping"]);
});

// The WorkspaceLock runtime (what the provider plugin calls) against an in-process emulator: check and
// diff decide the preview without requests; create, read, update and delete make exactly the
// requests its docs page counts, and never touch a lock that is not the resource's own.
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import type { WorkspaceLockOutputs } from "../../provider/runtime/kinds/workspace-lock";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const fixture = useRuntimeEmulator();
const { api, configureWith } = fixture;
const lock = runtime.workspaceLock;

type Doc = { data: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string; type: string } | null }> } };

let counter = 0;
async function newWorkspace(): Promise<string> {
  counter += 1;
  const { status, doc } = await api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, {
    data: { type: "workspaces", attributes: { name: `lock-subject-${counter}` } },
  });
  expect(status).toBe(201);
  return doc.data.id;
}

async function lockState(id: string): Promise<{ locked: unknown; reason: unknown; by: { id: string; type: string } | null | undefined }> {
  const { doc } = await api<Doc>("GET", `/workspaces/${id}`);
  return { locked: doc.data.attributes["locked"], reason: doc.data.attributes["locked-reason"], by: doc.data.relationships["locked-by"]?.data };
}

/** The requests since the last clear, as `METHOD /path` without the `/api/v2` prefix. */
const requests = (): string[] => fixture.requestsMade((p) => p.replace("/api/v2", ""));
const message = async (p: Promise<unknown>): Promise<string> => (await failureOf(p)).message;

describe("check (no request)", () => {
  test("accepts a valid declaration and an unknown workspace id during preview", async () => {
    fixture.emulator.clearRequests();
    expect(await lock.check({}, { workspaceId: "ws-abc123", reason: "freeze", forceUnlockOnDestroy: true, __provider: "x" }))
      .toEqual({ inputs: { workspaceId: "ws-abc123", reason: "freeze", forceUnlockOnDestroy: true }, failures: [] });
    expect((await lock.check({}, { workspaceId: UNKNOWN, reason: UNKNOWN })).failures).toEqual([]);
    expect(requests()).toEqual([]);
  });

  const BAD: [string, Record<string, unknown>, string, string][] = [
    ["a missing workspaceId", {}, "workspaceId", "is required"],
    ["an empty workspaceId", { workspaceId: "" }, "workspaceId", "must be a workspace id"],
    ["a workspace name instead of an id", { workspaceId: "networking" }, "workspaceId", 'must be a workspace id ("ws-…")'],
    ["a workspaceId with a space", { workspaceId: "ws-abc def" }, "workspaceId", "must be a workspace id"],
    ["a numeric workspaceId", { workspaceId: 42 }, "workspaceId", "must be a string"],
    ["a numeric reason", { workspaceId: "ws-a1", reason: 7 }, "reason", "must be a string"],
    ["a null reason", { workspaceId: "ws-a1", reason: null }, "reason", "must be a string"],
    ["a reason that is a list", { workspaceId: "ws-a1", reason: ["a"] }, "reason", "must be a string"],
    ["a forceUnlockOnDestroy given as text", { workspaceId: "ws-a1", forceUnlockOnDestroy: "yes" }, "forceUnlockOnDestroy", "must be a boolean"],
    ["an unknown property", { workspaceId: "ws-a1", force: true }, "force", "is not a property of WorkspaceLock"],
    ["a misspelt property", { workspaceId: "ws-a1", reasons: "x" }, "reasons", "is not a property of WorkspaceLock"],
  ];
  test.each(BAD)("%s is refused, naming the property and the rule", async (_what, inputs, property, rule) => {
    fixture.emulator.clearRequests();
    const { failures } = await lock.check({}, inputs);
    expect(failures).toEqual([{ property, reason: expect.stringContaining(rule) }]);
    expect(requests()).toEqual([]);
  });
});

describe("diff (no request)", () => {
  /** As the engine calls diff: with check's output (which must pass). */
  async function checkedLock(program: Record<string, unknown>): Promise<Record<string, unknown>> {
    const outcome = await lock.check({}, program);
    expect(outcome.failures).toEqual([]);
    return outcome.inputs;
  }

  const olds = { workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: false, heldByThisResource: true };
  test("nothing changed, or an undeclared reason against an empty one, is no change", async () => {
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-a1", reason: "freeze" })))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(await lock.diff("ws-a1", { ...olds, reason: "" }, await checkedLock({ workspaceId: "ws-a1" })))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: false })))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
  });
  test("a reason change replaces, unlocking first", async () => {
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-a1", reason: "other" })))
      .toEqual({ changes: true, replaces: ["reason"], deleteBeforeReplace: true, detailedDiff: [{ path: "reason", kind: "update", replace: true }] });
  });
  test("a reason the program stopped declaring replaces: the lock is taken again with the empty reason that leaving it out means", async () => {
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-a1" }))).toEqual({
      changes: true, replaces: ["reason"], deleteBeforeReplace: true,
      detailedDiff: [{ path: "reason", kind: "update", replace: true }],
    });
  });
  test("another (or a still unknown) workspace or reason replaces", async () => {
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-b2", reason: "freeze" }))).toEqual({
      changes: true, replaces: ["workspaceId"], deleteBeforeReplace: true, detailedDiff: [{ path: "workspaceId", kind: "update", replace: true }],
    });
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: UNKNOWN, reason: "freeze" }))).toEqual({
      changes: true, replaces: ["workspaceId"], deleteBeforeReplace: true, detailedDiff: [{ path: "workspaceId", kind: "update", replace: true }],
    });
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: UNKNOWN, reason: UNKNOWN }))).toEqual({
      changes: true, replaces: ["workspaceId", "reason"], deleteBeforeReplace: true, detailedDiff: [
        { path: "workspaceId", kind: "update", replace: true }, { path: "reason", kind: "update", replace: true },
      ],
    });
  });
  test("a value not known yet is an update at its own path, even against a state that recorded none", async () => {
    expect(await lock.diff("ws-a1", { workspaceId: "ws-a1", heldByThisResource: true }, await checkedLock({ workspaceId: "ws-a1", reason: UNKNOWN }))).toEqual({
      changes: true, replaces: ["reason"], deleteBeforeReplace: true, detailedDiff: [{ path: "reason", kind: "update", replace: true }],
    });
  });
  test("forceUnlockOnDestroy is an update; dropping a true one too (false again, what leaving it out means)", async () => {
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: true }))).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "forceUnlockOnDestroy", kind: "update", replace: false }],
    });
    expect(await lock.diff("ws-a1", { ...olds, forceUnlockOnDestroy: true }, await checkedLock({ workspaceId: "ws-a1", reason: "freeze" }))).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false,
      detailedDiff: [{ path: "forceUnlockOnDestroy", kind: "update", replace: false }],
    });
    expect(await lock.diff("ws-a1", olds, await checkedLock({ workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: UNKNOWN }))).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "forceUnlockOnDestroy", kind: "update", replace: false }],
    });
  });
  test("a lock someone else holds since the last refresh proposes to lock again", async () => {
    expect(await lock.diff("ws-a1", { ...olds, heldByThisResource: false }, await checkedLock({ workspaceId: "ws-a1", reason: "freeze" })))
      .toEqual({ changes: true, replaces: ["locked"], deleteBeforeReplace: true, detailedDiff: [{ path: "locked", kind: "update", replace: true }] });
  });
  test("sends no request", async () => {
    const news = await checkedLock({ workspaceId: "ws-b2", reason: "other", forceUnlockOnDestroy: true });
    fixture.emulator.clearRequests();
    await lock.diff("ws-a1", olds, news);
    expect(requests()).toEqual([]);
  });
});

describe("create", () => {
  test("locks with the reason in two requests (a read, the lock) and reports the holder", async () => {
    const id = await newWorkspace();
    fixture.emulator.clearRequests();
    const { id: resourceId, outs } = await lock.create({ workspaceId: id, reason: "change freeze" });
    expect(requests()).toEqual([`GET /workspaces/${id}`, `POST /workspaces/${id}/actions/lock`]);
    expect(resourceId).toBe(id);
    const live = await lockState(id);
    expect(live).toMatchObject({ locked: true, reason: "change freeze", by: { type: "users" } });
    expect(outs).toEqual({
      workspaceId: id, reason: "change freeze", forceUnlockOnDestroy: false, locked: true, lockedReason: "change freeze",
      lockedById: live.by?.id, lockedByKind: "users", heldByThisResource: true,
      __takenBy: { type: "users", id: live.by?.id }, __declaredInputs: ["reason"],
    });
  });

  test("a workspace someone else locked fails naming the holder, with no lock request", async () => {
    const id = await newWorkspace();
    const team = fixture.emulator.issueToken({ kind: "team", access: "lock" });
    const theirs = await api<Doc>("POST", `/workspaces/${id}/actions/lock`, { reason: "their maintenance" }, team);
    const teamId = theirs.doc.data.relationships["locked-by"]?.data?.id ?? "";
    expect(teamId).toMatch(/^team-/);
    fixture.emulator.clearRequests();
    const text = await message(lock.create({ workspaceId: id, reason: "freeze" }));
    expect(text).toContain(`already locked by team ${teamId} (reason: "their maintenance")`);
    expect(text).toContain("never takes over a lock it did not take");
    expect(text).toContain("Ask the holder to unlock it");
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
  });

  test("the same reason held by another identity is not adopted; the message says how to release one's own", async () => {
    const id = await newWorkspace();
    const team = fixture.emulator.issueToken({ kind: "team", access: "lock" });
    expect((await api("POST", `/workspaces/${id}/actions/lock`, { reason: "freeze" }, team)).status).toBe(200);
    const text = await message(lock.create({ workspaceId: id, reason: "freeze" }));
    expect(text).toContain("already locked by team");
    expect(text).toContain(`POST /api/v2/workspaces/${id}/actions/unlock`);
    expect((await lockState(id)).by?.type).toBe("teams");
  });

  test("a read-only token is told it needs the Lock/unlock permission, with no lock request", async () => {
    const id = await newWorkspace();
    await configureWith(fixture.emulator.issueToken({ kind: "team", access: "read" }));
    fixture.emulator.clearRequests();
    const text = await message(lock.create({ workspaceId: id }));
    expect(text).toContain('needs the "Lock/unlock" permission');
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
  });

  test("a token that cannot see the workspace is told so", async () => {
    const id = await newWorkspace();
    const other = await newWorkspace();
    await configureWith(fixture.emulator.issueToken({ kind: "team", access: "lock", workspaces: [other] }));
    expect(await message(lock.create({ workspaceId: id }))).toContain(`workspace ${id} does not exist, or the token may not see it`);
  });

  test("a lock whose answer was lost is found by a read and kept (three requests)", async () => {
    const id = await newWorkspace();
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${id}/actions/lock` }, drop: "after" }] });
    fixture.emulator.clearRequests();
    const { outs } = await lock.create({ workspaceId: id, reason: "freeze" });
    expect(requests()).toEqual([`GET /workspaces/${id}`, `POST /workspaces/${id}/actions/lock`, `GET /workspaces/${id}`]);
    expect(outs).toMatchObject({ locked: true, lockedReason: "freeze", heldByThisResource: true, lockedByKind: "users" });
  });

  test("a lock request lost before it was applied is sent once more", async () => {
    const id = await newWorkspace();
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${id}/actions/lock` }, drop: "before" }] });
    fixture.emulator.clearRequests();
    const { outs } = await lock.create({ workspaceId: id, reason: "freeze" });
    expect(requests().filter((r) => r.startsWith("POST"))).toEqual([`POST /workspaces/${id}/actions/lock`, `POST /workspaces/${id}/actions/lock`]);
    expect(outs.heldByThisResource).toBe(true);
    expect(await lockState(id)).toMatchObject({ locked: true, reason: "freeze" });
  });
});

describe("read, update, delete", () => {
  async function created(reason = "freeze", extra: Record<string, unknown> = {}): Promise<{ id: string; outs: WorkspaceLockOutputs }> {
    const id = await newWorkspace();
    // As the engine calls create: with check's output.
    const { inputs, failures } = await lock.check({}, { workspaceId: id, reason, ...extra });
    expect(failures).toEqual([]);
    return lock.create(inputs);
  }

  test("refresh of a lock still held is one read with unchanged inputs", async () => {
    const { id, outs } = await created();
    fixture.emulator.clearRequests();
    const result = await lock.read(id, outs);
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
    expect(result).toEqual({ id, props: outs, inputs: { workspaceId: id, reason: "freeze", forceUnlockOnDestroy: false } });
  });

  test("refresh after the lock was released outside Pulumi: the resource is gone", async () => {
    const { id, outs } = await created();
    expect((await api("POST", `/workspaces/${id}/actions/unlock`)).status).toBe(200);
    expect(await lock.read(id, outs)).toEqual({ id: "" });
  });

  test("refresh after someone else locked it: kept, naming the other holder, not adopted", async () => {
    const { id, outs } = await created();
    expect((await api("POST", `/workspaces/${id}/actions/unlock`)).status).toBe(200);
    const team = fixture.emulator.issueToken({ kind: "team", access: "lock" });
    const theirs = await api<Doc>("POST", `/workspaces/${id}/actions/lock`, { reason: "theirs" }, team);
    const result = await lock.read(id, outs);
    expect(result.props).toMatchObject({
      locked: true, lockedReason: "theirs", lockedByKind: "teams", lockedById: theirs.doc.data.relationships["locked-by"]?.data?.id,
      heldByThisResource: false, __takenBy: outs.__takenBy,
    });
    expect(result.inputs).toEqual({ workspaceId: id, reason: "freeze", forceUnlockOnDestroy: false });
    // Destroy leaves their lock alone: one read, no unlock.
    fixture.emulator.clearRequests();
    await lock.delete(id, result.props ?? {});
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
    expect((await lockState(id)).by?.type).toBe("teams");
  });

  test("refresh of a workspace that was deleted: the resource is gone", async () => {
    const { id, outs } = await created();
    expect((await api("POST", `/workspaces/${id}/actions/force-unlock`)).status).toBe(200);
    expect((await api("DELETE", `/workspaces/${id}`)).status).toBe(204);
    expect(await lock.read(id, outs)).toEqual({ id: "" });
  });

  test("update of forceUnlockOnDestroy sends nothing", async () => {
    const { id, outs } = await created();
    fixture.emulator.clearRequests();
    const { outs: next } = await lock.update(id, outs, { workspaceId: id, reason: "freeze", forceUnlockOnDestroy: true });
    expect(requests()).toEqual([]);
    expect(next).toEqual({ ...outs, forceUnlockOnDestroy: true, __declaredInputs: ["reason", "forceUnlockOnDestroy"] });
  });

  test("delete unlocks in two requests (a read, the unlock)", async () => {
    const { id, outs } = await created();
    fixture.emulator.clearRequests();
    await lock.delete(id, outs);
    expect(requests()).toEqual([`GET /workspaces/${id}`, `POST /workspaces/${id}/actions/unlock`]);
    expect((await lockState(id)).locked).toBe(false);
  });

  test("delete retries the unlock's 503 and then succeeds", async () => {
    const { id, outs } = await created();
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${id}/actions/unlock` }, status: 503, times: 2 }] });
    fixture.emulator.clearRequests();
    await lock.delete(id, outs);
    expect(fixture.emulator.requests().filter((r) => r.method === "POST").map((r) => r.status)).toEqual([503, 503, 200]);
    expect((await lockState(id)).locked).toBe(false);
  });

  test("a 503 that outlasts wsbridge:unlockRetryPeriodMs fails clearly and leaves the lock", async () => {
    const { id, outs } = await created();
    await configureWith(undefined, { "wsbridge:unlockRetryPeriodMs": "600" });
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/workspaces/${id}/actions/unlock` }, status: 503, times: 50 }] });
    const text = await message(lock.delete(id, outs));
    expect(text).toContain("kept refusing the unlock with 503");
    expect(text).toContain("not finalized yet");
    expect(text).toContain("wsbridge:unlockRetryPeriodMs");
    fixture.emulator.clearFaults();
    expect((await lockState(id)).locked).toBe(true);
    await configureWith();
    await lock.delete(id, outs);
  });

  test("a lock taken by one identity is not unlocked by another token: the message names forceUnlockOnDestroy", async () => {
    const teamToken = fixture.emulator.issueToken({ kind: "team", access: "lock" });
    await configureWith(teamToken);
    const { id, outs } = await created();
    expect(outs.lockedByKind).toBe("teams");
    await configureWith(fixture.emulator.issueToken({ kind: "user", access: "lock" }));
    const text = await message(lock.delete(id, outs));
    expect(text).toContain(`this resource's lock was taken by team ${outs.lockedById}`);
    expect(text).toContain("forceUnlockOnDestroy: true");
    expect((await lockState(id)).locked).toBe(true);
    // An admin's token with forceUnlockOnDestroy releases it (one read, one force-unlock).
    await configureWith();
    fixture.emulator.clearRequests();
    await lock.delete(id, { ...outs, forceUnlockOnDestroy: true });
    expect(requests()).toEqual([`GET /workspaces/${id}`, `POST /workspaces/${id}/actions/force-unlock`]);
    expect((await lockState(id)).locked).toBe(false);
  });

  test("force-unlock without admin access is refused before any request, naming admin", async () => {
    const teamToken = fixture.emulator.issueToken({ kind: "team", access: "lock" });
    await configureWith(teamToken);
    const { id, outs } = await created("freeze", { forceUnlockOnDestroy: true });
    fixture.emulator.clearRequests();
    const text = await message(lock.delete(id, outs));
    expect(text).toContain("force-unlock needs admin access on the workspace");
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
    await lock.delete(id, { ...outs, forceUnlockOnDestroy: false });
    expect((await lockState(id)).locked).toBe(false);
  });

  test("delete of an unlocked or deleted workspace is done after one read", async () => {
    const { id, outs } = await created();
    expect((await api("POST", `/workspaces/${id}/actions/unlock`)).status).toBe(200);
    fixture.emulator.clearRequests();
    await lock.delete(id, outs);
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
    expect((await api("DELETE", `/workspaces/${id}`)).status).toBe(204);
    await lock.delete(id, outs);
  });
});

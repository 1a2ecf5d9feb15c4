// What the provider plugin asks of the WorkspaceLock runtime beyond the dynamic lifecycle, against an
// in-process emulator: the outputs a create or an update will have (known exactly where the apply will
// certainly produce them, UNKNOWN elsewhere, without a request), and the adoption of a lock by import
// id, after which the program's declaration shows no change and destroy unlocks as for a created lock.
import { isUnknown, UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import * as lockKind from "../../provider/runtime/kinds/workspace-lock";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const fixture = useRuntimeEmulator();
const { api, configureWith } = fixture;

type Doc = { data: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string; type: string } | null }> } };

let counter = 0;
async function newWorkspace(): Promise<{ id: string; name: string }> {
  counter += 1;
  const name = `lock-import-${counter}`;
  const { status, doc } = await api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, {
    data: { type: "workspaces", attributes: { name } },
  });
  expect(status).toBe(201);
  return { id: doc.data.id, name };
}

/** Locks the workspace outside Pulumi, as `token`'s identity; returns the holder the service names. */
async function lockDirectly(id: string, reason: string | undefined, token?: string): Promise<{ id: string; type: string }> {
  const res = await api<Doc>("POST", `/workspaces/${id}/actions/lock`, reason === undefined ? undefined : { reason }, token);
  expect(res.status).toBe(200);
  const holder = res.doc.data.relationships["locked-by"]?.data;
  if (holder == null) throw new Error("the lock's answer names no holder");
  return holder;
}

async function isLocked(id: string): Promise<unknown> {
  return (await api<Doc>("GET", `/workspaces/${id}`)).doc.data.attributes["locked"];
}

/** The requests since the last clear, as `METHOD /path` without the `/api/v2` prefix. */
const requests = (): string[] => fixture.requestsMade((p) => p.replace("/api/v2", ""));

/** The keys a preview leaves UNKNOWN, and the known part, which the real outputs must hold exactly. */
function splitPreview(preview: Props): { unknown: string[]; known: Props } {
  const unknown = Object.keys(preview).filter((k) => isUnknown(preview[k])).sort();
  const known = Object.fromEntries(Object.entries(preview).filter(([, v]) => !isUnknown(v)));
  return { unknown, known };
}

function pick(outs: Props, keys: string[]): Props {
  return Object.fromEntries(keys.map((k) => [k, outs[k]]));
}

describe("previewCreate", () => {
  test("knows the declared inputs, a held lock with the declared reason; the holder is unknown; no request", async () => {
    const preview = await lockKind.previewCreate({ workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: true, __owner: "x" });
    expect(preview).toEqual({
      workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: true, locked: true, lockedReason: "freeze",
      lockedById: UNKNOWN, lockedByKind: UNKNOWN, heldByThisResource: true, __takenBy: UNKNOWN,
      __declaredInputs: ["reason", "forceUnlockOnDestroy"],
    });
    expect(requests()).toEqual([]);
  });

  test("a reason and switch left out are what check fills in (\"\" and false), recorded as declared like any other", async () => {
    const { inputs, failures } = await lockKind.check({}, { workspaceId: "ws-a1" });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ workspaceId: "ws-a1", reason: "", forceUnlockOnDestroy: false });
    expect(await lockKind.previewCreate(inputs)).toMatchObject({
      reason: "", lockedReason: "", forceUnlockOnDestroy: false, __declaredInputs: ["reason", "forceUnlockOnDestroy"],
    });
  });

  test("inputs not known yet leave exactly their outputs unknown", async () => {
    const preview = await lockKind.previewCreate({ workspaceId: UNKNOWN, reason: UNKNOWN, forceUnlockOnDestroy: UNKNOWN });
    expect(splitPreview(preview)).toEqual({
      unknown: ["__takenBy", "forceUnlockOnDestroy", "lockedById", "lockedByKind", "lockedReason", "reason", "workspaceId"],
      known: { locked: true, heldByThisResource: true, __declaredInputs: ["reason", "forceUnlockOnDestroy"] },
    });
    expect(requests()).toEqual([]);
  });

  test.each([
    ["with a reason and the switch", { reason: "change freeze", forceUnlockOnDestroy: true }],
    ["with nothing optional", {}],
  ])("is exact: every output it knows is what the create produces (%s)", async (_what, optional) => {
    const { id } = await newWorkspace();
    const { inputs: news, failures } = await lockKind.check({}, { workspaceId: id, ...optional });
    expect(failures).toEqual([]);
    const preview = await lockKind.previewCreate(news);
    const created = await lockKind.create(news);
    const { unknown, known } = splitPreview(preview);
    expect(unknown).toEqual(["__takenBy", "lockedById", "lockedByKind"]);
    expect(pick(created.outs, Object.keys(known))).toEqual(known);
    expect(Object.keys(created.outs).sort()).toEqual(Object.keys(preview).sort());
    await lockKind.remove(id, created.outs);
  });
});

describe("previewUpdate", () => {
  const olds = {
    workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: false, locked: true, lockedReason: "freeze",
    lockedById: "user-1", lockedByKind: "users", heldByThisResource: true, __takenBy: { type: "users", id: "user-1" },
    __declaredInputs: ["reason"],
  };

  test("knows every output: an update only switches forceUnlockOnDestroy; no request", async () => {
    expect(await lockKind.previewUpdate("ws-a1", olds, { workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: true }))
      .toEqual({ ...olds, forceUnlockOnDestroy: true, __declaredInputs: ["reason", "forceUnlockOnDestroy"] });
    expect(requests()).toEqual([]);
  });

  test("a switch not known yet is the one unknown output", async () => {
    const preview = await lockKind.previewUpdate("ws-a1", olds, { workspaceId: "ws-a1", reason: "freeze", forceUnlockOnDestroy: UNKNOWN });
    expect(splitPreview(preview)).toEqual({
      unknown: ["forceUnlockOnDestroy"],
      known: { ...pick(olds, Object.keys(olds).filter((k) => k !== "forceUnlockOnDestroy")), __declaredInputs: ["reason", "forceUnlockOnDestroy"] },
    });
  });

  test("is exact: the update produces every output it announced", async () => {
    const { id } = await newWorkspace();
    const created = await lockKind.create({ workspaceId: id, reason: "freeze" });
    const news = { workspaceId: id, reason: "freeze", forceUnlockOnDestroy: true };
    const preview = await lockKind.previewUpdate(id, created.outs, news);
    expect(preview).toEqual((await lockKind.update(id, created.outs, news)).outs);
    await lockKind.remove(id, { ...created.outs, forceUnlockOnDestroy: false });
  });
});

describe("importById", () => {
  test("adopts a lock taken outside Pulumi, by workspace id, with one read", async () => {
    const { id } = await newWorkspace();
    const holder = await lockDirectly(id, "maintenance");
    fixture.emulator.clearRequests();
    const imported = await lockKind.importById(id, {});
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
    expect(imported).toEqual({
      id,
      props: {
        workspaceId: id, reason: "maintenance", forceUnlockOnDestroy: false, locked: true, lockedReason: "maintenance",
        lockedById: holder.id, lockedByKind: holder.type, heldByThisResource: true, __takenBy: holder, __declaredInputs: ["reason"],
      },
      inputs: { workspaceId: id, reason: "maintenance" },
    });
  });

  test("adopts the same lock by <organization>/<workspace name>, with one read", async () => {
    const { id, name } = await newWorkspace();
    await lockDirectly(id, "maintenance");
    const byId = await lockKind.importById(id, {});
    fixture.emulator.clearRequests();
    expect(await lockKind.importById(`${fixture.emulator.organization}/${name}`, {})).toEqual(byId);
    expect(requests()).toEqual([`GET /organizations/${fixture.emulator.organization}/workspaces/${name}`]);
  });

  test("after import, the declared inputs check and diff as no change, and a refresh returns them as check completes them", async () => {
    const { id } = await newWorkspace();
    await lockDirectly(id, "maintenance");
    const imported = await lockKind.importById(id, {});
    if (imported === undefined) throw new Error("nothing imported");
    const checked = await lockKind.check({}, imported.inputs);
    expect(checked.failures).toEqual([]);
    expect(await lockKind.diff(imported.id, imported.props, checked.inputs))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(checked.inputs).toEqual({ ...imported.inputs, forceUnlockOnDestroy: false });
    expect(await lockKind.read(imported.id, imported.props)).toEqual({ id, props: imported.props, inputs: checked.inputs });
  });

  test("a lock without a reason is adopted with no reason declared, and refreshes as the empty reason check fills in", async () => {
    const { id } = await newWorkspace();
    await lockDirectly(id, undefined);
    const imported = await lockKind.importById(id, {});
    expect(imported?.inputs).toEqual({ workspaceId: id });
    expect(imported?.props).toMatchObject({ reason: "", lockedReason: "", __declaredInputs: [] });
    const checked = await lockKind.check({}, imported?.inputs ?? {});
    expect((await lockKind.diff(id, imported?.props ?? {}, checked.inputs)).changes).toBe(false);
    expect((await lockKind.read(id, imported?.props)).inputs).toEqual({ workspaceId: id, reason: "", forceUnlockOnDestroy: false });
  });

  test("destroy after import unlocks, as for a lock this resource took (a read, the unlock)", async () => {
    const { id } = await newWorkspace();
    await lockDirectly(id, "maintenance");
    const imported = await lockKind.importById(id, {});
    fixture.emulator.clearRequests();
    await lockKind.remove(id, imported?.props ?? {});
    expect(requests()).toEqual([`GET /workspaces/${id}`, `POST /workspaces/${id}/actions/unlock`]);
    expect(await isLocked(id)).toBe(false);
  });

  test("a team's lock is adopted with the team as its holder; destroy with another identity is refused as for a created one", async () => {
    const { id } = await newWorkspace();
    const teamToken = fixture.emulator.issueToken({ kind: "team", access: "lock" });
    const team = await lockDirectly(id, "theirs", teamToken);
    const imported = await lockKind.importById(id, {});
    expect(imported?.props).toMatchObject({ lockedByKind: "teams", heldByThisResource: true, __takenBy: team });
    await configureWith(fixture.emulator.issueToken({ kind: "user", access: "lock" }));
    expect((await failureOf(lockKind.remove(id, imported?.props ?? {}))).message).toContain(`this resource's lock was taken by team ${team.id}`);
    expect(await isLocked(id)).toBe(true);
    await configureWith(teamToken);
    await lockKind.remove(id, imported?.props ?? {});
    expect(await isLocked(id)).toBe(false);
  });

  test("an unlocked workspace, or none at all, has nothing to import", async () => {
    const { id } = await newWorkspace();
    fixture.emulator.clearRequests();
    expect(await lockKind.importById(id, {})).toBeUndefined();
    expect(requests()).toEqual([`GET /workspaces/${id}`]);
    expect(await lockKind.importById("ws-doesnotexist000000", {})).toBeUndefined();
    expect(await lockKind.importById(`${fixture.emulator.organization}/no-such-workspace`, {})).toBeUndefined();
  });

  test("a run's lock is refused, naming the run", async () => {
    const { id } = await newWorkspace();
    const run = await api<Doc>("POST", "/runs", {
      data: { type: "runs", attributes: { status: "applying", "lock-workspace": true }, relationships: { workspace: { data: { type: "workspaces", id } } } },
    });
    expect(run.status).toBe(201);
    const error = await failureOf(lockKind.importById(id, {}));
    expect(error.message).toContain(`workspace ${id} is locked by run ${run.doc.data.id}, whose lock ends with the run`);
  });

  test("an address that serves no API fails the import, naming the address, rather than finding nothing", async () => {
    await configureWith(undefined, { "wsbridge:address": `${fixture.emulator.url}/not-the-api` });
    for (const importId of ["ws-abc123", `${fixture.emulator.organization}/some-workspace`]) {
      const error = await failureOf(lockKind.importById(importId, {}));
      expect(error.message).toContain(`${fixture.emulator.url}/not-the-api does not serve the API (GET /api/v2/ping answered 404), so a workspace not found there is not known to be missing`);
    }
  });

  test.each(["my-workspace", "ws-", "ws-abc def", "org/name/extra", "/name", "org/", ""])(
    "a malformed import id (%j) fails naming the accepted formats, with no request",
    async (importId) => {
      const error = await failureOf(lockKind.importById(importId, {}));
      expect(error.message).toBe(
        `WorkspaceLock: cannot import ${JSON.stringify(importId)}: an import id is "ws-<id>" (the workspace id) or "<organization>/<workspace name>".`,
      );
      expect(requests()).toEqual([]);
    },
  );
});

// What the provider plugin asks of the DataRetentionPolicy runtime beyond the dynamic lifecycle, against
// in-process emulators (self-managed, and hosted for the edition refusal): the outputs a create or an
// update will have (known exactly where the apply will certainly produce them, UNKNOWN elsewhere,
// without a request), and the adoption of a workspace's own policy by import id, after which the
// program's declaration shows no change and destroy removes the policy.
import { isUnknown, UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import * as policy from "../../provider/runtime/kinds/data-retention-policy";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator, withoutQuery } from "../support/runtime-emulator";

const ORG_DEFAULT_DAYS = 90;

const fixture = useRuntimeEmulator({
  emulator: {
    edition: "self-managed",
    fixtures: { organizations: [{ name: "example-org", dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: ORG_DEFAULT_DAYS } }] },
  },
  config: { "wsbridge:edition": "self-managed" },
  resetEditionCache: true,
});
const hosted = useRuntimeEmulator({ emulator: { edition: "hosted" }, resetEditionCache: true, configureEachTest: false });
const { api, configureWith } = fixture;

type Resource = { id: string; type: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data: { id: string; type: string } | null }> };

type Doc = { data?: Resource };

let counter = 0;
async function newWorkspace(): Promise<{ id: string; name: string }> {
  counter += 1;
  const name = `drp-import-${counter}`;
  const r = await api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, { data: { type: "workspaces", attributes: { name } } });
  expect(r.status).toBe(201);
  return { id: r.doc.data?.id ?? "", name };
}

const policyPath = (ws: string) => `/workspaces/${ws}/relationships/data-retention-policy`;

async function setPolicyDirectly(ws: string, days: number | "dont-delete"): Promise<void> {
  const data = days === "dont-delete"
    ? { type: "data-retention-policy-dont-deletes" }
    : { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": days } };
  expect((await api("POST", policyPath(ws), { data })).status).toBeLessThan(300);
}

/** The requests the emulator received since the last call, as `METHOD /path`. */
const takeRequests = (): string[] => fixture.takeRequests(withoutQuery);

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
  test("knows the declared policy on the workspace; the policy id is the server's; no request", async () => {
    expect(await policy.previewCreate({ workspaceId: "ws-abc", deleteOlderThanNDays: 30, __owner: "x" })).toEqual({
      workspaceId: "ws-abc", kind: "delete-older", deleteOlderThanNDays: 30, dontDelete: false, source: "workspace", policyId: UNKNOWN,
    });
    expect(await policy.previewCreate({ workspaceId: "ws-abc", dontDelete: true })).toEqual({
      workspaceId: "ws-abc", kind: "dont-delete", deleteOlderThanNDays: null, dontDelete: true, source: "workspace", policyId: UNKNOWN,
    });
    expect(takeRequests()).toEqual([]);
  });

  test.each([
    ["a workspace not known yet", { workspaceId: UNKNOWN, deleteOlderThanNDays: 30 },
      { workspaceId: UNKNOWN, kind: "delete-older", deleteOlderThanNDays: 30, dontDelete: false }],
    ["days not known yet: still the delete-older form", { workspaceId: "ws-abc", deleteOlderThanNDays: UNKNOWN },
      { workspaceId: "ws-abc", kind: "delete-older", deleteOlderThanNDays: UNKNOWN, dontDelete: false }],
    ["dontDelete not known yet: it can only be true", { workspaceId: "ws-abc", dontDelete: UNKNOWN },
      { workspaceId: "ws-abc", kind: "dont-delete", deleteOlderThanNDays: null, dontDelete: true }],
    ["known days beside a dontDelete not known yet: the apply refuses both, so only the days can hold",
      { workspaceId: "ws-abc", deleteOlderThanNDays: 30, dontDelete: UNKNOWN },
      { workspaceId: "ws-abc", kind: "delete-older", deleteOlderThanNDays: 30, dontDelete: false }],
    ["both forms not known yet: the form is unknown", { workspaceId: "ws-abc", deleteOlderThanNDays: UNKNOWN, dontDelete: UNKNOWN },
      { workspaceId: "ws-abc", kind: UNKNOWN, deleteOlderThanNDays: UNKNOWN, dontDelete: UNKNOWN }],
  ])("%s", async (_what, news, expected) => {
    expect(await policy.previewCreate(news)).toEqual({ ...expected, source: "workspace", policyId: UNKNOWN });
    expect(takeRequests()).toEqual([]);
  });

  test.each([
    ["delete-older", { deleteOlderThanNDays: 21 }],
    ["dont-delete", { dontDelete: true }],
  ])("is exact: every output it knows is what the create produces (%s)", async (_form, declared) => {
    const { id } = await newWorkspace();
    const news = { workspaceId: id, ...declared };
    const preview = await policy.previewCreate(news);
    const created = await policy.create(news);
    const { unknown, known } = splitPreview(preview);
    expect(unknown).toEqual(["policyId"]);
    expect(pick(created.outs, Object.keys(known))).toEqual(known);
    expect(Object.keys(created.outs).sort()).toEqual(Object.keys(preview).sort());
  });
});

describe("previewUpdate", () => {
  const olds = { workspaceId: "ws-abc", kind: "delete-older", deleteOlderThanNDays: 30, dontDelete: false, source: "workspace", policyId: "drp-1" };

  test("knows the new policy; the policy id is unknown (the service does not promise to keep it); no request", async () => {
    expect(await policy.previewUpdate("ws-abc", olds, { workspaceId: "ws-abc", deleteOlderThanNDays: 31 })).toEqual({
      workspaceId: "ws-abc", kind: "delete-older", deleteOlderThanNDays: 31, dontDelete: false, source: "workspace", policyId: UNKNOWN,
    });
    expect(await policy.previewUpdate("ws-abc", olds, { workspaceId: "ws-abc", dontDelete: true })).toEqual({
      workspaceId: "ws-abc", kind: "dont-delete", deleteOlderThanNDays: null, dontDelete: true, source: "workspace", policyId: UNKNOWN,
    });
    expect(takeRequests()).toEqual([]);
  });

  test.each([
    ["other days", { deleteOlderThanNDays: 45 }],
    ["a switch to dont-delete", { dontDelete: true }],
  ])("is exact: the update produces every output it knew (%s)", async (_what, declared) => {
    const { id } = await newWorkspace();
    const created = await policy.create({ workspaceId: id, deleteOlderThanNDays: 30 });
    const news = { workspaceId: id, ...declared };
    const preview = await policy.previewUpdate(id, created.outs, news);
    const updated = await policy.update(id, created.outs, news);
    const { unknown, known } = splitPreview(preview);
    expect(unknown).toEqual(["policyId"]);
    expect(pick(updated.outs, Object.keys(known))).toEqual(known);
    expect(Object.keys(updated.outs).sort()).toEqual(Object.keys(preview).sort());
  });
});

describe("importById", () => {
  test("adopts the workspace's own policy, by workspace id, with the one read of a refresh", async () => {
    const { id } = await newWorkspace();
    await setPolicyDirectly(id, 14);
    const policyId = (await api<Doc>("GET", policyPath(id))).doc.data?.id;
    takeRequests();
    expect(await policy.importById(id, {})).toEqual({
      id,
      props: { workspaceId: id, kind: "delete-older", deleteOlderThanNDays: 14, dontDelete: false, source: "workspace", policyId },
      inputs: { workspaceId: id, deleteOlderThanNDays: 14 },
    });
    expect(takeRequests()).toEqual([`GET /api/v2${policyPath(id)}`]);
  });

  test("adopts a dont-delete policy by <organization>/<workspace name>: a read to find the workspace, then the policy", async () => {
    const { id, name } = await newWorkspace();
    await setPolicyDirectly(id, "dont-delete");
    takeRequests();
    const imported = await policy.importById(`${fixture.emulator.organization}/${name}`, {});
    expect(imported).toMatchObject({
      id,
      props: { workspaceId: id, kind: "dont-delete", deleteOlderThanNDays: null, dontDelete: true, source: "workspace" },
      inputs: { workspaceId: id, dontDelete: true },
    });
    expect(takeRequests()).toEqual([`GET /api/v2/organizations/${fixture.emulator.organization}/workspaces/${name}`, `GET /api/v2${policyPath(id)}`]);
  });

  test.each([
    ["delete-older", 14] as const,
    ["dont-delete", "dont-delete"] as const,
  ])("after import (%s), the declared inputs check and diff as no change, and a refresh returns them unchanged", async (_form, set) => {
    const { id } = await newWorkspace();
    await setPolicyDirectly(id, set);
    const imported = await policy.importById(id, {});
    if (imported === undefined) throw new Error("nothing imported");
    const checked = await policy.check({}, imported.inputs);
    expect(checked.failures).toEqual([]);
    expect(await policy.diff(imported.id, imported.props, checked.inputs))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(await policy.read(imported.id, imported.props)).toEqual({ id, props: imported.props, inputs: imported.inputs });
  });

  test("destroy after import removes the policy, as for one this resource set: the workspace follows its organization again", async () => {
    const { id } = await newWorkspace();
    await setPolicyDirectly(id, 14);
    const imported = await policy.importById(id, {});
    takeRequests();
    await policy.remove(id, imported?.props ?? {});
    expect(takeRequests()).toEqual([`DELETE /api/v2${policyPath(id)}`]);
    const fallback = await api<Doc>("GET", policyPath(id));
    expect(fallback.doc.data?.relationships?.["target"]?.data).toEqual({ id: fixture.emulator.organization, type: "organizations" });
  });

  test("a workspace that follows its organization's default, or no workspace at all, has nothing to import", async () => {
    const { id, name } = await newWorkspace();
    takeRequests();
    expect(await policy.importById(id, {})).toBeUndefined();
    expect(takeRequests()).toEqual([`GET /api/v2${policyPath(id)}`]);
    expect(await policy.importById(`${fixture.emulator.organization}/${name}`, {})).toBeUndefined();
    expect(await policy.importById("ws-doesnotexist000000", {})).toBeUndefined();
    expect(await policy.importById(`${fixture.emulator.organization}/no-such-workspace`, {})).toBeUndefined();
  });

  test("the hosted edition is refused, naming the edition", async () => {
    await hosted.configureWith();
    const error = await failureOf(policy.importById("ws-abc123", {}));
    expect(error.message).toBe(
      'DataRetentionPolicy: cannot import "ws-abc123": The data retention policy is only available in the self-managed edition; ' +
        "this server is the hosted edition",
    );
  });

  test("an address that serves no API fails the import, naming the address, rather than finding nothing", async () => {
    await configureWith(undefined, { "wsbridge:edition": "self-managed", "wsbridge:address": `${fixture.emulator.url}/not-the-api` });
    for (const importId of ["ws-abc123", `${fixture.emulator.organization}/some-workspace`]) {
      const error = await failureOf(policy.importById(importId, {}));
      expect(error.message).toContain(`${fixture.emulator.url}/not-the-api does not serve the API (GET /api/v2/ping answered 404), so a workspace not found there is not known to be missing`);
    }
  });

  test.each(["my-workspace", "drp-abc123", "org/name/extra", "org/", "org/work space", ""])(
    "a malformed import id (%j) fails naming the accepted formats, with no request",
    async (importId) => {
      const error = await failureOf(policy.importById(importId, {}));
      expect(error.message).toBe(
        `DataRetentionPolicy: cannot import ${JSON.stringify(importId)}: an import id is "ws-<id>" (the workspace id) or "<organization>/<workspace name>".`,
      );
      expect(takeRequests()).toEqual([]);
    },
  );
});

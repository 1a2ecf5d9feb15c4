// The WorkspaceTagBindings runtime against an in-process emulator: check refuses bad inputs without a
// request, create/read/update/delete touch only the managed keys, with the request counts its docs page states.
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const fixture = useRuntimeEmulator({
  emulator: {
    fixtures: {
      organizations: [{
        name: "example-org",
        projects: [{ name: "Apps", tagBindings: [{ key: "cost-center", value: "web" }] }],
        workspaces: [
          { name: "tagged", project: "Apps", tagBindings: [{ key: "owner", value: "ui" }] },
          { name: "crowded", tagBindings: Array.from({ length: 8 }, (_, i) => ({ key: `k${i}`, value: "v" })) },
          { name: "prototype-names" },
        ],
      }],
    },
  },
});
const { api, requestsMade } = fixture;
const tb = runtime.workspaceTagBindings;

/** A program's inputs as check completes them (which must pass). */
async function checked(program: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await tb.check({}, program);
  expect(outcome.failures).toEqual([]);
  return outcome.inputs;
}

type Bindings = { data: Array<{ id: string; attributes: { key: string; value: string }; relationships?: unknown }> };

async function workspaceIdOf(name: string): Promise<string> {
  return (await api<{ data: { id: string } }>("GET", `/organizations/${fixture.emulator.organization}/workspaces/${name}`)).doc.data.id;
}

async function liveTags(workspaceId: string): Promise<Record<string, string>> {
  const { doc } = await api<Bindings>("GET", `/workspaces/${workspaceId}/tag-bindings`);
  return Object.fromEntries(doc.data.map((b) => [b.attributes.key, b.attributes.value]));
}

async function setDirectly(workspaceId: string, tags: Record<string, string>): Promise<void> {
  const res = await api("PATCH", `/workspaces/${workspaceId}/tag-bindings`, { data: Object.entries(tags).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })) });
  expect(res.status).toBe(200);
}

describe("check", () => {
  const BAD: [string, Record<string, unknown>, string, RegExp][] = [
    ["a missing workspaceId", { tags: {} }, "workspaceId", /is required/],
    ["a workspace name", { workspaceId: "tagged", tags: {} }, "workspaceId", /workspace id/],
    ["missing tags", { workspaceId: "ws-abc" }, "tags", /./],
    ["a list for tags", { workspaceId: "ws-abc", tags: ["a"] }, "tags", /map of tag keys/],
    ["a reserved prefix", { workspaceId: "ws-abc", tags: { "hc:x": "1" } }, "tags.hc:x", /"hc:x" must not start with the reserved prefixes/],
    ["a bad key character", { workspaceId: "ws-abc", tags: { "a b": "1" } }, "tags.a b", /"a b" may contain only/],
    ["a key of 129 characters", { workspaceId: "ws-abc", tags: { ["k".repeat(129)]: "1" } }, `tags.${"k".repeat(129)}`, /at most 128 characters/],
    ["a value of 257 characters", { workspaceId: "ws-abc", tags: { env: "v".repeat(257) } }, "tags.env", /at most 256 characters/],
    ["a bad value character", { workspaceId: "ws-abc", tags: { env: "a/b" } }, "tags.env", /may contain only/],
    ["11 keys", { workspaceId: "ws-abc", tags: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, ""])) }, "tags", /at most 10/],
    ["a string for exclusive", { workspaceId: "ws-abc", tags: {}, exclusive: "yes" }, "exclusive", /must be a boolean/],
    ["an unknown property", { workspaceId: "ws-abc", tags: {}, tagBindings: {} }, "tagBindings", /is not a property of WorkspaceTagBindings/],
  ];
  test.each(BAD)("refuses %s, naming the property or key, without a request", async (_what, inputs, property, reason) => {
    const { failures } = await tb.check({}, inputs);
    expect(failures).toEqual([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]);
    expect(requestsMade()).toEqual([]);
  });

  test("tolerates unknown inputs without a request", async () => {
    expect((await tb.check({}, { workspaceId: UNKNOWN, tags: { env: "prod" } })).failures).toEqual([]);
    expect((await tb.check({}, { workspaceId: "ws-abc", tags: UNKNOWN })).failures).toEqual([]);
    expect(requestsMade()).toEqual([]);
  });

  test("counts the keys others keep on the workspace (one read), naming them", async () => {
    const crowded = await workspaceIdOf("crowded");
    fixture.emulator.clearRequests();
    const { failures } = await tb.check({}, { workspaceId: crowded, tags: { a: "1", b: "2", c: "3" } });
    expect(failures).toEqual([{ property: "tags", reason: expect.stringMatching(/would make 11 direct tags.*k0, k1/) }]);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${crowded}/tag-bindings`]);
    expect((await tb.check({}, { workspaceId: crowded, tags: { a: "1", b: "2" } })).failures).toEqual([]);
    expect((await tb.check({}, { workspaceId: crowded, tags: { a: "1", b: "2", c: "3" }, exclusive: true })).failures).toEqual([]);
  });
});

describe("lifecycle (additive)", () => {
  test("create, no-op diff, drift, update add/change/remove, delete touch only the managed keys", async () => {
    const ws = await workspaceIdOf("tagged");
    // The program's declarations, as the engine passes them to diff, create and update: check's output.
    const prodWeb = await checked({ workspaceId: ws, tags: { env: "prod", team: "web" } });
    const stagingWeb = await checked({ workspaceId: ws, tags: { env: "staging", team: "web" } });
    const prodWebTier = await checked({ workspaceId: ws, tags: { env: "prod", team: "web", tier: "1" } });
    const prodTier = await checked({ workspaceId: ws, tags: { env: "prod", tier: "1" } });
    fixture.emulator.clearRequests();
    const created = await tb.create(prodWeb);
    expect(requestsMade()).toEqual([`PATCH /api/v2/workspaces/${ws}/tag-bindings`, `GET /api/v2/workspaces/${ws}/effective-tag-bindings`]);
    expect(created.id).toMatch(new RegExp(`^${ws}:[0-9a-f]{12}$`));
    expect(created.outs.tags).toEqual({ env: "prod", team: "web" });
    expect(created.outs.allDirectTags).toEqual({ owner: "ui", env: "prod", team: "web" });
    expect(created.outs.effectiveTags).toEqual(expect.arrayContaining([{ key: "cost-center", value: "web", inheritedFrom: expect.stringMatching(/^prj-/) }, { key: "owner", value: "ui", inheritedFrom: null }]));
    let state: Record<string, unknown> = created.outs;

    fixture.emulator.clearRequests();
    expect((await tb.diff(created.id, state, prodWeb)).changes).toBe(false);
    expect(requestsMade()).toEqual([]);

    // Drift: an unmanaged key added outside is no change; a managed key changed outside is.
    await setDirectly(ws, { extra: "x", env: "staging" });
    fixture.emulator.clearRequests();
    const refreshed = await tb.read(created.id, state);
    expect(requestsMade()).toHaveLength(1);
    // In check's form: exclusive, left out, is false.
    expect(refreshed.inputs).toEqual({ workspaceId: ws, tags: { env: "staging", team: "web" }, exclusive: false });
    expect(refreshed.inputs).toEqual(stagingWeb);
    state = refreshed.props as Record<string, unknown>;
    expect((await tb.diff(created.id, state, prodWeb)).changes).toBe(true);
    expect((await tb.diff(created.id, state, stagingWeb)).changes).toBe(false);

    // Add one key and change one: one C10 with only those, then C9.
    fixture.emulator.clearRequests();
    let updated = await tb.update(created.id, state, prodWebTier);
    expect(requestsMade()).toEqual([`PATCH /api/v2/workspaces/${ws}/tag-bindings`, `GET /api/v2/workspaces/${ws}/effective-tag-bindings`]);
    expect(await liveTags(ws)).toEqual({ owner: "ui", env: "prod", team: "web", extra: "x", tier: "1" });
    state = updated.outs;

    // Remove one key: C8, then the workspace update with the rest (its answer carries the effective tags); others' keys stay.
    fixture.emulator.clearRequests();
    updated = await tb.update(created.id, state, prodTier);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}/tag-bindings`, `PATCH /api/v2/workspaces/${ws}`]);
    expect(await liveTags(ws)).toEqual({ owner: "ui", env: "prod", extra: "x", tier: "1" });
    state = updated.outs;
    expect((await tb.diff(created.id, state, prodTier)).changes).toBe(false);

    // A managed key removed outside shows as drift.
    await api("PATCH", `/workspaces/${ws}`, { data: { type: "workspaces", relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "owner", value: "ui" } }, { type: "tag-bindings", attributes: { key: "env", value: "prod" } }, { type: "tag-bindings", attributes: { key: "extra", value: "x" } }] } } } });
    state = (await tb.read(created.id, state)).props as Record<string, unknown>;
    expect(state.tags).toEqual({ env: "prod" });
    expect((await tb.diff(created.id, state, prodTier)).changes).toBe(true);

    // Delete removes only the managed keys still bound: C8 + the workspace update.
    fixture.emulator.clearRequests();
    await tb.delete(created.id, state);
    expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws}/tag-bindings`, `PATCH /api/v2/workspaces/${ws}`]);
    expect(await liveTags(ws)).toEqual({ owner: "ui", extra: "x" });
    fixture.emulator.clearRequests();
    await tb.delete(created.id, state);
    expect(requestsMade()).toHaveLength(1); // nothing left to remove
  });

  test("a key named like an object's own property (toString, constructor) is managed like any other key", async () => {
    const ws = await workspaceIdOf("prototype-names");
    const created = await tb.create({ workspaceId: ws, tags: { toString: "a", constructor: "b", keep: "c" } });
    const news = { workspaceId: ws, tags: { keep: "c" } };
    const outcome = await tb.diff(created.id, created.outs, news);
    expect(outcome.detailedDiff.map((c) => `${c.path} ${c.kind}`).sort()).toEqual(["tags.constructor delete", "tags.toString delete"]);
    await tb.update(created.id, created.outs, news);
    expect(await liveTags(ws)).toEqual({ keep: "c" });
  });

  test("exclusive mode makes the declaration the whole direct set, and shows unmanaged keys as drift", async () => {
    const ws = await workspaceIdOf("tagged");
    fixture.emulator.clearRequests();
    const created = await tb.create({ workspaceId: ws, tags: { env: "prod" }, exclusive: true });
    expect(requestsMade()).toEqual([`PATCH /api/v2/workspaces/${ws}`]);
    expect(await liveTags(ws)).toEqual({ env: "prod" });
    await setDirectly(ws, { stray: "1" });
    const state = (await tb.read(created.id, created.outs)).props as Record<string, unknown>;
    expect((await tb.diff(created.id, state, { workspaceId: ws, tags: { env: "prod" }, exclusive: true })).changes).toBe(true);
    await tb.update(created.id, state, { workspaceId: ws, tags: { env: "prod" }, exclusive: true });
    expect(await liveTags(ws)).toEqual({ env: "prod" });
    await tb.delete(created.id, state);
    expect(await liveTags(ws)).toEqual({});
  });

  test("a missing workspace fails create naming workspaceId; refresh finds it gone", async () => {
    await expect(tb.create({ workspaceId: "ws-doesnotexist1", tags: { env: "prod" } })).rejects.toThrow(/workspaceId "ws-doesnotexist1" does not exist/);
    expect(await tb.read("ws-doesnotexist1:abc", { workspaceId: "ws-doesnotexist1", tags: {}, __managedKeys: [] })).toEqual({ id: "" });
  });
});

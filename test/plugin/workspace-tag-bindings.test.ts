// What the provider plugin needs of WorkspaceTagBindings, at the runtime against an in-process emulator:
// diff names each tag key it writes or unbinds, previewCreate/previewUpdate predict the outputs without a
// request (and what they give as known is what the apply produces), and importById adopts bindings so
// that declaring its inputs shows no change.
import * as tb from "../../provider/runtime/kinds/workspace-tag-bindings";
import { UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import { failureOf } from "../support/failure";
import { realMaskedLike, unknownOutputs } from "../support/preview-exactness";
import { useRuntimeEmulator, withoutQuery } from "../support/runtime-emulator";

const WORKSPACES: Record<string, Record<string, string>> = {
  "preview-create": { owner: "ui" },
  "preview-update": { owner: "ui" },
  "import-every": { owner: "ui", env: "prod" },
  "import-exclusive": { owner: "ui", env: "prod" },
  "import-keys": { owner: "ui", env: "prod", team: "web" },
  "import-created": { owner: "ui" },
  "bare": {},
};

const fixture = useRuntimeEmulator({
  emulator: {
    fixtures: {
      organizations: [{
        name: "example-org",
        projects: [{ name: "Apps", tagBindings: [{ key: "cost-center", value: "web" }] }],
        workspaces: Object.entries(WORKSPACES).map(([name, tags]) => ({
          name, project: "Apps", tagBindings: Object.entries(tags).map(([key, value]) => ({ key, value })),
        })),
      }],
    },
  },
});
const ids = new Map<string, string>();
const ws = (name: string): string => ids.get(name) as string;

const requestsMade = (): string[] => fixture.requestsMade(withoutQuery);

async function liveTags(workspaceId: string): Promise<Record<string, string>> {
  const { doc } = await fixture.api<{ data: Array<{ attributes: { key: string; value: string } }> }>("GET", `/workspaces/${workspaceId}/tag-bindings`);
  return Object.fromEntries(doc.data.map((b) => [b.attributes.key, b.attributes.value]));
}

// The workspaces' ids, by name, for the tests to refer to.
beforeAll(async () => {
  for (const name of Object.keys(WORKSPACES)) {
    const { doc } = await fixture.api<{ data: { id: string } }>("GET", `/organizations/${fixture.emulator.organization}/workspaces/${name}`);
    ids.set(name, doc.data.id);
  }
});

describe("diff reports each change at the path of its tag key", () => {
  // The server's last report: env and team managed, owner bound by someone else.
  const state: Props = {
    workspaceId: "ws-abc", tags: { env: "prod", team: "web" }, exclusive: false,
    allDirectTags: { owner: "ui", env: "prod", team: "web" }, effectiveTags: [], __managedKeys: ["env", "team"],
  };
  const declared = (tags: Record<string, string> | string, extra: Props = {}): Props => ({ workspaceId: "ws-abc", tags, ...extra });

  const CASES: [string, Props, Props, Array<Record<string, unknown>>, string[]][] = [
    ["the same declaration is no change", state, declared({ env: "prod", team: "web" }), [], []],
    ["a value changed is an update of its key", state, declared({ env: "staging", team: "web" }),
      [{ path: "tags.env", kind: "update", replace: false }], []],
    ["a key that is no identifier is quoted", { ...state, tags: { "cost-center": "a" }, __managedKeys: ["cost-center"], allDirectTags: { "cost-center": "a" } },
      declared({ "cost-center": "b" }), [{ path: 'tags["cost-center"]', kind: "update", replace: false }], []],
    ["a key added is an add", state, declared({ env: "prod", team: "web", tier: "1" }), [{ path: "tags.tier", kind: "add", replace: false }], []],
    ["a key no longer declared is unbound: a delete between the inputs", state, declared({ env: "prod" }),
      [{ path: "tags.team", kind: "delete", replace: false, inputDiff: true }], []],
    ["a managed key removed outside is the add that restores it",
      { ...state, tags: { env: "prod" }, allDirectTags: { owner: "ui", env: "prod" } }, declared({ env: "prod", team: "web" }),
      [{ path: "tags.team", kind: "add", replace: false }], []],
    ["a key no longer declared and already gone from the server is no change",
      { ...state, tags: { env: "prod" }, allDirectTags: { owner: "ui", env: "prod" } }, declared({ env: "prod" }), [], []],
    ["exclusive turned on unbinds every other direct key", state, declared({ env: "prod", team: "web" }, { exclusive: true }),
      [{ path: "tags.owner", kind: "delete", replace: false }, { path: "exclusive", kind: "update", replace: false }], []],
    ["exclusive no longer declared is false again (what leaving it out means): an update", { ...state, exclusive: true, allDirectTags: { env: "prod", team: "web" } },
      declared({ env: "prod", team: "web" }), [{ path: "exclusive", kind: "update", replace: false }], []],
    ["exclusive false declared where it was true is an update", { ...state, exclusive: true, allDirectTags: { env: "prod", team: "web" } },
      declared({ env: "prod", team: "web" }, { exclusive: false }), [{ path: "exclusive", kind: "update", replace: false }], []],
    ["an unknown value is an update of its key", state, declared({ env: UNKNOWN, team: "web" }), [{ path: "tags.env", kind: "update", replace: false }], []],
    ["an unknown value of a new key is an update too", state, declared({ env: "prod", team: "web", tier: UNKNOWN }),
      [{ path: "tags.tier", kind: "update", replace: false }], []],
    ["unknown tags are an update of tags", state, declared(UNKNOWN), [{ path: "tags", kind: "update", replace: false }], []],
    ["an unknown exclusive is an update of exclusive", state, declared({ env: "prod", team: "web" }, { exclusive: UNKNOWN }),
      [{ path: "exclusive", kind: "update", replace: false }], []],
    ["another workspace replaces", state, { workspaceId: "ws-other", tags: { env: "prod", team: "web" } },
      [{ path: "workspaceId", kind: "update", replace: true }], ["workspaceId"]],
    ["an unknown workspace replaces", state, { workspaceId: UNKNOWN, tags: { env: "prod", team: "web" } },
      [{ path: "workspaceId", kind: "update", replace: true }], ["workspaceId"]],
  ];
  test.each(CASES)("%s", async (_what, olds, program, detailedDiff, replaces) => {
    // As the engine calls diff: with check's output.
    const { inputs: news, failures } = await tb.check(olds, program);
    expect(failures).toEqual([]);
    fixture.emulator.clearRequests();
    expect(await tb.diff("ws-abc:0123456789ab", olds, news)).toEqual({ changes: detailedDiff.length > 0, replaces, deleteBeforeReplace: false, detailedDiff });
    expect(requestsMade()).toEqual([]);
  });
});

describe("previewCreate", () => {
  test("knows the declared tags and the managed keys; additive, the rest of the set and the inherited tags are the server's", async () => {
    const preview = await tb.previewCreate({ workspaceId: ws("preview-create"), tags: { env: "prod", team: "web" } });
    expect(requestsMade()).toEqual([]);
    expect(preview).toEqual({
      workspaceId: ws("preview-create"), tags: { env: "prod", team: "web" }, exclusive: false,
      allDirectTags: UNKNOWN, effectiveTags: UNKNOWN, __managedKeys: ["env", "team"],
    });

    const created = await tb.create({ workspaceId: ws("preview-create"), tags: { env: "prod", team: "web" } });
    expect(preview).toStrictEqual(realMaskedLike(preview, created.outs));
    await tb.remove(created.id, created.outs);
  });

  test("exclusive, knows the whole direct set too, and is exact", async () => {
    const inputs = { workspaceId: ws("preview-create"), tags: { env: "prod" }, exclusive: true };
    const preview = await tb.previewCreate(inputs);
    expect(requestsMade()).toEqual([]);
    expect(unknownOutputs(preview)).toEqual(["effectiveTags"]);
    expect(preview.allDirectTags).toEqual({ env: "prod" });

    const created = await tb.create(inputs);
    expect(preview).toStrictEqual(realMaskedLike(preview, created.outs));
    await tb.remove(created.id, created.outs);
    await tb.create({ workspaceId: ws("preview-create"), tags: { owner: "ui" } }); // the fixture's tag, for the other tests
  });

  test("leaves unknown what the program does not know yet", async () => {
    expect(await tb.previewCreate({ workspaceId: UNKNOWN, tags: { env: UNKNOWN, team: "web" }, exclusive: true })).toEqual({
      workspaceId: UNKNOWN, tags: { env: UNKNOWN, team: "web" }, exclusive: true,
      allDirectTags: { env: UNKNOWN, team: "web" }, effectiveTags: UNKNOWN, __managedKeys: ["env", "team"],
    });
    expect(await tb.previewCreate({ workspaceId: "ws-abc", tags: UNKNOWN, exclusive: UNKNOWN })).toEqual({
      workspaceId: "ws-abc", tags: UNKNOWN, exclusive: UNKNOWN, allDirectTags: UNKNOWN, effectiveTags: UNKNOWN, __managedKeys: UNKNOWN,
    });
    expect(requestsMade()).toEqual([]);
  });
});

describe("previewUpdate", () => {
  test("an update that writes nothing (exclusive turned off) knows every output, exactly", async () => {
    const inputs = { workspaceId: ws("preview-update"), tags: { owner: "ui", env: "prod" }, exclusive: true };
    const created = await tb.create(inputs);
    const news = { workspaceId: ws("preview-update"), tags: { owner: "ui", env: "prod" } };
    fixture.emulator.clearRequests();
    const preview = await tb.previewUpdate(created.id, created.outs, news);
    expect(requestsMade()).toEqual([]);
    expect(unknownOutputs(preview)).toEqual([]);
    expect(preview).toEqual({ ...created.outs, exclusive: false });

    const updated = await tb.update(created.id, created.outs, news);
    expect(preview).toStrictEqual(updated.outs);
    await tb.remove(created.id, updated.outs);
    await tb.create({ workspaceId: ws("preview-update"), tags: { owner: "ui" } });
  });

  test.each([
    ["adds a key", { env: "prod", tier: "1", team: "web" }],
    ["changes a value", { env: "staging", tier: "1" }],
    ["unbinds a key", { tier: "1" }],
  ])("an additive update that %s knows the declared tags and is exact", async (_what, tags) => {
    const created = await tb.create({ workspaceId: ws("preview-update"), tags: { env: "prod", tier: "1" } });
    const news = { workspaceId: ws("preview-update"), tags };
    fixture.emulator.clearRequests();
    const preview = await tb.previewUpdate(created.id, created.outs, news);
    expect(requestsMade()).toEqual([]);
    expect(preview).toEqual({
      workspaceId: ws("preview-update"), tags, exclusive: false, allDirectTags: UNKNOWN, effectiveTags: UNKNOWN,
      __managedKeys: Object.keys(tags).sort(),
    });

    const updated = await tb.update(created.id, created.outs, news);
    expect(preview).toStrictEqual(realMaskedLike(preview, updated.outs));
    await tb.remove(created.id, updated.outs);
    expect(await liveTags(ws("preview-update"))).toEqual({ owner: "ui" });
  });

  test("an update to exclusive knows the whole direct set, exactly", async () => {
    const created = await tb.create({ workspaceId: ws("preview-update"), tags: { env: "prod" } });
    const news = { workspaceId: ws("preview-update"), tags: { env: "prod", team: "web" }, exclusive: true };
    fixture.emulator.clearRequests();
    const preview = await tb.previewUpdate(created.id, created.outs, news);
    expect(requestsMade()).toEqual([]);
    expect(unknownOutputs(preview)).toEqual(["effectiveTags"]);

    const updated = await tb.update(created.id, created.outs, news);
    expect(preview).toStrictEqual(realMaskedLike(preview, updated.outs));
    await tb.remove(created.id, updated.outs);
    await tb.create({ workspaceId: ws("preview-update"), tags: { owner: "ui" } });
  });
});

describe("importById", () => {
  /** Import, then what a program declaring the inputs sees: check passes, no diff, refresh returns the inputs as check completes them. */
  async function importAndDeclare(importId: string): Promise<NonNullable<Awaited<ReturnType<typeof tb.importById>>>> {
    fixture.emulator.clearRequests();
    const imported = await tb.importById(importId, {});
    expect(requestsMade()).toHaveLength(1);
    if (imported === undefined) throw new Error(`nothing imported for ${importId}`);
    const checked = await tb.check({}, imported.inputs);
    expect(checked.failures).toEqual([]);
    expect(await tb.diff(imported.id, imported.props, checked.inputs)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    // Left out of the import (what leaving it out means), exclusive is false in check's form.
    expect(checked.inputs).toEqual({ ...imported.inputs, exclusive: imported.inputs.exclusive ?? false });
    expect(await tb.read(imported.id, imported.props)).toEqual({ id: imported.id, props: imported.props, inputs: checked.inputs });
    return imported;
  }

  test('"ws-…" adopts every direct tag, additively; destroy then unbinds them and leaves the inherited ones', async () => {
    const imported = await importAndDeclare(ws("import-every"));
    expect(imported.inputs).toEqual({ workspaceId: ws("import-every"), tags: { owner: "ui", env: "prod" } });
    expect(imported.id).toBe((await tb.create({ workspaceId: ws("import-every"), tags: { owner: "ui", env: "prod" } })).id);
    expect(imported.props.effectiveTags).toContainEqual({ key: "cost-center", value: "web", inheritedFrom: expect.stringMatching(/^prj-/) });
    await tb.remove(imported.id, imported.props);
    expect(await liveTags(ws("import-every"))).toEqual({});
  });

  test('"ws-…:exclusive" adopts the whole set as exclusive', async () => {
    const imported = await importAndDeclare(`${ws("import-exclusive")}:exclusive`);
    expect(imported.inputs).toEqual({ workspaceId: ws("import-exclusive"), tags: { owner: "ui", env: "prod" }, exclusive: true });
    expect(imported.id).toBe((await tb.create({ ...imported.inputs, exclusive: true } as Props)).id);
  });

  test('"ws-…/key,key" adopts those keys only; destroy unbinds only them', async () => {
    const imported = await importAndDeclare(`${ws("import-keys")}/env,team`);
    expect(imported.inputs).toEqual({ workspaceId: ws("import-keys"), tags: { env: "prod", team: "web" } });
    expect(imported.props.allDirectTags).toEqual({ owner: "ui", env: "prod", team: "web" });
    await tb.remove(imported.id, imported.props);
    expect(await liveTags(ws("import-keys"))).toEqual({ owner: "ui" });
  });

  test("the id create returned adopts the keys and mode it was created with, and nothing else", async () => {
    const additive = await tb.create({ workspaceId: ws("import-created"), tags: { env: "prod", team: "web" } });
    const imported = await importAndDeclare(additive.id);
    expect(imported.id).toBe(additive.id);
    expect(imported.inputs).toEqual({ workspaceId: ws("import-created"), tags: { env: "prod", team: "web" } });
    await tb.remove(additive.id, additive.outs);

    const exclusive = await tb.create({ workspaceId: ws("import-created"), tags: { env: "prod" }, exclusive: true });
    const importedExclusive = await importAndDeclare(exclusive.id);
    expect(importedExclusive.inputs).toEqual({ workspaceId: ws("import-created"), tags: { env: "prod" }, exclusive: true });
  });

  test("a workspace that is gone, or bindings it does not have, import as nothing", async () => {
    expect(await tb.importById("ws-doesnotexist1", {})).toBeUndefined();
    expect(requestsMade()).toEqual(["GET /api/v2/workspaces/ws-doesnotexist1", "GET /api/v2/ping"]);
    fixture.emulator.clearRequests();
    expect(await tb.importById(ws("bare"), {})).toBeUndefined(); // no direct tag to adopt
    expect(await tb.importById(`${ws("import-keys")}/owner,missing`, {})).toBeUndefined();
    expect(await tb.importById(`${ws("import-keys")}:0123456789ab`, {})).toBeUndefined();
    expect(requestsMade()).toHaveLength(3);
    // The whole (empty) set can still be owned exclusively.
    expect((await tb.importById(`${ws("bare")}:exclusive`, {}))?.inputs).toEqual({ workspaceId: ws("bare"), tags: {}, exclusive: true });
  });

  test.each([
    ["a workspace name", "import-every"],
    ["an unknown suffix", "ws-abc:owner"],
    ["an empty key list", "ws-abc/"],
    ["a key with a space", "ws-abc/a b"],
    ["a reserved key", "ws-abc/hc:x"],
    ["a key twice", "ws-abc/env,env"],
  ])("%s fails naming the accepted forms, without a request", async (_what, importId) => {
    const error = await failureOf(tb.importById(importId, {}));
    expect(error.message).toContain(`WorkspaceTagBindings: cannot import "${importId}"`);
    expect(error.message).toContain('"ws-…" (every direct tag, additive), "ws-…:exclusive" (every direct tag, exclusive), "ws-…/key1,key2" (those keys, additive) or "ws-…:<12 hex>" (the id create returned)');
    expect(requestsMade()).toEqual([]);
  });
});

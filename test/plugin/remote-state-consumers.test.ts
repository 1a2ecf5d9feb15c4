// What the provider plugin needs of RemoteStateConsumers, at the runtime against an in-process emulator:
// diff names each consumer added or removed at its index, previewCreate/previewUpdate predict the outputs
// without a request (and what they give as known is what the apply produces), and importById adopts
// consumers under the id the resource's own create would give, so that declaring its inputs shows no change.
import * as consumers from "../../provider/runtime/kinds/remote-state-consumers";
import { UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import { failureOf } from "../support/failure";
import { realMaskedLike, unknownOutputs } from "../support/preview-exactness";
import { useRuntimeEmulator, withoutQuery } from "../support/runtime-emulator";

const NAMES = ["preview", "importing", "bare", "a", "b", "c", "outsider"];

const fixture = useRuntimeEmulator({
  emulator: { fixtures: { organizations: [{ name: "example-org", workspaces: NAMES.map((name) => ({ name, attributes: { "global-remote-state": false } })) }] } },
});
const ids = new Map<string, string>();
const ws = (name: string): string => ids.get(name) as string;
const sorted = (...names: string[]): string[] => names.map(ws).sort();
const OWNER = "https://www.npmjs.com/package/pulumi-wsbridge#owner=proj/dev/RemoteStateConsumers/readers";

const requestsMade = (): string[] => fixture.requestsMade(withoutQuery);
const rel = (subject: string): string => `/api/v2/workspaces/${subject}/relationships/remote-state-consumers`;

async function setConsumers(subject: string, list: string[]): Promise<void> {
  await fixture.api("PATCH", `${fixture.emulator.url}${rel(subject)}`, { data: list.map((id) => ({ type: "workspaces", id })) });
}

async function liveConsumers(subject: string): Promise<string[]> {
  return (await fixture.api<{ data: Array<{ id: string }> }>("GET", `${fixture.emulator.url}${rel(subject)}?page%5Bsize%5D=100`)).doc.data.map((w) => w.id).sort();
}

// The workspaces' ids, by name, for the tests to refer to.
beforeAll(async () => {
  for (const name of NAMES) {
    const { doc } = await fixture.api<{ data: { id: string } }>("GET", `/organizations/${fixture.emulator.organization}/workspaces/${name}`);
    ids.set(name, doc.data.id);
  }
});

describe("diff reports each consumer added or removed at its index", () => {
  const state: Props = { workspaceId: "ws-s", consumerIds: ["ws-a", "ws-b"], allConsumerIds: ["ws-a", "ws-b", "ws-x"], exclusive: false };
  const declared = (consumerIds: unknown, extra: Props = {}): Props => ({ workspaceId: "ws-s", consumerIds, ...extra });

  const CASES: [string, Props, Props, Array<Record<string, unknown>>, string[]][] = [
    ["the same consumers are no change", state, declared(["ws-a", "ws-b"]), [], []],
    ["another order is no change", state, declared(["ws-b", "ws-a"]), [], []],
    ["a consumer added is an add at its index in the new list", state, declared(["ws-a", "ws-aa", "ws-b"]),
      [{ path: "consumerIds[1]", kind: "add", replace: false }], []],
    ["a consumer dropped is a delete at its index in the old list", state, declared(["ws-b"]),
      [{ path: "consumerIds[0]", kind: "delete", replace: false }], []],
    // The engine keys changes by path: an add and a delete at one index are one update there.
    ["one swapped for another at the same index is an update there", state, declared(["ws-a", "ws-c"]),
      [{ path: "consumerIds[1]", kind: "update", replace: false }], []],
    ["one swapped for another at other indexes is an add and a delete", state, declared(["ws-0", "ws-a"]),
      [{ path: "consumerIds[0]", kind: "add", replace: false }, { path: "consumerIds[1]", kind: "delete", replace: false }], []],
    ["an entry not known yet is an update at its index", state, declared([UNKNOWN, "ws-a", "ws-b"]),
      [{ path: "consumerIds[0]", kind: "update", replace: false }], []],
    ["a list not known yet is an update of the list", state, declared(UNKNOWN), [{ path: "consumerIds", kind: "update", replace: false }], []],
    ["exclusive turned on is an update", state, declared(["ws-a", "ws-b"], { exclusive: true }), [{ path: "exclusive", kind: "update", replace: false }], []],
    ["exclusive no longer declared is false again (what leaving it out means): an update", { ...state, exclusive: true }, declared(["ws-a", "ws-b"]),
      [{ path: "exclusive", kind: "update", replace: false }], []],
    ["exclusive false declared where it was false is no change", state, declared(["ws-a", "ws-b"], { exclusive: false }), [], []],
    ["an unknown exclusive is an update", state, declared(["ws-a", "ws-b"], { exclusive: UNKNOWN }), [{ path: "exclusive", kind: "update", replace: false }], []],
    ["another workspace replaces", state, { workspaceId: "ws-t", consumerIds: ["ws-a", "ws-b"] }, [{ path: "workspaceId", kind: "update", replace: true }], ["workspaceId"]],
    ["an owner marker is no change", state, declared(["ws-a", "ws-b"], { __owner: OWNER }), [], []],
  ];
  test.each(CASES)("%s", async (_what, olds, program, detailedDiff, replaces) => {
    // As the engine calls diff: with check's output.
    const { inputs: news, failures } = await consumers.check(olds, program);
    expect(failures).toEqual([]);
    fixture.emulator.clearRequests();
    expect(await consumers.diff("ws-s:0123456789ab", olds, news)).toEqual({ changes: detailedDiff.length > 0, replaces, deleteBeforeReplace: false, detailedDiff });
    expect(requestsMade()).toEqual([]);
  });
});

describe("previewCreate", () => {
  test("knows the declared consumers and the owner marker; additive, the whole list is the server's; and is exact", async () => {
    await setConsumers(ws("preview"), [ws("outsider")]);
    const inputs = { workspaceId: ws("preview"), consumerIds: sorted("b", "a"), __owner: OWNER };
    fixture.emulator.clearRequests();
    const preview = await consumers.previewCreate(inputs);
    expect(requestsMade()).toEqual([]);
    expect(preview).toEqual({ workspaceId: ws("preview"), consumerIds: sorted("a", "b"), allConsumerIds: UNKNOWN, exclusive: false, __owner: OWNER });

    const created = await consumers.create(inputs);
    expect(preview).toStrictEqual(realMaskedLike(preview, created.outs));
    await consumers.remove(created.id, created.outs);
  });

  test("exclusive, knows the whole list too, and is exact", async () => {
    const inputs = { workspaceId: ws("preview"), consumerIds: sorted("a"), exclusive: true };
    const preview = await consumers.previewCreate(inputs);
    expect(requestsMade()).toEqual([]);
    expect(preview).toEqual({ workspaceId: ws("preview"), consumerIds: sorted("a"), allConsumerIds: sorted("a"), exclusive: true });

    const created = await consumers.create(inputs);
    expect(preview).toStrictEqual(realMaskedLike(preview, created.outs));
    await setConsumers(ws("preview"), []);
  });

  test("sorts a known list, and leaves the list unknown while an entry is, since it may sort anywhere", async () => {
    expect(await consumers.previewCreate({ workspaceId: UNKNOWN, consumerIds: [UNKNOWN, "ws-a"], exclusive: true })).toEqual({
      workspaceId: UNKNOWN, consumerIds: UNKNOWN, allConsumerIds: UNKNOWN, exclusive: true,
    });
    // Known entries are sorted, as the apply reports them.
    expect(await consumers.previewCreate({ workspaceId: "ws-s", consumerIds: ["ws-b", "ws-a"], exclusive: UNKNOWN })).toEqual({
      workspaceId: "ws-s", consumerIds: ["ws-a", "ws-b"], allConsumerIds: UNKNOWN, exclusive: UNKNOWN,
    });
    expect(requestsMade()).toEqual([]);
  });
});

describe("previewUpdate", () => {
  test("an additive update that adds and drops knows the declared consumers and keeps the owner marker, exactly", async () => {
    await setConsumers(ws("preview"), [ws("outsider")]);
    const created = await consumers.create({ workspaceId: ws("preview"), consumerIds: sorted("a", "b"), __owner: OWNER });
    const news = { workspaceId: ws("preview"), consumerIds: sorted("a", "c") };
    fixture.emulator.clearRequests();
    const preview = await consumers.previewUpdate(created.id, created.outs, news);
    expect(requestsMade()).toEqual([]);
    expect(preview).toEqual({ workspaceId: ws("preview"), consumerIds: sorted("a", "c"), allConsumerIds: UNKNOWN, exclusive: false, __owner: OWNER });

    const updated = await consumers.update(created.id, created.outs, news);
    expect(preview).toStrictEqual(realMaskedLike(preview, updated.outs));
    await consumers.remove(created.id, updated.outs);
    expect(await liveConsumers(ws("preview"))).toEqual(sorted("outsider"));
  });

  test("an update to exclusive knows every output, exactly", async () => {
    const created = await consumers.create({ workspaceId: ws("preview"), consumerIds: sorted("a"), __owner: OWNER });
    const news = { workspaceId: ws("preview"), consumerIds: sorted("a", "b"), exclusive: true, __owner: OWNER };
    fixture.emulator.clearRequests();
    const preview = await consumers.previewUpdate(created.id, created.outs, news);
    expect(requestsMade()).toEqual([]);
    expect(unknownOutputs(preview)).toEqual([]);

    const updated = await consumers.update(created.id, created.outs, news);
    expect(preview).toStrictEqual(updated.outs);
    await setConsumers(ws("preview"), []);
  });
});

describe("importById", () => {
  /** Import, then what a program declaring the inputs sees: check passes, no diff, refresh returns the inputs as check completes them. */
  async function importAndDeclare(importId: string): Promise<NonNullable<Awaited<ReturnType<typeof consumers.importById>>>> {
    fixture.emulator.clearRequests();
    const imported = await consumers.importById(importId, { __owner: OWNER });
    expect(requestsMade()).toHaveLength(1);
    if (imported === undefined) throw new Error(`nothing imported for ${importId}`);
    const checked = await consumers.check({}, imported.inputs);
    expect(checked.failures).toEqual([]);
    expect(await consumers.diff(imported.id, imported.props, checked.inputs)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    // Left out of the import (what leaving it out means), exclusive is false in check's form.
    expect(checked.inputs).toEqual({ ...imported.inputs, exclusive: imported.inputs.exclusive ?? false });
    expect(await consumers.read(imported.id, imported.props)).toEqual({ id: imported.id, props: imported.props, inputs: checked.inputs });
    return imported;
  }

  test('"ws-…" adopts every consumer, additively, under the id create gives for the owner marker; destroy removes them', async () => {
    await setConsumers(ws("importing"), sorted("a", "b"));
    const imported = await importAndDeclare(ws("importing"));
    expect(imported.inputs).toEqual({ workspaceId: ws("importing"), consumerIds: sorted("a", "b"), __owner: OWNER });
    const created = await consumers.create({ workspaceId: ws("importing"), consumerIds: sorted("a", "b"), __owner: OWNER });
    expect(imported.id).toBe(created.id);
    await consumers.remove(imported.id, imported.props);
    expect(await liveConsumers(ws("importing"))).toEqual([]);
  });

  test('"ws-…:exclusive" adopts the whole list as exclusive', async () => {
    await setConsumers(ws("importing"), sorted("a", "outsider"));
    const imported = await importAndDeclare(`${ws("importing")}:exclusive`);
    expect(imported.inputs).toEqual({ workspaceId: ws("importing"), consumerIds: sorted("a", "outsider"), exclusive: true, __owner: OWNER });
  });

  test('"ws-…/ws-a,ws-b" adopts those consumers only; destroy removes only them', async () => {
    await setConsumers(ws("importing"), sorted("a", "b", "outsider"));
    const imported = await importAndDeclare(`${ws("importing")}/${ws("b")},${ws("a")}`);
    expect(imported.inputs).toEqual({ workspaceId: ws("importing"), consumerIds: sorted("a", "b"), __owner: OWNER });
    expect(imported.props.allConsumerIds).toEqual(sorted("a", "b", "outsider"));
    await consumers.remove(imported.id, imported.props);
    expect(await liveConsumers(ws("importing"))).toEqual(sorted("outsider"));
  });

  test("an id create returned adopts every consumer, additively, under this resource's id", async () => {
    await setConsumers(ws("importing"), sorted("c"));
    const imported = await importAndDeclare(`${ws("importing")}:0123456789ab`);
    expect(imported.inputs).toEqual({ workspaceId: ws("importing"), consumerIds: sorted("c"), __owner: OWNER });
    expect(imported.id).toMatch(new RegExp(`^${ws("importing")}:[0-9a-f]{12}$`));
    expect(imported.id).not.toBe(`${ws("importing")}:0123456789ab`);
  });

  test("a workspace that is gone, or consumers it does not list, import as nothing", async () => {
    expect(await consumers.importById("ws-doesnotexist1", {})).toBeUndefined();
    expect(requestsMade()).toEqual([rel("ws-doesnotexist1"), "/api/v2/ping"].map((p) => `GET ${p}`));
    fixture.emulator.clearRequests();
    await setConsumers(ws("importing"), sorted("a"));
    expect(await consumers.importById(ws("bare"), {})).toBeUndefined(); // no consumer to adopt
    expect(await consumers.importById(`${ws("importing")}/${ws("a")},${ws("b")}`, {})).toBeUndefined();
    // The whole (empty) list can still be owned exclusively.
    expect((await consumers.importById(`${ws("bare")}:exclusive`, {}))?.inputs).toEqual({ workspaceId: ws("bare"), consumerIds: [], exclusive: true });
  });

  test.each([
    ["a workspace name", "importing"],
    ["an unknown suffix", "ws-abc:all"],
    ["a consumer that is no workspace id", "ws-abc/ws-a,app"],
    ["the workspace itself as a consumer", "ws-abc/ws-abc"],
    ["a consumer twice", "ws-abc/ws-a,ws-a"],
  ])("%s fails naming the accepted forms, without a request", async (_what, importId) => {
    const error = await failureOf(consumers.importById(importId, {}));
    expect(error.message).toContain(`RemoteStateConsumers: cannot import "${importId}"`);
    expect(error.message).toContain('"ws-…" (every consumer, additive), "ws-…:exclusive" (the whole list, exclusive), "ws-…/ws-a,ws-b" (those consumers, additive) or "ws-…:<12 hex>" (an id create returned)');
    expect(requestsMade()).toEqual([]);
  });
});

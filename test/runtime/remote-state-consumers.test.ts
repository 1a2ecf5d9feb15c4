// The RemoteStateConsumers runtime against an in-process emulator: check refuses bad inputs without a
// request (and a globally shared workspace with one GET), create/read/update/delete make the requests
// its docs page states, all pages are read (25, 60, 150 consumers) and only managed consumers are touched.
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const many = Array.from({ length: 150 }, (_, i) => `many-${String(i).padStart(3, "0")}`);
const names = ["subject", "a", "b", "c", "outsider", "shared", "project-shared", ...many];

const fixture = useRuntimeEmulator({
  emulator: {
    fixtures: {
      organizations: [{
        name: "example-org",
        workspaces: names.map((name) => ({
          name, attributes: { "global-remote-state": name === "shared", "project-remote-state": name === "project-shared" },
        })),
      }],
    },
  },
});
const { api, configureWith, requestsMade } = fixture;
const consumers = runtime.remoteStateConsumers;
const ids = new Map<string, string>();

type Listed = { data: Array<{ id: string; attributes?: { name: string } }> };

const ws = (name: string): string => ids.get(name) as string;
const rel = (subject: string) => `/workspaces/${subject}/relationships/remote-state-consumers`;
const refs = (list: string[]) => ({ data: list.map((id) => ({ type: "workspaces", id })) });
async function liveConsumers(subject: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api<Listed>("GET", `${rel(subject)}?page%5Bnumber%5D=${page}&page%5Bsize%5D=100`);
    const data = res.doc.data;
    out.push(...data.map((d) => d.id));
    if (data.length < 100) return out.sort();
  }
}

// The workspaces' ids, by name, for the tests to refer to.
beforeAll(async () => {
  const listed = await api<Listed>("GET", `/organizations/${fixture.emulator.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=1`);
  const listed2 = await api<Listed>("GET", `/organizations/${fixture.emulator.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=2`);
  for (const w of [...listed.doc.data, ...listed2.doc.data]) {
    ids.set((w as { attributes: { name: string } }).attributes.name, w.id);
  }
  expect(ids.size).toBeGreaterThanOrEqual(names.length);
});

test("bad inputs fail at check naming the property or the entry, with no request", async () => {
  fixture.emulator.clearRequests();
  const failuresOf = async (news: Record<string, unknown>) => (await consumers.check({}, news)).failures.map((f) => f.property);
  const S = ws("subject");
  expect(await failuresOf({ consumerIds: [] })).toEqual(["workspaceId"]);
  expect(await failuresOf({ workspaceId: "subject", consumerIds: [] })).toEqual(["workspaceId"]);
  expect(await failuresOf({ workspaceId: 7, consumerIds: [] })).toEqual(["workspaceId"]);
  expect(await failuresOf({ workspaceId: S })).toEqual(["consumerIds"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: "ws-abc" })).toEqual(["consumerIds"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: ["ws-a", 3] })).toEqual(["consumerIds[1]"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: ["ws-a", "app"] })).toEqual(["consumerIds[1]"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: ["ws-a", "ws-b", S] })).toEqual(["consumerIds[2]"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: ["ws-a", "ws-b", "ws-a"] })).toEqual(["consumerIds[2]"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: [], exclusive: "yes" })).toEqual(["exclusive"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: [], extra: 1 })).toEqual(["extra"]);
  // Unknown elements (ids of workspaces being created): the known ones are still checked.
  expect(await failuresOf({ workspaceId: S, consumerIds: [UNKNOWN, "bad"] })).toEqual(["consumerIds[1]"]);
  expect(await failuresOf({ workspaceId: S, consumerIds: [UNKNOWN, S] })).toEqual(["consumerIds[1]"]);
  const messages = (await consumers.check({}, { workspaceId: S, consumerIds: ["ws-a", "ws-a"] })).failures.map((f) => f.reason);
  expect(messages[0]).toMatch(/repeats consumerIds\[0\]/);
  expect(requestsMade()).toEqual([]);
});

test("check sorts the list, tolerates unknowns without a request, and refuses a globally shared workspace with one GET", async () => {
  fixture.emulator.clearRequests();
  const unknownSubject = await consumers.check({}, { workspaceId: UNKNOWN, consumerIds: [UNKNOWN, ws("b"), ws("a")] });
  expect(unknownSubject.failures).toEqual([]);
  expect(requestsMade()).toEqual([]);
  const sorted = await consumers.check({}, { workspaceId: ws("subject"), consumerIds: [ws("b"), ws("a")] });
  expect(sorted.inputs.consumerIds).toEqual([ws("a"), ws("b")].sort());
  expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws("subject")}`]);
  fixture.emulator.clearRequests();
  const shared = await consumers.check({}, { workspaceId: ws("shared"), consumerIds: [ws("a")] });
  expect(shared.failures).toEqual([{ property: "workspaceId", reason: expect.stringMatching(/global-remote-state true/) }]);
  expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws("shared")}`]);
});

test("check refuses a workspace shared with its project with one GET, in the hosted edition too (issue 25)", async () => {
  fixture.emulator.clearRequests();
  const shared = await consumers.check({}, { workspaceId: ws("project-shared"), consumerIds: [ws("a")] });
  expect(shared.failures).toEqual([{ property: "workspaceId", reason: expect.stringMatching(/project-remote-state true.*projectRemoteState: false/) }]);
  expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws("project-shared")}`]);
});

test("additive lifecycle: create, reorder is no change, update adds and removes only its own, refresh drift, delete", async () => {
  const S = ws("subject");
  await api("POST", rel(S), refs([ws("outsider")]));
  fixture.emulator.clearRequests();
  const created = await consumers.create({ workspaceId: S, consumerIds: [ws("a"), ws("b")].sort(), __owner: "owner-1" });
  expect(created.id).toMatch(new RegExp(`^${S}:[0-9a-f]{12}$`));
  expect(created.outs.consumerIds).toEqual([ws("a"), ws("b")].sort());
  expect(created.outs.allConsumerIds).toEqual([ws("a"), ws("b"), ws("outsider")].sort());
  expect(requestsMade().map((r) => r.split("?")[0])).toEqual([`POST /api/v2${rel(S)}`, `GET /api/v2${rel(S)}`]);

  // Order never matters; a different owner gives a different id.
  const reordered = await consumers.diff(created.id, created.outs, { workspaceId: S, consumerIds: [ws("b"), ws("a")] });
  expect(reordered.changes).toBe(false);
  const second = await consumers.create({ workspaceId: S, consumerIds: [], __owner: "owner-2" });
  expect(second.id).not.toBe(created.id);

  // Update: add c, drop b (one POST, one DELETE, one GET).
  const news = { workspaceId: S, consumerIds: [ws("a"), ws("c")].sort() };
  // c added at its index in the new list, b removed at its index in the old one (one update when the
  // indexes are the same: the ids are random, so either may happen).
  const added = news.consumerIds.indexOf(ws("c"));
  const dropped = created.outs.consumerIds.indexOf(ws("b"));
  expect(await consumers.diff(created.id, created.outs, news)).toEqual({
    changes: true, replaces: [], deleteBeforeReplace: false,
    detailedDiff: added === dropped
      ? [{ path: `consumerIds[${added}]`, kind: "update", replace: false }]
      : [{ path: `consumerIds[${added}]`, kind: "add", replace: false }, { path: `consumerIds[${dropped}]`, kind: "delete", replace: false }]
        .sort((x, y) => x.path.localeCompare(y.path)),
  });
  fixture.emulator.clearRequests();
  const updated = await consumers.update(created.id, created.outs, news);
  expect(requestsMade().map((r) => r.split("?")[0])).toEqual([`POST /api/v2${rel(S)}`, `DELETE /api/v2${rel(S)}`, `GET /api/v2${rel(S)}`]);
  expect(await liveConsumers(S)).toEqual([ws("a"), ws("c"), ws("outsider")].sort());

  // Drift: a managed one removed and an unmanaged one added outside Pulumi.
  await api("DELETE", rel(S), refs([ws("c")]));
  await api("POST", rel(S), refs([ws("b")]));
  fixture.emulator.clearRequests();
  const refreshed = await consumers.read(created.id, updated.outs);
  expect(requestsMade().length).toBe(1);
  expect(refreshed.props?.consumerIds).toEqual([ws("a")]);
  expect(await consumers.diff(created.id, refreshed.props ?? {}, news)).toMatchObject({ changes: true });
  const healed = await consumers.update(created.id, refreshed.props ?? {}, news);
  expect(healed.outs.consumerIds).toEqual([ws("a"), ws("c")].sort());
  expect(await consumers.diff(created.id, healed.outs, news)).toMatchObject({ changes: false });

  // Delete removes only what it managed.
  fixture.emulator.clearRequests();
  await consumers.delete(created.id, healed.outs);
  expect(requestsMade()).toEqual([`DELETE /api/v2${rel(S)}`]);
  expect(await liveConsumers(S)).toEqual([ws("b"), ws("outsider")].sort());
  await api("PATCH", rel(S), refs([]));
});

test("exclusive replaces the whole list; a team with admin on one workspace gets the permission message, without a write or the token", async () => {
  const S = ws("subject");
  await api("POST", rel(S), refs([ws("outsider")]));
  fixture.emulator.clearRequests();
  const created = await consumers.create({ workspaceId: S, consumerIds: [ws("a")], exclusive: true });
  expect(requestsMade().map((r) => r.split("?")[0])).toEqual([`PATCH /api/v2${rel(S)}`]);
  expect(await liveConsumers(S)).toEqual([ws("a")]);
  await api("POST", rel(S), refs([ws("b")]));
  const refreshed = await consumers.read(created.id, created.outs);
  expect(refreshed.props?.consumerIds).toEqual([ws("a"), ws("b")].sort());
  expect((await consumers.diff(created.id, refreshed.props ?? {}, { workspaceId: S, consumerIds: [ws("a")], exclusive: true })).changes).toBe(true);
  await consumers.delete(created.id, { workspaceId: S, consumerIds: [ws("a")], exclusive: true });
  expect(await liveConsumers(S)).toEqual([ws("b")]);
  await api("PATCH", rel(S), refs([]));

  // Refused before any write: the consumer added outside stays, and the message holds no token.
  await api("POST", rel(S), refs([ws("outsider")]));
  const teamToken = fixture.emulator.issueToken({ kind: "team", access: "admin", workspaces: [S] });
  await configureWith(teamToken);
  const message = String((await failureOf(consumers.create({ workspaceId: S, consumerIds: [ws("a")], exclusive: true }))).message);
  expect(message).toContain('"manage all workspaces"');
  expect(message).toContain("additive mode");
  expect(message).not.toContain(teamToken);
  await configureWith();
  expect(await liveConsumers(S)).toEqual([ws("outsider")]);
  await api("PATCH", rel(S), refs([]));
});

test("an unknown consumer id becomes a message naming the entry", async () => {
  const S = ws("subject");
  const message = String((await failureOf(consumers.create({ workspaceId: S, consumerIds: [ws("a"), "ws-doesnotexist1"].sort() }))).message);
  const index = [ws("a"), "ws-doesnotexist1"].sort().indexOf("ws-doesnotexist1");
  expect(message).toContain(`consumerIds[${index}] "ws-doesnotexist1"`);
});

test.each([25, 60, 150])("%i consumers: every page is read and nothing differs afterwards", async (count) => {
  const S = ws("subject");
  const wanted = many.slice(0, count).map(ws).sort();
  const created = await consumers.create({ workspaceId: S, consumerIds: wanted, __owner: `pages-${count}` });
  expect(created.outs.consumerIds).toEqual(wanted);
  fixture.emulator.clearRequests();
  const refreshed = await consumers.read(created.id, created.outs);
  expect(requestsMade().length).toBe(Math.ceil((count + 1) / 100));
  expect(refreshed.props?.consumerIds).toEqual(wanted);
  expect((await consumers.diff(created.id, refreshed.props ?? {}, { workspaceId: S, consumerIds: [...wanted].reverse() })).changes).toBe(false);
  await consumers.delete(created.id, refreshed.props ?? {});
  expect(await liveConsumers(S)).toEqual([]);
});

// The RemoteStateConsumers runtime against an in-process emulator: check refuses bad inputs without a
// request (and a globally shared workspace with one GET), create/read/update/delete make the requests
// the README states, all pages are read (25, 60, 150 consumers) and only managed consumers are touched.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import * as runtime from "../provider/runtime";
import { UNKNOWN } from "../provider/runtime/lifecycle";
import { resetConfigForTests } from "../provider/runtime/config";
import { failureOf } from "./support/failure";

let emulator: RunningEmulator;
const consumers = runtime.remoteStateConsumers;
const ids = new Map<string, string>();

function configureWith(token: string): Promise<void> {
  resetConfigForTests();
  const settings: Record<string, string> = {
    "wsbridge:address": emulator.url, "wsbridge:token": token, "wsbridge:organization": emulator.organization,
  };
  return runtime.configure({ config: { get: (key: string) => settings[key] } });
}

async function api(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: { data: Array<{ id: string }> | { id: string } } }> {
  const res = await request(`${emulator.url}/api/v2${apiPath}`, {
    method: method as "GET",
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

const ws = (name: string): string => ids.get(name) as string;
const rel = (subject: string) => `/workspaces/${subject}/relationships/remote-state-consumers`;
const refs = (list: string[]) => ({ data: list.map((id) => ({ type: "workspaces", id })) });
function requestsMade(): string[] {
  return emulator.requests().map((r) => `${r.method} ${r.path}`);
}
async function liveConsumers(subject: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api("GET", `${rel(subject)}?page%5Bnumber%5D=${page}&page%5Bsize%5D=100`);
    const data = res.body.data as Array<{ id: string }>;
    out.push(...data.map((d) => d.id));
    if (data.length < 100) return out.sort();
  }
}

const many = Array.from({ length: 150 }, (_, i) => `many-${String(i).padStart(3, "0")}`);

beforeAll(async () => {
  for (const name of ["TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION", "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION"]) {
    delete process.env[name];
  }
  process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-home-"));
  const names = ["subject", "a", "b", "c", "outsider", "shared", "project-shared", ...many];
  emulator = await startEmulator({
    port: 0,
    fixtures: {
      organizations: [{
        name: "example-org",
        workspaces: names.map((name) => ({
          name, attributes: { "global-remote-state": name === "shared", "project-remote-state": name === "project-shared" },
        })),
      }],
    },
  });
  await configureWith(emulator.token);
  const listed = await api("GET", `/organizations/${emulator.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=1`);
  const listed2 = await api("GET", `/organizations/${emulator.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=2`);
  for (const w of [...(listed.body.data as Array<{ id: string; attributes?: { name: string } }>), ...(listed2.body.data as Array<{ id: string; attributes?: { name: string } }>)]) {
    ids.set((w as { attributes: { name: string } }).attributes.name, w.id);
  }
  expect(ids.size).toBeGreaterThanOrEqual(names.length);
});

afterAll(async () => {
  await emulator?.close();
});

test("bad inputs fail at check naming the property or the entry, with no request", async () => {
  emulator.clearRequests();
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
  emulator.clearRequests();
  const unknownSubject = await consumers.check({}, { workspaceId: UNKNOWN, consumerIds: [UNKNOWN, ws("b"), ws("a")] });
  expect(unknownSubject.failures).toEqual([]);
  expect(requestsMade()).toEqual([]);
  const sorted = await consumers.check({}, { workspaceId: ws("subject"), consumerIds: [ws("b"), ws("a")] });
  expect(sorted.inputs.consumerIds).toEqual([ws("a"), ws("b")].sort());
  expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws("subject")}`]);
  emulator.clearRequests();
  const shared = await consumers.check({}, { workspaceId: ws("shared"), consumerIds: [ws("a")] });
  expect(shared.failures).toEqual([{ property: "workspaceId", reason: expect.stringMatching(/global-remote-state true/) }]);
  expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws("shared")}`]);
});

test("check refuses a workspace shared with its project with one GET, in the hosted edition too (issue 25)", async () => {
  emulator.clearRequests();
  const shared = await consumers.check({}, { workspaceId: ws("project-shared"), consumerIds: [ws("a")] });
  expect(shared.failures).toEqual([{ property: "workspaceId", reason: expect.stringMatching(/project-remote-state true.*projectRemoteState: false/) }]);
  expect(requestsMade()).toEqual([`GET /api/v2/workspaces/${ws("project-shared")}`]);
});

test("additive lifecycle: create, reorder is no change, update adds and removes only its own, refresh drift, delete", async () => {
  const S = ws("subject");
  await api("POST", rel(S), refs([ws("outsider")]));
  emulator.clearRequests();
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
  emulator.clearRequests();
  const updated = await consumers.update(created.id, created.outs, news);
  expect(requestsMade().map((r) => r.split("?")[0])).toEqual([`POST /api/v2${rel(S)}`, `DELETE /api/v2${rel(S)}`, `GET /api/v2${rel(S)}`]);
  expect(await liveConsumers(S)).toEqual([ws("a"), ws("c"), ws("outsider")].sort());

  // Drift: a managed one removed and an unmanaged one added outside Pulumi.
  await api("DELETE", rel(S), refs([ws("c")]));
  await api("POST", rel(S), refs([ws("b")]));
  emulator.clearRequests();
  const refreshed = await consumers.read(created.id, updated.outs);
  expect(requestsMade().length).toBe(1);
  expect(refreshed.props?.consumerIds).toEqual([ws("a")]);
  expect(await consumers.diff(created.id, refreshed.props ?? {}, news)).toMatchObject({ changes: true });
  const healed = await consumers.update(created.id, refreshed.props ?? {}, news);
  expect(healed.outs.consumerIds).toEqual([ws("a"), ws("c")].sort());
  expect(await consumers.diff(created.id, healed.outs, news)).toMatchObject({ changes: false });

  // Delete removes only what it managed.
  emulator.clearRequests();
  await consumers.delete(created.id, healed.outs);
  expect(requestsMade()).toEqual([`DELETE /api/v2${rel(S)}`]);
  expect(await liveConsumers(S)).toEqual([ws("b"), ws("outsider")].sort());
  await api("PATCH", rel(S), refs([]));
});

test("exclusive replaces the whole list; a team with admin on one workspace gets the permission message", async () => {
  const S = ws("subject");
  await api("POST", rel(S), refs([ws("outsider")]));
  emulator.clearRequests();
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

  const teamToken = emulator.issueToken({ kind: "team", access: "admin", workspaces: [S] });
  await configureWith(teamToken);
  const message = String((await failureOf(consumers.create({ workspaceId: S, consumerIds: [], exclusive: true }))).message);
  expect(message).toMatch(/manage all workspaces/);
  expect(message).toMatch(/additive mode/);
  await configureWith(emulator.token);
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
  emulator.clearRequests();
  const refreshed = await consumers.read(created.id, created.outs);
  expect(requestsMade().length).toBe(Math.ceil((count + 1) / 100));
  expect(refreshed.props?.consumerIds).toEqual(wanted);
  expect((await consumers.diff(created.id, refreshed.props ?? {}, { workspaceId: S, consumerIds: [...wanted].reverse() })).changes).toBe(false);
  await consumers.delete(created.id, refreshed.props ?? {});
  expect(await liveConsumers(S)).toEqual([]);
});

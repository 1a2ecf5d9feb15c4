// The DataRetentionPolicy runtime (what the provider plugin calls) against in-process emulators, one
// self-managed and one hosted: check and diff decide the preview, create/read/update/delete do what the
// preview promised, with the number of requests each operation sends.
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator, withoutQuery } from "../support/runtime-emulator";

const policy = runtime.dataRetentionPolicy;
const ORG_DEFAULT_DAYS = 90;

const fixture = useRuntimeEmulator({
  emulator: {
    edition: "self-managed",
    fixtures: { organizations: [{ name: "example-org", dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: ORG_DEFAULT_DAYS } }] },
  },
  resetEditionCache: true,
});
const hosted = useRuntimeEmulator({ emulator: { edition: "hosted" }, resetEditionCache: true, configureEachTest: false });
const { api, configureWith } = fixture;

type Doc = { data?: { id: string; type: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data: { id: string; type: string } | null }> } };

let counter = 0;
async function newWorkspace(): Promise<string> {
  counter += 1;
  const r = await api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, { data: { type: "workspaces", attributes: { name: `drp-${counter}` } } });
  expect(r.status).toBe(201);
  return r.doc.data?.id ?? "";
}

const policyPath = (ws: string) => `/workspaces/${ws}/relationships/data-retention-policy`;

/** The requests the emulator received since the last call, as `METHOD /path`. */
const takeRequests = (target = fixture): string[] => target.takeRequests(withoutQuery);

describe("check", () => {
  test("accepts either form after one read-only ping for the edition, and caches the edition", async () => {
    expect(await policy.check({}, { workspaceId: "ws-abc", deleteOlderThanNDays: 30, __provider: "x" }))
      .toEqual({ inputs: { workspaceId: "ws-abc", deleteOlderThanNDays: 30 }, failures: [] });
    expect((await policy.check({}, { workspaceId: "ws-abc", dontDelete: true })).failures).toEqual([]);
    expect(takeRequests()).toEqual(["GET /api/v2/ping"]);
  });

  test("with wsbridge:edition set, sends nothing at all", async () => {
    await configureWith(undefined, { "wsbridge:edition": "self-managed" });
    expect((await policy.check({}, { workspaceId: "ws-abc", deleteOlderThanNDays: 30 })).failures).toEqual([]);
    expect(takeRequests()).toEqual([]);
  });

  test("tolerates values still unknown during a preview (a workspace being created)", async () => {
    expect((await policy.check({}, { workspaceId: UNKNOWN, deleteOlderThanNDays: 30 })).failures).toEqual([]);
    expect((await policy.check({}, { workspaceId: "ws-abc", deleteOlderThanNDays: UNKNOWN })).failures).toEqual([]);
    expect((await policy.check({}, { workspaceId: "ws-abc", dontDelete: UNKNOWN })).failures).toEqual([]);
  });

  const BAD: [string, Record<string, unknown>, string, string][] = [
    ["both forms", { workspaceId: "ws-abc", deleteOlderThanNDays: 30, dontDelete: true }, "dontDelete", "must not be set together with deleteOlderThanNDays"],
    ["neither form", { workspaceId: "ws-abc" }, "deleteOlderThanNDays", "is required unless dontDelete: true is given"],
    ["zero days", { workspaceId: "ws-abc", deleteOlderThanNDays: 0 }, "deleteOlderThanNDays", "must be at least 1"],
    ["negative days", { workspaceId: "ws-abc", deleteOlderThanNDays: -5 }, "deleteOlderThanNDays", "must be at least 1"],
    ["a fraction of a day", { workspaceId: "ws-abc", deleteOlderThanNDays: 2.5 }, "deleteOlderThanNDays", "must be a whole number of days"],
    ["days as text", { workspaceId: "ws-abc", deleteOlderThanNDays: "30" }, "deleteOlderThanNDays", "must be a number of days"],
    ["dontDelete false", { workspaceId: "ws-abc", dontDelete: false }, "dontDelete", "must be true when given"],
    ["a malformed workspace id", { workspaceId: "prod", deleteOlderThanNDays: 30 }, "workspaceId", 'must be a workspace id ("ws-…")'],
    ["a workspace id that is a number", { workspaceId: 7, deleteOlderThanNDays: 30 }, "workspaceId", "must be a string"],
    ["an unknown property", { workspaceId: "ws-abc", deleteOlderThanNDays: 30, days: 30 }, "days", "is not a property of DataRetentionPolicy"],
    ["a misspelt property", { workspaceId: "ws-abc", deleteOlderThanNDays: 30, dontDelte: true }, "dontDelte", "is not a property of DataRetentionPolicy"],
  ];
  test.each(BAD)("refuses %s, naming the property and the rule, with no request", async (_what, inputs, property, rule) => {
    const { failures } = await policy.check({}, inputs);
    expect(failures.find((f) => f.property === property)?.reason).toContain(rule);
    expect(takeRequests()).toEqual([]);
  });

  test("names every bad property of one declaration: a fraction of a day and dontDelete false", async () => {
    const { failures } = await policy.check({}, { workspaceId: "ws-abc", deleteOlderThanNDays: 2.5, dontDelete: false });
    expect(failures).toEqual([
      { property: "deleteOlderThanNDays", reason: expect.stringContaining("must be a whole number of days") },
      { property: "dontDelete", reason: expect.stringContaining("must be true when given") },
    ]);
    expect(takeRequests()).toEqual([]);
  });

  test("refuses the hosted edition after one ping, naming the form and the edition", async () => {
    await hosted.configureWith();
    const { failures } = await policy.check({}, { workspaceId: "ws-abc", deleteOlderThanNDays: 30 });
    expect(failures).toEqual([{ property: "deleteOlderThanNDays", reason: expect.stringContaining("exist only in the self-managed edition") }]);
    expect(failures[0]?.reason).toContain(`${hosted.emulator.url} is the hosted edition (its ping says so)`);
    expect(takeRequests(hosted)).toEqual(["GET /api/v2/ping"]);
  });

  test("refuses the hosted edition named by wsbridge:edition without any request", async () => {
    await hosted.configureWith(undefined, { "wsbridge:edition": "hosted" });
    const { failures } = await policy.check({}, { workspaceId: "ws-abc", dontDelete: true });
    expect(failures).toEqual([{ property: "dontDelete", reason: expect.stringContaining("(wsbridge:edition says so)") }]);
    expect(takeRequests(hosted)).toEqual([]);
  });
});

describe("diff", () => {
  const olds = { workspaceId: "ws-abc", kind: "delete-older", deleteOlderThanNDays: 30, dontDelete: false, source: "workspace", policyId: "drp-1" };
  const dont = { ...olds, kind: "dont-delete", deleteOlderThanNDays: null, dontDelete: true };
  const update = (detailedDiff: unknown[]) => ({ changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff });

  test("the same policy is no change", async () => {
    expect(await policy.diff("ws-abc", olds, { workspaceId: "ws-abc", deleteOlderThanNDays: 30, __provider: "new text" }))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(await policy.diff("ws-abc", dont, { workspaceId: "ws-abc", dontDelete: true }))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
  });

  test("other days update in place, at deleteOlderThanNDays", async () => {
    expect(await policy.diff("ws-abc", olds, { workspaceId: "ws-abc", deleteOlderThanNDays: 31 }))
      .toEqual(update([{ path: "deleteOlderThanNDays", kind: "update", replace: false }]));
  });

  test("the other form updates in place: the new form is added, the one the program stopped declaring deleted from its inputs", async () => {
    expect(await policy.diff("ws-abc", olds, { workspaceId: "ws-abc", dontDelete: true })).toEqual(update([
      { path: "deleteOlderThanNDays", kind: "delete", replace: false, inputDiff: true },
      { path: "dontDelete", kind: "add", replace: false },
    ]));
    expect(await policy.diff("ws-abc", dont, { workspaceId: "ws-abc", deleteOlderThanNDays: 30 })).toEqual(update([
      { path: "deleteOlderThanNDays", kind: "add", replace: false },
      { path: "dontDelete", kind: "delete", replace: false, inputDiff: true },
    ]));
  });

  test("another workspace, or one not known yet, replaces", async () => {
    expect(await policy.diff("ws-abc", olds, { workspaceId: "ws-def", deleteOlderThanNDays: 30 })).toEqual({
      changes: true, replaces: ["workspaceId"], deleteBeforeReplace: false, detailedDiff: [{ path: "workspaceId", kind: "update", replace: true }],
    });
    expect(await policy.diff("ws-abc", olds, { workspaceId: UNKNOWN, deleteOlderThanNDays: 7 })).toEqual({
      changes: true, replaces: ["workspaceId"], deleteBeforeReplace: false, detailedDiff: [
        { path: "workspaceId", kind: "update", replace: true }, { path: "deleteOlderThanNDays", kind: "update", replace: false },
      ],
    });
  });

  test("days or dontDelete not known yet are an update at their own path", async () => {
    expect(await policy.diff("ws-abc", olds, { workspaceId: "ws-abc", deleteOlderThanNDays: UNKNOWN }))
      .toEqual(update([{ path: "deleteOlderThanNDays", kind: "update", replace: false }]));
    expect(await policy.diff("ws-abc", dont, { workspaceId: "ws-abc", dontDelete: UNKNOWN }))
      .toEqual(update([{ path: "dontDelete", kind: "update", replace: false }]));
    expect(await policy.diff("ws-abc", olds, { workspaceId: "ws-abc", dontDelete: UNKNOWN })).toEqual(update([
      { path: "deleteOlderThanNDays", kind: "delete", replace: false, inputDiff: true },
      { path: "dontDelete", kind: "update", replace: false },
    ]));
    // Days not known yet still end dont-delete: the program no longer declares it.
    expect(await policy.diff("ws-abc", dont, { workspaceId: "ws-abc", deleteOlderThanNDays: UNKNOWN })).toEqual(update([
      { path: "deleteOlderThanNDays", kind: "update", replace: false },
      { path: "dontDelete", kind: "delete", replace: false, inputDiff: true },
    ]));
  });

  test("sends no request", async () => {
    await policy.diff("ws-abc", olds, { workspaceId: "ws-abc", deleteOlderThanNDays: 31 });
    expect(takeRequests()).toEqual([]);
  });
});

describe("create, read, update, delete", () => {
  test("each operation sends exactly the requests its docs page lists, and destroy returns to the organization default", async () => {
    const ws = await newWorkspace();
    takeRequests();

    const created = await policy.create({ workspaceId: ws, deleteOlderThanNDays: 30, __provider: "x" });
    expect(takeRequests()).toEqual([`POST /api/v2${policyPath(ws)}`]);
    expect(created).toEqual({
      id: ws,
      outs: { workspaceId: ws, kind: "delete-older", deleteOlderThanNDays: 30, dontDelete: false, source: "workspace", policyId: expect.stringMatching(/^drp-/) },
    });

    const refreshed = await policy.read(ws, created.outs);
    expect(takeRequests()).toEqual([`GET /api/v2${policyPath(ws)}`]);
    expect(refreshed).toEqual({ id: ws, props: created.outs, inputs: { workspaceId: ws, deleteOlderThanNDays: 30 } });

    const switched = await policy.update(ws, created.outs, { workspaceId: ws, dontDelete: true });
    expect(takeRequests()).toEqual([`POST /api/v2${policyPath(ws)}`]);
    expect(switched.outs).toMatchObject({ kind: "dont-delete", deleteOlderThanNDays: null, dontDelete: true, source: "workspace" });
    expect(switched.outs.policyId).not.toBe(created.outs.policyId);
    expect((await api<Doc>("GET", policyPath(ws))).doc.data?.type).toBe("data-retention-policy-dont-deletes");
    takeRequests();

    const back = await policy.update(ws, switched.outs, { workspaceId: ws, deleteOlderThanNDays: 7 });
    expect(takeRequests()).toEqual([`POST /api/v2${policyPath(ws)}`]);
    expect(back.outs).toMatchObject({ kind: "delete-older", deleteOlderThanNDays: 7, dontDelete: false });

    await policy.delete(ws, back.outs);
    expect(takeRequests()).toEqual([`DELETE /api/v2${policyPath(ws)}`]);
    const fallback = await api<Doc>("GET", policyPath(ws));
    expect(fallback.doc.data?.attributes).toEqual({ "delete-older-than-n-days": ORG_DEFAULT_DAYS });
    expect(fallback.doc.data?.relationships?.["target"]?.data).toEqual({ id: fixture.emulator.organization, type: "organizations" });
    expect((await api<Doc>("GET", `/workspaces/${ws}`)).doc.data?.relationships?.["data-retention-policy"]?.data).toBeNull();
  });

  test("setting the same policy twice is safe: the second answer is the same policy", async () => {
    const ws = await newWorkspace();
    const first = await policy.create({ workspaceId: ws, deleteOlderThanNDays: 14 });
    const again = await policy.update(ws, first.outs, { workspaceId: ws, deleteOlderThanNDays: 14 });
    expect(again.outs).toEqual(first.outs);
  });

  test("a repeated delete, or one after the workspace is gone, is done", async () => {
    const ws = await newWorkspace();
    const { outs } = await policy.create({ workspaceId: ws, dontDelete: true });
    await policy.delete(ws, outs);
    takeRequests();
    // None set any more: C13 answers with the organization's default.
    await policy.delete(ws, outs);
    expect(takeRequests()).toEqual([`DELETE /api/v2${policyPath(ws)}`]);
    expect((await api("DELETE", `/workspaces/${ws}`)).status).toBe(204);
    takeRequests();
    await policy.delete(ws, outs);
    // 404: one read of the workspace tells "gone" from "may not". (The client also confirms the edition on a
    // 404, once per process: in a real run the preview's check has cached it already.)
    expect(takeRequests()).toEqual([`DELETE /api/v2${policyPath(ws)}`, "GET /api/v2/ping", `GET /api/v2/workspaces/${ws}`]);
  });
});

describe("refresh", () => {
  test("shows days or a form changed outside Pulumi as the inputs that would restore them", async () => {
    const ws = await newWorkspace();
    const { outs } = await policy.create({ workspaceId: ws, deleteOlderThanNDays: 30 });
    await api("POST", policyPath(ws), { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 5 } } });
    const drifted = await policy.read(ws, outs);
    expect(drifted.inputs).toEqual({ workspaceId: ws, deleteOlderThanNDays: 5 });
    expect((await policy.diff(ws, drifted.props ?? {}, { workspaceId: ws, deleteOlderThanNDays: 30 })).changes).toBe(true);
    await api("POST", policyPath(ws), { data: { type: "data-retention-policy-dont-deletes" } });
    const switched = await policy.read(ws, outs);
    expect(switched.inputs).toEqual({ workspaceId: ws, dontDelete: true });
    expect(switched.props).toMatchObject({ kind: "dont-delete", source: "workspace" });
  });

  test("a policy removed outside Pulumi (the organization default showing) makes the resource gone", async () => {
    const ws = await newWorkspace();
    const { outs } = await policy.create({ workspaceId: ws, deleteOlderThanNDays: 30 });
    expect((await api("DELETE", policyPath(ws))).status).toBe(204);
    takeRequests();
    expect(await policy.read(ws, outs)).toEqual({ id: "" });
    expect(takeRequests()).toEqual([`GET /api/v2${policyPath(ws)}`]);
  });

  test("a workspace deleted outside Pulumi makes the resource gone", async () => {
    const ws = await newWorkspace();
    const { outs } = await policy.create({ workspaceId: ws, deleteOlderThanNDays: 30 });
    await api("DELETE", `/workspaces/${ws}`);
    expect(await policy.read(ws, outs)).toEqual({ id: "" });
  });
});

describe("refusals", () => {
  test("a read-only token: the message names the admin permission it lacks", async () => {
    const ws = await newWorkspace();
    const readOnly = fixture.emulator.issueToken({ kind: "team", access: "read" });
    await configureWith(readOnly);
    takeRequests();
    const error = await failureOf(policy.create({ workspaceId: ws, deleteOlderThanNDays: 30 }));
    expect(error.message).toContain("the token lacks admin permission on the workspace, which setting its data retention policy requires");
    expect(error.message).toContain("can-update: false");
    expect(error.message).not.toContain(readOnly);
    expect(takeRequests()).toEqual([`POST /api/v2${policyPath(ws)}`, "GET /api/v2/ping", `GET /api/v2/workspaces/${ws}`]);
  });

  test("a read-only token cannot remove the policy, and destroy says so instead of claiming it is done", async () => {
    const ws = await newWorkspace();
    const { outs } = await policy.create({ workspaceId: ws, deleteOlderThanNDays: 30 });
    await configureWith(fixture.emulator.issueToken({ kind: "team", access: "read" }));
    const error = await failureOf(policy.delete(ws, outs));
    expect(error.message).toContain("which removing its data retention policy requires");
    expect((await api<Doc>("GET", policyPath(ws))).doc.data?.relationships?.["target"]?.data).toEqual({ id: ws, type: "workspaces" });
  });

  test("a workspace that does not exist is named", async () => {
    const error = await failureOf(policy.create({ workspaceId: "ws-doesnotexist01", deleteOlderThanNDays: 30 }));
    expect(error.message).toContain("workspace ws-doesnotexist01 does not exist, or the token may not see it");
  });

  test("the hosted edition is named by create too (a preview skipped with `up --skip-preview`)", async () => {
    await hosted.configureWith();
    const error = await failureOf(policy.create({ workspaceId: "ws-abc", deleteOlderThanNDays: 30 }));
    expect(error.message).toContain("only available in the self-managed edition");
  });
});

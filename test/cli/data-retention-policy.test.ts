// A DataRetentionPolicy through the real Pulumi CLI against a self-managed emulator whose organization
// has a default policy (90 days): a workspace and its policy in one program (`workspaceId: ws.id`,
// unknown at the first preview), a no-op preview that writes nothing, the days changed alone and the form
// switched (each previews exactly one in-place update and applies it with one request), drift made on the
// server shown after refresh as exactly the restore, a policy removed outside Pulumi recreated, two
// policies for one workspace refused at preview, and destroy returning the workspace to the organization's
// default.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { stepsOf, type Step } from "../support/engine-events";
import type { DataRetentionPolicyArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const TYPE = "pulumi-nodejs:dynamic/wsbridge:DataRetentionPolicy";
const ORG_DEFAULT_DAYS = 90;

type Args = Record<string, unknown>;
/** What the program declares for the policy (without workspaceId, which is `ws.id`). */
let policyArgs: Args = { deleteOlderThanNDays: 30 };
/** A second policy for the same workspace, when set. */
let duplicate = false;

const e2e = useRealCliStack({
  projectName: "wsbridge-data-retention",
  emulator: {
    edition: "self-managed",
    fixtures: { organizations: [{ name: "example-org", dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: ORG_DEFAULT_DAYS } }] },
  },
  program: async () => {
    const { Workspace, DataRetentionPolicy } = await import("pulumi-wsbridge");
    const ws = new Workspace("app", { name: "retention-app" });
    const drp = new DataRetentionPolicy("retention", { ...policyArgs, workspaceId: ws.id } as unknown as DataRetentionPolicyArgs);
    if (duplicate) new DataRetentionPolicy("retention-again", { workspaceId: ws.id, dontDelete: true });
    return { workspaceId: drp.workspaceId, kind: drp.kind, days: drp.deleteOlderThanNDays, source: drp.source, policyId: drp.policyId };
  },
});

// ---- helpers ---------------------------------------------------------------------------------

type Policy = { id: string; type: string; attributes: Record<string, unknown>; relationships: { target: { data: { id: string; type: string } } } };

async function workspaceId(): Promise<string> {
  return (await e2e.api<{ data: { id: string } }>("GET", "/organizations/example-org/workspaces/retention-app")).doc.data.id;
}

const policyPath = (ws: string) => `/workspaces/${ws}/relationships/data-retention-policy`;

async function livePolicy(): Promise<Policy> {
  const { status, doc } = await e2e.api<{ data: Policy }>("GET", policyPath(await workspaceId()));
  expect(status).toBe(200);
  return doc.data;
}

async function preview(): Promise<{ steps: Step[]; writes: string[]; reads: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  const requests = e2e.requestLines();
  return { steps: stepsOf(events, TYPE), writes: requests.filter((r) => !r.startsWith("GET")), reads: requests.filter((r) => r.startsWith("GET")) };
}

async function up(): Promise<{ changes: Record<string, number | undefined>; all: string[]; writes: string[]; outputs: Record<string, unknown> }> {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  const all = e2e.requestLines();
  const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
  return { changes: result.summary.resourceChanges ?? {}, all, writes: all.filter((r) => !r.startsWith("GET")), outputs };
}

// ---- create and no-op ------------------------------------------------------------------------

test("the first preview plans the policy's create while the workspace id is still unknown, and writes nothing", async () => {
  const { steps, writes, reads } = await preview();
  expect(steps).toEqual([{ op: "create", name: "retention", changedInputs: ["deleteOlderThanNDays", "workspaceId"] }]);
  expect(writes).toEqual([]);
  // Only the read-only ping that tells the edition.
  expect(reads).toEqual(["GET /api/v2/ping"]);
});

test("up creates the workspace and sets its policy with one request", async () => {
  const { changes, writes, outputs } = await up();
  expect(changes).toEqual({ create: 3 });
  const ws = await workspaceId();
  expect(writes).toEqual([`POST /api/v2/organizations/example-org/workspaces`, `POST /api/v2${policyPath(ws)}`]);
  const live = await livePolicy();
  expect(live).toMatchObject({ type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 30 } });
  expect(live.relationships.target.data).toEqual({ id: ws, type: "workspaces" });
  expect(outputs).toEqual({ workspaceId: ws, kind: "delete-older", days: 30, source: "workspace", policyId: live.id });
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("a preview with nothing changed plans nothing and sends no mutating request", async () => {
  const { steps, writes, reads } = await preview();
  expect(steps).toEqual([]);
  expect(writes).toEqual([]);
  // Not even the edition ping: an unchanged policy was written already.
  expect(reads).toEqual([]);
});

// ---- updates ---------------------------------------------------------------------------------

test("changing the days alone previews exactly that update and applies it with one request", async () => {
  policyArgs = { deleteOlderThanNDays: 45 };
  const { steps, writes } = await preview();
  expect(steps).toEqual([{ op: "update", name: "retention", changedInputs: ["deleteOlderThanNDays"] }]);
  expect(writes).toEqual([]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, update: 1 });
  // Every request of the update: the edition ping of check, and one C12.
  expect(applied.all).toEqual(["GET /api/v2/ping", `POST /api/v2${policyPath(await workspaceId())}`]);
  expect((await livePolicy()).attributes).toEqual({ "delete-older-than-n-days": 45 });
  expect(applied.outputs).toMatchObject({ kind: "delete-older", days: 45, source: "workspace" });
});

test("switching to dontDelete previews an update, not a replace, and applies it in place", async () => {
  const before = await livePolicy();
  policyArgs = { dontDelete: true };
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "retention", changedInputs: ["deleteOlderThanNDays", "dontDelete"] }]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, update: 1 });
  // One C12; no C13: the policy is never removed on the way.
  expect(applied.writes).toEqual([`POST /api/v2${policyPath(await workspaceId())}`]);
  const after = await livePolicy();
  expect(after.type).toBe("data-retention-policy-dont-deletes");
  expect(after.id).not.toBe(before.id);
  expect(applied.outputs).toMatchObject({ kind: "dont-delete", days: null, source: "workspace", policyId: after.id });
  expect((await preview()).steps).toEqual([]);
});

// ---- drift -----------------------------------------------------------------------------------

test("a policy changed on the server shows after refresh as exactly the restore up then makes", async () => {
  const ws = await workspaceId();
  expect((await e2e.api("POST", policyPath(ws), { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 5 } } })).status).toBe(200);
  e2e.emulator.clearRequests();
  await e2e.stack.refresh({ onOutput: e2e.log });
  // One read per resource: the workspace, and C11 for the policy.
  expect(e2e.requestLines())
    .toEqual(expect.arrayContaining([`GET /api/v2/workspaces/${ws}`, `GET /api/v2${policyPath(ws)}`]));
  expect(e2e.emulator.requests()).toHaveLength(2);
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "retention", changedInputs: ["deleteOlderThanNDays", "dontDelete"] }]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, update: 1 });
  expect((await livePolicy()).type).toBe("data-retention-policy-dont-deletes");
});

test("a policy removed on the server leaves the state at refresh, and up sets it again", async () => {
  const ws = await workspaceId();
  expect((await e2e.api("DELETE", policyPath(ws))).status).toBe(204);
  const refresh = await e2e.stack.refresh({ onOutput: e2e.log });
  expect(refresh.summary.resourceChanges?.delete).toBe(1);
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "create", name: "retention", changedInputs: ["dontDelete", "workspaceId"] }]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 2, create: 1 });
  expect(applied.writes).toEqual([`POST /api/v2${policyPath(ws)}`]);
  expect((await livePolicy()).relationships.target.data).toEqual({ id: ws, type: "workspaces" });
});

// ---- program checks --------------------------------------------------------------------------

test("two policies declared for one workspace fail the preview, naming both", async () => {
  duplicate = true;
  try {
    e2e.emulator.clearRequests();
    const message = String((await failureOf(e2e.stack.preview({ onOutput: e2e.log }))).message);
    expect(message).toContain('DataRetentionPolicy resources "retention" and "retention-again" both declare');
    expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  } finally {
    duplicate = false;
  }
});

// ---- destroy --------------------------------------------------------------------------------

test("destroying the policy returns the workspace to the organization's default, with one request", async () => {
  const ws = await workspaceId();
  const urn = `urn:pulumi:dev::wsbridge-data-retention::${TYPE}::retention`;
  e2e.emulator.clearRequests();
  const result = await e2e.stack.destroy({ target: [urn], onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ delete: 1, same: 2 });
  const writes = e2e.writes();
  expect(writes).toEqual([`DELETE /api/v2${policyPath(ws)}`]);
  const fallback = await livePolicy();
  expect(fallback.attributes).toEqual({ "delete-older-than-n-days": ORG_DEFAULT_DAYS });
  expect(fallback.relationships.target.data).toEqual({ id: "example-org", type: "organizations" });
  // The workspace itself stays, no longer pointing at a policy of its own.
  const { doc } = await e2e.api<{ data: { relationships: Record<string, { data: unknown }> } }>("GET", `/workspaces/${ws}`);
  expect(doc.data.relationships["data-retention-policy"]?.data).toBeNull();
});

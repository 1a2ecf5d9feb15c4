// RemoteStateConsumers through the real Pulumi CLI against the emulator, on one stack: a preview with
// a consumer created in the same program (an unknown list element), up, a reordered no-op preview
// that writes nothing, one consumer added and one removed (each previewed exactly and applied), drift
// made on the emulator (a managed consumer removed, an unmanaged one added) after refresh, 25
// consumers read over pages without a diff, exclusive mode (refused with a one-workspace admin team
// token, then applied with the owner's), bad inputs refused at preview without a write, and destroy
// removing only what the resource managed.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { stepsOf } from "../support/engine-events";
import type { RemoteStateConsumersArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const ORG = DEFAULT_ORGANIZATION;
const TYPE = "pulumi-nodejs:dynamic/wsbridge:RemoteStateConsumers";
const SUBJECT = "ws-rscsubject";
const [A, B, C, OUTSIDER, SHARED, BIG] = ["ws-rsca", "ws-rscb", "ws-rscc", "ws-rscoutsider", "ws-rscshared", "ws-rscbig"];
const PROJECT_SHARED = "ws-rscprojectshared";
const PAGED = Array.from({ length: 25 }, (_, i) => `ws-rscpage${String(i).padStart(2, "0")}`);

/** What the program declares; tests change it between operations. */
let declaredConsumers: string[] = [B, A];
let exclusive: boolean | undefined;
let declared = true;
let extra: { name: string; args: Record<string, unknown> }[] = [];
let madeId: string | undefined;

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);
const PLAIN = [SUBJECT, A, B, C, OUTSIDER, BIG, ...PAGED];

const e2e = useRealCliStack({
  projectName: "wsbridge-remote-state-consumers",
  emulator: {
    fixtures: {
      organizations: [{
        name: ORG,
        workspaces: [
          ...PLAIN.map((id) => ({ id, name: id.replace("ws-", "n-"), attributes: { "global-remote-state": false } })),
          { id: SHARED, name: "n-shared", attributes: { "global-remote-state": true } },
          { id: PROJECT_SHARED, name: "n-project-shared", attributes: { "project-remote-state": true } },
        ],
      }],
    },
  },
  program: async () => {
    const { Workspace, RemoteStateConsumers } = await import("pulumi-wsbridge");
    if (!declared) return {};
    const made = new Workspace("made", { name: "rsc-made" });
    made.id.apply((id) => { madeId = id; });
    const readers = new RemoteStateConsumers("readers", {
      workspaceId: SUBJECT, consumerIds: [made.id, ...declaredConsumers], ...(exclusive !== undefined && { exclusive }),
    });
    new RemoteStateConsumers("paged", { workspaceId: BIG, consumerIds: [...PAGED].reverse() });
    for (const e of extra) new RemoteStateConsumers(e.name, e.args as unknown as RemoteStateConsumersArgs);
    return { consumerIds: readers.consumerIds, allConsumerIds: readers.allConsumerIds };
  },
});

// ---- helpers ---------------------------------------------------------------------------------

type Page = { data: Array<{ id: string }> };

const rel = (id: string): string => `/api/v2/workspaces/${id}/relationships/remote-state-consumers`;
const refs = (list: string[]) => ({ data: list.map((id) => ({ type: "workspaces", id })) });

async function live(id: string): Promise<string[]> {
  const { status, doc } = await e2e.api<Page>("GET", `${rel(id).replace("/api/v2", "")}?page%5Bsize%5D=100`);
  expect(status).toBe(200);
  return doc.data.map((w) => w.id).sort();
}

async function preview(): Promise<{ steps: ReturnType<typeof stepsOf>; writes: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  return { steps: stepsOf(events, TYPE), writes: e2e.writes() };
}

async function up(): Promise<string[]> {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  return e2e.emulator.requests().filter((r) => r.path.startsWith(rel(SUBJECT))).map((r) => r.method);
}

const sorted = (...ids: (string | undefined)[]): string[] => ids.map(String).sort();

// ---- create, no-op, update -------------------------------------------------------------------

test("preview with a consumer created in the same program plans the creates and writes nothing; up adds them", async () => {
  const { steps, writes } = await preview();
  expect(steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create paged", "create readers"]);
  expect(writes).toEqual([]);
  expect(await up()).toEqual(["POST", "GET"]);
  expect(await live(SUBJECT)).toEqual(sorted(A, B, madeId));
  expect(await live(BIG)).toEqual([...PAGED].sort());
  const outputs = await e2e.stack.outputs();
  expect(outputs["consumerIds"]?.value).toEqual(sorted(A, B, madeId));
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("a reordered list and 25 paged consumers preview nothing and write nothing", async () => {
  declaredConsumers = [A, B];
  const { steps, writes } = await preview();
  expect(steps).toEqual([]);
  expect(writes).toEqual([]);
});

test("adding one consumer previews exactly that update; up adds it with one POST", async () => {
  declaredConsumers = [A, B, C];
  const { steps, writes } = await preview();
  expect(steps).toEqual([{ op: "update", name: "readers", changedInputs: ["consumerIds"] }]);
  expect(writes).toEqual([]);
  expect(await up()).toEqual(["POST", "GET"]);
  expect(await live(SUBJECT)).toEqual(sorted(A, B, C, madeId));
});

test("removing one consumer previews exactly that update; up removes it with one DELETE", async () => {
  declaredConsumers = [A, C];
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "readers", changedInputs: ["consumerIds"] }]);
  expect(await up()).toEqual(["DELETE", "GET"]);
  expect(await live(SUBJECT)).toEqual(sorted(A, C, madeId));
});

// ---- drift -----------------------------------------------------------------------------------

test("after refresh a managed consumer removed outside shows as the update that adds it; an unmanaged one never shows", async () => {
  expect((await e2e.api("DELETE", rel(SUBJECT).replace("/api/v2", ""), refs([A]))).status).toBe(204);
  expect((await e2e.api("POST", rel(SUBJECT).replace("/api/v2", ""), refs([OUTSIDER]))).status).toBe(204);
  e2e.emulator.clearRequests();
  await e2e.stack.refresh({ onOutput: e2e.log });
  expect(e2e.writes()).toEqual([]);
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "readers", changedInputs: ["consumerIds"] }]);
  expect(await up()).toEqual(["POST", "GET"]);
  expect(await live(SUBJECT)).toEqual(sorted(A, C, OUTSIDER, madeId));
  expect((await preview()).steps).toEqual([]);
  const outputs = await e2e.stack.outputs();
  expect(outputs["allConsumerIds"]?.value).toEqual(sorted(A, C, OUTSIDER, madeId));
});

// ---- exclusive -------------------------------------------------------------------------------

test("exclusive with a team that is admin on this workspace only fails with the permission it needs", async () => {
  exclusive = true;
  const team = e2e.emulator.issueToken({ kind: "team", access: "admin", workspaces: [SUBJECT] });
  await e2e.stack.setConfig("wsbridge:token", { value: team, secret: true });
  try {
    const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
    expect(message).toContain('"manage all workspaces"');
    expect(message).toContain("additive mode");
    expect(message).not.toContain(team);
  } finally {
    await e2e.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: true });
  }
  expect(await live(SUBJECT)).toEqual(sorted(A, C, OUTSIDER, madeId));
});

test("exclusive with the owner's token previews one update and replaces the whole list with one PATCH", async () => {
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "readers", changedInputs: ["exclusive"] }]);
  expect(await up()).toEqual(["PATCH"]);
  expect(await live(SUBJECT)).toEqual(sorted(A, C, madeId));
  exclusive = undefined;
  await up();
  expect((await preview()).steps).toEqual([]);
});

// ---- what preview refuses --------------------------------------------------------------------

test.each([
  ["bad types and names", { workspaceId: "n-subject", consumerIds: ["ws-ok1", "n-a"], exclusive: "yes", consumers: [] },
    ["property workspaceId value", "property consumerIds[1] value", "property exclusive value", "property consumers value"]],
  ["the workspace itself and a repeat", { workspaceId: C, consumerIds: [A, B, C, A] },
    ["property consumerIds[2] value", "the workspace itself", "property consumerIds[3] value", "repeats consumerIds[0]"]],
  ["a globally shared workspace", { workspaceId: SHARED, consumerIds: [A] }, ["property workspaceId value", "global-remote-state true"]],
  ["a workspace shared with its project", { workspaceId: PROJECT_SHARED, consumerIds: [A] }, ["property workspaceId value", "project-remote-state true"]],
  ["a second resource next to an exclusive one", { workspaceId: BIG, consumerIds: [A], exclusive: true },
    ['"paged" and "bad" both manage workspace "ws-rscbig"']],
])("%s fail at preview, naming the property or entry, without a write", async (_what, args, expected) => {
  extra = [{ name: "bad", args }];
  try {
    e2e.emulator.clearRequests();
    const message = await messageOf(e2e.stack.preview({ onOutput: e2e.log }));
    for (const part of expected) expect(message).toContain(part);
    expect(e2e.writes()).toEqual([]);
  } finally {
    extra = [];
  }
});

// ---- destroy ---------------------------------------------------------------------------------

test("destroy removes only the consumers the resources managed", async () => {
  expect((await e2e.api("POST", rel(SUBJECT).replace("/api/v2", ""), refs([OUTSIDER]))).status).toBe(204);
  declared = false;
  e2e.emulator.clearRequests();
  await e2e.stack.up({ onOutput: e2e.log });
  expect(await live(SUBJECT)).toEqual([OUTSIDER]);
  expect(await live(BIG)).toEqual([]);
});

// SshKeyAssignment through the real Pulumi CLI against the emulator, on one stack: a preview before
// anything exists (the workspace id unknown), up, a no-op preview that writes nothing, a key change
// previewed and applied as exactly one update, drift (another key, then none) restored after refresh,
// a move to another workspace (assigned there first), two assignments for one workspace refused,
// bad inputs refused at preview without a request, the server's refusals (a missing key, a read-only
// token) as messages naming what to fix, and removal: unassigned, unless someone else's key is there now.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { notesOf } from "../support/engine-events";
import type { SshKeyAssignmentArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

const ORG = DEFAULT_ORGANIZATION;
const KEY_A = "sshkey-cliaaaaaaaaaaaa01";
const KEY_B = "sshkey-clibbbbbbbbbbbb02";
const THEIRS = "sshkey-clitheirsssssss03";
const TYPE = "pulumi-nodejs:dynamic/wsbridge:SshKeyAssignment";

/** What the program declares; tests change it between operations. */
let sshKeyId = KEY_A;
let onSecondWorkspace = false;
let declared = true;
let extra: { name: string; args: Record<string, unknown> }[] = [];
/** Filled in by the program (the workspaces' ids, once known). */
const ids: { first?: string; second?: string } = {};

const e2e = useRealCliStack({
  projectName: "wsbridge-ssh-key-assignment",
  emulator: {
    fixtures: {
      organizations: [{ name: ORG, sshKeys: [{ id: KEY_A, name: "deploy-a" }, { id: KEY_B, name: "deploy-b" }, { id: THEIRS, name: "someone-elses" }] }],
    },
  },
  program: async () => {
    const { Workspace, SshKeyAssignment } = await import("pulumi-wsbridge");
    const first = new Workspace("first", { name: "ssh-first" });
    const second = new Workspace("second", { name: "ssh-second" });
    first.id.apply((id) => { ids.first = id; });
    second.id.apply((id) => { ids.second = id; });
    if (declared) {
      const key = new SshKeyAssignment("key", { workspaceId: onSecondWorkspace ? second.id : first.id, sshKeyId });
      for (const e of extra) new SshKeyAssignment(e.name, e.args as unknown as SshKeyAssignmentArgs);
      return { workspaceId: key.workspaceId, sshKeyId: key.sshKeyId };
    }
    return {};
  },
});

// ---- helpers ---------------------------------------------------------------------------------

type WorkspaceDoc = { data: { id: string; relationships: Record<string, { data?: { id: string } | null }> } };

async function liveKey(name: string): Promise<string | null> {
  const { status, doc } = await e2e.api<WorkspaceDoc>("GET", `/organizations/${ORG}/workspaces/${name}`);
  expect(status).toBe(200);
  return doc.data.relationships["ssh-key"]?.data?.id ?? null;
}

async function assignDirectly(workspaceId: string, key: string | null): Promise<void> {
  expect((await e2e.api("PATCH", `/workspaces/${workspaceId}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: key } } })).status).toBe(200);
}

interface Step { op: string; name: string; changedInputs: string[] }

function stepsOf(events: EngineEvent[]): Step[] {
  return events.flatMap((event) => {
    const m = event.resourcePreEvent?.metadata;
    if (!m || !m.type.startsWith("pulumi-nodejs:dynamic/wsbridge:")) return [];
    const before = m.old?.inputs ?? {};
    const after = m.new?.inputs ?? {};
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    keys.delete("__provider");
    const changedInputs = m.op === "update" || m.op === "replace"
      ? [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort() : [];
    return [{ op: m.op, name: m.urn.split("::").pop() ?? "", changedInputs }];
  }).filter((s) => s.op !== "same");
}


async function preview(): Promise<{ steps: Step[]; summary: Record<string, number | undefined>; writes: string[]; requests: number }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  const requests = e2e.emulator.requests();
  return {
    steps: stepsOf(events),
    summary: result.changeSummary,
    writes: e2e.writes(),
    requests: requests.length,
  };
}

async function up(): Promise<{ changes: Record<string, number | undefined>; requests: string[]; notes: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  return { changes: result.summary.resourceChanges ?? {}, requests: e2e.requestLines(), notes: notesOf(events) };
}

const sshPath = (id: string | undefined): string => `/api/v2/workspaces/${String(id)}/relationships/ssh-key`;

// ---- create and no-op ------------------------------------------------------------------------

test("a preview before anything exists plans both creates, with the workspace id still unknown, and sends nothing", async () => {
  const { steps, summary, requests } = await preview();
  // Resources registered together are planned in no fixed order.
  expect(steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create first", "create key", "create second"]);
  expect(summary).toEqual({ create: 4 }); // with the stack
  expect(requests).toBe(0);
});

test("up creates the workspaces and assigns the key with one request", async () => {
  const { changes, requests } = await up();
  expect(changes).toEqual({ create: 4 });
  expect(await liveKey("ssh-first")).toBe(KEY_A);
  expect(requests.filter((r) => r.includes("ssh-key"))).toEqual([`PATCH ${sshPath(ids.first)}`]);
  const outputs = await e2e.stack.outputs();
  expect(outputs["workspaceId"]?.value).toBe(ids.first);
  expect(outputs["sshKeyId"]?.value).toBe(KEY_A);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("a preview with nothing changed plans nothing and sends no request", async () => {
  const { steps, summary, requests } = await preview();
  expect(steps).toEqual([]);
  expect(summary).toEqual({ same: 4 }); // with the stack
  expect(requests).toBe(0);
});

// ---- update ----------------------------------------------------------------------------------

test("changing sshKeyId alone previews exactly that update, and up applies it with one request", async () => {
  sshKeyId = KEY_B;
  const { steps, summary, writes } = await preview();
  expect(steps).toEqual([{ op: "update", name: "key", changedInputs: ["sshKeyId"] }]);
  expect(summary).toEqual({ same: 3, update: 1 });
  expect(writes).toEqual([]);
  const { changes, requests } = await up();
  expect(changes).toEqual({ same: 3, update: 1 });
  expect(requests).toEqual([`PATCH ${sshPath(ids.first)}`]);
  expect(await liveKey("ssh-first")).toBe(KEY_B);
  expect((await preview()).steps).toEqual([]);
});

test("up --replace keeps the key assigned: the new resource assigns it, the old one's delete leaves it", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log, replace: [`urn:pulumi:dev::wsbridge-ssh-key-assignment::${TYPE}::key`] });
  expect(result.summary.resourceChanges).toEqual({ same: 3, replace: 1 });
  expect(e2e.requestLines()).toEqual([
    `PATCH ${sshPath(ids.first)}`, `GET /api/v2/workspaces/${String(ids.first)}`,
  ]);
  expect(await liveKey("ssh-first")).toBe(KEY_B);
});

// ---- drift -----------------------------------------------------------------------------------

test("another key assigned outside Pulumi shows after refresh as exactly the restore, which up makes", async () => {
  await assignDirectly(String(ids.first), THEIRS);
  e2e.emulator.clearRequests();
  await e2e.stack.refresh({ onOutput: e2e.log });
  // One read per resource: the two workspaces and the assignment.
  expect(e2e.emulator.requests().filter((r) => r.path === `/api/v2/workspaces/${String(ids.first)}`)).toHaveLength(2);
  const { steps, writes } = await preview();
  expect(steps).toEqual([{ op: "update", name: "key", changedInputs: ["sshKeyId"] }]);
  expect(writes).toEqual([]);
  const { requests } = await up();
  expect(requests).toEqual([`PATCH ${sshPath(ids.first)}`]);
  expect(await liveKey("ssh-first")).toBe(KEY_B);
  expect((await preview()).steps).toEqual([]);
});

test("a key unassigned outside Pulumi shows after refresh as exactly the restore, which up makes", async () => {
  await assignDirectly(String(ids.first), null);
  await e2e.stack.refresh({ onOutput: e2e.log });
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "key", changedInputs: ["sshKeyId"] }]);
  await up();
  expect(await liveKey("ssh-first")).toBe(KEY_B);
});

// ---- what preview refuses --------------------------------------------------------------------

test("two assignments for one workspace fail the preview, naming both", async () => {
  extra = [{ name: "duplicate", args: { workspaceId: ids.first, sshKeyId: KEY_A } }];
  try {
    e2e.emulator.clearRequests();
    const message = await messageOf(e2e.stack.preview({ onOutput: e2e.log }));
    // The order follows registration, which the engine does not fix.
    expect(message).toMatch(new RegExp(`SshKeyAssignment resources "(key|duplicate)" and "(key|duplicate)" both declare "${String(ids.first)}"`));
    expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  } finally {
    extra = [];
  }
});

/** [what is wrong, the inputs, the property the message names, a part of the rule it states] */
const BAD: [string, Record<string, unknown>, string, string][] = [
  ["a missing workspaceId", { sshKeyId: KEY_A }, "workspaceId", "is required"],
  ["a missing sshKeyId", { workspaceId: "ws-abc123" }, "sshKeyId", "is required"],
  ["a workspace name for workspaceId", { workspaceId: "ssh-first", sshKeyId: KEY_A }, "workspaceId", 'must be a workspace id ("ws-…")'],
  ["a key name for sshKeyId", { workspaceId: "ws-abc123", sshKeyId: "deploy-a" }, "sshKeyId", 'must be an SSH key id ("sshkey-…")'],
  ["a number for workspaceId", { workspaceId: 7, sshKeyId: KEY_A }, "workspaceId", "must be a string"],
  ["a boolean for sshKeyId", { workspaceId: "ws-abc123", sshKeyId: true }, "sshKeyId", "must be a string"],
  ["an unknown property", { workspaceId: "ws-abc123", sshKeyId: KEY_A, keyName: "deploy-a" }, "keyName", "is not a property of SshKeyAssignment"],
  ["a key id with a space", { workspaceId: "ws-abc123", sshKeyId: "sshkey-a b" }, "sshKeyId", 'must be an SSH key id ("sshkey-…")'],
];

test.each(BAD)("%s fails at preview, naming the property and the rule, with no request", async (_what, args, property, rule) => {
  extra = [{ name: "bad", args }];
  try {
    e2e.emulator.clearRequests();
    const message = await messageOf(e2e.stack.preview({ onOutput: e2e.log }));
    expect(message).toContain(`resource 'bad': property ${property} value`);
    expect(message).toContain(rule);
    expect(e2e.emulator.requests()).toEqual([]);
  } finally {
    extra = [];
  }
});

// ---- what the server refuses -----------------------------------------------------------------

test("a key that does not exist fails up with a message naming sshKeyId, and changes nothing", async () => {
  sshKeyId = "sshkey-doesnotexist00000";
  try {
    const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
    expect(message).toContain('sshKeyId "sshkey-doesnotexist00000" was refused');
    expect(message).toContain("no such SSH key in the workspace's organization");
    expect(await liveKey("ssh-first")).toBe(KEY_B);
  } finally {
    sshKeyId = KEY_B;
  }
});

test("a read-only token's refusal says admin access on the workspace is missing", async () => {
  const readOnly = e2e.emulator.issueToken({ kind: "team", access: "read" });
  await e2e.stack.setConfig("wsbridge:token", { value: readOnly, secret: true });
  sshKeyId = KEY_A;
  try {
    const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
    expect(message).toContain("the SSH key was not assigned because the token may not change the workspace's settings");
    expect(message).toContain("it needs admin access on the workspace");
    expect(message).not.toContain(readOnly);
    expect(await liveKey("ssh-first")).toBe(KEY_B);
  } finally {
    sshKeyId = KEY_B;
    await e2e.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: true });
  }
  expect(e2e.printed).not.toContain(readOnly);
});

// ---- another workspace -----------------------------------------------------------------------

test("moving to another workspace replaces: assigned there first, then unassigned from the old one", async () => {
  onSecondWorkspace = true;
  const { steps, summary, writes } = await preview();
  expect(steps.filter((s) => s.name === "key").map((s) => s.op)).toContain("replace");
  expect(summary).toEqual({ same: 3, replace: 1 });
  expect(writes).toEqual([]);
  const { requests } = await up();
  expect(requests).toEqual([
    `PATCH ${sshPath(ids.second)}`,
    `GET /api/v2/workspaces/${String(ids.first)}`, `PATCH ${sshPath(ids.first)}`,
  ]);
  expect(await liveKey("ssh-second")).toBe(KEY_B);
  expect(await liveKey("ssh-first")).toBeNull();
});

// ---- removal ---------------------------------------------------------------------------------

test("removing the assignment unassigns the key (a read, then one request), and keeps the workspace", async () => {
  declared = false;
  const { changes, requests } = await up();
  expect(changes).toEqual({ same: 3, delete: 1 });
  expect(requests).toEqual([`GET /api/v2/workspaces/${String(ids.second)}`, `PATCH ${sshPath(ids.second)}`]);
  expect(await liveKey("ssh-second")).toBeNull();
});

test("destroy when someone else's key is assigned now leaves that key (a read, no write), warns, and succeeds", async () => {
  declared = true;
  const readded = await up();
  expect(readded.requests).toEqual([`PATCH ${sshPath(ids.second)}`]);
  await assignDirectly(String(ids.second), THEIRS);
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const destroyed = await e2e.stack.destroy({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(destroyed.summary.result).toBe("succeeded");
  const requests = e2e.requestLines();
  expect(requests.filter((r) => r.includes("ssh-key") || r === `GET /api/v2/workspaces/${String(ids.second)}`))
    .toEqual([`GET /api/v2/workspaces/${String(ids.second)}`]);
  expect(notesOf(events)).toContainEqual(expect.stringContaining(
    `the workspace now uses SSH key "${THEIRS}", not "${KEY_B}" that this resource assigned, so it was left assigned`));
  // The workspaces went after it.
  expect((await e2e.api("GET", `/organizations/${ORG}/workspaces/ssh-second`)).status).toBe(404);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

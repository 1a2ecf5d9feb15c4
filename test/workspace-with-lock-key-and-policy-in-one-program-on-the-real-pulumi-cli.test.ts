// The three attachments together, as users write them: one program creates a workspace, locks it,
// assigns an SSH key and sets a retention policy in one `up` (self-managed edition), previews clean,
// and destroys in the right order: the attachments first (the lock before the workspace's safe
// delete, which a locked workspace refuses), the workspace last.
import type { EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { DEFAULT_ORGANIZATION, startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";

const ORG = DEFAULT_ORGANIZATION;
const KEY = "sshkey-deploy0000000001";

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
let printed = "";

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({
    port: 0,
    edition: "self-managed",
    fixtures: { organizations: [{ name: ORG, sshKeys: [{ id: KEY, name: "deploy" }] }] },
  });
  harness = await createStack({
    cli,
    projectName: "wsbridge-attachments",
    config: emulatorStackConfig(emulator),
    program: async () => {
      const { Workspace, WorkspaceLock, SshKeyAssignment, DataRetentionPolicy } = await import("pulumi-wsbridge");
      const ws = new Workspace("app", { name: "app-prod", description: "locked, keyed, retained" });
      new WorkspaceLock("freeze", { workspaceId: ws.id, reason: "change freeze" });
      new SshKeyAssignment("key", { workspaceId: ws.id, sshKeyId: KEY });
      new DataRetentionPolicy("retention", { workspaceId: ws.id, deleteOlderThanNDays: 30 });
      return { id: ws.id };
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.dispose();
  await emulator?.close();
});

async function workspace(): Promise<{ status: number; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: { id: string } | null }>; id?: string }> {
  const res = await request(`${emulator.url}/api/v2/organizations/${ORG}/workspaces/app-prod`, { headers: { authorization: `Bearer ${emulator.token}` } });
  const body = (await res.body.json()) as { data?: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string } | null }> } };
  return { status: res.statusCode, attributes: body.data?.attributes, relationships: body.data?.relationships, id: body.data?.id };
}

test("one up creates the workspace, locks it, assigns the key and sets the policy", async () => {
  const preview = await harness.stack.preview({ onOutput: (t) => { printed += t; } });
  expect(preview.changeSummary).toEqual({ create: 5 });
  const up = await harness.stack.up({ onOutput: (t) => { printed += t; } });
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const ws = await workspace();
  expect(ws.attributes?.["locked"]).toBe(true);
  expect(ws.attributes?.["locked-reason"]).toBe("change freeze");
  expect(ws.relationships?.["ssh-key"]?.data?.id).toBe(KEY);
  const policy = await request(`${emulator.url}/api/v2/workspaces/${ws.id}/relationships/data-retention-policy`, { headers: { authorization: `Bearer ${emulator.token}` } });
  const doc = (await policy.body.json()) as { data: { attributes: Record<string, unknown> } };
  expect(doc.data.attributes["delete-older-than-n-days"]).toBe(30);
});

test("the next preview is clean and writes nothing", async () => {
  const events: EngineEvent[] = [];
  emulator.clearRequests();
  const preview = await harness.stack.preview({ onEvent: (e) => events.push(e) });
  expect(preview.changeSummary).toEqual({ same: 5 });
  expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
});

test("destroy removes the attachments first, then the workspace, and leaves nothing", async () => {
  emulator.clearRequests();
  const destroyed = await harness.stack.destroy({ onOutput: (t) => { printed += t; } });
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 5 });
  const writes = emulator.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path.replace(/ws-[A-Za-z0-9]+/, "ws-*")}`);
  // The workspace's safe delete comes last: after the unlock, the unassign and the policy's removal.
  expect(writes[writes.length - 1]).toBe("POST /api/v2/workspaces/ws-*/actions/safe-delete");
  expect(writes.slice(0, -1).sort()).toEqual([
    "DELETE /api/v2/workspaces/ws-*/relationships/data-retention-policy",
    "PATCH /api/v2/workspaces/ws-*/relationships/ssh-key",
    "POST /api/v2/workspaces/ws-*/actions/unlock",
  ]);
  expect((await workspace()).status).toBe(404);
  expect(printed).not.toContain(emulator.token);
});

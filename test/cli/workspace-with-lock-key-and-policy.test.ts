// The three attachments together, as users write them: one program creates a workspace, locks it,
// assigns an SSH key and sets a retention policy in one `up` (self-managed edition), previews clean,
// and destroys in the right order: the attachments first (the lock before the workspace's safe
// delete, which a locked workspace refuses), the workspace last.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { useRealCliStack } from "../support/real-cli-stack";

const ORG = DEFAULT_ORGANIZATION;
const KEY = "sshkey-deploy0000000001";

const e2e = useRealCliStack({
  projectName: "wsbridge-attachments",
  emulator: { edition: "self-managed", fixtures: { organizations: [{ name: ORG, sshKeys: [{ id: KEY, name: "deploy" }] }] } },
  program: async () => {
    const { Workspace, WorkspaceLock, SshKeyAssignment, DataRetentionPolicy } = await import("pulumi-wsbridge");
    const ws = new Workspace("app", { name: "app-prod", description: "locked, keyed, retained" });
    new WorkspaceLock("freeze", { workspaceId: ws.id, reason: "change freeze" });
    new SshKeyAssignment("key", { workspaceId: ws.id, sshKeyId: KEY });
    new DataRetentionPolicy("retention", { workspaceId: ws.id, deleteOlderThanNDays: 30 });
    return { id: ws.id };
  },
});

type WorkspaceDoc = { data?: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string } | null }> } };

async function workspace(): Promise<{ status: number; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: { id: string } | null }>; id?: string }> {
  const { status, doc } = await e2e.api<WorkspaceDoc>("GET", `/organizations/${ORG}/workspaces/app-prod`);
  return { status, attributes: doc.data?.attributes, relationships: doc.data?.relationships, id: doc.data?.id };
}

test("one up creates the workspace, locks it, assigns the key and sets the policy", async () => {
  const preview = await e2e.stack.preview({ onOutput: e2e.log });
  expect(preview.changeSummary).toEqual({ create: 5 });
  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const ws = await workspace();
  expect(ws.attributes?.["locked"]).toBe(true);
  expect(ws.attributes?.["locked-reason"]).toBe("change freeze");
  expect(ws.relationships?.["ssh-key"]?.data?.id).toBe(KEY);
  const { doc } = await e2e.api<{ data: { attributes: Record<string, unknown> } }>("GET", `/workspaces/${ws.id}/relationships/data-retention-policy`);
  expect(doc.data.attributes["delete-older-than-n-days"]).toBe(30);
});

test("the next preview is clean and writes nothing", async () => {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const preview = await e2e.stack.preview({ onEvent: (e) => events.push(e) });
  expect(preview.changeSummary).toEqual({ same: 5 });
  expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
});

test("destroy removes the attachments first, then the workspace, and leaves nothing", async () => {
  e2e.emulator.clearRequests();
  const destroyed = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 5 });
  const writes = e2e.writes((path) => path.replace(/ws-[A-Za-z0-9]+/, "ws-*"));
  // The workspace's safe delete comes last: after the unlock, the unassign and the policy's removal.
  expect(writes[writes.length - 1]).toBe("POST /api/v2/workspaces/ws-*/actions/safe-delete");
  expect(writes.slice(0, -1).sort()).toEqual([
    "DELETE /api/v2/workspaces/ws-*/relationships/data-retention-policy",
    "PATCH /api/v2/workspaces/ws-*/relationships/ssh-key",
    "POST /api/v2/workspaces/ws-*/actions/unlock",
  ]);
  expect((await workspace()).status).toBe(404);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

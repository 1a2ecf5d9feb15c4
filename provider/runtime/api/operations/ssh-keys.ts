/**
 * B4. SSH key assignment: `PATCH /workspaces/:id/relationships/ssh-key` with `attributes.id` set, or null
 * to unassign. Setting a value is idempotent, so it is retried like a read.
 */
import { sshKeyBody } from "../documents/workspace-relations";
import { toWorkspace, workspaceDocument, type Workspace } from "../documents/workspaces";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

async function setSshKey(core: Requester, workspaceId: string, sshKeyId: string | null): Promise<Workspace> {
  const res = await core.request({
    method: "PATCH", path: `/api/v2/workspaces/${seg(workspaceId)}/relationships/ssh-key`, idempotent: true,
    body: sshKeyBody(sshKeyId),
  });
  return toWorkspace(core.parse(workspaceDocument, res).data);
}

/** B4 (assign). */
export async function assignSshKey(core: Requester, workspaceId: string, sshKeyId: string): Promise<Workspace> {
  requireId("assignSshKey", "workspaceId", workspaceId);
  requireId("assignSshKey", "sshKeyId", sshKeyId);
  return setSshKey(core, workspaceId, sshKeyId);
}

/** B4 (unassign: id null). */
export async function unassignSshKey(core: Requester, workspaceId: string): Promise<Workspace> {
  requireId("unassignSshKey", "workspaceId", workspaceId);
  return setSshKey(core, workspaceId, null);
}

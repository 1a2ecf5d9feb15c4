/**
 * B1–B3. Lock, unlock, force-unlock. All are POSTs that change state, so a lost connection is never
 * repeated (OutcomeUnknownError: read the workspace's `locked` to resolve). Unlock's 503 ("the latest
 * intermediate state version is not finalized") is retried for `retry.unlockRetryPeriodMs`.
 */
import { lockBody } from "../documents/workspace-relations";
import { toWorkspace, workspaceDocument, type Workspace } from "../documents/workspaces";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

const action = (workspaceId: string, name: string) => `/api/v2/workspaces/${seg(workspaceId)}/actions/${name}`;

/** B1. 409 (ConflictError reason "already-locked") when locked. */
export async function lockWorkspace(core: Requester, workspaceId: string, reason?: string): Promise<Workspace> {
  requireId("lockWorkspace", "workspaceId", workspaceId);
  const res = await core.request({
    method: "POST", path: action(workspaceId, "lock"), ...(reason === undefined ? {} : { body: lockBody(reason) }),
  });
  return toWorkspace(core.parse(workspaceDocument, res).data);
}

/** B2. 409 reason "not-locked" or "locked-by-other". */
export async function unlockWorkspace(core: Requester, workspaceId: string): Promise<Workspace> {
  requireId("unlockWorkspace", "workspaceId", workspaceId);
  const res = await core.request({ method: "POST", path: action(workspaceId, "unlock"), retryUnavailable: true });
  return toWorkspace(core.parse(workspaceDocument, res).data);
}

/** B3. 409 reason "not-locked". */
export async function forceUnlockWorkspace(core: Requester, workspaceId: string): Promise<Workspace> {
  requireId("forceUnlockWorkspace", "workspaceId", workspaceId);
  const res = await core.request({ method: "POST", path: action(workspaceId, "force-unlock") });
  return toWorkspace(core.parse(workspaceDocument, res).data);
}

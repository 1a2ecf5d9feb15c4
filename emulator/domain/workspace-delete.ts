/**
 * Deleting a workspace and everything that hangs off it, and the safe-delete check.
 */
import { errors } from "../errors";
import type { WorkspaceRecord } from "../store/model";
import type { Store } from "../store/store";
import { removeOrphanTags } from "./flat-tags";

/**
 * Throws 409 when safe delete must refuse: a lock (held by anyone: a user, a team or a run),
 * resources under management, or state still processing. The details are the texts go-tfe matches
 * ("locked", "being processed", otherwise "still managing resources").
 */
export function assertSafeToDelete(store: Store, ws: WorkspaceRecord): void {
  if (ws.lock) {
    throw errors.conflict("Workspace is currently locked. Workspace must be unlocked before it can be safely deleted");
  }
  const current = ws.currentStateVersionId ? store.stateVersions.get(ws.currentStateVersionId) : undefined;
  if (current && current.resourceCount > 0) {
    throw errors.conflict("workspace cannot be safely deleted because it is still managing resources");
  }
  const pending = store.stateVersions.find((sv) => sv.workspaceId === ws.id && !sv.finalized && !sv.discarded && !sv.intermediate);
  if (pending) {
    throw errors.conflict("Latest workspace state is being processed to discover resources, please try again later");
  }
}

export function deleteWorkspace(store: Store, ws: WorkspaceRecord): void {
  store.workspaces.delete(ws.id);
  for (const other of store.workspacesOf(ws.organization)) {
    if (other.remoteStateConsumerIds.includes(ws.id)) {
      store.workspaces.put({ ...other, remoteStateConsumerIds: other.remoteStateConsumerIds.filter((id) => id !== ws.id) });
    }
  }
  for (const sv of store.stateVersions.filter((s) => s.workspaceId === ws.id)) store.stateVersions.delete(sv.id);
  for (const r of store.runs.filter((x) => x.workspaceId === ws.id)) store.runs.delete(r.id);
  for (const g of store.teamWorkspaces.filter((x) => x.workspaceId === ws.id)) store.teamWorkspaces.delete(g.id);
  for (const p of store.agentPools.filter((x) => x.allowedWorkspaceIds.includes(ws.id))) {
    store.agentPools.put({ ...p, allowedWorkspaceIds: p.allowedWorkspaceIds.filter((id) => id !== ws.id) });
  }
  removeOrphanTags(store, ws.organization);
}

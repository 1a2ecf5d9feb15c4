/**
 * C1–C4. Remote state consumers: workspaces allowed to read this workspace's state. Adding a present
 * consumer and removing an absent one are ignored by the server, so all three writes are idempotent.
 */
import { remoteStateConsumersBody as body } from "../documents/workspace-relations";
import { toWorkspace, workspaceListDocument, type Workspace } from "../documents/workspaces";
import { nextPageOf, MAX_PAGE_SIZE, paginate } from "../paginate";
import { seg, type Requester } from "../requester";
import { requireId, requireIdList } from "./common";

const consumersPath = (workspaceId: string) => `/api/v2/workspaces/${seg(workspaceId)}/relationships/remote-state-consumers`;

/** C1. Reads every page. */
export function listRemoteStateConsumers(core: Requester, workspaceId: string): AsyncGenerator<Workspace, void, undefined> {
  requireId("listRemoteStateConsumers", "workspaceId", workspaceId);
  return paginate(async (page) => {
    const res = await core.request({
      method: "GET", path: consumersPath(workspaceId), query: { "page[number]": page, "page[size]": MAX_PAGE_SIZE },
    });
    const doc = core.parse(workspaceListDocument, res);
    return { items: doc.data.map((w) => toWorkspace(w)), nextPage: nextPageOf(doc) };
  });
}

/** C2. An empty list sends nothing. */
export async function addRemoteStateConsumers(core: Requester, workspaceId: string, consumerIds: string[]): Promise<void> {
  requireId("addRemoteStateConsumers", "workspaceId", workspaceId);
  requireIdList("addRemoteStateConsumers", "consumerIds", consumerIds);
  if (consumerIds.length === 0) return;
  await core.request({ method: "POST", path: consumersPath(workspaceId), body: body(consumerIds), idempotent: true });
}

/** C3. Replaces the whole list (an empty list clears it). */
export async function replaceRemoteStateConsumers(core: Requester, workspaceId: string, consumerIds: string[]): Promise<void> {
  requireId("replaceRemoteStateConsumers", "workspaceId", workspaceId);
  requireIdList("replaceRemoteStateConsumers", "consumerIds", consumerIds);
  await core.request({ method: "PATCH", path: consumersPath(workspaceId), body: body(consumerIds), idempotent: true });
}

/** C4. An empty list sends nothing. */
export async function removeRemoteStateConsumers(core: Requester, workspaceId: string, consumerIds: string[]): Promise<void> {
  requireId("removeRemoteStateConsumers", "workspaceId", workspaceId);
  requireIdList("removeRemoteStateConsumers", "consumerIds", consumerIds);
  if (consumerIds.length === 0) return;
  await core.request({ method: "DELETE", path: consumersPath(workspaceId), body: body(consumerIds) });
}

/**
 * B4: assign (`attributes.id` = key id) or unassign (`attributes.id` = null) a workspace's SSH key.
 */
import type { HandlerResult, RequestContext, RouteDef } from "../context";
import { errors } from "../errors";
import { nowIso } from "../ids";
import { readDataObject } from "../jsonapi";
import { adminWorkspace, workspaceDocument } from "./lookup";

function assign(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const data = readDataObject(ctx.body, "workspaces");
  if (!data.has("id")) throw errors.invalidAttribute("id is required (an SSH key id, or null to unassign)", "/data/attributes/id");
  const id = data.attributes["id"];
  if (id !== null && typeof id !== "string") throw errors.invalidAttribute("id must be a string or null", "/data/attributes/id");
  let sshKeyId: string | null = null;
  if (typeof id === "string" && id !== "") {
    const key = ctx.app.store.sshKeys.get(id);
    if (!key || key.organization !== ws.organization) throw errors.notFound();
    sshKeyId = key.id;
  }
  const next = { ...ws, sshKeyId, updatedAt: nowIso() };
  ctx.app.store.workspaces.put(next);
  return workspaceDocument(ctx, next);
}

export const sshKeyRoutes: RouteDef[] = [
  { method: "PATCH", path: "/api/v2/workspaces/:workspace_id/relationships/ssh-key", handler: assign },
];

/**
 * C1–C4: remote state consumers. Changes apply only while the workspace shares its state neither
 * with the whole organization (`global-remote-state`) nor with its project (`project-remote-state`).
 */
import { canManageAllWorkspaces } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { errors } from "../errors";
import { paginate, readDataArray, readPage } from "../jsonapi";
import type { WorkspaceRecord } from "../store/model";
import { serializeWorkspace } from "../serializers/workspace";
import { adminWorkspace, rightsOn, visibleWorkspace } from "./lookup";

const PATH = "/api/v2/workspaces/:workspace_id/relationships/remote-state-consumers";

function list(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  const page = readPage(ctx);
  const store = ctx.app.store;
  const candidates = ws.globalRemoteState
    ? store.workspacesOf(ws.organization).filter((w) => w.id !== ws.id)
    : ws.projectRemoteState
      ? store.workspacesOf(ws.organization).filter((w) => w.id !== ws.id && w.projectId === ws.projectId)
      : ws.remoteStateConsumerIds.map((id) => store.workspaces.get(id)).filter((w): w is WorkspaceRecord => w !== undefined);
  const readable = candidates.filter((w) => rightsOn(ctx, w).read);
  return { status: 200, body: paginate(ctx, readable, page, (w) => serializeWorkspace(ctx.app, ctx.principal, w)) };
}

/** Validates the body: every member a readable workspace of the same organization, never the subject itself. */
function readConsumers(ctx: RequestContext, ws: WorkspaceRecord): string[] {
  if (ws.globalRemoteState) {
    throw errors.invalidAttribute(
      "Remote state consumers cannot be changed while global remote state sharing is enabled",
      "/data",
    );
  }
  if (ws.projectRemoteState) {
    throw errors.invalidAttribute(
      "Remote state consumers cannot be changed while project remote state sharing is enabled",
      "/data",
    );
  }
  const members = readDataArray(ctx.body);
  return members.map((m, i) => {
    if (m["type"] !== "workspaces") throw errors.invalidAttribute('type must be "workspaces"', `/data/${i}/type`);
    const id = m["id"];
    if (typeof id !== "string" || id === "") throw errors.invalidAttribute("id is required", `/data/${i}/id`);
    if (id === ws.id) throw errors.invalidAttribute("A workspace cannot be a remote state consumer of itself", `/data/${i}/id`);
    const other = ctx.app.store.workspaces.get(id);
    if (!other || other.organization !== ws.organization || !rightsOn(ctx, other).read) {
      throw errors.invalidAttribute(`Workspace ${id} not found`, `/data/${i}/id`);
    }
    return id;
  });
}

function save(ctx: RequestContext, ws: WorkspaceRecord, ids: string[]): HandlerResult {
  ctx.app.store.workspaces.put({ ...ws, remoteStateConsumerIds: ids });
  return { status: 204 };
}

function add(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const ids = [...ws.remoteStateConsumerIds];
  for (const id of readConsumers(ctx, ws)) if (!ids.includes(id)) ids.push(id);
  return save(ctx, ws, ids);
}

function replace(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  if (!canManageAllWorkspaces(caller(ctx), ws.organization)) throw errors.notFound();
  return save(ctx, ws, [...new Set(readConsumers(ctx, ws))]);
}

function remove(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const drop = new Set(readConsumers(ctx, ws));
  return save(ctx, ws, ws.remoteStateConsumerIds.filter((id) => !drop.has(id)));
}

export const remoteStateConsumerRoutes: RouteDef[] = [
  { method: "GET", path: PATH, handler: list },
  { method: "POST", path: PATH, handler: add },
  { method: "PATCH", path: PATH, handler: replace },
  { method: "DELETE", path: PATH, handler: remove },
];

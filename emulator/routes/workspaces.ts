/**
 * A1–A10: workspace create, list, show, update, safe delete and force delete.
 */
import { canManageAllWorkspaces } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { assertSafeToDelete, deleteWorkspace } from "../domain/workspace-delete";
import { applyWorkspaceInput, commitWorkspace } from "../domain/workspace-input";
import { filterWorkspaces, sortWorkspaces } from "../domain/workspace-query";
import { errors } from "../errors";
import { nowIso } from "../ids";
import { paginate, readDataObject, readPage } from "../jsonapi";
import { buildIncluded, parseInclude, serializeWorkspace } from "../serializers/workspace";
import { adminWorkspace, rightsOn, visibleOrganization, visibleWorkspace, workspaceDocument } from "./lookup";

const ORG_WS = "/api/v2/organizations/:organization_name/workspaces";
const WS = "/api/v2/workspaces/:workspace_id";

function create(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!canManageAllWorkspaces(caller(ctx), org.id)) throw errors.notFound();
  const data = readDataObject(ctx.body, "workspaces");
  const change = applyWorkspaceInput(
    { ...ctx.app, org, principal: ctx.principal, existing: null, now: nowIso() },
    data,
  );
  const ws = commitWorkspace(ctx.app.store, change);
  return workspaceDocument(ctx, ws, 201);
}

function list(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const page = readPage(ctx);
  const include = parseInclude(ctx.query.get("include"));
  const store = ctx.app.store;
  const readable = store.workspacesOf(org.id).filter((ws) => rightsOn(ctx, ws).read);
  const sorted = sortWorkspaces(store, filterWorkspaces(store, readable, ctx.query), ctx.query.get("sort"));
  const doc = paginate(ctx, sorted, page, (ws) => serializeWorkspace(ctx.app, ctx.principal, ws, include));
  if (include.size > 0) {
    const start = (page.number - 1) * page.size;
    doc["included"] = buildIncluded(ctx.app, sorted.slice(start, start + page.size), include, ctx.baseUrl);
  }
  return { status: 200, body: doc };
}

function show(ctx: RequestContext): HandlerResult {
  return workspaceDocument(ctx, visibleWorkspace(ctx).ws);
}

function update(ctx: RequestContext): HandlerResult {
  const existing = adminWorkspace(ctx);
  const data = readDataObject(ctx.body, "workspaces");
  const org = ctx.app.store.organizations.get(existing.organization);
  if (!org) throw errors.notFound();
  const change = applyWorkspaceInput({ ...ctx.app, org, principal: ctx.principal, existing, now: nowIso() }, data);
  return workspaceDocument(ctx, commitWorkspace(ctx.app.store, change));
}

function safeDelete(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  assertSafeToDelete(ctx.app.store, ws);
  deleteWorkspace(ctx.app.store, ws);
  return { status: 204 };
}

function forceDelete(ctx: RequestContext): HandlerResult {
  const { ws, rights } = visibleWorkspace(ctx);
  if (!rights.forceDelete) throw errors.forbidden("Not authorized to perform a force delete on the workspace");
  deleteWorkspace(ctx.app.store, ws);
  return { status: 204 };
}

export const workspaceRoutes: RouteDef[] = [
  { method: "POST", path: ORG_WS, handler: create },
  { method: "GET", path: ORG_WS, handler: list },
  { method: "GET", path: `${ORG_WS}/:name`, handler: show },
  { method: "GET", path: WS, handler: show },
  { method: "PATCH", path: WS, handler: update },
  { method: "PATCH", path: `${ORG_WS}/:name`, handler: update },
  { method: "POST", path: `${WS}/actions/safe-delete`, handler: safeDelete },
  { method: "POST", path: `${ORG_WS}/:name/actions/safe-delete`, handler: safeDelete },
  { method: "DELETE", path: WS, handler: forceDelete },
  { method: "DELETE", path: `${ORG_WS}/:name`, handler: forceDelete },
];

/**
 * Lookups shared by the handlers. Anything the caller may not see is a 404, like the service.
 */
import { canSeeOrganization, workspaceRights, type WorkspaceRights } from "../auth";
import { caller, param, type HandlerResult, type RequestContext } from "../context";
import { errors } from "../errors";
import type { OrganizationRecord, WorkspaceRecord } from "../store/model";
import { buildIncluded, parseInclude, serializeWorkspace } from "../serializers/workspace";

export function visibleOrganization(ctx: RequestContext, name: string): OrganizationRecord {
  const org = ctx.app.store.organizations.get(name);
  if (!org || !canSeeOrganization(caller(ctx), name)) throw errors.notFound();
  return org;
}

export function rightsOn(ctx: RequestContext, ws: WorkspaceRecord): WorkspaceRights {
  const store = ctx.app.store;
  return workspaceRights(store, ctx.principal, ws, store.organizations.get(ws.organization));
}

/** The workspace of `:workspace_id`, or of `:organization_name` + `:name`; 404 unless readable. */
export function visibleWorkspace(ctx: RequestContext): { ws: WorkspaceRecord; rights: WorkspaceRights } {
  const store = ctx.app.store;
  const id = ctx.params["workspace_id"];
  const ws =
    id !== undefined ? store.workspaces.get(id) : store.workspaceByName(param(ctx, "organization_name"), param(ctx, "name"));
  if (!ws) throw errors.notFound();
  const rights = rightsOn(ctx, ws);
  if (!rights.read) throw errors.notFound();
  return { ws, rights };
}

/** A workspace the caller administers; 404 otherwise (the service does not reveal the difference). */
export function adminWorkspace(ctx: RequestContext): WorkspaceRecord {
  const { ws, rights } = visibleWorkspace(ctx);
  if (!rights.admin) throw errors.notFound();
  return ws;
}

/** A single-workspace document, honoring `include`. */
export function workspaceDocument(ctx: RequestContext, ws: WorkspaceRecord, status = 200): HandlerResult {
  const include = parseInclude(ctx.query.get("include"));
  const body: Record<string, unknown> = { data: serializeWorkspace(ctx.app, ctx.principal, ws, include) };
  if (include.size > 0) body["included"] = buildIncluded(ctx.app, [ws], include, ctx.baseUrl);
  return { status, body };
}

/**
 * C8–C10: key-value tag bindings of a workspace (direct and effective), and the same for projects.
 */
import { canManageAllWorkspaces, canSeeOrganization, isProjectAdmin } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { effectiveBindings, mergeBindings, parseBindingInputs, projectEffectiveBindings } from "../domain/tag-bindings";
import { errors } from "../errors";
import { nowIso } from "../ids";
import { isObject } from "../jsonapi";
import type { ProjectRecord } from "../store/model";
import { effectiveBindingResource, tagBindingResource } from "../serializers/resources";
import { adminWorkspace, visibleWorkspace } from "./lookup";

const WS = "/api/v2/workspaces/:workspace_id";
const PRJ = "/api/v2/projects/:project_id";

function inputsOf(ctx: RequestContext): ReturnType<typeof parseBindingInputs> {
  if (!isObject(ctx.body)) throw errors.unprocessable("Request body must be a JSON object", "");
  return parseBindingInputs(ctx.body["data"], "/data");
}

function listDirect(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  return { status: 200, body: { data: ws.tagBindings.map(tagBindingResource), links: { target: `/api/v2/workspaces/${ws.id}` } } };
}

function listEffective(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  const project = ctx.app.store.projects.get(ws.projectId);
  return { status: 200, body: { data: effectiveBindings(ws, project).map(effectiveBindingResource) } };
}

function patchWorkspace(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const tagBindings = mergeBindings(ws.tagBindings, inputsOf(ctx), nowIso(), "/data");
  ctx.app.store.workspaces.put({ ...ws, tagBindings });
  return { status: 200, body: { data: tagBindings.map(tagBindingResource), links: { target: `/api/v2/workspaces/${ws.id}` } } };
}

function visibleProject(ctx: RequestContext): ProjectRecord {
  const p = ctx.app.store.projects.get(ctx.params["project_id"] ?? "");
  if (!p || !canSeeOrganization(caller(ctx), p.organization)) throw errors.notFound();
  return p;
}

function listProject(ctx: RequestContext): HandlerResult {
  const p = visibleProject(ctx);
  return { status: 200, body: { data: p.tagBindings.map(tagBindingResource), links: { target: `/api/v2/projects/${p.id}` } } };
}

function listProjectEffective(ctx: RequestContext): HandlerResult {
  const p = visibleProject(ctx);
  return { status: 200, body: { data: projectEffectiveBindings(p).map(effectiveBindingResource) } };
}

function patchProject(ctx: RequestContext): HandlerResult {
  const p = visibleProject(ctx);
  const pr = caller(ctx);
  if (!canManageAllWorkspaces(pr, p.organization) && !isProjectAdmin(pr, p.organization, p.id, p.name)) throw errors.notFound();
  const tagBindings = mergeBindings(p.tagBindings, inputsOf(ctx), nowIso(), "/data");
  ctx.app.store.projects.put({ ...p, tagBindings });
  return { status: 200, body: { data: tagBindings.map(tagBindingResource), links: { target: `/api/v2/projects/${p.id}` } } };
}

export const tagBindingRoutes: RouteDef[] = [
  { method: "GET", path: `${WS}/tag-bindings`, handler: listDirect },
  { method: "PATCH", path: `${WS}/tag-bindings`, handler: patchWorkspace },
  { method: "GET", path: `${WS}/effective-tag-bindings`, handler: listEffective },
  { method: "GET", path: `${PRJ}/tag-bindings`, handler: listProject },
  { method: "PATCH", path: `${PRJ}/tag-bindings`, handler: patchProject },
  { method: "GET", path: `${PRJ}/effective-tag-bindings`, handler: listProjectEffective },
];

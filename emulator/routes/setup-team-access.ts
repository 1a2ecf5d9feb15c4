/**
 * Team access to workspaces (`/team-workspaces`), shaped like the service's endpoints. Workspace
 * admins (owners, the organization token, manage-workspaces teams, admin teams) manage it; a team
 * sees its own accesses on workspaces it can read. What the access grants is decided in auth.ts.
 */
import { canSeeTeam, type WorkspaceRights } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { applyTeamWorkspaceInput } from "../domain/team-access";
import { errors } from "../errors";
import { newId } from "../ids";
import { isObject, paginate, readDataObject, readPage, type DataObject } from "../jsonapi";
import type { TeamWorkspaceRecord, WorkspaceRecord } from "../store/model";
import { teamWorkspaceOf } from "../store/store";
import { teamWorkspaceResource } from "../serializers/resources";
import { rightsOn } from "./lookup";

const TWS = "/api/v2/team-workspaces";

function relatedId(data: DataObject, name: "workspace" | "team"): string {
  const rel = data.relationships[name];
  const d = isObject(rel) ? rel["data"] : undefined;
  const id = isObject(d) ? d["id"] : undefined;
  if (typeof id !== "string" || id === "") {
    throw errors.invalidAttribute(`${name} is required`, `/data/relationships/${name}/data/id`);
  }
  return id;
}

/** The workspace if the caller can read it (else 404), with the caller's rights on it. */
function readableWorkspace(ctx: RequestContext, id: string): { ws: WorkspaceRecord; rights: WorkspaceRights } {
  const ws = ctx.app.store.workspaces.get(id);
  const rights = ws ? rightsOn(ctx, ws) : undefined;
  if (!ws || !rights?.read) throw errors.notFound();
  return { ws, rights };
}

/** Admins see every access on the workspace; others only their own teams'. */
function canSeeAccess(ctx: RequestContext, rights: WorkspaceRights, g: TeamWorkspaceRecord): boolean {
  return rights.admin || caller(ctx).teams.some((t) => t.id === g.teamId);
}

function visibleAccess(ctx: RequestContext): { g: TeamWorkspaceRecord; ws: WorkspaceRecord; rights: WorkspaceRights } {
  const g = ctx.app.store.teamWorkspaces.get(ctx.params["team_workspace_id"] ?? "");
  if (!g) throw errors.notFound();
  const { ws, rights } = readableWorkspace(ctx, g.workspaceId);
  if (!canSeeAccess(ctx, rights, g)) throw errors.notFound();
  return { g, ws, rights };
}

function managedAccess(ctx: RequestContext): { g: TeamWorkspaceRecord; ws: WorkspaceRecord } {
  const { g, ws, rights } = visibleAccess(ctx);
  if (!rights.admin) throw errors.notFound();
  return { g, ws };
}

function addAccess(ctx: RequestContext): HandlerResult {
  const store = ctx.app.store;
  const data = readDataObject(ctx.body, "team-workspaces");
  const wsId = relatedId(data, "workspace");
  const teamId = relatedId(data, "team");
  const { ws, rights } = readableWorkspace(ctx, wsId);
  if (!rights.admin) throw errors.notFound();
  const team = store.teams.get(teamId);
  if (!team || team.organization !== ws.organization || !canSeeTeam(caller(ctx), team)) throw errors.notFound();
  const permissions = applyTeamWorkspaceInput(null, data.attributes);
  if (teamWorkspaceOf(store, team.id, ws.id)) {
    throw errors.invalidAttribute("Team has already been taken", "/data/relationships/team/data/id");
  }
  const g: TeamWorkspaceRecord = { id: newId("tws"), teamId: team.id, workspaceId: ws.id, ...permissions };
  store.teamWorkspaces.put(g);
  return { status: 201, body: { data: teamWorkspaceResource(g, ws) } };
}

/**
 * `filter[workspace][id]` is required. Without it (or for a workspace the caller cannot read) the
 * answer is 404, the only error the service documents for this list ("Workspace not found").
 * Without page parameters the service returns everything on one page.
 */
function listAccess(ctx: RequestContext): HandlerResult {
  const wsId = ctx.query.get("filter[workspace][id]");
  if (!wsId) throw errors.notFound();
  const { ws, rights } = readableWorkspace(ctx, wsId);
  const all = ctx.app.store.teamWorkspaces.filter((g) => g.workspaceId === ws.id && canSeeAccess(ctx, rights, g));
  const unpaged = !ctx.query.has("page[number]") && !ctx.query.has("page[size]");
  const page = readPage(ctx, unpaged ? Math.max(1, all.length) : 20);
  return { status: 200, body: paginate(ctx, all, page, (g) => teamWorkspaceResource(g, ws)) };
}

function showAccess(ctx: RequestContext): HandlerResult {
  const { g, ws } = visibleAccess(ctx);
  return { status: 200, body: { data: teamWorkspaceResource(g, ws) } };
}

function updateAccess(ctx: RequestContext): HandlerResult {
  const { g, ws } = managedAccess(ctx);
  // The service's own update example sends no `type`; a wrong one is still refused.
  const data = readDataObject(ctx.body, null);
  if (data.type !== undefined && data.type !== "team-workspaces") {
    throw errors.invalidAttribute('data.type must be "team-workspaces"', "/data/type");
  }
  const next: TeamWorkspaceRecord = { ...g, ...applyTeamWorkspaceInput(g, data.attributes) };
  ctx.app.store.teamWorkspaces.put(next);
  return { status: 200, body: { data: teamWorkspaceResource(next, ws) } };
}

function removeAccess(ctx: RequestContext): HandlerResult {
  const { g } = managedAccess(ctx);
  ctx.app.store.teamWorkspaces.delete(g.id);
  return { status: 204 };
}

export const setupTeamAccessRoutes: RouteDef[] = [
  { method: "POST", path: TWS, handler: addAccess },
  { method: "GET", path: TWS, handler: listAccess },
  { method: "GET", path: `${TWS}/:team_workspace_id`, handler: showAccess },
  { method: "PATCH", path: `${TWS}/:team_workspace_id`, handler: updateAccess },
  { method: "DELETE", path: `${TWS}/:team_workspace_id`, handler: removeAccess },
];

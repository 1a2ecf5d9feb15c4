/**
 * Setup calls shaped like the service's own endpoints: teams and the legacy team token, so clients
 * (go-tfe, the tfe provider) set up permission scenarios through the API. Owners, the organization
 * token and manage-teams teams manage them; anyone else gets 404, like the rest of the emulator.
 */
import { canManageTeams, canSeeTeam } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { applyTeamInput, deleteTeam, generateTeamToken, revokeTeamToken, teamMembers } from "../domain/teams";
import { errors } from "../errors";
import { paginate, readDataObject, readPage } from "../jsonapi";
import type { TeamRecord } from "../store/model";
import { authenticationTokenResource, teamResource } from "../serializers/resources";
import { visibleOrganization } from "./lookup";

const ORG = "/api/v2/organizations/:organization_name";
const TEAM = "/api/v2/teams/:team_id";

function teamDocument(ctx: RequestContext, team: TeamRecord): unknown {
  const canManage = canManageTeams(caller(ctx), team.organization);
  return teamResource(team, { members: teamMembers(ctx.app.store, team), canManage });
}

function visibleTeam(ctx: RequestContext): TeamRecord {
  const team = ctx.app.store.teams.get(ctx.params["team_id"] ?? "");
  if (!team || !canSeeTeam(caller(ctx), team)) throw errors.notFound();
  return team;
}

/** A team the caller may change; 404 otherwise (the service does not reveal the difference). */
function managedTeam(ctx: RequestContext): TeamRecord {
  const team = visibleTeam(ctx);
  if (!canManageTeams(caller(ctx), team.organization)) throw errors.notFound();
  return team;
}

function createTeam(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!canManageTeams(caller(ctx), org.id)) throw errors.notFound();
  const team = applyTeamInput(ctx.app.store, org.id, null, readDataObject(ctx.body, "teams"));
  ctx.app.store.teams.put(team);
  return { status: 201, body: { data: teamDocument(ctx, team) } };
}

/** Creation order (the owners team first); `filter[names]` matches whole names, `q` part of one, without regard to case. */
function listTeams(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const page = readPage(ctx);
  const p = caller(ctx);
  const names = ctx.query.get("filter[names]")?.split(",").map((n) => n.toLowerCase()) ?? null;
  const q = ctx.query.get("q")?.toLowerCase() ?? "";
  const teams = ctx.app.store.teams.filter((t) => {
    const name = t.name.toLowerCase();
    return t.organization === org.id && canSeeTeam(p, t) && (!names || names.includes(name)) && name.includes(q);
  });
  return { status: 200, body: paginate(ctx, teams, page, (t) => teamDocument(ctx, t)) };
}

function showTeam(ctx: RequestContext): HandlerResult {
  return { status: 200, body: { data: teamDocument(ctx, visibleTeam(ctx)) } };
}

function updateTeam(ctx: RequestContext): HandlerResult {
  const team = managedTeam(ctx);
  const next = applyTeamInput(ctx.app.store, team.organization, team, readDataObject(ctx.body, "teams"));
  ctx.app.store.teams.put(next);
  return { status: 200, body: { data: teamDocument(ctx, next) } };
}

function destroyTeam(ctx: RequestContext): HandlerResult {
  const team = managedTeam(ctx);
  // Its `permissions.can-destroy` is false for everyone; the refusal is an authorization failure.
  if (team.owners) throw errors.forbidden("The owners team cannot be deleted");
  deleteTeam(ctx.app.store, team);
  return { status: 204 };
}

/** Generates the team's token, replacing (revoking) the previous one; the body (`expired-at`) is optional. */
function createTeamToken(ctx: RequestContext): HandlerResult {
  const team = managedTeam(ctx);
  const data = ctx.body === undefined ? null : readDataObject(ctx.body, null);
  const token = generateTeamToken(ctx.app.store, team, caller(ctx).actor, data);
  return { status: 201, body: { data: authenticationTokenResource(token, token.id) } };
}

function showTeamToken(ctx: RequestContext): HandlerResult {
  const team = managedTeam(ctx);
  const token = team.tokenId ? ctx.app.store.tokens.get(team.tokenId) : undefined;
  if (!token) throw errors.notFound();
  return { status: 200, body: { data: authenticationTokenResource(token, null) } };
}

function deleteTeamToken(ctx: RequestContext): HandlerResult {
  if (!revokeTeamToken(ctx.app.store, managedTeam(ctx))) throw errors.notFound();
  return { status: 204 };
}

export const setupTeamRoutes: RouteDef[] = [
  { method: "POST", path: `${ORG}/teams`, handler: createTeam },
  { method: "GET", path: `${ORG}/teams`, handler: listTeams },
  { method: "GET", path: TEAM, handler: showTeam },
  { method: "PATCH", path: TEAM, handler: updateTeam },
  { method: "DELETE", path: TEAM, handler: destroyTeam },
  { method: "POST", path: `${TEAM}/authentication-token`, handler: createTeamToken },
  { method: "GET", path: `${TEAM}/authentication-token`, handler: showTeamToken },
  { method: "DELETE", path: `${TEAM}/authentication-token`, handler: deleteTeamToken },
];

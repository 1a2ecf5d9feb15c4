/**
 * Bearer tokens and what they may do. A token resolves to a principal (the user, team or
 * organization acting); rights on a workspace are computed from the principal's teams and
 * ownerships, and feed both the checks and the `permissions` attribute.
 */
import type { OrganizationRecord, TeamRecord, TeamWorkspaceRecord, TokenRecord, WorkspaceRecord } from "./store/model";
import { teamWorkspaceOf, type Store } from "./store/store";
import type { TeamAccess, TokenKind } from "./types";

export interface Principal {
  token: TokenRecord;
  kind: TokenKind;
  /** Who a lock taken with this token belongs to; null for the organization token (it cannot lock). */
  actor: { type: "users" | "teams"; id: string } | null;
  /** Organizations whose owners team the principal is on. */
  ownerOf: ReadonlySet<string>;
  /** Teams whose rights apply. */
  teams: TeamRecord[];
  /** The organization an organization token belongs to. */
  orgTokenFor: string | null;
}

/**
 * Whose budget a request counts against under the rate limit: the service counts per user, not per
 * token (docs' api-docs/index.mdx, in ../shared/research/api.md §4), so every token of one user shares
 * one; a team token counts as its team's, an organization token as its organization's, and a request
 * without a valid token per address.
 */
export function rateLimitKey(principal: Principal | null, remoteAddress: string): string {
  if (principal === null) return `address:${remoteAddress}`;
  const { userId, teamId, organization } = principal.token;
  if (userId !== null) return `user:${userId}`;
  if (teamId !== null) return `team:${teamId}`;
  return `organization:${organization}`;
}

/** What may be queued: plans only, or plans and applies. */
export type RunsRight = "read" | "plan" | "apply";

export interface WorkspaceRights {
  read: boolean;
  lock: boolean;
  admin: boolean;
  forceDelete: boolean;
  /** Owner, manage-all-workspaces team or organization token. */
  manageAll: boolean;
  owner: boolean;
  runs: RunsRight;
}

const NO_RIGHTS: WorkspaceRights = {
  read: false,
  lock: false,
  admin: false,
  forceDelete: false,
  manageAll: false,
  owner: false,
  runs: "read",
};

const LEVEL: Record<TeamAccess, number> = { read: 1, lock: 2, admin: 3, "manage-all-workspaces": 4 };
const RUNS: Record<RunsRight, number> = { read: 0, plan: 1, apply: 2 };
const RUNS_BY_RANK: readonly RunsRight[] = ["read", "plan", "apply"];

/** Extracts the token from `Authorization: Bearer <token>`; null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

export function resolvePrincipal(store: Store, token: string): Principal | null {
  const rec = store.tokens.get(token);
  if (!rec) return null;
  if (rec.expiredAt && Date.parse(rec.expiredAt) <= Date.now()) return null;
  if (rec.kind === "organization") {
    return { token: rec, kind: rec.kind, actor: null, ownerOf: new Set(), teams: [], orgTokenFor: rec.organization };
  }
  if (rec.kind === "team") {
    const team = rec.teamId ? store.teams.get(rec.teamId) : undefined;
    if (!team) return null;
    return {
      token: rec,
      kind: rec.kind,
      actor: { type: "teams", id: team.id },
      // The owners team's token acts as an owner (service docs on teams and team access).
      ownerOf: new Set(team.owners ? [team.organization] : []),
      teams: [team],
      orgTokenFor: null,
    };
  }
  const user = rec.userId ? store.users.get(rec.userId) : undefined;
  if (!user) return null;
  const teams: TeamRecord[] = [];
  for (const id of user.teamIds) {
    const t = store.teams.get(id);
    if (t) teams.push(t);
  }
  return {
    token: rec,
    kind: rec.kind,
    actor: { type: "users", id: user.id },
    ownerOf: new Set(user.ownerOf),
    teams,
    orgTokenFor: null,
  };
}

/** Whether the principal has any standing in the organization (otherwise it is invisible: 404). */
export function canSeeOrganization(p: Principal, org: string): boolean {
  return p.ownerOf.has(org) || p.orgTokenFor === org || p.teams.some((t) => t.organization === org);
}

/** Owner, organization token or a manage-all-workspaces team: may create workspaces and replace consumers. */
export function canManageAllWorkspaces(p: Principal, org: string): boolean {
  return (
    p.ownerOf.has(org) ||
    p.orgTokenFor === org ||
    p.teams.some((t) => t.organization === org && t.organizationAccess["manage-workspaces"])
  );
}

/** Owner, organization token or a manage-teams team: may create, change and delete teams and their tokens. */
export function canManageTeams(p: Principal, org: string): boolean {
  return p.ownerOf.has(org) || p.orgTokenFor === org || p.teams.some((t) => t.organization === org && t.organizationAccess["manage-teams"]);
}

/** Visible teams to everyone in the organization; secret ones to their members and to who may see all. */
export function canSeeTeam(p: Principal, team: TeamRecord): boolean {
  const org = team.organization;
  if (!canSeeOrganization(p, org)) return false;
  return (
    team.visibility === "organization" ||
    canManageTeams(p, org) ||
    p.teams.some((t) => t.id === team.id || (t.organization === org && t.organizationAccess["access-secret-teams"]))
  );
}

export function isOwner(p: Principal, org: string): boolean {
  return p.ownerOf.has(org);
}

/** Whether the principal may manage registry modules of the organization. */
export function canManageModules(p: Principal, org: string): boolean {
  return p.ownerOf.has(org) || p.orgTokenFor === org || p.teams.some((t) => t.organization === org && t.organizationAccess["manage-modules"]);
}

function matchesScope(list: string[] | null, id: string, name: string): boolean {
  return list === null || list.includes(id) || list.includes(name);
}

/** A team's reach on one workspace: a LEVEL and what it may queue (a RUNS rank). */
interface Reach {
  level: number;
  runs: number;
}

const NO_REACH: Reach = { level: 0, runs: RUNS.read };

/** The emulator's own levels queue plans and applies from lock up, as before grants existed. */
function levelReach(level: number): Reach {
  return { level, runs: level >= LEVEL.lock ? RUNS.apply : RUNS.read };
}

/**
 * A team-workspace in those terms: read and plan read (plan also queues plans), write locks, admin
 * administers, custom locks when it has workspace-locking. What may be queued is its `runs`.
 */
function grantReach(g: TeamWorkspaceRecord): Reach {
  let level = LEVEL.read;
  if (g.access === "admin") level = LEVEL.admin;
  else if (g.access === "write" || (g.access === "custom" && g.workspaceLocking)) level = LEVEL.lock;
  return { level, runs: RUNS[g.runs] };
}

function stronger(a: Reach, b: Reach): Reach {
  return { level: Math.max(a.level, b.level), runs: Math.max(a.runs, b.runs) };
}

function inScope(team: TeamRecord, ws: WorkspaceRecord, projectName: string): boolean {
  if (team.workspaces === null && team.projects === null) return true;
  const inWs = team.workspaces !== null && matchesScope(team.workspaces, ws.id, ws.name);
  const inPrj = team.projects !== null && matchesScope(team.projects, ws.projectId, projectName);
  return inWs || inPrj;
}

/**
 * The one place a team's rights on a workspace are decided: the strongest of its organization
 * access (manage-workspaces = manage all, read-workspaces = read all), the level an emulator-issued
 * team has in its scope, and its team-workspace grant on this workspace.
 */
function teamReachOn(store: Store, team: TeamRecord, ws: WorkspaceRecord, projectName: string): Reach {
  if (team.organization !== ws.organization) return NO_REACH;
  if (team.organizationAccess["manage-workspaces"]) return levelReach(LEVEL["manage-all-workspaces"]);
  let reach = team.organizationAccess["read-workspaces"] ? levelReach(LEVEL.read) : NO_REACH;
  if (team.access !== null && inScope(team, ws, projectName)) reach = stronger(reach, levelReach(LEVEL[team.access]));
  const grant = teamWorkspaceOf(store, team.id, ws.id);
  return grant ? stronger(reach, grantReach(grant)) : reach;
}

export function workspaceRights(
  store: Store,
  p: Principal | null,
  ws: WorkspaceRecord,
  org: OrganizationRecord | undefined,
): WorkspaceRights {
  if (!p) return NO_RIGHTS;
  if (p.ownerOf.has(ws.organization)) {
    return { read: true, lock: true, admin: true, forceDelete: true, manageAll: true, owner: true, runs: "apply" };
  }
  const allowAdminForceDelete = org?.allowForceDeleteWorkspaces ?? false;
  if (p.orgTokenFor === ws.organization) {
    return { read: true, lock: false, admin: true, forceDelete: allowAdminForceDelete, manageAll: true, owner: false, runs: "apply" };
  }
  let reach = NO_REACH;
  const projectName = store.projects.get(ws.projectId)?.name ?? "";
  for (const t of p.teams) reach = stronger(reach, teamReachOn(store, t, ws, projectName));
  const { level } = reach;
  if (level === 0) return NO_RIGHTS;
  const admin = level >= LEVEL.admin;
  return {
    read: true,
    lock: level >= LEVEL.lock,
    admin,
    forceDelete: admin && allowAdminForceDelete,
    manageAll: level >= LEVEL["manage-all-workspaces"],
    owner: false,
    runs: RUNS_BY_RANK[reach.runs] ?? "read",
  };
}

/** Admin on a project: owner, manage-all team, organization token, or an admin team unrestricted or scoped to it. */
export function isProjectAdmin(p: Principal, org: string, projectId: string, projectName: string): boolean {
  if (canManageAllWorkspaces(p, org)) return true;
  return p.teams.some(
    (t) =>
      t.organization === org &&
      t.access !== null &&
      LEVEL[t.access] >= LEVEL.admin &&
      t.workspaces === null &&
      matchesScope(t.projects, projectId, projectName),
  );
}

/** The `permissions` attribute of a workspace for this caller. */
export function permissionsAttribute(r: WorkspaceRights, kind: TokenKind | null): Record<string, boolean> {
  const plans = r.read && RUNS[r.runs] >= RUNS.plan && kind !== "organization";
  const runs = r.read && r.runs === "apply" && kind !== "organization";
  return {
    "can-update": r.admin,
    "can-destroy": r.admin,
    "can-queue-run": plans,
    "can-read-run": r.read,
    "can-read-variable": r.read,
    "can-update-variable": r.admin,
    "can-read-state-versions": r.read,
    "can-read-state-outputs": r.read,
    "can-create-state-versions": r.lock,
    "can-queue-apply": runs,
    "can-lock": r.lock,
    "can-unlock": r.lock,
    "can-force-unlock": r.admin && kind !== "organization",
    "can-read-settings": r.read,
    "can-manage-tags": r.admin,
    "can-manage-run-tasks": r.admin,
    "can-force-delete": r.forceDelete,
    "can-manage-assessments": r.admin,
    "can-manage-ephemeral-workspaces": r.admin,
    "can-read-assessment-results": r.read,
    "can-queue-destroy": runs && r.admin,
  };
}

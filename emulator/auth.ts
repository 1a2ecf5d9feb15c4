/**
 * Bearer tokens and what they may do. A token resolves to a principal (the user, team or
 * organization acting); rights on a workspace are computed from the principal's teams and
 * ownerships, and feed both the checks and the `permissions` attribute.
 */
import type { OrganizationRecord, TeamRecord, TokenRecord, WorkspaceRecord } from "./store/model";
import type { Store } from "./store/store";
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

export interface WorkspaceRights {
  read: boolean;
  lock: boolean;
  admin: boolean;
  forceDelete: boolean;
  /** Owner, manage-all-workspaces team or organization token. */
  manageAll: boolean;
  owner: boolean;
}

const NO_RIGHTS: WorkspaceRights = {
  read: false,
  lock: false,
  admin: false,
  forceDelete: false,
  manageAll: false,
  owner: false,
};

const LEVEL: Record<TeamAccess, number> = { read: 1, lock: 2, admin: 3, "manage-all-workspaces": 4 };

/** Extracts the token from `Authorization: Bearer <token>`; null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

export function resolvePrincipal(store: Store, token: string): Principal | null {
  const rec = store.tokens.get(token);
  if (!rec) return null;
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
      ownerOf: new Set(),
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
    p.teams.some((t) => t.organization === org && t.access === "manage-all-workspaces")
  );
}

export function isOwner(p: Principal, org: string): boolean {
  return p.ownerOf.has(org);
}

/** Whether the principal may manage registry modules of the organization. */
export function canManageModules(p: Principal, org: string): boolean {
  return p.ownerOf.has(org) || p.orgTokenFor === org || p.teams.some((t) => t.organization === org && t.manageModules);
}

function matchesScope(list: string[] | null, id: string, name: string): boolean {
  return list === null || list.includes(id) || list.includes(name);
}

function teamLevelOn(team: TeamRecord, ws: WorkspaceRecord, projectName: string): number {
  if (team.organization !== ws.organization) return 0;
  if (team.access === "manage-all-workspaces") return LEVEL["manage-all-workspaces"];
  if (team.workspaces === null && team.projects === null) return LEVEL[team.access];
  const inWs = team.workspaces !== null && matchesScope(team.workspaces, ws.id, ws.name);
  const inPrj = team.projects !== null && matchesScope(team.projects, ws.projectId, projectName);
  return inWs || inPrj ? LEVEL[team.access] : 0;
}

export function workspaceRights(
  store: Store,
  p: Principal | null,
  ws: WorkspaceRecord,
  org: OrganizationRecord | undefined,
): WorkspaceRights {
  if (!p) return NO_RIGHTS;
  if (p.ownerOf.has(ws.organization)) {
    return { read: true, lock: true, admin: true, forceDelete: true, manageAll: true, owner: true };
  }
  const allowAdminForceDelete = org?.allowForceDeleteWorkspaces ?? false;
  if (p.orgTokenFor === ws.organization) {
    return { read: true, lock: false, admin: true, forceDelete: allowAdminForceDelete, manageAll: true, owner: false };
  }
  let level = 0;
  const projectName = store.projects.get(ws.projectId)?.name ?? "";
  for (const t of p.teams) level = Math.max(level, teamLevelOn(t, ws, projectName));
  if (level === 0) return NO_RIGHTS;
  const admin = level >= LEVEL.admin;
  return {
    read: true,
    lock: level >= LEVEL.lock,
    admin,
    forceDelete: admin && allowAdminForceDelete,
    manageAll: level >= LEVEL["manage-all-workspaces"],
    owner: false,
  };
}

/** Admin on a project: owner, manage-all team, organization token, or an admin team unrestricted or scoped to it. */
export function isProjectAdmin(p: Principal, org: string, projectId: string, projectName: string): boolean {
  if (canManageAllWorkspaces(p, org)) return true;
  return p.teams.some(
    (t) =>
      t.organization === org &&
      LEVEL[t.access] >= LEVEL.admin &&
      t.workspaces === null &&
      matchesScope(t.projects, projectId, projectName),
  );
}

/** The `permissions` attribute of a workspace for this caller. */
export function permissionsAttribute(r: WorkspaceRights, kind: TokenKind | null): Record<string, boolean> {
  const runs = r.lock && kind !== "organization";
  return {
    "can-update": r.admin,
    "can-destroy": r.admin,
    "can-queue-run": runs,
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

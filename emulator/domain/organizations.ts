/**
 * Organizations, their default project, users, teams and tokens.
 */
import { errors } from "../errors";
import { newId, newToken, nowIso } from "../ids";
import { attr, isObject, type DataObject } from "../jsonapi";
import type { ExecutionMode, OrganizationRecord, UserRecord } from "../store/model";
import type { Store } from "../store/store";
import type { TokenSpec } from "../types";
import { applyOrganizationSettings, defaultOrganizationSettings } from "./organization-settings";
import { newProject } from "./projects";
import { newTeam, ownersTeam } from "./teams";
import { deleteWorkspace } from "./workspace-delete";

export const DEFAULT_PROJECT_NAME = "Default Project";
const ORG_NAME = /^[A-Za-z0-9_-]+$/;

export function isValidOrganizationName(name: string): boolean {
  return ORG_NAME.test(name) && name.length <= 40;
}

/** A new organization's record with the service's defaults; nothing is written. */
export function organizationDefaults(input: { name: string; email?: string; defaultProjectId?: string }): OrganizationRecord {
  return {
    id: input.name,
    email: input.email ?? `admin@${input.name}.example.com`,
    createdAt: nowIso(),
    allowForceDeleteWorkspaces: false,
    defaultExecutionMode: "remote",
    defaultAgentPoolId: null,
    defaultProjectId: input.defaultProjectId ?? newId("prj"),
    dataRetentionPolicy: null,
    moduleDeprecations: true,
    settings: defaultOrganizationSettings(),
  };
}

/** Writes a new organization, its default project and its owners team. */
export function commitOrganization(store: Store, org: OrganizationRecord): OrganizationRecord {
  store.projects.put(newProject({ id: org.defaultProjectId, organization: org.id, name: DEFAULT_PROJECT_NAME, createdAt: org.createdAt }));
  store.teams.put(ownersTeam(org.id));
  store.organizations.put(org);
  return org;
}

/** Creates an organization with its default project. */
export function createOrganization(
  store: Store,
  input: { name: string; email?: string; defaultProjectId?: string },
): OrganizationRecord {
  return commitOrganization(store, organizationDefaults(input));
}

const MODES: readonly string[] = ["remote", "local", "agent"];
const A = "/data/attributes";
const EMAIL_RE = /^[^@\s]+@[^@\s]+$/;

/**
 * The writable settings of `POST /organizations` and `PATCH /organizations/:org`, one reader for
 * both so a create keeps everything an update would. Returns the next record; throws 422 before
 * anything is written.
 */
export function applyOrganizationInput(store: Store, current: OrganizationRecord, data: DataObject): OrganizationRecord {
  const a = data.attributes;
  const next = { ...current, settings: applyOrganizationSettings(current.settings, a) };
  const email = attr.string(a, "email");
  if (email !== undefined) {
    if (!EMAIL_RE.test(email)) throw errors.invalidAttribute("Email is invalid", `${A}/email`);
    next.email = email;
  }
  const afd = attr.bool(a, "allow-force-delete-workspaces");
  if (afd !== undefined) next.allowForceDeleteWorkspaces = afd;
  const mode = attr.string(a, "default-execution-mode");
  if (mode !== undefined) {
    if (!MODES.includes(mode)) throw errors.invalidAttribute('default-execution-mode must be "remote", "local" or "agent"', `${A}/default-execution-mode`);
    next.defaultExecutionMode = mode as ExecutionMode;
  }
  const rel = data.relationships["default-agent-pool"];
  if (isObject(rel)) {
    const d = rel["data"];
    const id = isObject(d) && typeof d["id"] === "string" ? d["id"] : null;
    if (id !== null) {
      const pool = store.agentPools.get(id);
      if (!pool || pool.organization !== current.id) throw errors.invalidAttribute("Agent pool not found", "/data/relationships/default-agent-pool/data/id");
    }
    next.defaultAgentPoolId = id;
  }
  if (next.defaultExecutionMode === "agent" && !next.defaultAgentPoolId) {
    throw errors.invalidAttribute("A default agent pool is required for the agent execution mode", "/data/relationships/default-agent-pool");
  }
  if (next.defaultExecutionMode !== "agent") next.defaultAgentPoolId = null;
  return next;
}

/**
 * Deletes an organization and everything in it. People outlive it: owner and user tokens stay valid
 * for their other organizations; the organization's team and organization tokens end with it.
 */
export function deleteOrganization(store: Store, org: OrganizationRecord): void {
  for (const ws of store.workspacesOf(org.id)) deleteWorkspace(store, ws);
  const inOrg = <T extends { organization: string }>(r: T): boolean => r.organization === org.id;
  for (const table of [store.projects, store.tags, store.sshKeys, store.agentPools, store.oauthClients, store.oauthTokens, store.registryModules]) {
    for (const r of table.filter(inOrg)) table.delete(r.id);
  }
  for (const v of store.moduleVersions.filter((mv) => !store.registryModules.get(mv.moduleId))) store.moduleVersions.delete(v.id);
  const teamIds = new Set(store.teams.filter(inOrg).map((t) => t.id));
  for (const id of teamIds) store.teams.delete(id);
  for (const t of store.tokens.filter((t) => t.organization === org.id && (t.kind === "team" || t.kind === "organization"))) {
    store.tokens.delete(t.id);
  }
  for (const u of store.users.all()) {
    if (u.ownerOf.includes(org.id) || u.teamIds.some((id) => teamIds.has(id))) {
      store.users.put({ ...u, ownerOf: u.ownerOf.filter((o) => o !== org.id), teamIds: u.teamIds.filter((id) => !teamIds.has(id)) });
    }
  }
  store.organizations.delete(org.id);
}

function newUser(store: Store, username: string | undefined): UserRecord {
  const id = newId("user");
  const name = username ?? `user-${store.users.size + 1}`;
  const existing = store.users.find((u) => u.username === name);
  if (existing) return existing;
  const user: UserRecord = { id, username: name, email: `${name}@example.com`, ownerOf: [], teamIds: [] };
  store.users.put(user);
  return user;
}

/**
 * Issues a token as {@link TokenSpec} describes. An owner token for an unknown organization creates it.
 * Throws Error (not ApiError) on a bad spec: callers map it to their own error form.
 */
export function issueToken(store: Store, spec: TokenSpec): string {
  const orgName = spec.organization ?? store.settings.defaultOrganization;
  let org = store.organizations.get(orgName);
  if (!org) {
    if (spec.kind !== "owner") throw new Error(`organization "${orgName}" does not exist`);
    if (!isValidOrganizationName(orgName)) throw new Error(`invalid organization name "${orgName}"`);
    org = createOrganization(store, { name: orgName });
  }
  const token = spec.token ?? newToken();
  if (store.tokens.get(token)) throw new Error("token already exists");
  const base = { id: token, kind: spec.kind, organization: org.id, createdAt: nowIso() };
  switch (spec.kind) {
    case "owner": {
      const user = newUser(store, spec.username ?? `owner-${store.users.size + 1}`);
      if (!user.ownerOf.includes(org.id)) store.users.put({ ...user, ownerOf: [...user.ownerOf, org.id] });
      store.tokens.put({ ...base, userId: user.id, teamId: null });
      break;
    }
    case "organization":
      store.tokens.put({ ...base, userId: null, teamId: null });
      break;
    case "team":
    case "user": {
      const accessOk = ["read", "lock", "admin", "manage-all-workspaces"].includes(spec.access);
      if (!accessOk) throw new Error(`invalid access "${String(spec.access)}"`);
      // Manage-all and module rights are organization access, as on the service; the rest is a level in scope.
      const level = spec.access === "manage-all-workspaces" ? null : spec.access;
      const team = newTeam({
        name: (spec.kind === "team" ? spec.team : undefined) ?? `team-${store.teams.size + 1}`,
        organization: org.id,
        access: level,
        workspaces: spec.workspaces ?? null,
        projects: spec.projects ?? null,
        organizationAccess: { "manage-workspaces": level === null, "manage-modules": spec.manageModules ?? false },
        visibility: "organization",
      });
      store.teams.put(team);
      if (spec.kind === "team") {
        store.tokens.put({ ...base, userId: null, teamId: team.id });
      } else {
        const user = newUser(store, spec.username);
        store.users.put({ ...user, teamIds: [...user.teamIds, team.id] });
        store.tokens.put({ ...base, userId: user.id, teamId: team.id });
      }
      break;
    }
    default:
      throw new Error("unknown token kind");
  }
  return token;
}

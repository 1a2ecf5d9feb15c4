/**
 * Teams: their organization access, the owners team every organization has, the legacy team token
 * (`/teams/:id/authentication-token`) and what deleting a team takes with it.
 */
import { errors } from "../errors";
import { newId, newToken, nowIso } from "../ids";
import { attr, isObject, type DataObject } from "../jsonapi";
import {
  ORGANIZATION_ACCESS_KEYS,
  type OrganizationAccess,
  type TeamRecord,
  type TeamVisibility,
  type TokenRecord,
  type UserRecord,
  type WorkspaceLevel,
} from "../store/model";
import type { Store } from "../store/store";

export const OWNERS_TEAM_NAME = "owners";

/** A complete organization access: unnamed permissions false, and managing implies reading (as the service reports). */
export function organizationAccess(granted: Partial<OrganizationAccess> = {}): OrganizationAccess {
  const out = {} as OrganizationAccess;
  for (const k of ORGANIZATION_ACCESS_KEYS) out[k] = granted[k] ?? false;
  if (out["manage-workspaces"]) out["read-workspaces"] = true;
  if (out["manage-projects"]) out["read-projects"] = true;
  return out;
}

export function newTeam(input: {
  organization: string;
  name: string;
  access?: WorkspaceLevel | null;
  workspaces?: string[] | null;
  projects?: string[] | null;
  organizationAccess?: Partial<OrganizationAccess>;
  visibility?: TeamVisibility;
  owners?: boolean;
}): TeamRecord {
  return {
    id: newId("team"),
    name: input.name,
    organization: input.organization,
    access: input.access ?? null,
    workspaces: input.workspaces ?? null,
    projects: input.projects ?? null,
    organizationAccess: organizationAccess(input.organizationAccess),
    visibility: input.visibility ?? "secret",
    owners: input.owners ?? false,
    tokenId: null,
  };
}

/** The owners team: everything at organization level; visible to the whole organization. */
export function ownersTeam(organization: string): TeamRecord {
  const all = organizationAccess();
  for (const k of ORGANIZATION_ACCESS_KEYS) all[k] = true;
  return newTeam({ organization, name: OWNERS_TEAM_NAME, organizationAccess: all, visibility: "organization", owners: true });
}

/** Members: the owners team's are the organization's owners, other teams' the users who joined them. */
export function teamMembers(store: Store, team: TeamRecord): UserRecord[] {
  return team.owners
    ? store.users.filter((u) => u.ownerOf.includes(team.organization))
    : store.users.filter((u) => u.teamIds.includes(team.id));
}

const A = "/data/attributes";
const TEAM_NAME = /^[A-Za-z0-9_-]+$/;
const VISIBILITIES: readonly string[] = ["secret", "organization"];

function readOrganizationAccess(current: OrganizationAccess, raw: unknown): OrganizationAccess {
  const base = `${A}/organization-access`;
  if (!isObject(raw)) throw errors.invalidAttribute("organization-access must be an object", base);
  const next = { ...current };
  for (const k of ORGANIZATION_ACCESS_KEYS) {
    const v = attr.bool(raw, k, base);
    if (v !== undefined) next[k] = v;
  }
  // Project permissions cascade down to workspaces (the service's documented rule), and managing implies reading.
  if (next["manage-projects"] && !next["manage-workspaces"]) {
    throw errors.invalidAttribute("manage-workspaces must be true when manage-projects is true", `${base}/manage-workspaces`);
  }
  if (next["read-projects"] && !next["read-workspaces"] && !next["manage-workspaces"]) {
    throw errors.invalidAttribute("read-workspaces must be true when read-projects is true", `${base}/read-workspaces`);
  }
  return organizationAccess(next);
}

/**
 * The writable attributes of team create (`current` null) and update: name, visibility and
 * organization access (merged key by key over the previous value, as the service does). Returns
 * the next record; throws 422 before anything is written.
 */
export function applyTeamInput(store: Store, organization: string, current: TeamRecord | null, data: DataObject): TeamRecord {
  const a = data.attributes;
  const name = attr.string(a, "name");
  let next = current ?? newTeam({ organization, name: "" });
  if (name !== undefined || !current) {
    if (!name) throw errors.invalidAttribute("Name can't be blank", `${A}/name`);
    if (!TEAM_NAME.test(name)) {
      throw errors.invalidAttribute("Name can only include letters, numbers, -, and _", `${A}/name`);
    }
    if (current?.owners && name !== current.name) throw errors.invalidAttribute("The owners team cannot be renamed", `${A}/name`);
    const lower = name.toLowerCase();
    const taken = store.teams.find((t) => t.organization === organization && t.id !== next.id && t.name.toLowerCase() === lower);
    if (taken) throw errors.invalidAttribute("Name has already been taken", `${A}/name`);
    next = { ...next, name };
  }
  const visibility = attr.string(a, "visibility");
  if (visibility !== undefined) {
    if (!VISIBILITIES.includes(visibility)) throw errors.invalidAttribute('Visibility must be "secret" or "organization"', `${A}/visibility`);
    next = { ...next, visibility: visibility as TeamVisibility };
  }
  if (data.has("organization-access") && a["organization-access"] !== null) {
    if (current?.owners) throw errors.invalidAttribute("The owners team's organization access cannot be changed", `${A}/organization-access`);
    next = { ...next, organizationAccess: readOrganizationAccess(next.organizationAccess, a["organization-access"]) };
  }
  return next;
}

/** Default life of a team token when the request sets none (the service's documented two years). */
const TOKEN_LIFETIME_MS = 2 * 365 * 24 * 3600 * 1000;

function readExpiry(data: DataObject | null): string {
  const raw = data ? attr.nullableString(data.attributes, "expired-at") : undefined;
  if (raw === undefined || raw === null) return new Date(Date.now() + TOKEN_LIFETIME_MS).toISOString();
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw errors.invalidAttribute("expired-at must be an ISO 8601 date and time", `${A}/expired-at`);
  return new Date(ms).toISOString();
}

/**
 * Generates the team's legacy token. The service keeps one per team: a new one revokes the previous
 * one, so its bearer stops authenticating at once. Returns the record (its id is the bearer).
 */
export function generateTeamToken(
  store: Store,
  team: TeamRecord,
  createdBy: TokenRecord["createdBy"],
  data: DataObject | null,
): TokenRecord {
  const token: TokenRecord = {
    id: newToken(),
    kind: "team",
    organization: team.organization,
    userId: null,
    teamId: team.id,
    createdAt: nowIso(),
    publicId: newId("at"),
    createdBy,
    expiredAt: readExpiry(data),
  };
  if (team.tokenId) store.tokens.delete(team.tokenId);
  store.tokens.put(token);
  store.teams.put({ ...team, tokenId: token.id });
  return token;
}

/** Revokes the team's legacy token; false when it has none. */
export function revokeTeamToken(store: Store, team: TeamRecord): boolean {
  if (!team.tokenId || !store.tokens.get(team.tokenId)) return false;
  store.tokens.delete(team.tokenId);
  store.teams.put({ ...team, tokenId: null });
  return true;
}

/**
 * Deletes a team: its workspace access, its tokens (the API's and the emulator-issued team tokens)
 * and its memberships go with it. A lock it holds stays held by its id, as the service keeps it;
 * only a force unlock releases it.
 */
export function deleteTeam(store: Store, team: TeamRecord): void {
  for (const g of store.teamWorkspaces.filter((x) => x.teamId === team.id)) store.teamWorkspaces.delete(g.id);
  for (const t of store.tokens.filter((x) => x.kind === "team" && x.teamId === team.id)) store.tokens.delete(t.id);
  for (const u of store.users.filter((x) => x.teamIds.includes(team.id))) {
    store.users.put({ ...u, teamIds: u.teamIds.filter((id) => id !== team.id) });
  }
  store.teams.delete(team.id);
}

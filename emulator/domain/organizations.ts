/**
 * Organizations, their default project, users, teams and tokens.
 */
import { newId, newToken, nowIso } from "../ids";
import type { OrganizationRecord, TeamRecord, UserRecord } from "../store/model";
import type { Store } from "../store/store";
import type { TokenSpec } from "../types";

export const DEFAULT_PROJECT_NAME = "Default Project";
const ORG_NAME = /^[A-Za-z0-9_-]+$/;

export function isValidOrganizationName(name: string): boolean {
  return ORG_NAME.test(name) && name.length <= 40;
}

/** Creates an organization with its default project. */
export function createOrganization(
  store: Store,
  input: { name: string; email?: string; defaultProjectId?: string },
): OrganizationRecord {
  const now = nowIso();
  const projectId = input.defaultProjectId ?? newId("prj");
  store.projects.put({
    id: projectId,
    organization: input.name,
    name: DEFAULT_PROJECT_NAME,
    description: null,
    createdAt: now,
    tagBindings: [],
  });
  const org: OrganizationRecord = {
    id: input.name,
    email: input.email ?? `admin@${input.name}.example.com`,
    createdAt: now,
    allowForceDeleteWorkspaces: false,
    defaultExecutionMode: "remote",
    defaultAgentPoolId: null,
    defaultProjectId: projectId,
    dataRetentionPolicy: null,
    moduleDeprecations: true,
  };
  store.organizations.put(org);
  return org;
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
      const team: TeamRecord = {
        id: newId("team"),
        name: (spec.kind === "team" ? spec.team : undefined) ?? `team-${store.teams.size + 1}`,
        organization: org.id,
        access: spec.access,
        workspaces: spec.workspaces ?? null,
        projects: spec.projects ?? null,
        manageModules: spec.manageModules ?? false,
      };
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

/**
 * Team access to a workspace (`team-workspaces`): the access level and the permissions it stands
 * for. Fixed levels carry the service's fixed permissions; only `custom` takes them from the request.
 */
import { errors } from "../errors";
import { attr, type Json } from "../jsonapi";
import type { TeamWorkspaceAccess, TeamWorkspacePermissions } from "../store/model";

export const TEAM_WORKSPACE_ACCESS: readonly TeamWorkspaceAccess[] = ["read", "plan", "write", "admin", "custom"];

/** What each fixed level grants, as the service reports it on the team-workspace. */
const FIXED: Record<Exclude<TeamWorkspaceAccess, "custom">, TeamWorkspacePermissions> = {
  read: { runs: "read", variables: "read", stateVersions: "read", sentinelMocks: "none", workspaceLocking: false, runTasks: false },
  plan: { runs: "plan", variables: "read", stateVersions: "read", sentinelMocks: "none", workspaceLocking: false, runTasks: false },
  write: { runs: "apply", variables: "write", stateVersions: "write", sentinelMocks: "read", workspaceLocking: true, runTasks: false },
  admin: { runs: "apply", variables: "write", stateVersions: "write", sentinelMocks: "read", workspaceLocking: true, runTasks: true },
};

/** The documented defaults of a new custom access. */
const CUSTOM_DEFAULTS: TeamWorkspacePermissions = {
  runs: "read",
  variables: "none",
  stateVersions: "none",
  sentinelMocks: "none",
  workspaceLocking: false,
  runTasks: false,
};

const A = "/data/attributes";

function oneOf<T extends string>(a: Json, key: string, allowed: readonly T[]): T | undefined {
  const v = attr.string(a, key);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw errors.invalidAttribute(`${key} must be one of ${allowed.join(", ")}`, `${A}/${key}`);
  return v as T;
}

/**
 * The access and permissions a create (`current` null) or update asks for. Custom permissions are
 * read only with `custom` access, over the previous values (or the defaults); with a fixed level
 * they are read-only on the service, so a request's values are ignored. Throws 422.
 */
export function applyTeamWorkspaceInput(
  current: (TeamWorkspacePermissions & { access: TeamWorkspaceAccess }) | null,
  a: Json,
): TeamWorkspacePermissions & { access: TeamWorkspaceAccess } {
  const access = oneOf(a, "access", TEAM_WORKSPACE_ACCESS) ?? current?.access;
  if (!access) throw errors.invalidAttribute("access can't be blank", `${A}/access`);
  if (access !== "custom") return { access, ...FIXED[access] };
  const base = current ?? { ...CUSTOM_DEFAULTS };
  return {
    access,
    runs: oneOf(a, "runs", ["read", "plan", "apply"] as const) ?? base.runs,
    variables: oneOf(a, "variables", ["none", "read", "write"] as const) ?? base.variables,
    stateVersions: oneOf(a, "state-versions", ["none", "read-outputs", "read", "write"] as const) ?? base.stateVersions,
    sentinelMocks: oneOf(a, "sentinel-mocks", ["none", "read"] as const) ?? base.sentinelMocks,
    workspaceLocking: attr.bool(a, "workspace-locking") ?? base.workspaceLocking,
    runTasks: attr.bool(a, "run-tasks") ?? base.runTasks,
  };
}

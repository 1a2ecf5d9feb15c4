/**
 * What a workspace inherits. Execution mode and agent pool come from the workspace where its
 * `setting-overwrites` say so, else from its project where the project's do, else from the
 * organization. The auto-destroy activity duration comes from the project while the workspace
 * `inherits-project-auto-destroy`. Computed at read time, so changing a project or an organization
 * changes what its inheriting workspaces report, as in the service.
 */
import { errors } from "../errors";
import { attr, isObject, type Json } from "../jsonapi";
import type { ExecutionMode, OrganizationRecord, ProjectRecord, WorkspaceRecord } from "../store/model";
import type { Store } from "../store/store";

export interface InheritedDefaults {
  executionMode: ExecutionMode;
  /** Null unless the mode is "agent". */
  agentPoolId: string | null;
}

/**
 * The `setting-overwrites` object of a request: workspaces name its keys `execution-mode` and
 * `agent-pool`, projects `default-execution-mode` and `default-agent-pool`. Undefined where not sent.
 */
export function readSettingOverwrites(
  attributes: Json,
  keys: { mode: string; pool: string },
): { mode: boolean | undefined; pool: boolean | undefined } {
  const so = attributes["setting-overwrites"];
  const base = "/data/attributes/setting-overwrites";
  if (so === undefined || so === null) return { mode: undefined, pool: undefined };
  if (!isObject(so)) throw errors.invalidAttribute("setting-overwrites must be an object", base);
  return { mode: attr.bool(so, keys.mode, base), pool: attr.bool(so, keys.pool, base) };
}

/** The defaults a project hands down: its own where it overwrites the organization's. */
export function projectDefaults(project: ProjectRecord | undefined, org: OrganizationRecord | undefined): InheritedDefaults {
  const own = project?.settingOverwrites;
  const executionMode = own?.executionMode && project?.defaultExecutionMode ? project.defaultExecutionMode : (org?.defaultExecutionMode ?? "remote");
  const pool = own?.agentPool ? (project?.defaultAgentPoolId ?? null) : (org?.defaultAgentPoolId ?? null);
  return { executionMode, agentPoolId: executionMode === "agent" ? pool : null };
}

/** The defaults the workspace's project (or organization) hands down to it. */
export function inheritedDefaults(store: Store, ws: WorkspaceRecord): InheritedDefaults {
  return projectDefaults(store.projects.get(ws.projectId), store.organizations.get(ws.organization));
}

export function effectiveExecutionMode(store: Store, ws: WorkspaceRecord): ExecutionMode {
  return ws.settingOverwrites.executionMode ? ws.executionMode : inheritedDefaults(store, ws).executionMode;
}

export function effectiveAgentPoolId(store: Store, ws: WorkspaceRecord): string | null {
  if (effectiveExecutionMode(store, ws) !== "agent") return null;
  return ws.settingOverwrites.agentPool ? ws.agentPoolId : inheritedDefaults(store, ws).agentPoolId;
}

/** The auto-destroy activity duration in effect: the project's while the workspace inherits it. */
export function effectiveAutoDestroyDuration(store: Store, ws: WorkspaceRecord): string | null {
  if (!ws.inheritsProjectAutoDestroy) return ws.autoDestroyActivityDuration;
  return store.projects.get(ws.projectId)?.autoDestroyActivityDuration ?? null;
}

/** Whether anything still uses the agent pool: a workspace in effect, or a project or organization default. */
export function agentPoolInUse(store: Store, organization: string, poolId: string): boolean {
  const org = store.organizations.get(organization);
  if (org?.defaultExecutionMode === "agent" && org.defaultAgentPoolId === poolId) return true;
  if (store.projects.find((p) => p.organization === organization && p.settingOverwrites.agentPool && p.defaultAgentPoolId === poolId)) return true;
  return store.workspacesOf(organization).some((w) => effectiveAgentPoolId(store, w) === poolId);
}

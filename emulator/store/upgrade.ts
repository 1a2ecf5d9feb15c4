/**
 * Brings a state file written by an older emulator up to the current record shapes: fields added
 * later get the value the service gives objects that never set them. Without this, a restarted
 * emulator would serve such records with attributes missing. The types describe the current shape;
 * the `??` defaults are for files whose records predate a field.
 */
import { defaultOrganizationSettings } from "../domain/organization-settings";
import type { OrganizationRecord, ProjectRecord, State, WorkspaceRecord } from "./model";

function upgradeWorkspace(w: WorkspaceRecord): WorkspaceRecord {
  return {
    ...w,
    projectRemoteState: w.projectRemoteState ?? false,
    // A workspace with an auto-destroy of its own did not inherit its project's.
    inheritsProjectAutoDestroy: w.inheritsProjectAutoDestroy ?? (w.autoDestroyActivityDuration === null && w.autoDestroyAt === null),
  };
}

function upgradeProject(p: ProjectRecord): ProjectRecord {
  return {
    ...p,
    autoDestroyActivityDuration: p.autoDestroyActivityDuration ?? null,
    defaultExecutionMode: p.defaultExecutionMode ?? null,
    defaultAgentPoolId: p.defaultAgentPoolId ?? null,
    settingOverwrites: p.settingOverwrites ?? { executionMode: false, agentPool: false },
  };
}

function upgradeOrganization(o: OrganizationRecord): OrganizationRecord {
  return { ...o, settings: { ...defaultOrganizationSettings(), ...o.settings } };
}

export function upgradeState(state: State): State {
  return {
    ...state,
    organizations: state.organizations.map(upgradeOrganization),
    workspaces: state.workspaces.map(upgradeWorkspace),
    projects: state.projects.map(upgradeProject),
  };
}

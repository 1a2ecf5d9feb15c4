/**
 * Brings a state file written by an older emulator up to the current record shapes: fields added
 * later get the value the service gives objects that never set them. Without this, a restarted
 * emulator would serve such records with attributes missing. The types describe the current shape;
 * the `??` defaults are for files whose records predate a field.
 */
import { defaultOrganizationSettings } from "../domain/organization-settings";
import { stateOutput } from "../domain/state-versions";
import { organizationAccess, ownersTeam } from "../domain/teams";
import type { OrganizationRecord, ProjectRecord, State, StateOutputRecord, StateVersionRecord, TeamRecord, WorkspaceRecord } from "../store/model";

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

/** A team as files before team access wrote it: manage-all was an access level, module rights a flag. */
type Added = "organizationAccess" | "visibility" | "owners" | "tokenId";
type EarlierTeam = Omit<TeamRecord, Added | "access"> &
  Partial<Pick<TeamRecord, Added>> & { access: TeamRecord["access"] | "manage-all-workspaces"; manageModules?: boolean };

function upgradeTeam(t: EarlierTeam): TeamRecord {
  const { manageModules, access, ...rest } = t;
  const manageAll = access === "manage-all-workspaces";
  return {
    ...rest,
    access: manageAll ? null : access,
    organizationAccess: rest.organizationAccess ?? organizationAccess({ "manage-workspaces": manageAll, "manage-modules": manageModules ?? false }),
    // Teams were shown to the whole organization before they had a visibility.
    visibility: rest.visibility ?? "organization",
    owners: rest.owners ?? false,
    tokenId: rest.tokenId ?? null,
  };
}

/** Every organization has an owners team; files from before teams were an API resource lack it. */
function withOwnersTeams(teams: TeamRecord[], organizations: OrganizationRecord[]): TeamRecord[] {
  const missing = organizations.filter((o) => !teams.some((t) => t.owners && t.organization === o.id));
  return [...teams, ...missing.map((o) => ownersTeam(o.id))];
}

/** A state version as files before state content was kept wrote it. */
type SvAdded = "content" | "stateFormatVersion" | "terraformVersion";
type EarlierStateVersion = Omit<StateVersionRecord, SvAdded | "outputs"> &
  Partial<Pick<StateVersionRecord, SvAdded>> & { outputs: Array<Omit<StateOutputRecord, "detailedType"> & { detailedType?: unknown }> };

/** No content was kept, so no download; outputs get the type their value implies (the CLI needs one). */
function upgradeStateVersion(sv: EarlierStateVersion): StateVersionRecord {
  return {
    ...sv,
    content: sv.content ?? null,
    stateFormatVersion: sv.stateFormatVersion ?? null,
    terraformVersion: sv.terraformVersion ?? null,
    outputs: sv.outputs.map((o) =>
      o.detailedType === undefined ? stateOutput(o.id, o.name, o.sensitive, o.value, undefined) : { ...o, detailedType: o.detailedType },
    ),
  };
}

export function upgradeState(state: State): State {
  return {
    ...state,
    organizations: state.organizations.map(upgradeOrganization),
    workspaces: state.workspaces.map(upgradeWorkspace),
    projects: state.projects.map(upgradeProject),
    teams: withOwnersTeams((state.teams as EarlierTeam[]).map(upgradeTeam), state.organizations),
    stateVersions: (state.stateVersions as EarlierStateVersion[]).map(upgradeStateVersion),
  };
}

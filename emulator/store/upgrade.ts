/**
 * Brings a state file written by an older emulator up to the current record shapes: fields added
 * later get the value the service gives objects that never set them. Without this, a restarted
 * emulator would serve such records with attributes missing. The types describe the current shape;
 * the `??` defaults are for files whose records predate a field.
 */
import type { State, WorkspaceRecord } from "./model";

function upgradeWorkspace(w: WorkspaceRecord): WorkspaceRecord {
  return { ...w, projectRemoteState: w.projectRemoteState ?? false };
}

export function upgradeState(state: State): State {
  return { ...state, workspaces: state.workspaces.map(upgradeWorkspace) };
}

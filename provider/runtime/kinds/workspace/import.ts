// `pulumi import wsbridge:index:Workspace <name> <import id>`, where the import id is either
//   ws-…                              the workspace's id, or
//   <organization>/<workspace name>   its organization and name (import-ids.ts).
// The answer's inputs are the settings that reproduce the workspace: declaring them, a preview shows no
// change. One request (the read that refresh makes).
import type { Workspace } from "../../api";
import { sharedClient } from "../../config";
import type { Imported, Props } from "../../lifecycle";
import { parseWorkspaceImportId, readWorkspaceForImport } from "../../import-ids";
import { KIND, READ, type WorkspaceState } from "./fields";
import { withoutFixedValues } from "../../../schemas/omission";
import { derivedSettingOverwrites, WORKSPACE_OMITTED } from "../../../schemas/workspace";
import { effectiveBindingsOf, outputsOf, ownerMarkerOf, parseChecked, repositoryInput, toState } from "./state";


export async function importById(importId: string, internal: Props): Promise<Imported<WorkspaceState> | undefined> {
  const client = sharedClient();
  const workspace = await readWorkspaceForImport(client, parseWorkspaceImportId(KIND, importId), READ);
  if (workspace === undefined) return undefined;
  const inputs = reproducingInputs(workspace);
  const declared = parseChecked(inputs);
  const marker = ownerMarkerOf(internal);
  const outs = await outputsOf(client, workspace, declared, marker);
  return { id: workspace.id, props: toState(outs, []), inputs };
}

/**
 * The inputs that reproduce `workspace`: every setting it holds of its own (an inherited one is left
 * to inherit), in the spelling check accepts, without what leaving an input out means anyway
 * (WORKSPACE_OMITTED: check fills those in, so the import still compares every one). Create-only
 * values (sourceName, sourceUrl) are not settings, and the deprecated `operations` is said by executionMode.
 */
export function reproducingInputs(workspace: Workspace): Props {
  const own = (value: unknown): boolean => value !== null && value !== undefined && value !== "";
  const inputs: Props = {
    name: workspace.name, organization: workspace.organization,
    description: workspace.description ?? "",
    allowDestroyPlan: workspace.allowDestroyPlan, autoApply: workspace.autoApply,
    autoApplyRunTrigger: workspace.autoApplyRunTrigger ?? false, fileTriggersEnabled: workspace.fileTriggersEnabled,
    globalRemoteState: workspace.globalRemoteState, queueAllRuns: workspace.queueAllRuns, speculativeEnabled: workspace.speculativeEnabled,
    triggerPatterns: [...workspace.triggerPatterns].sort(), triggerPrefixes: [...workspace.triggerPrefixes].sort(),
    workingDirectory: workspace.workingDirectory ?? "",
  };
  if (workspace.settingOverwrites.executionMode !== false) inputs.executionMode = workspace.executionMode;
  if (workspace.settingOverwrites.agentPool !== false && own(workspace.agentPoolId) && workspace.executionMode === "agent") inputs.agentPoolId = workspace.agentPoolId;
  // The overwrites check would derive from those inputs, declared only where the workspace holds others.
  const derived = derivedSettingOverwrites(inputs) ?? {};
  const held = { executionMode: workspace.settingOverwrites.executionMode !== false, agentPool: workspace.settingOverwrites.agentPool !== false };
  const differing = (["executionMode", "agentPool"] as const).filter((key) => held[key] !== derived[key]);
  if (differing.length > 0) inputs.settingOverwrites = Object.fromEntries(differing.map((key) => [key, held[key]]));
  if (workspace.assessmentsEnabled === true) inputs.assessmentsEnabled = true;
  if (workspace.projectRemoteState === true) inputs.projectRemoteState = true;
  if (own(workspace.autoDestroyAt)) inputs.autoDestroyAt = workspace.autoDestroyAt;
  else if (own(workspace.autoDestroyActivityDuration) && workspace.inheritsProjectAutoDestroy !== true) {
    inputs.autoDestroyActivityDuration = workspace.autoDestroyActivityDuration;
  }
  if (own(workspace.engineVersion)) inputs.engineVersion = workspace.engineVersion;
  if (own(workspace.projectId)) inputs.projectId = workspace.projectId;
  const repo = workspace.vcsRepo;
  if (repo !== null && own(repo.identifier)) inputs.vcsRepo = repositoryInput(repo);
  const direct = effectiveBindingsOf(workspace.effectiveTagBindings ?? []).filter((b) => b.inheritedFrom === null);
  if (direct.length > 0) inputs.tagBindings = Object.fromEntries(direct.map((b) => [b.key, b.value]));
  if (workspace.tagNames.length > 0) inputs.tagNames = [...workspace.tagNames].sort();
  return withoutFixedValues(WORKSPACE_OMITTED, inputs);
}

// The workspace as the state holds it: the server's report as outputs, the provider's own records, and
// the internal inputs the resource class passes along.
// ---- mapping --------------------------------------------------------------------------------
import { linkedHtmlUrl, workspaceApiUrl } from "../../urls";
import { workspaceInputsSchema } from "../../../schemas/workspace";
import type { EffectiveTagBinding, Workspace, WsbridgeClient } from "../../api";
import { type Props, userInputs, withoutProvider } from "../../lifecycle";
import { parseOwnerUrl, withoutOwnerFragment } from "../../ownership";
import { declaredKeys } from "./compare";
import {
  type CheckedWorkspaceInputs, type EffectiveTagBindingOutput, KIND, OPTIONAL_INPUTS, type VcsRepoOutput, type WorkspaceOutputs,
  type WorkspaceReport, type WorkspaceState,
} from "./fields";


export function parseChecked(props: Props): CheckedWorkspaceInputs {
  const parsed = workspaceInputsSchema.parse(userInputs(props));
  if (parsed.organization === undefined) throw new Error(`${KIND}: organization is required`);
  return { ...parsed, organization: parsed.organization };
}

/**
 * The resource's URN: as the provider plugin passes it (`__urn`), else as the engine spells it for a
 * dynamic resource without a parent (the owner marker names the rest).
 */
export function urnOf(props: Props): string | undefined {
  const given = withoutProvider(props).__urn;
  if (typeof given === "string") return given;
  const owner = parseOwnerUrl(ownerMarkerOf(props));
  return owner && `urn:pulumi:${owner.stack}::${owner.project}::pulumi-nodejs:dynamic/wsbridge:${owner.kind}::${owner.name}`;
}

export function label(props: Props): string {
  const p = userInputs(props);
  return `${KIND} "${typeof p.organization === "string" ? `${p.organization}/` : ""}${String(p.name)}"`;
}

export function ownerMarkerOf(props: Props): string | undefined {
  const marker = withoutProvider(props).__owner;
  return typeof marker === "string" ? marker : undefined;
}

/** The resource class's note of the optional inputs it passed as Outputs or Promises (inputs or state). */
export function namedOutputsOf(props: Props): string[] {
  const named = withoutProvider(props).__namedOutputs;
  if (!Array.isArray(named)) return [];
  return named.filter((key): key is string => typeof key === "string" && (OPTIONAL_INPUTS as readonly string[]).includes(key));
}

export function internalInputs(marker: string | undefined, named: readonly string[]): Props {
  return { ...(marker !== undefined && { __owner: marker }), ...(named.length > 0 && { __namedOutputs: [...named] }) };
}

// ---- state ----------------------------------------------------------------------------------

/**
 * The outputs as the state holds them. The program sees only the outputs its resource registers, and
 * the SDK's cost per registered property was most of a program's time per Workspace
 * (docs/performance.md), so the class registers one object output, `__outputs`, plus what it declares.
 * `__outputs` holds every output; by name the state holds `name`, `organization`, each declared input,
 * and each optional input the program passed as an Output or a Promise (`__namedOutputs`: the class
 * registered those by name but cannot know whether they resolve to undefined, which the provider does
 * not see as declared). Each registered name then resolves to the server's value, as before.
 */
export function toState(outs: WorkspaceOutputs, namedOutputs: readonly string[]): WorkspaceState {
  const { __declaredInputs, __declaredValues, __owner, ...report } = outs;
  const byName = new Set<string>(["name", "organization", ...namedOutputs]);
  for (const key of __declaredInputs) byName.add(key.split(".")[0] ?? key);
  const named: Props = {};
  for (const key of byName) if (key in report) named[key] = report[key as keyof WorkspaceReport];
  return {
    ...named,
    __outputs: report,
    __declaredInputs,
    __declaredValues,
    ...(__owner !== undefined && { __owner }),
    ...(namedOutputs.length > 0 && { __namedOutputs: [...namedOutputs] }),
  };
}

/** Every output by name, from a state of this shape or of the one before `__outputs` (which held them all by name). */
export function fromState(props: Props | undefined): Props {
  const { __outputs: report, ...state } = withoutProvider(props);
  if (report === null || typeof report !== "object" || Array.isArray(report)) return state;
  return { ...(report as Props), ...state };
}

/** The provider switches as last declared (read has only the old outputs). */
export function switchesOf(state: Props): Pick<CheckedWorkspaceInputs, "forceDelete" | "adoptExisting"> {
  return {
    ...(state.forceDelete === true && { forceDelete: true }),
    ...(state.adoptExisting === true && { adoptExisting: true }),
  };
}
/** A connected repository as a program declares it: the identifier, the credential, and what is set. */
export function repositoryInput(repo: Pick<VcsRepoOutput, "identifier" | "oauthTokenId" | "githubAppInstallationId" | "branch" | "tagsRegex"> & { ingressSubmodules: boolean | null }): Props {
  const own = (value: unknown): value is string => typeof value === "string" && value !== "";
  return {
    identifier: repo.identifier,
    ...(own(repo.oauthTokenId) ? { oauthTokenId: repo.oauthTokenId } : own(repo.githubAppInstallationId) && { githubAppInstallationId: repo.githubAppInstallationId }),
    ...(own(repo.branch) && { branch: repo.branch }),
    ...(repo.ingressSubmodules === true && { ingressSubmodules: true }),
    ...(own(repo.tagsRegex) && { tagsRegex: repo.tagsRegex }),
  };
}

export function effectiveBindingsOf(bindings: readonly EffectiveTagBinding[]): EffectiveTagBindingOutput[] {
  return bindings
    .map((b) => ({ key: b.key, value: b.value, inheritedFrom: b.inheritedFrom ? b.inheritedFrom.id ?? b.inheritedFrom.link : null }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The outputs for `workspace`. `declaredSet` is the record of what the program declares (create and
 * update derive it from the inputs; read carries it over from the old outputs).
 */
export async function outputsOf(
  client: WsbridgeClient, workspace: Workspace, declared: Partial<CheckedWorkspaceInputs>, marker: string | undefined,
  declaredSet?: Set<string>, declaredValues?: Props,
): Promise<WorkspaceOutputs> {
  // A server that ignored `include` is asked separately (C9), so the tag outputs are never guessed.
  const effective = workspace.effectiveTagBindings ?? await client.listEffectiveTagBindings(workspace.id);
  const bindings = effectiveBindingsOf(effective);
  const repo = workspace.vcsRepo;
  return {
    workspaceId: workspace.id,
    name: workspace.name,
    organization: workspace.organization,
    description: workspace.description ?? "",
    executionMode: workspace.executionMode,
    agentPoolId: workspace.agentPoolId,
    operations: workspace.operations,
    settingOverwrites: {
      executionMode: workspace.settingOverwrites.executionMode ?? true,
      agentPool: workspace.settingOverwrites.agentPool ?? true,
    },
    allowDestroyPlan: workspace.allowDestroyPlan,
    assessmentsEnabled: workspace.assessmentsEnabled ?? null,
    autoApply: workspace.autoApply,
    autoApplyRunTrigger: workspace.autoApplyRunTrigger ?? false,
    autoDestroyAt: workspace.autoDestroyAt,
    autoDestroyActivityDuration: workspace.autoDestroyActivityDuration,
    autoDestroyStatus: workspace.autoDestroyStatus,
    inheritsProjectAutoDestroy: workspace.inheritsProjectAutoDestroy,
    fileTriggersEnabled: workspace.fileTriggersEnabled,
    triggerPatterns: workspace.triggerPatterns,
    triggerPrefixes: workspace.triggerPrefixes,
    globalRemoteState: workspace.globalRemoteState,
    projectRemoteState: workspace.projectRemoteState ?? null,
    queueAllRuns: workspace.queueAllRuns,
    speculativeEnabled: workspace.speculativeEnabled,
    structuredRunOutputEnabled: workspace.structuredRunOutputEnabled,
    engineVersion: workspace.engineVersion,
    workingDirectory: workspace.workingDirectory ?? "",
    sourceName: workspace.sourceName,
    sourceUrl: workspace.sourceUrl === null ? null : withoutOwnerFragment(workspace.sourceUrl),
    source: workspace.source,
    environment: workspace.environment,
    vcsRepo: repo === null ? null : {
      identifier: repo.identifier, displayIdentifier: repo.displayIdentifier, branch: repo.branch,
      ingressSubmodules: repo.ingressSubmodules ?? false, oauthTokenId: repo.oauthTokenId,
      githubAppInstallationId: repo.githubAppInstallationId, tagsRegex: repo.tagsRegex,
      repositoryHttpUrl: repo.repositoryHttpUrl, serviceProvider: repo.serviceProvider, webhookUrl: repo.webhookUrl,
    },
    vcsRepoIdentifier: workspace.vcsRepoIdentifier,
    oauthClientName: workspace.oauthClientName,
    projectId: workspace.projectId,
    sshKeyId: workspace.sshKeyId,
    currentRunId: workspace.currentRunId,
    currentStateVersionId: workspace.currentStateVersionId,
    currentConfigurationVersionId: workspace.currentConfigurationVersionId,
    tagNames: [...workspace.tagNames].sort(),
    tagBindings: Object.fromEntries(bindings.filter((b) => b.inheritedFrom === null).map((b) => [b.key, b.value])),
    effectiveTagBindings: bindings,
    permissions: Object.fromEntries(Object.entries(workspace.permissions).filter((e): e is [string, boolean] => e[1] !== undefined)),
    isDestroyable: workspace.isDestroyable,
    locked: workspace.locked,
    lockedReason: workspace.lockedReason,
    lockedBy: workspace.lockedBy,
    resourceCount: workspace.resourceCount,
    createdAt: workspace.createdAt,
    updatedAt: workspace.updatedAt,
    latestChangeAt: workspace.latestChangeAt,
    lastAssessmentResultAt: workspace.lastAssessmentResultAt,
    applyDurationAverage: workspace.applyDurationAverage,
    planDurationAverage: workspace.planDurationAverage,
    policyCheckFailures: workspace.policyCheckFailures,
    runFailures: workspace.runFailures,
    workspaceKpisRunsCount: workspace.workspaceKpisRunsCount,
    htmlUrl: linkedHtmlUrl(client.address, workspace),
    apiUrl: workspaceApiUrl(client.address, workspace.id),
    forceDelete: declared.forceDelete === true,
    adoptExisting: declared.adoptExisting === true,
    __declaredInputs: declaredSet ? [...declaredSet] : declaredKeys(declared),
    __declaredValues: declaredValues ?? Object.fromEntries(OPTIONAL_INPUTS.filter((k) => declared[k] !== undefined).map((k) => [k, declared[k]])),
    ...(marker !== undefined && { __owner: marker }),
  };
}


/** The last report, as a workspace, for an update that sends nothing (provider switches only). */
export function workspaceFromOutputs(o: WorkspaceOutputs): Workspace {
  return {
    id: o.workspaceId, name: o.name, organization: o.organization, description: o.description,
    executionMode: o.executionMode, engineVersion: o.engineVersion, operations: o.operations, locked: o.locked,
    lockedReason: o.lockedReason, lockedBy: o.lockedBy, resourceCount: o.resourceCount, globalRemoteState: o.globalRemoteState,
    autoApply: o.autoApply, autoApplyRunTrigger: o.autoApplyRunTrigger, allowDestroyPlan: o.allowDestroyPlan,
    fileTriggersEnabled: o.fileTriggersEnabled, queueAllRuns: o.queueAllRuns, speculativeEnabled: o.speculativeEnabled,
    structuredRunOutputEnabled: o.structuredRunOutputEnabled,
    ...(o.assessmentsEnabled !== null && { assessmentsEnabled: o.assessmentsEnabled }),
    ...(o.projectRemoteState !== null && { projectRemoteState: o.projectRemoteState }),
    workingDirectory: o.workingDirectory, triggerPrefixes: o.triggerPrefixes, triggerPatterns: o.triggerPatterns,
    tagNames: o.tagNames, environment: o.environment, source: o.source, sourceName: o.sourceName, sourceUrl: o.sourceUrl,
    autoDestroyAt: o.autoDestroyAt, autoDestroyActivityDuration: o.autoDestroyActivityDuration, autoDestroyStatus: o.autoDestroyStatus,
    inheritsProjectAutoDestroy: o.inheritsProjectAutoDestroy, settingOverwrites: o.settingOverwrites,
    vcsRepo: o.vcsRepo, vcsRepoIdentifier: o.vcsRepoIdentifier, oauthClientName: o.oauthClientName,
    projectId: o.projectId, sshKeyId: o.sshKeyId, agentPoolId: o.agentPoolId, currentRunId: o.currentRunId,
    currentStateVersionId: o.currentStateVersionId, currentConfigurationVersionId: o.currentConfigurationVersionId,
    dataRetentionPolicy: null, isDestroyable: o.isDestroyable, createdAt: o.createdAt, updatedAt: o.updatedAt,
    latestChangeAt: o.latestChangeAt, lastAssessmentResultAt: o.lastAssessmentResultAt,
    applyDurationAverage: o.applyDurationAverage, planDurationAverage: o.planDurationAverage,
    policyCheckFailures: o.policyCheckFailures, runFailures: o.runFailures, workspaceKpisRunsCount: o.workspaceKpisRunsCount,
    permissions: o.permissions, selfLink: null, htmlUrl: o.htmlUrl,
    effectiveTagBindings: o.effectiveTagBindings.map((b) => ({
      id: "", key: b.key, value: b.value, inheritedFrom: b.inheritedFrom === null ? null : { id: b.inheritedFrom, link: "" },
    })),
  };
}

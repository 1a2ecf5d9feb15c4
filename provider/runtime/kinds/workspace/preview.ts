// With the provider plugin, `pulumi preview` asks what an apply will produce. An output is known only
// where the apply certainly produces that value: an input the server stores as declared, a value
// derived from the id or the inputs, or (update) an output the change cannot alter. Everything the
// server decides is UNKNOWN. No request is made.
import { sharedClient } from "../../config";
import { knownOutputs } from "../../known-outputs";
import { isUnknown, type Props, UNKNOWN, userInputs } from "../../lifecycle";
import { ownerFragmentOf, withoutOwnerFragment } from "../../ownership";
import { changedInputs, declaredKeys, isRestored } from "./compare";
import {
  KIND, OPTIONAL_INPUTS, PROVIDER_INPUTS, SERVER_INPUTS, SOURCE_NAME, WORKSPACE_REPORT_KEYS,
  type CheckedWorkspaceInputs, type WorkspaceOutputs, type WorkspaceReport, type WorkspaceState,
} from "./fields";
import { fromState, namedOutputsOf, ownerMarkerOf, toState } from "./state";


/** Inputs the server stores exactly as declared, so a declared value is the apply's output. */
export const STORED_AS_DECLARED = [
  "description", "agentPoolId", "allowDestroyPlan", "autoApply", "autoApplyRunTrigger", "autoDestroyActivityDuration",
  "fileTriggersEnabled", "globalRemoteState", "projectRemoteState", "queueAllRuns", "speculativeEnabled", "engineVersion",
  "workingDirectory", "projectId", "tagBindings",
] as const;

/** What else a change of each input may alter on the server (outputs that become UNKNOWN). */
export const ALSO_ALTERS: Partial<Record<string, readonly (keyof WorkspaceReport)[]>> = {
  executionMode: ["settingOverwrites", "agentPoolId", "operations"],
  agentPoolId: ["settingOverwrites", "executionMode"],
  operations: ["executionMode", "settingOverwrites", "agentPoolId"],
  settingOverwrites: ["executionMode", "agentPoolId", "operations"],
  assessmentsEnabled: ["assessmentsEnabled"], // the organization's assessments-enforced may override it
  autoDestroyAt: ["autoDestroyAt", "autoDestroyStatus", "autoDestroyActivityDuration", "inheritsProjectAutoDestroy"],
  autoDestroyActivityDuration: ["autoDestroyAt", "autoDestroyStatus", "inheritsProjectAutoDestroy"],
  triggerPatterns: ["triggerPatterns"], // the server's order is the output's
  triggerPrefixes: ["triggerPrefixes"],
  vcsRepo: ["vcsRepo", "vcsRepoIdentifier", "oauthClientName", "source"],
  projectId: [
    "executionMode", "agentPoolId", "settingOverwrites", "autoDestroyActivityDuration", "autoDestroyStatus",
    "inheritsProjectAutoDestroy", "effectiveTagBindings", "permissions",
  ],
  tagBindings: ["effectiveTagBindings"],
  engineVersion: ["engineVersion"], // a constraint or "latest" may be reported resolved
};

/** A declared input's value as its output reports it ("" for no description, sorted flat tags). */
export function asOutput(key: string, value: unknown): unknown {
  if (isUnknown(value)) return UNKNOWN;
  if (key === "description" || key === "workingDirectory") return typeof value === "string" ? value : "";
  if (key === "tagNames" && Array.isArray(value)) return [...(value as string[])].sort();
  return value;
}

/** The outputs a create with `news` will have; everything the server decides is UNKNOWN. */
export async function previewCreate(news: Props): Promise<WorkspaceState> {
  const declared = userInputs(news) as Partial<CheckedWorkspaceInputs>;
  const marker = ownerMarkerOf(news);
  const address = sharedClient().address;
  const report = Object.fromEntries(WORKSPACE_REPORT_KEYS.map((key) => [key, UNKNOWN])) as Props;
  Object.assign(report, knownOutputs(KIND, UNKNOWN, declared, address), {
    forceDelete: declared.forceDelete === true, adoptExisting: declared.adoptExisting === true,
  });
  for (const key of STORED_AS_DECLARED) if (declared[key] !== undefined) report[key] = asOutput(key, declared[key]);
  if (declared.tagNames !== undefined) report.tagNames = asOutput("tagNames", declared.tagNames);
  if (declared.executionMode !== undefined && declared.settingOverwrites?.executionMode !== false) report.executionMode = declared.executionMode;
  // Adopting takes the existing workspace's create-only values; a create writes the declared ones.
  if (declared.adoptExisting !== true) {
    report.sourceName = declared.sourceName ?? SOURCE_NAME;
    const base = declared.sourceUrl ?? (ownerFragmentOf(marker) === undefined ? undefined : withoutOwnerFragment(marker ?? ""));
    report.sourceUrl = base ?? null;
    if (declared.vcsRepo === undefined) report.vcsRepo = null;
  }
  return plannedState(report as WorkspaceReport, declared, marker, news);
}

/** The outputs an update from the state to `news` will have: unchanged ones stay, changed ones are declared or UNKNOWN. */
export async function previewUpdate(id: string, state: Props, news: Props): Promise<WorkspaceState> {
  const olds = fromState(state);
  const declared = userInputs(news) as Partial<CheckedWorkspaceInputs>;
  const report: Props = Object.fromEntries(WORKSPACE_REPORT_KEYS.map((key) => [key, olds[key]]));
  const changedKeys = changedInputs(olds, news);
  for (const key of changedKeys) {
    const value = declared[key as keyof CheckedWorkspaceInputs];
    if (key === "name") {
      const address = sharedClient().address;
      const known = knownOutputs(KIND, id, { organization: olds.organization, name: value }, address);
      report.name = known.name;
      // The service's page moves with the name where its link is the organization/name one.
      const sameScheme = olds.htmlUrl === knownOutputs(KIND, id, olds, address).htmlUrl;
      report.htmlUrl = sameScheme ? known.htmlUrl : UNKNOWN;
    } else if ((STORED_AS_DECLARED as readonly string[]).includes(key) && value !== undefined) {
      report[key] = asOutput(key, value);
    } else if (key === "tagNames" && value !== undefined) {
      report.tagNames = asOutput(key, value);
    } else if (key === "executionMode" && value !== undefined && declared.settingOverwrites?.executionMode !== false) {
      report.executionMode = asOutput(key, value);
    } else if (value !== undefined && !(PROVIDER_INPUTS as readonly string[]).includes(key)) {
      report[key] = UNKNOWN;
    }
    for (const other of ALSO_ALTERS[key] ?? []) if (!(STORED_AS_DECLARED as readonly string[]).includes(other) || declared[other as keyof CheckedWorkspaceInputs] === undefined) report[other] = UNKNOWN;
    // Left out and restored: no repository, no scheduled destroy; an inherited duration, mode or pool is
    // the project's or organization's (unknown here).
    if (value === undefined && isRestored(key)) report[key] = key === "autoDestroyActivityDuration" ? UNKNOWN : null;
    else if (value === undefined && key !== "name") report[key] = UNKNOWN;
  }
  report.forceDelete = declared.forceDelete === true;
  report.adoptExisting = declared.adoptExisting === true;
  // The update's PATCH (anything but flat tags, provider switches and dropped declarations) moves the timestamps.
  const patched = changedKeys.some((key) => key === "name" || ((SERVER_INPUTS as readonly string[]).includes(key) && key !== "tagNames" &&
    (declared[key as keyof CheckedWorkspaceInputs] !== undefined || isRestored(key))));
  if (patched) {
    report.updatedAt = UNKNOWN;
    report.latestChangeAt = UNKNOWN;
  }
  return plannedState(report as WorkspaceReport, declared, ownerMarkerOf(news), news);
}

/** The planned report with the provider's records, as create and update would write them. */
export function plannedState(report: WorkspaceReport, declared: Partial<CheckedWorkspaceInputs>, marker: string | undefined, news: Props): WorkspaceState {
  const outs: WorkspaceOutputs = {
    ...report,
    __declaredInputs: declaredKeys(declared),
    __declaredValues: Object.fromEntries(OPTIONAL_INPUTS.filter((k) => declared[k] !== undefined).map((k) => [k, declared[k]])),
    ...(marker !== undefined && { __owner: marker }),
  };
  return toState(outs, namedOutputsOf(news));
}

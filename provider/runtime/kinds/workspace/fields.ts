// The Workspace kind's facts: its outputs' shape and names, and its inputs by how the lifecycle treats
// them. Types and constants only, so the dynamic class can read the lists without loading the runtime.
import type { WorkspaceInputs } from "../../../schemas/workspace";
import type { Workspace } from "../../api";
import type { Props } from "../../lifecycle";
import type { Assert, Equals } from "../../../schemas/type-equality";

export const KIND = "Workspace";
export const SOURCE_NAME = "pulumi-wsbridge";
/** Every read asks for the key-value tags with where they come from: one request gives the whole state. */
export const READ = { include: ["effective_tag_bindings"] };

/** Inputs after check: the organization default has been applied. */
export type CheckedWorkspaceInputs = WorkspaceInputs & { organization: string };

export type VcsRepoInput = NonNullable<WorkspaceInputs["vcsRepo"]>;

/** One key-value tag as the workspace sees it: bound directly, or inherited from its project. */
export type EffectiveTagBindingOutput = { key: string; value: string; inheritedFrom: string | null };

/** The repository as the server reports it. */
export type VcsRepoOutput = {
  identifier: string | null; displayIdentifier: string | null; branch: string | null; ingressSubmodules: boolean;
  oauthTokenId: string | null; githubAppInstallationId: string | null; tagsRegex: string | null;
  repositoryHttpUrl: string | null; serviceProvider: string | null; webhookUrl: string | null;
};

/** The outputs that carry the server's value as the client's model has it (runtime/api). */
type AsReported = Pick<Workspace,
  "name" | "organization" | "executionMode" | "agentPoolId" | "operations" | "allowDestroyPlan" |
  "autoApply" | "autoDestroyAt" | "autoDestroyActivityDuration" | "autoDestroyStatus" |
  "inheritsProjectAutoDestroy" | "fileTriggersEnabled" | "triggerPatterns" | "triggerPrefixes" |
  "globalRemoteState" | "queueAllRuns" | "speculativeEnabled" | "structuredRunOutputEnabled" |
  "engineVersion" | "sourceName" | "sourceUrl" | "source" | "environment" | "vcsRepoIdentifier" |
  "oauthClientName" | "projectId" | "sshKeyId" | "currentRunId" | "currentStateVersionId" |
  "currentConfigurationVersionId" | "tagNames" | "isDestroyable" | "locked" | "lockedReason" | "lockedBy" |
  "resourceCount" | "createdAt" | "updatedAt" | "latestChangeAt" | "lastAssessmentResultAt" |
  "applyDurationAverage" | "planDurationAverage" | "policyCheckFailures" | "runFailures" |
  "workspaceKpisRunsCount"
>;

/** Everything a Workspace resource exposes: the server's state, in the inputs' names and shapes where they overlap. */
// A type alias (not an interface) so outputs pass where the engine's plain property maps are expected.
export type WorkspaceOutputs = AsReported & {
  workspaceId: string;
  /** `""` when the workspace has none. */
  description: string;
  settingOverwrites: { executionMode: boolean; agentPool: boolean };
  assessmentsEnabled: boolean | null;
  autoApplyRunTrigger: boolean;
  /** Null when the server does not report it. */
  projectRemoteState: boolean | null;
  /** `""` for the repository root. */
  workingDirectory: string;
  vcsRepo: VcsRepoOutput | null;
  tagBindings: Record<string, string>;
  effectiveTagBindings: EffectiveTagBindingOutput[];
  permissions: Record<string, boolean>;
  htmlUrl: string;
  apiUrl: string;
  forceDelete: boolean;
  adoptExisting: boolean;
  /**
   * Which optional inputs the program declared (`vcsRepo.branch` for a sub-key). `read` only receives
   * the old outputs and must return refreshed inputs for exactly these: an input it invented would
   * show in the next preview as a change that `up` would not make.
   */
  __declaredInputs: string[];
  /**
   * The declared values themselves. Where the server holds the same value in another spelling (a
   * timestamp without milliseconds), refresh returns the declared spelling, so no input looks changed.
   */
  __declaredValues: Props;
  /** The owner marker (runtime/ownership.ts), kept so that refresh returns it with the inputs unchanged. */
  __owner?: string;
};

/** The outputs' own keys: what the provider records for itself, not the server's state. */
export type RecordKey = "__declaredInputs" | "__declaredValues" | "__owner";

/** Every output the server's state gives a workspace (the outputs without the provider's records). */
export type WorkspaceReport = Omit<WorkspaceOutputs, RecordKey>;

/** Every key of {@link WorkspaceReport}, for the outputs a preview plans (a compile-time check keeps the list whole). */
export const WORKSPACE_REPORT_KEYS = [
  "workspaceId", "name", "organization", "description", "executionMode", "agentPoolId", "operations", "settingOverwrites",
  "allowDestroyPlan", "assessmentsEnabled", "autoApply", "autoApplyRunTrigger", "autoDestroyAt", "autoDestroyActivityDuration",
  "autoDestroyStatus", "inheritsProjectAutoDestroy", "fileTriggersEnabled", "triggerPatterns", "triggerPrefixes",
  "globalRemoteState", "projectRemoteState", "queueAllRuns", "speculativeEnabled", "structuredRunOutputEnabled",
  "engineVersion", "workingDirectory", "sourceName", "sourceUrl", "source", "environment", "vcsRepo", "vcsRepoIdentifier",
  "oauthClientName", "projectId", "sshKeyId", "currentRunId", "currentStateVersionId", "currentConfigurationVersionId",
  "tagNames", "tagBindings", "effectiveTagBindings", "permissions", "isDestroyable", "locked", "lockedReason", "lockedBy",
  "resourceCount", "createdAt", "updatedAt", "latestChangeAt", "lastAssessmentResultAt", "applyDurationAverage",
  "planDurationAverage", "policyCheckFailures", "runFailures", "workspaceKpisRunsCount", "htmlUrl", "apiUrl", "forceDelete",
  "adoptExisting",
] as const satisfies readonly (keyof WorkspaceReport)[];
export type WorkspaceReportKeysAreWhole = Assert<Equals<(typeof WORKSPACE_REPORT_KEYS)[number], keyof WorkspaceReport>>;

/**
 * What the state holds for a workspace: every output once, in `__outputs`, and by name only those the
 * resource class registers (see {@link toState}).
 */
export type WorkspaceState = Partial<WorkspaceReport> & Pick<WorkspaceOutputs, RecordKey> & {
  __outputs: WorkspaceReport;
  /** The optional inputs the program passed as Outputs or Promises (see the Workspace class). */
  __namedOutputs?: string[];
};

/** Inputs the server holds, compared and sent when declared. */
export const SERVER_INPUTS = [
  "description", "executionMode", "agentPoolId", "operations", "settingOverwrites", "allowDestroyPlan",
  "assessmentsEnabled", "autoApply", "autoApplyRunTrigger", "autoDestroyAt", "autoDestroyActivityDuration",
  "fileTriggersEnabled", "triggerPatterns", "triggerPrefixes", "globalRemoteState", "projectRemoteState", "queueAllRuns",
  "speculativeEnabled", "engineVersion", "workingDirectory", "vcsRepo", "projectId", "tagBindings", "tagNames",
] as const;
export type ServerInput = (typeof SERVER_INPUTS)[number];
/** Set only by the create: a later change cannot be applied (diff refuses it). */
export const CREATE_ONLY = ["sourceName", "sourceUrl"] as const;
/** The provider's own switches: no request. */
export const PROVIDER_INPUTS = ["forceDelete", "adoptExisting"] as const;
export const OPTIONAL_INPUTS = [...SERVER_INPUTS, ...CREATE_ONLY, ...PROVIDER_INPUTS] as const;
export type OptionalInput = (typeof OPTIONAL_INPUTS)[number];
/** Inputs that are sets: their order carries no meaning. */
export const SET_INPUTS = ["triggerPatterns", "triggerPrefixes", "tagNames"] as const;
/** Inputs whose value is an object of independent settings: only the declared keys are managed. */
export const PARTIAL_OBJECTS = ["vcsRepo", "settingOverwrites"] as const;
/**
 * Inputs whose omission an update restores by sending null (schemas/workspace.ts, WORKSPACE_OMITTED:
 * "none", or inherited from the project): check cannot fill them in, so diff compares the server with
 * what leaving them out means. (The execution mode and agent pool are inherited through
 * settingOverwrites, which check fills in.)
 */
export const RESTORED_WHEN_OMITTED = ["vcsRepo", "autoDestroyAt", "autoDestroyActivityDuration"] as const;
export type RestoredInput = (typeof RESTORED_WHEN_OMITTED)[number];
/** Inherited through settingOverwrites when left out: the key of settingOverwrites that says so. */
export const INHERITED_THROUGH_OVERWRITES = { executionMode: "executionMode", operations: "executionMode", agentPoolId: "agentPool" } as const;

/**
 * Workspace documents (spec §"Workspace"): the response schema and the camelCase model. The create and
 * update options, their validation and the request bodies are in workspace-requests.ts.
 *
 * The version attribute: the spec calls it `engine-version`, the real service `terraform-version`.
 * Responses are read from either; requests carry the value under both names (both servers ignore
 * attributes they do not know), so one client works against the emulator and the service.
 */
import { z } from "zod";
import {
  camelCase, includedResource, paginatedDocument, toIncluded, toManyRelationship, toOneRelationship, type IncludedResource,
} from "./common";
import type { EffectiveTagBinding } from "./tag-bindings";

// ---------------------------------------------------------------------------------------------------
// Response schema

const nullableString = z.string().nullable().optional();
const nullableNumber = z.number().nullable().optional();

/** The spec's permission keys. An object schema (not a record) lets zod compile a fast path; keys the
 * spec does not list are dropped. */
const PERMISSION_KEYS = [
  "can-update", "can-destroy", "can-queue-run", "can-read-run", "can-read-variable", "can-update-variable",
  "can-read-state-versions", "can-read-state-outputs", "can-create-state-versions", "can-queue-apply", "can-lock",
  "can-unlock", "can-force-unlock", "can-read-settings", "can-manage-tags", "can-manage-run-tasks", "can-force-delete",
  "can-manage-assessments", "can-manage-ephemeral-workspaces", "can-read-assessment-results", "can-queue-destroy",
] as const;

const vcsRepoResponse = z.object({
  branch: nullableString,
  "display-identifier": nullableString,
  identifier: nullableString,
  "ingress-submodules": z.boolean().nullable().optional(),
  "oauth-token-id": nullableString,
  "github-app-installation-id": nullableString,
  "repository-http-url": nullableString,
  "service-provider": nullableString,
  "tags-regex": nullableString,
  "webhook-url": nullableString,
});

const workspaceAttributes = z.object({
  name: z.string(),
  locked: z.boolean(),
  "execution-mode": z.string(),
  "auto-apply": z.boolean(),
  "allow-destroy-plan": z.boolean(),
  "file-triggers-enabled": z.boolean(),
  "global-remote-state": z.boolean(),
  "queue-all-runs": z.boolean(),
  "speculative-enabled": z.boolean(),
  "trigger-prefixes": z.array(z.string()),
  "trigger-patterns": z.array(z.string()),
  "tag-names": z.array(z.string()),
  "created-at": z.string(),
  "updated-at": z.string(),
  "resource-count": z.number(),

  "engine-version": nullableString,
  "terraform-version": nullableString,
  operations: z.boolean().optional(),
  "auto-apply-run-trigger": z.boolean().optional(),
  "assessments-enabled": z.boolean().optional(),
  "project-remote-state": z.boolean().optional(),
  "structured-run-output-enabled": z.boolean().optional(),
  description: nullableString,
  environment: nullableString,
  "locked-reason": nullableString,
  "working-directory": nullableString,
  source: nullableString,
  "source-name": nullableString,
  "source-url": nullableString,
  "auto-destroy-at": nullableString,
  "auto-destroy-activity-duration": nullableString,
  "auto-destroy-status": nullableString,
  // The spec lists it among strings, the service sends a boolean: accept both.
  "inherits-project-auto-destroy": z.union([z.boolean(), z.string()]).nullable().optional(),
  "oauth-client-name": nullableString,
  "vcs-repo-identifier": nullableString,
  "latest-change-at": nullableString,
  "last-assessment-result-at": nullableString,
  "apply-duration-average": nullableNumber,
  "plan-duration-average": nullableNumber,
  "policy-check-failures": nullableNumber,
  "run-failures": nullableNumber,
  "workspace-kpis-runs-count": nullableNumber,
  unarchived_workspace_change_requests_count: nullableNumber,
  actions: z.object({ "is-destroyable": z.boolean().optional() }).nullable().optional(),
  "setting-overwrites": z.object({
    "execution-mode": z.boolean().optional(),
    "agent-pool": z.boolean().optional(),
  }).nullable().optional(),
  "vcs-repo": vcsRepoResponse.nullable().optional(),
  permissions: z.object(Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean().optional()]))).nullable().optional(),
});

const workspaceRelationships = z.object({
  organization: z.object({ data: z.object({ id: z.string(), type: z.string() }) }),
  project: toOneRelationship.optional(),
  "ssh-key": toOneRelationship.optional(),
  "agent-pool": toOneRelationship.optional(),
  "locked-by": toOneRelationship.optional(),
  "current-run": toOneRelationship.optional(),
  "current-state-version": toOneRelationship.optional(),
  "current-configuration-version": toOneRelationship.optional(),
  "data-retention-policy": toOneRelationship.optional(),
  "remote-state-consumers": toManyRelationship.optional(),
  "tag-bindings": toManyRelationship.optional(),
  "effective-tag-bindings": toManyRelationship.optional(),
});

export const workspaceResource = z.object({
  id: z.string(),
  type: z.literal("workspaces"),
  attributes: workspaceAttributes,
  relationships: workspaceRelationships,
  links: z.object({ self: nullableString, "self-html": nullableString }).optional(),
});
export type WorkspaceResource = z.output<typeof workspaceResource>;

/** A single-workspace document (A1, A3–A6, B1–B4). */
export const workspaceDocument = z.object({
  data: workspaceResource,
  included: z.array(includedResource).optional(),
});

/** A list of workspaces (A2, C1). */
/** A2; `included` holds what `include` asked for, for every workspace of the page. */
export const workspaceListDocument = paginatedDocument(workspaceResource).extend({ included: z.array(includedResource).optional() });

// ---------------------------------------------------------------------------------------------------
// Model

export type ExecutionMode = "remote" | "local" | "agent";

/** The repository a workspace is bound to. */
export interface VcsRepo {
  identifier: string | null;
  displayIdentifier: string | null;
  branch: string | null;
  ingressSubmodules: boolean | null;
  oauthTokenId: string | null;
  githubAppInstallationId: string | null;
  repositoryHttpUrl: string | null;
  serviceProvider: string | null;
  tagsRegex: string | null;
  webhookUrl: string | null;
}

/** What the caller may do on the workspace (`permissions`, camelCased). */
export interface WorkspacePermissions {
  canUpdate?: boolean;
  canDestroy?: boolean;
  canQueueRun?: boolean;
  canReadRun?: boolean;
  canReadVariable?: boolean;
  canUpdateVariable?: boolean;
  canReadStateVersions?: boolean;
  canReadStateOutputs?: boolean;
  canCreateStateVersions?: boolean;
  canQueueApply?: boolean;
  canLock?: boolean;
  canUnlock?: boolean;
  canForceUnlock?: boolean;
  canReadSettings?: boolean;
  canManageTags?: boolean;
  canManageRunTasks?: boolean;
  canForceDelete?: boolean;
  canManageAssessments?: boolean;
  canManageEphemeralWorkspaces?: boolean;
  canReadAssessmentResults?: boolean;
  canQueueDestroy?: boolean;
  [other: string]: boolean | undefined;
}

/** Who holds a lock: `users`, `teams` or `runs`. */
export interface LockHolder {
  type: string;
  id: string;
}

/** A workspace as the server reported it. Nullable fields are null when the server sent null or nothing. */
export interface Workspace {
  id: string;
  name: string;
  /** The organization's name. */
  organization: string;
  description: string | null;
  executionMode: string;
  /** `engine-version` (spec) or `terraform-version` (service): an exact version or a constraint. */
  engineVersion: string | null;
  operations: boolean | null;
  locked: boolean;
  lockedReason: string | null;
  lockedBy: LockHolder | null;
  resourceCount: number;
  globalRemoteState: boolean;
  autoApply: boolean;
  autoApplyRunTrigger: boolean | null;
  allowDestroyPlan: boolean;
  fileTriggersEnabled: boolean;
  queueAllRuns: boolean;
  speculativeEnabled: boolean;
  structuredRunOutputEnabled: boolean | null;
  /** Hosted edition only; undefined when the server does not report it. */
  assessmentsEnabled?: boolean;
  /** Share the state with the other workspaces of its project; undefined when the server does not report it. */
  projectRemoteState?: boolean;
  workingDirectory: string | null;
  triggerPrefixes: string[];
  triggerPatterns: string[];
  /** Flat (legacy) tags. */
  tagNames: string[];
  environment: string | null;
  source: string | null;
  sourceName: string | null;
  sourceUrl: string | null;
  autoDestroyAt: string | null;
  autoDestroyActivityDuration: string | null;
  autoDestroyStatus: string | null;
  inheritsProjectAutoDestroy: boolean | string | null;
  settingOverwrites: { executionMode?: boolean; agentPool?: boolean };
  vcsRepo: VcsRepo | null;
  vcsRepoIdentifier: string | null;
  oauthClientName: string | null;
  projectId: string | null;
  sshKeyId: string | null;
  agentPoolId: string | null;
  currentRunId: string | null;
  currentStateVersionId: string | null;
  currentConfigurationVersionId: string | null;
  /** Set when a data retention policy was set on this workspace explicitly (self-managed edition). */
  dataRetentionPolicy: { id: string; type: string } | null;
  isDestroyable: boolean | null;
  createdAt: string;
  updatedAt: string;
  latestChangeAt: string | null;
  lastAssessmentResultAt: string | null;
  applyDurationAverage: number | null;
  planDurationAverage: number | null;
  policyCheckFailures: number | null;
  runFailures: number | null;
  workspaceKpisRunsCount: number | null;
  unarchivedWorkspaceChangeRequestsCount?: number | null;
  permissions: WorkspacePermissions;
  /** `links.self`: `/api/v2/organizations/<org>/workspaces/<name>`. */
  selfLink: string | null;
  /** `links.self-html`: `/app/<org>/workspaces/<name>` (relative to the address). */
  htmlUrl: string | null;
  /** Related resources requested with `include`. */
  included?: IncludedResource[];
  /** Direct and project-inherited key-value tags, when the read asked for `include=effective_tag_bindings`. */
  effectiveTagBindings?: EffectiveTagBinding[];
}

const orNull = <T>(value: T | null | undefined): T | null => (value === undefined ? null : value);

function toVcsRepo(v: z.output<typeof vcsRepoResponse>): VcsRepo {
  return {
    identifier: orNull(v.identifier),
    displayIdentifier: orNull(v["display-identifier"]),
    branch: orNull(v.branch),
    ingressSubmodules: orNull(v["ingress-submodules"]),
    oauthTokenId: orNull(v["oauth-token-id"]),
    githubAppInstallationId: orNull(v["github-app-installation-id"]),
    repositoryHttpUrl: orNull(v["repository-http-url"]),
    serviceProvider: orNull(v["service-provider"]),
    tagsRegex: orNull(v["tags-regex"]),
    webhookUrl: orNull(v["webhook-url"]),
  };
}

/** `[kebab, camel]` pairs, computed once: the mapping runs on every workspace the client reads. */
const PERMISSION_NAMES = PERMISSION_KEYS.map((k) => [k, camelCase(k)] as const);

function toPermissions(p: Partial<Record<string, boolean | undefined>> | null | undefined): WorkspacePermissions {
  const out: WorkspacePermissions = {};
  if (p) {
    for (const [kebab, camel] of PERMISSION_NAMES) {
      const value = p[kebab];
      if (value !== undefined) out[camel] = value;
    }
  }
  return out;
}

/** Maps one `workspaces` resource to the model. */
export function toWorkspace(r: WorkspaceResource, included?: z.output<typeof includedResource>[]): Workspace {
  const a = r.attributes;
  const rel = r.relationships;
  const lockedBy = rel["locked-by"]?.data;
  const overwrites = a["setting-overwrites"];
  const ws: Workspace = {
    id: r.id,
    name: a.name,
    organization: rel.organization.data.id,
    description: orNull(a.description),
    executionMode: a["execution-mode"],
    engineVersion: a["engine-version"] ?? a["terraform-version"] ?? null,
    operations: orNull(a.operations),
    locked: a.locked,
    lockedReason: orNull(a["locked-reason"]),
    lockedBy: lockedBy ? { type: lockedBy.type, id: lockedBy.id } : null,
    resourceCount: a["resource-count"],
    globalRemoteState: a["global-remote-state"],
    autoApply: a["auto-apply"],
    autoApplyRunTrigger: orNull(a["auto-apply-run-trigger"]),
    allowDestroyPlan: a["allow-destroy-plan"],
    fileTriggersEnabled: a["file-triggers-enabled"],
    queueAllRuns: a["queue-all-runs"],
    speculativeEnabled: a["speculative-enabled"],
    structuredRunOutputEnabled: orNull(a["structured-run-output-enabled"]),
    workingDirectory: orNull(a["working-directory"]),
    triggerPrefixes: a["trigger-prefixes"],
    triggerPatterns: a["trigger-patterns"],
    tagNames: a["tag-names"],
    environment: orNull(a.environment),
    source: orNull(a.source),
    sourceName: orNull(a["source-name"]),
    sourceUrl: orNull(a["source-url"]),
    autoDestroyAt: orNull(a["auto-destroy-at"]),
    autoDestroyActivityDuration: orNull(a["auto-destroy-activity-duration"]),
    autoDestroyStatus: orNull(a["auto-destroy-status"]),
    inheritsProjectAutoDestroy: orNull(a["inherits-project-auto-destroy"]),
    settingOverwrites: {
      ...(overwrites?.["execution-mode"] === undefined ? {} : { executionMode: overwrites["execution-mode"] }),
      ...(overwrites?.["agent-pool"] === undefined ? {} : { agentPool: overwrites["agent-pool"] }),
    },
    vcsRepo: a["vcs-repo"] ? toVcsRepo(a["vcs-repo"]) : null,
    vcsRepoIdentifier: orNull(a["vcs-repo-identifier"]),
    oauthClientName: orNull(a["oauth-client-name"]),
    projectId: rel.project?.data?.id ?? null,
    sshKeyId: rel["ssh-key"]?.data?.id ?? null,
    agentPoolId: rel["agent-pool"]?.data?.id ?? null,
    currentRunId: rel["current-run"]?.data?.id ?? null,
    currentStateVersionId: rel["current-state-version"]?.data?.id ?? null,
    currentConfigurationVersionId: rel["current-configuration-version"]?.data?.id ?? null,
    dataRetentionPolicy: rel["data-retention-policy"]?.data ?? null,
    isDestroyable: orNull(a.actions?.["is-destroyable"]),
    createdAt: a["created-at"],
    updatedAt: a["updated-at"],
    latestChangeAt: orNull(a["latest-change-at"]),
    lastAssessmentResultAt: orNull(a["last-assessment-result-at"]),
    applyDurationAverage: orNull(a["apply-duration-average"]),
    planDurationAverage: orNull(a["plan-duration-average"]),
    policyCheckFailures: orNull(a["policy-check-failures"]),
    runFailures: orNull(a["run-failures"]),
    workspaceKpisRunsCount: orNull(a["workspace-kpis-runs-count"]),
    permissions: toPermissions(a.permissions),
    selfLink: orNull(r.links?.self),
    htmlUrl: orNull(r.links?.["self-html"]),
  };
  if (a["assessments-enabled"] !== undefined) ws.assessmentsEnabled = a["assessments-enabled"];
  if (a["project-remote-state"] !== undefined) ws.projectRemoteState = a["project-remote-state"];
  if (a.unarchived_workspace_change_requests_count !== undefined) {
    ws.unarchivedWorkspaceChangeRequestsCount = a.unarchived_workspace_change_requests_count;
  }
  const inc = toIncluded(included);
  if (inc !== undefined) ws.included = inc;
  return ws;
}

/**
 * Workspace documents (spec §"Workspace"): the response schema, the camelCase model, the create/update
 * options, their validation, and the request bodies.
 *
 * The version attribute: the spec calls it `engine-version`, the real service `terraform-version`.
 * Responses are read from either; requests carry the value under both names (both servers ignore
 * attributes they do not know), so one client works against the emulator and the service.
 */
import { z } from "zod";
import { InvalidOptionsError } from "../errors";
import {
  bodyId, camelCase, includedResource, paginatedDocument, requestDocument, toIncluded, toManyRelationship, toOneRelationship,
  type IncludedResource, type RequestDocument,
} from "./common";

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
export const workspaceListDocument = paginatedDocument(workspaceResource);

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

/** A key-value tag as a workspace sees it (C9): bound directly, or inherited from its project.
 * Defined here, beside the workspace that carries it; tag-bindings.ts maps the documents. */
export interface EffectiveTagBinding {
  id: string;
  key: string;
  /** "" for a key-only tag. */
  value: string;
  /** Where an inherited binding comes from (a project); null for a binding set on the workspace. */
  inheritedFrom: { id: string | null; link: string } | null;
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

// ---------------------------------------------------------------------------------------------------
// Options (undefined = omit; null = send null where the spec allows)

/** VCS repository settings (spec "VCS repository sub-object"). */
export interface VcsRepoOptions {
  /** Required when adding a repository: `:org/:repo`. */
  identifier?: string;
  /** Required when adding a repository (unless `githubAppInstallationId` is given on update). */
  oauthTokenId?: string;
  /** Update only; excludes `oauthTokenId`. */
  githubAppInstallationId?: string;
  /** Optional: empty or omitted means the repository's default branch. */
  branch?: string;
  /** Optional: fetch submodules when cloning. Default false. */
  ingressSubmodules?: boolean;
  /** Optional: start runs for Git tags matching this regular expression. */
  tagsRegex?: string | null;
}

/** A key-value tag to bind (spec: at most 10, key ≤128, value ≤256 characters). */
export interface TagBindingInput {
  key: string;
  /** Optional: a key-only tag when omitted. */
  value?: string;
}

/** Attributes and relationships writable on both create and update. */
export interface WorkspaceWritableOptions {
  /** Required when executionMode is `agent`; must not be given for `remote`/`local`. null detaches. */
  agentPoolId?: string | null;
  /** Optional: whether destroy plans can be queued. Default true. */
  allowDestroyPlan?: boolean;
  /** Optional, hosted edition only: health assessments. Default false. */
  assessmentsEnabled?: boolean;
  /** Optional: auto-apply runs from VCS, UI or CLI. Default false. */
  autoApply?: boolean;
  /** Optional: auto-apply runs started by run triggers. Default false. */
  autoApplyRunTrigger?: boolean;
  /** Optional: timestamp of the next scheduled destroy run; null clears it. */
  autoDestroyAt?: string | null;
  /** Optional: destroy after this much inactivity, 1–4 digits then `d` or `h`; null clears it. */
  autoDestroyActivityDuration?: string | null;
  /** Optional: free text. */
  description?: string | null;
  /** Optional: `remote`, `local` or `agent`; excludes `operations`. */
  executionMode?: ExecutionMode;
  /** Optional: only start runs for changed files under the prefixes/patterns. Default true. */
  fileTriggersEnabled?: boolean;
  /** Optional: let every workspace of the organization read this one's state. */
  globalRemoteState?: boolean;
  /** Optional: let the other workspaces of its project read this one's state; not with globalRemoteState. Default false. */
  projectRemoteState?: boolean;
  /** Deprecated, use executionMode; excludes it. */
  operations?: boolean;
  /** Optional: queue runs right after creation. Default false. */
  queueAllRuns?: boolean;
  /** Optional: automatic speculative plans. Default true. */
  speculativeEnabled?: boolean;
  /** Optional: exact version or constraint (`~> 1.0.0`); sent as `engine-version` and `terraform-version`. */
  engineVersion?: string;
  /** Optional: glob patterns of monitored files. */
  triggerPatterns?: string[];
  /** Optional: monitored path prefixes. */
  triggerPrefixes?: string[];
  /** Optional: relative path the engine runs in; null or "" means the repository root. */
  workingDirectory?: string | null;
  /** Optional: false inherits the organization default for that setting. */
  settingOverwrites?: { executionMode?: boolean; agentPool?: boolean };
  /** Optional: project to create in / move to. */
  projectId?: string;
  /** Optional: key-value tags. On update the list REPLACES every directly bound tag. */
  tagBindings?: TagBindingInput[];
}

/** Options of A1. */
export interface WorkspaceCreateOptions extends WorkspaceWritableOptions {
  /** Required: letters, digits, `-`, `_`; unique in the organization. */
  name: string;
  /** Optional: "Created via <name>". */
  sourceName?: string;
  /** Optional: URL of the creating client. */
  sourceUrl?: string;
  /** Optional: the repository to bind; identifier and oauthTokenId are required. */
  vcsRepo?: VcsRepoOptions;
}

/** Options of A5/A6. */
export interface WorkspaceUpdateOptions extends WorkspaceWritableOptions {
  /** Optional: renames the workspace (its URL changes). */
  name?: string;
  /** Optional: an object changes only the keys given; null removes the repository. */
  vcsRepo?: VcsRepoOptions | null;
}

// ---------------------------------------------------------------------------------------------------
// Validation (documented rules only; everything else is the server's call)

const NAME = /^[A-Za-z0-9_-]+$/;
const DURATION = /^(\d{1,4})[dh]$/;
const TAG_CHARS = /^[A-Za-z0-9_.=+\-@:]+$/;
const EXECUTION_MODES: readonly string[] = ["remote", "local", "agent"];

/** Checks the key-value tag rules of the spec's Limits table. */
export function validateTagBindings(operation: string, property: string, bindings: readonly TagBindingInput[]): void {
  if (bindings.length > 10) throw new InvalidOptionsError(operation, property, `at most 10 tags may be bound directly, got ${bindings.length}`);
  bindings.forEach((b, i) => {
    const at = `${property}[${i}]`;
    if (typeof b.key !== "string" || b.key === "") throw new InvalidOptionsError(operation, `${at}.key`, "is required");
    if (b.key.length > 128) throw new InvalidOptionsError(operation, `${at}.key`, "must be at most 128 characters");
    if (!TAG_CHARS.test(b.key)) throw new InvalidOptionsError(operation, `${at}.key`, "may contain only letters, digits and _ . = + - @ :");
    if (/^hcp?:/i.test(b.key)) throw new InvalidOptionsError(operation, `${at}.key`, "must not start with the reserved prefixes hc: or hcp:");
    if (b.value !== undefined && b.value !== "") {
      if (b.value.length > 256) throw new InvalidOptionsError(operation, `${at}.value`, "must be at most 256 characters");
      if (!TAG_CHARS.test(b.value)) throw new InvalidOptionsError(operation, `${at}.value`, "may contain only letters, digits and _ . = + - @ :");
    }
  });
}

function validateWritable(operation: string, o: WorkspaceWritableOptions & { vcsRepo?: VcsRepoOptions | null }): void {
  if (o.executionMode !== undefined && !EXECUTION_MODES.includes(o.executionMode)) {
    throw new InvalidOptionsError(operation, "executionMode", `must be remote, local or agent, got "${String(o.executionMode)}"`);
  }
  if (o.executionMode !== undefined && o.operations !== undefined) {
    throw new InvalidOptionsError(operation, "operations", "must not be given together with executionMode (operations is deprecated)");
  }
  const hasPool = typeof o.agentPoolId === "string" && o.agentPoolId !== "";
  if (hasPool && o.executionMode !== undefined && o.executionMode !== "agent") {
    throw new InvalidOptionsError(operation, "agentPoolId", `must not be given when executionMode is ${o.executionMode}`);
  }
  // null clears it; anything else, "" included, must be a duration.
  if (o.autoDestroyActivityDuration !== undefined && o.autoDestroyActivityDuration !== null) {
    const m = DURATION.exec(o.autoDestroyActivityDuration);
    if (!m || Number(m[1]) === 0) {
      throw new InvalidOptionsError(operation, "autoDestroyActivityDuration", "must be 1 to 4 digits (greater than 0) followed by d or h, e.g. 14d");
    }
  }
  if (o.tagBindings !== undefined) validateTagBindings(operation, "tagBindings", o.tagBindings);
  if (o.vcsRepo?.oauthTokenId && o.vcsRepo.githubAppInstallationId) {
    throw new InvalidOptionsError(operation, "vcsRepo.githubAppInstallationId", "must not be given together with oauthTokenId");
  }
}

export function validateCreateOptions(o: WorkspaceCreateOptions): void {
  const op = "createWorkspace";
  if (typeof o?.name !== "string" || o.name === "") throw new InvalidOptionsError(op, "name", "is required");
  if (!NAME.test(o.name)) throw new InvalidOptionsError(op, "name", "may contain only letters, digits, - and _");
  if (o.executionMode === "agent" && !o.agentPoolId) throw new InvalidOptionsError(op, "agentPoolId", "is required when executionMode is agent");
  if (o.vcsRepo !== undefined) {
    if (!o.vcsRepo.identifier) throw new InvalidOptionsError(op, "vcsRepo.identifier", "is required when a repository is given");
    if (!o.vcsRepo.oauthTokenId) throw new InvalidOptionsError(op, "vcsRepo.oauthTokenId", "is required when a repository is given");
    if (o.vcsRepo.githubAppInstallationId !== undefined) {
      throw new InvalidOptionsError(op, "vcsRepo.githubAppInstallationId", "can only be set on update");
    }
  }
  validateWritable(op, o);
}

export function validateUpdateOptions(operation: string, o: WorkspaceUpdateOptions): void {
  if (o === null || typeof o !== "object") throw new InvalidOptionsError(operation, "options", "must be an object");
  if (o.name !== undefined && (o.name === "" || !NAME.test(o.name))) {
    throw new InvalidOptionsError(operation, "name", "may contain only letters, digits, - and _");
  }
  validateWritable(operation, o);
}

// ---------------------------------------------------------------------------------------------------
// Request documents (A1, A5, A6): schemas first, then the builders typed by them.
// Strict objects: a key the spec does not list is a builder bug, refused before sending.

const optionalBoolean = z.boolean().optional();
const stringList = z.array(z.string()).optional();

/** `{ type: "tag-bindings", attributes: { key, value? } }` (spec Limits: key ≤128, value ≤256). */
export const tagBindingRequestResource = z.strictObject({
  type: z.literal("tag-bindings"),
  attributes: z.strictObject({ key: z.string().min(1).max(128), value: z.string().max(256).optional() }),
});

const vcsRepoRequest = z.strictObject({
  identifier: z.string().min(1).optional(),
  "oauth-token-id": z.string().min(1).optional(),
  "github-app-installation-id": z.string().min(1).optional(),
  branch: z.string().optional(),
  "ingress-submodules": optionalBoolean,
  "tags-regex": z.string().nullable().optional(),
});

/** Attributes writable on create and update. */
const writableAttributes = {
  "agent-pool-id": z.string().nullable().optional(),
  "allow-destroy-plan": optionalBoolean,
  "assessments-enabled": optionalBoolean,
  "auto-apply": optionalBoolean,
  "auto-apply-run-trigger": optionalBoolean,
  "auto-destroy-at": z.string().nullable().optional(),
  "auto-destroy-activity-duration": z.string().regex(/^\d{1,4}[dh]$/, "must be 1 to 4 digits followed by d or h").nullable().optional(),
  description: z.string().nullable().optional(),
  "execution-mode": z.enum(["remote", "local", "agent"]).optional(),
  "file-triggers-enabled": optionalBoolean,
  "global-remote-state": optionalBoolean,
  "project-remote-state": optionalBoolean,
  operations: optionalBoolean,
  "queue-all-runs": optionalBoolean,
  "speculative-enabled": optionalBoolean,
  "engine-version": z.string().min(1).optional(),
  "terraform-version": z.string().min(1).optional(),
  "trigger-patterns": stringList,
  "trigger-prefixes": stringList,
  "working-directory": z.string().nullable().optional(),
  "setting-overwrites": z.strictObject({ "execution-mode": optionalBoolean, "agent-pool": optionalBoolean }).optional(),
};

const workspaceRelationshipsRequest = z.strictObject({
  project: z.strictObject({ data: z.strictObject({ type: z.literal("projects"), id: bodyId }) }).optional(),
  "tag-bindings": z.strictObject({ data: z.array(tagBindingRequestResource).max(10) }).optional(),
});

const workspaceName = z.string().regex(NAME, "may contain only letters, digits, - and _");

/** A1 request document. */
export const workspaceCreateRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal("workspaces"),
    attributes: z.strictObject({
      name: workspaceName,
      ...writableAttributes,
      "source-name": z.string().optional(),
      "source-url": z.string().optional(),
      // On create: identifier and oauth-token-id are required; an app installation can only be set on update.
      "vcs-repo": vcsRepoRequest.omit({ "github-app-installation-id": true })
        .extend({ identifier: z.string().min(1), "oauth-token-id": z.string().min(1) }).optional(),
    }),
    relationships: workspaceRelationshipsRequest.optional(),
  }),
});

/** A5/A6 request document: every attribute optional; `vcs-repo` null removes the repository. */
export const workspaceUpdateRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal("workspaces"),
    attributes: z.strictObject({ name: workspaceName.optional(), ...writableAttributes, "vcs-repo": vcsRepoRequest.nullable().optional() }),
    relationships: workspaceRelationshipsRequest.optional(),
  }),
});

type VcsRepoRequest = z.input<typeof vcsRepoRequest>;
type WritableAttributesRequest = Omit<z.input<typeof workspaceUpdateRequest>["data"]["attributes"], "name" | "vcs-repo">;
type RelationshipsRequest = z.input<typeof workspaceRelationshipsRequest>;

function vcsRepoBody(v: VcsRepoOptions): VcsRepoRequest {
  return {
    identifier: v.identifier,
    "oauth-token-id": v.oauthTokenId,
    "github-app-installation-id": v.githubAppInstallationId,
    branch: v.branch,
    "ingress-submodules": v.ingressSubmodules,
    "tags-regex": v.tagsRegex,
  };
}

/** On create the options type has them optional; validateCreateOptions and the schema require them. */
function createVcsRepoBody(v: VcsRepoOptions): Omit<VcsRepoRequest, "github-app-installation-id"> & { identifier: string; "oauth-token-id": string } {
  return {
    identifier: v.identifier ?? "",
    "oauth-token-id": v.oauthTokenId ?? "",
    branch: v.branch,
    "ingress-submodules": v.ingressSubmodules,
    "tags-regex": v.tagsRegex,
  };
}

function writableBody(o: WorkspaceWritableOptions): WritableAttributesRequest {
  return {
    "agent-pool-id": o.agentPoolId,
    "allow-destroy-plan": o.allowDestroyPlan,
    "assessments-enabled": o.assessmentsEnabled,
    "auto-apply": o.autoApply,
    "auto-apply-run-trigger": o.autoApplyRunTrigger,
    "auto-destroy-at": o.autoDestroyAt,
    "auto-destroy-activity-duration": o.autoDestroyActivityDuration,
    description: o.description,
    "execution-mode": o.executionMode,
    "file-triggers-enabled": o.fileTriggersEnabled,
    "global-remote-state": o.globalRemoteState,
    "project-remote-state": o.projectRemoteState,
    operations: o.operations,
    "queue-all-runs": o.queueAllRuns,
    "speculative-enabled": o.speculativeEnabled,
    // The spec's name and the service's name of the same attribute (see the header comment).
    "engine-version": o.engineVersion,
    "terraform-version": o.engineVersion,
    "trigger-patterns": o.triggerPatterns,
    "trigger-prefixes": o.triggerPrefixes,
    "working-directory": o.workingDirectory,
    "setting-overwrites": o.settingOverwrites === undefined
      ? undefined
      : { "execution-mode": o.settingOverwrites.executionMode, "agent-pool": o.settingOverwrites.agentPool },
  };
}

function relationshipsBody(o: WorkspaceWritableOptions): RelationshipsRequest | undefined {
  if (o.projectId === undefined && o.tagBindings === undefined) return undefined;
  return {
    project: o.projectId === undefined ? undefined : { data: { type: "projects", id: o.projectId } },
    "tag-bindings": o.tagBindings === undefined ? undefined : { data: o.tagBindings.map(tagBindingResource) },
  };
}

/** A1: `{ data: { type: "workspaces", attributes, relationships? } }`. */
export function workspaceCreateBody(o: WorkspaceCreateOptions): RequestDocument {
  return requestDocument(workspaceCreateRequest, {
    data: {
      type: "workspaces",
      attributes: {
        name: o.name,
        ...writableBody(o),
        "source-name": o.sourceName,
        "source-url": o.sourceUrl,
        "vcs-repo": o.vcsRepo === undefined ? undefined : createVcsRepoBody(o.vcsRepo),
      },
      relationships: relationshipsBody(o),
    },
  });
}

/** A5, A6: same envelope, every attribute optional. */
export function workspaceUpdateBody(o: WorkspaceUpdateOptions): RequestDocument {
  return requestDocument(workspaceUpdateRequest, {
    data: {
      type: "workspaces",
      attributes: {
        name: o.name,
        ...writableBody(o),
        "vcs-repo": o.vcsRepo === undefined ? undefined : o.vcsRepo === null ? null : vcsRepoBody(o.vcsRepo),
      },
      relationships: relationshipsBody(o),
    },
  });
}

/** `{ type: "tag-bindings", attributes: { key, value? } }` */
export function tagBindingResource(b: TagBindingInput): z.input<typeof tagBindingRequestResource> {
  return { type: "tag-bindings", attributes: { key: b.key, value: b.value } };
}

// ---------------------------------------------------------------------------------------------------
// List options

/** Options of A2. */
export interface WorkspaceListOptions {
  /** Optional: fuzzy match on name (`search[name]`). */
  search?: string;
  /** Optional: only workspaces with ALL these flat tags (`search[tags]`). */
  tags?: string[];
  /** Optional: exclude workspaces with ANY of these flat tags (`search[exclude-tags]`). */
  excludeTags?: string[];
  /** Optional: `*` wildcard match on name (`search[wildcard-name]`). */
  wildcardName?: string;
  /** Optional: `name`, `current-run.created-at`, `latest-change-at`; a leading `-` reverses. */
  sort?: string;
  /** Optional: only workspaces of this project (`filter[project][id]`). */
  projectId?: string;
  /** Optional: only workspaces whose current run has this status. */
  currentRunStatus?: string;
  /** Optional: key-value tag filters, combined with AND (`filter[tagged][i][key|value]`). */
  tagged?: TagBindingInput[];
  /** Optional: related resources to embed. */
  include?: string[];
  /** Optional: items per request, 1–100. Default 100 (fewest round trips). */
  pageSize?: number;
}

export function listQuery(o: WorkspaceListOptions | undefined): Record<string, string | undefined> {
  const q: Record<string, string | undefined> = {
    "search[name]": o?.search,
    "search[tags]": o?.tags?.join(","),
    "search[exclude-tags]": o?.excludeTags?.join(","),
    "search[wildcard-name]": o?.wildcardName,
    sort: o?.sort,
    "filter[project][id]": o?.projectId,
    "filter[current-run][status]": o?.currentRunStatus,
    include: o?.include?.join(","),
  };
  o?.tagged?.forEach((t, i) => {
    q[`filter[tagged][${i}][key]`] = t.key;
    q[`filter[tagged][${i}][value]`] = t.value;
  });
  return q;
}

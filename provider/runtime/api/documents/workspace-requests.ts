/**
 * Workspace requests (spec A1, A2, A5, A6): the create and update options, their checks, the request
 * documents (their schemas first, then the builders typed by them) and the list query. The value rules
 * come from provider/schemas/rules.ts, as the resource's inputs do: a request the inputs allowed is
 * never refused here for a rule worded otherwise.
 *
 * The version attribute: the spec calls it `engine-version`, the real service `terraform-version`;
 * requests carry the value under both names (both servers ignore attributes they do not know).
 */
import { z } from "zod";
import { MAX_DIRECT_TAG_BINDINGS, RULES, brokenCheck, text } from "../../../schemas/rules";
import { InvalidOptionsError } from "../errors";
import { bodyId, requestDocument, type RequestDocument } from "./common";
import { tagBindingRequestItem, tagBindingRequestResource, validateTagBindings, type TagBindingInput } from "./tag-bindings";
import type { ExecutionMode } from "./workspaces";

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

const EXECUTION_MODES: readonly string[] = ["remote", "local", "agent"];

/** `rule`'s first broken check for `value`, thrown as the option's error. */
function checkRule(operation: string, property: string, rule: Parameters<typeof brokenCheck>[0], value: string): void {
  const broken = brokenCheck(rule, value);
  if (broken !== undefined) throw new InvalidOptionsError(operation, property, broken.message);
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
    checkRule(operation, "autoDestroyActivityDuration", RULES.autoDestroyActivityDuration, o.autoDestroyActivityDuration);
  }
  if (o.tagBindings !== undefined) validateTagBindings(operation, "tagBindings", o.tagBindings);
  if (o.vcsRepo?.oauthTokenId && o.vcsRepo.githubAppInstallationId) {
    throw new InvalidOptionsError(operation, "vcsRepo.githubAppInstallationId", "must not be given together with oauthTokenId");
  }
}

export function validateCreateOptions(o: WorkspaceCreateOptions): void {
  const op = "createWorkspace";
  if (typeof o?.name !== "string" || o.name === "") throw new InvalidOptionsError(op, "name", "is required");
  checkRule(op, "name", RULES.workspaceName, o.name);
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
  if (o.name !== undefined) checkRule(operation, "name", RULES.workspaceName, o.name);
  validateWritable(operation, o);
}

// ---------------------------------------------------------------------------------------------------
// Request documents (A1, A5, A6): schemas first, then the builders typed by them.
// Strict objects: a key the spec does not list is a builder bug, refused before sending.

const optionalBoolean = z.boolean().optional();
const stringList = z.array(z.string()).optional();

const vcsRepoRequest = z.strictObject({
  identifier: text(RULES.vcsIdentifier).optional(),
  "oauth-token-id": text(RULES.nonEmpty).optional(),
  "github-app-installation-id": text(RULES.nonEmpty).optional(),
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
  "auto-destroy-at": text(RULES.autoDestroyAt).nullable().optional(),
  "auto-destroy-activity-duration": text(RULES.autoDestroyActivityDuration).nullable().optional(),
  description: z.string().nullable().optional(),
  "execution-mode": z.enum(["remote", "local", "agent"]).optional(),
  "file-triggers-enabled": optionalBoolean,
  "global-remote-state": optionalBoolean,
  "project-remote-state": optionalBoolean,
  operations: optionalBoolean,
  "queue-all-runs": optionalBoolean,
  "speculative-enabled": optionalBoolean,
  "engine-version": text(RULES.nonEmpty).optional(),
  "terraform-version": text(RULES.nonEmpty).optional(),
  "trigger-patterns": stringList,
  "trigger-prefixes": stringList,
  "working-directory": z.string().nullable().optional(),
  "setting-overwrites": z.strictObject({ "execution-mode": optionalBoolean, "agent-pool": optionalBoolean }).optional(),
};

const workspaceRelationshipsRequest = z.strictObject({
  project: z.strictObject({ data: z.strictObject({ type: z.literal("projects"), id: bodyId }) }).optional(),
  "tag-bindings": z.strictObject({ data: z.array(tagBindingRequestResource).max(MAX_DIRECT_TAG_BINDINGS) }).optional(),
});

const workspaceName = text(RULES.workspaceName);

/** A1 request document. */
export const workspaceCreateRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal("workspaces"),
    attributes: z.strictObject({
      name: workspaceName,
      ...writableAttributes,
      "source-name": text(RULES.nonEmpty).optional(),
      // The resource's source URL, with the provider's ownership marker in its fragment (runtime/ownership.ts).
      "source-url": z.string().optional(),
      // On create: identifier and oauth-token-id are required; an app installation can only be set on update.
      "vcs-repo": vcsRepoRequest.omit({ "github-app-installation-id": true })
        .extend({ identifier: text(RULES.vcsIdentifier), "oauth-token-id": text(RULES.nonEmpty) }).optional(),
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
    "tag-bindings": o.tagBindings === undefined ? undefined : { data: o.tagBindings.map(tagBindingRequestItem) },
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

/**
 * Create and update of a workspace from a request document: every writable attribute and
 * relationship of the spec, with its rules. Nothing is written here: the result is the next record
 * plus side effects, which the caller commits only when everything validated.
 */
import { isProjectAdmin, type Principal } from "../auth";
import { checkEngineVersion } from "../engine-versions";
import { errors } from "../errors";
import { newId } from "../ids";
import { newestVersion } from "../semver";
import { attr, isObject, type DataObject, type Json } from "../jsonapi";
import type { ExecutionMode, FlatTagRecord, OrganizationRecord, VcsRepoRecord, WorkspaceRecord } from "../store/model";
import type { Store } from "../store/store";
import type { Edition, VersionAttribute } from "../types";
import { assertActivityDuration } from "./auto-destroy";
import { parseTagRefs, resolveForAdd, withTags } from "./flat-tags";
import { effectiveAgentPoolId, effectiveExecutionMode, inheritedDefaults, readSettingOverwrites } from "./inheritance";
import { parseBindingInputs, replaceBindings } from "./tag-bindings";

export interface WorkspaceInputEnv {
  store: Store;
  edition: Edition;
  versionAttribute: VersionAttribute;
  org: OrganizationRecord;
  /** The caller; null when fixtures create workspaces (acts as owner). */
  principal: Principal | null;
  /** The workspace being updated; null on create. */
  existing: WorkspaceRecord | null;
  now: string;
}

export interface WorkspaceChange {
  next: WorkspaceRecord;
  /** Flat tags to create in the organization (create only). */
  newTags: FlatTagRecord[];
}

const A = "/data/attributes";
const NAME_RE = /^[A-Za-z0-9_-]+$/;
const MAX_NAME = 260;
const MODES: readonly ExecutionMode[] = ["remote", "local", "agent"];
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const IDENTIFIER_RE = /^[^/\s]+\/[^/\s]+$|^[^/\s]+\/[^/\s]+\/_git\/[^/\s]+$/;

/** Writable booleans: wire name → record key. */
const BOOLEANS: Array<[string, keyof WorkspaceRecord]> = [
  ["allow-destroy-plan", "allowDestroyPlan"],
  ["auto-apply", "autoApply"],
  ["auto-apply-run-trigger", "autoApplyRunTrigger"],
  ["file-triggers-enabled", "fileTriggersEnabled"],
  ["global-remote-state", "globalRemoteState"],
  ["queue-all-runs", "queueAllRuns"],
  ["speculative-enabled", "speculativeEnabled"],
  ["structured-run-output-enabled", "structuredRunOutputEnabled"],
];

function defaults(env: WorkspaceInputEnv): WorkspaceRecord {
  const { store, org, now } = env;
  return {
    id: newId("ws"),
    seq: 0,
    organization: org.id,
    name: "",
    projectId: org.defaultProjectId,
    description: null,
    // Set by applyExecution from the request or, once its project is known, from what it inherits.
    executionMode: "remote",
    agentPoolId: null,
    allowDestroyPlan: true,
    assessmentsEnabled: false,
    autoApply: false,
    autoApplyRunTrigger: false,
    autoDestroyAt: null,
    autoDestroyActivityDuration: null,
    inheritsProjectAutoDestroy: true,
    fileTriggersEnabled: true,
    globalRemoteState: env.edition === "self-managed" ? store.settings.defaultGlobalRemoteState : false,
    projectRemoteState: false,
    queueAllRuns: false,
    sourceName: null,
    sourceUrl: null,
    speculativeEnabled: true,
    structuredRunOutputEnabled: true,
    engineVersion: newestVersion(store.settings.engineVersions) ?? "latest",
    triggerPatterns: [],
    triggerPrefixes: [],
    workingDirectory: null,
    settingOverwrites: { executionMode: true, agentPool: true },
    vcsRepo: null,
    lock: null,
    sshKeyId: null,
    tagIds: [],
    tagBindings: [],
    remoteStateConsumerIds: [],
    currentStateVersionId: null,
    currentRunId: null,
    dataRetentionPolicy: null,
    createdAt: now,
    updatedAt: now,
  };
}

function copy(ws: WorkspaceRecord): WorkspaceRecord {
  return {
    ...ws,
    triggerPatterns: [...ws.triggerPatterns],
    triggerPrefixes: [...ws.triggerPrefixes],
    settingOverwrites: { ...ws.settingOverwrites },
    vcsRepo: ws.vcsRepo ? { ...ws.vcsRepo } : null,
    tagIds: [...ws.tagIds],
    tagBindings: ws.tagBindings.map((b) => ({ ...b })),
    remoteStateConsumerIds: [...ws.remoteStateConsumerIds],
  };
}

/**
 * Auto-destroy: a time and an inactivity duration exclude each other, and a workspace that sets
 * either stops inheriting its project's duration. An update that names `auto-destroy-at` (a time or
 * null) without the duration clears the workspace's own duration, as the service does (clients drop
 * a duration that way). A workspace left with neither inherits its project's duration again, unless
 * the request says otherwise; `inherits-project-auto-destroy: true` hands both back explicitly.
 */
function applyAutoDestroy(a: Json, next: WorkspaceRecord): void {
  const dur = attr.nullableString(a, "auto-destroy-activity-duration");
  if (dur !== undefined && dur !== null) assertActivityDuration(dur, `${A}/auto-destroy-activity-duration`);
  const at = attr.nullableString(a, "auto-destroy-at");
  if (at !== undefined && at !== null && (!ISO_RE.test(at) || Number.isNaN(Date.parse(at)))) {
    throw errors.invalidAttribute("auto-destroy-at must be an ISO 8601 timestamp", `${A}/auto-destroy-at`);
  }
  if (typeof dur === "string" && typeof at === "string") {
    throw errors.invalidAttribute(
      "auto-destroy-at and auto-destroy-activity-duration cannot both be set",
      `${A}/auto-destroy-activity-duration`,
    );
  }
  const inherits = attr.bool(a, "inherits-project-auto-destroy");
  if (inherits === true && (typeof dur === "string" || typeof at === "string")) {
    throw errors.invalidAttribute(
      "inherits-project-auto-destroy cannot be true while the workspace sets its own auto-destroy",
      `${A}/inherits-project-auto-destroy`,
    );
  }
  if (dur !== undefined) {
    next.autoDestroyActivityDuration = dur;
    if (dur !== null) next.autoDestroyAt = null;
  }
  if (at !== undefined) {
    next.autoDestroyAt = at === null ? null : new Date(at).toISOString();
    if (dur === undefined) next.autoDestroyActivityDuration = null;
  }
  const ownLeft = next.autoDestroyAt !== null || next.autoDestroyActivityDuration !== null;
  if (inherits !== undefined) next.inheritsProjectAutoDestroy = inherits;
  else if (typeof dur === "string" || typeof at === "string") next.inheritsProjectAutoDestroy = false;
  else if ((dur !== undefined || at !== undefined) && !ownLeft) next.inheritsProjectAutoDestroy = true;
  if (next.inheritsProjectAutoDestroy) {
    next.autoDestroyActivityDuration = null;
    next.autoDestroyAt = null;
  }
}

function applyName(env: WorkspaceInputEnv, a: Json, next: WorkspaceRecord): void {
  const name = attr.string(a, "name");
  if (name === undefined) {
    if (!env.existing) throw errors.invalidAttribute("Name can't be blank", `${A}/name`);
    return;
  }
  if (name === "") throw errors.invalidAttribute("Name can't be blank", `${A}/name`);
  if (!NAME_RE.test(name)) {
    throw errors.invalidAttribute("Name may only contain letters, numbers, dashes and underscores", `${A}/name`);
  }
  if (name.length > MAX_NAME) {
    throw errors.invalidAttribute(`Name is too long (maximum is ${MAX_NAME} characters)`, `${A}/name`);
  }
  const other = env.store.workspaceByName(env.org.id, name);
  if (other && other.id !== next.id) throw errors.invalidAttribute("Name has already been taken", `${A}/name`);
  next.name = name;
}

function applySimple(env: WorkspaceInputEnv, data: DataObject, next: WorkspaceRecord): void {
  const a = data.attributes;
  for (const [wire, key] of BOOLEANS) {
    const v = attr.bool(a, wire);
    if (v !== undefined) (next as unknown as Record<string, unknown>)[key] = v;
  }
  const description = attr.nullableString(a, "description");
  if (description !== undefined) next.description = description;
  const wd = attr.nullableString(a, "working-directory");
  if (wd !== undefined) next.workingDirectory = wd === "" ? null : wd;
  if (!env.existing) {
    const sn = attr.nullableString(a, "source-name");
    if (sn !== undefined) next.sourceName = sn;
    const su = attr.nullableString(a, "source-url");
    if (su !== undefined) next.sourceUrl = su;
  }
  applyAutoDestroy(a, next);
  const key = env.versionAttribute;
  const version = attr.string(a, key);
  if (version !== undefined) {
    const check = checkEngineVersion(version, env.store.settings.engineVersions);
    if (!check.ok) {
      const label = key === "terraform-version" ? "Terraform" : "Engine";
      throw errors.invalidAttribute(`${label} version "${version}" is ${check.reason}`, `${A}/${key}`);
    }
    next.engineVersion = version;
  }
}

/**
 * The two trigger lists exclude each other, as in the service: giving either one (even `[]`)
 * replaces the other with `[]`, so a workspace can switch from prefixes to patterns in one update.
 * Only a request that sends both lists non-empty is refused. Patterns also need file triggers on
 * (the service's 422); prefixes are kept with file triggers off.
 */
function applyTriggers(data: DataObject, next: WorkspaceRecord): void {
  const a = data.attributes;
  const patterns = attr.stringArray(a, "trigger-patterns");
  const prefixes = attr.stringArray(a, "trigger-prefixes");
  if (patterns !== undefined && prefixes !== undefined && patterns.length > 0 && prefixes.length > 0) {
    throw errors.invalidAttribute("trigger-patterns and trigger-prefixes cannot both be set", `${A}/trigger-patterns`);
  }
  const patternsAfter = patterns ?? (prefixes !== undefined ? [] : next.triggerPatterns);
  const touched = patterns !== undefined || a["file-triggers-enabled"] !== undefined;
  if (touched && patternsAfter.length > 0 && !next.fileTriggersEnabled) {
    throw errors.invalidAttribute(
      "'trigger_patterns' cannot be populated when 'file_triggers_enabled' is set to false.",
      `${A}/trigger-patterns`,
    );
  }
  if (patterns !== undefined) {
    next.triggerPatterns = patterns;
    if (prefixes === undefined) next.triggerPrefixes = [];
  }
  if (prefixes !== undefined) {
    next.triggerPrefixes = prefixes;
    if (patterns === undefined) next.triggerPatterns = [];
  }
}

function applyExecution(env: WorkspaceInputEnv, data: DataObject, next: WorkspaceRecord): void {
  const a = data.attributes;
  const modeRaw = attr.nullableString(a, "execution-mode");
  const ops = a["operations"] === null ? undefined : attr.bool(a, "operations");
  if (modeRaw !== undefined && modeRaw !== null && ops !== undefined) {
    throw errors.invalidAttribute("operations and execution-mode cannot both be given; use execution-mode", `${A}/operations`);
  }
  if (modeRaw !== undefined && modeRaw !== null && !MODES.includes(modeRaw as ExecutionMode)) {
    throw errors.invalidAttribute('execution-mode must be one of "remote", "local" or "agent"', `${A}/execution-mode`);
  }
  const requested: ExecutionMode | undefined =
    modeRaw !== undefined && modeRaw !== null ? (modeRaw as ExecutionMode) : ops === undefined ? undefined : ops ? "remote" : "local";

  const poolRaw = a["agent-pool-id"];
  if (poolRaw !== undefined && poolRaw !== null && typeof poolRaw !== "string") {
    throw errors.invalidAttribute("agent-pool-id must be a string", `${A}/agent-pool-id`);
  }
  // terraform-provider-tfe sends "" to detach a pool: the service treats it as null.
  const pool = typeof poolRaw === "string" && poolRaw !== "" ? poolRaw : undefined;
  if (pool !== undefined) {
    const modeAfter = requested ?? (env.existing ? effectiveExecutionMode(env.store, env.existing) : undefined);
    if (modeAfter !== "agent") {
      throw errors.invalidAttribute(
        'agent-pool-id can only be given when execution-mode is "agent"',
        `${A}/agent-pool-id`,
      );
    }
  }

  const { mode: soMode, pool: soPool } = readSettingOverwrites(a, { mode: "execution-mode", pool: "agent-pool" });
  if (soMode === true && requested === undefined) {
    throw errors.invalidAttribute("execution-mode must be given when setting-overwrites.execution-mode is true", `${A}/execution-mode`);
  }
  // Giving a value explicitly overwrites the inherited default, as the service does.
  next.settingOverwrites = {
    executionMode: soMode ?? (requested !== undefined ? true : next.settingOverwrites.executionMode),
    agentPool: soPool ?? (requested !== undefined || pool !== undefined ? true : next.settingOverwrites.agentPool),
  };
  if (requested !== undefined) next.executionMode = requested;
  else if (!env.existing) {
    // A create without a mode takes the defaults of the project it is created in.
    const inherited = inheritedDefaults(env.store, next);
    next.executionMode = inherited.executionMode;
    next.agentPoolId = inherited.agentPoolId;
  }
  if (pool !== undefined) next.agentPoolId = pool;
  if (next.executionMode !== "agent") next.agentPoolId = null;
  // A workspace that stops overwriting the pool releases its own, so the pool can be deleted.
  if (!next.settingOverwrites.agentPool) next.agentPoolId = null;

  if (effectiveExecutionMode(env.store, next) === "agent") {
    const effectivePool = effectiveAgentPoolId(env.store, next);
    if (!effectivePool) {
      throw errors.invalidAttribute('agent-pool-id is required when execution-mode is "agent"', `${A}/agent-pool-id`);
    }
    const p = env.store.agentPools.get(effectivePool);
    if (!p || p.organization !== env.org.id) {
      throw errors.invalidAttribute("Agent pool not found", `${A}/agent-pool-id`);
    }
    if (!p.organizationScoped && !p.allowedWorkspaceIds.includes(next.id)) {
      throw errors.invalidAttribute("Agent pool workspace does not have access to use this agent pool", `${A}/agent-pool-id`);
    }
  }
}

/**
 * `project-remote-state`, kept in both editions: a real client reads back from the hosted edition
 * what it wrote there. Sharing with the project and with the whole organization exclude each other.
 */
function applyRemoteStateSharing(data: DataObject, next: WorkspaceRecord): void {
  const project = attr.bool(data.attributes, "project-remote-state");
  if (project !== undefined) next.projectRemoteState = project;
  const given = project !== undefined || data.has("global-remote-state");
  if (given && next.projectRemoteState && next.globalRemoteState) {
    throw errors.invalidAttribute(
      "Project remote state cannot be enabled when global remote state sharing is enabled",
      `${A}/project-remote-state`,
    );
  }
}

function applyAssessments(env: WorkspaceInputEnv, data: DataObject, next: WorkspaceRecord): void {
  // Only the hosted edition knows the attribute; the self-managed one ignores it like any unknown attribute.
  if (env.edition !== "hosted") return;
  const v = attr.bool(data.attributes, "assessments-enabled");
  if (v !== undefined) next.assessmentsEnabled = v;
  if (!next.assessmentsEnabled || v === undefined) return;
  if (effectiveExecutionMode(env.store, next) !== "remote") {
    throw errors.invalidAttribute("Health assessments require the remote execution mode", `${A}/assessments-enabled`);
  }
  const resolved = checkEngineVersion(next.engineVersion, env.store.settings.engineVersions);
  const [maj, min, pat] = (resolved.ok ? resolved.resolved : "0.0.0").split(".").map(Number);
  const atLeast = (maj ?? 0) > 0 || (min ?? 0) > 15 || ((min ?? 0) === 15 && (pat ?? 0) >= 4);
  if (!atLeast) {
    throw errors.invalidAttribute("Health assessments require engine version 0.15.4 or later", `${A}/assessments-enabled`);
  }
}

function applyVcs(env: WorkspaceInputEnv, data: DataObject, next: WorkspaceRecord): void {
  if (!data.has("vcs-repo")) return;
  const a = data.attributes;
  const v = a["vcs-repo"];
  const B = `${A}/vcs-repo`;
  if (v === null) {
    next.vcsRepo = null;
    return;
  }
  if (!isObject(v)) throw errors.invalidAttribute("vcs-repo must be an object or null", B);
  const identifier = attr.string(v, "identifier", B);
  const oauth = attr.nullableString(v, "oauth-token-id", B);
  const gh = attr.nullableString(v, "github-app-installation-id", B);
  const branch = attr.nullableString(v, "branch", B);
  const ingress = attr.bool(v, "ingress-submodules", B);
  const tagsRegex = attr.nullableString(v, "tags-regex", B);
  if (oauth && gh) {
    throw errors.invalidAttribute(
      "oauth-token-id and github-app-installation-id cannot both be given",
      `${B}/github-app-installation-id`,
    );
  }
  if (!env.existing && gh) {
    throw errors.invalidAttribute("github-app-installation-id can only be given on update", `${B}/github-app-installation-id`);
  }
  const base = env.existing ? next.vcsRepo : null;
  if (!base) {
    if (!identifier) throw errors.invalidAttribute("identifier is required to connect a repository", `${B}/identifier`);
    if (!oauth && !gh) throw errors.invalidAttribute("oauth-token-id is required to connect a repository", `${B}/oauth-token-id`);
  }
  if (identifier !== undefined && !IDENTIFIER_RE.test(identifier)) {
    throw errors.invalidAttribute('identifier must look like ":org/:repo" or ":org/:project/_git/:repo"', `${B}/identifier`);
  }
  if (oauth) {
    const t = env.store.oauthTokens.get(oauth);
    if (!t || t.organization !== env.org.id) throw errors.invalidAttribute("OAuth token not found", `${B}/oauth-token-id`);
  }
  if (tagsRegex) {
    try {
      new RegExp(tagsRegex);
    } catch {
      throw errors.invalidAttribute("tags-regex is not a valid regular expression", `${B}/tags-regex`);
    }
    const fte = attr.bool(a, "file-triggers-enabled");
    if (fte === true) {
      throw errors.invalidAttribute("tags-regex cannot be used when file-triggers-enabled is true", `${B}/tags-regex`);
    }
    if ((a["trigger-patterns"] !== undefined && next.triggerPatterns.length > 0) || (a["trigger-prefixes"] !== undefined && next.triggerPrefixes.length > 0)) {
      throw errors.invalidAttribute("tags-regex cannot be used with trigger-patterns or trigger-prefixes", `${B}/tags-regex`);
    }
  }
  const repo: VcsRepoRecord = base
    ? { ...base }
    : {
        identifier: "",
        oauthTokenId: null,
        githubAppInstallationId: null,
        branch: "",
        ingressSubmodules: false,
        tagsRegex: null,
        webhookId: newId("hook").slice(5),
      };
  if (identifier !== undefined) repo.identifier = identifier;
  if (oauth) {
    repo.oauthTokenId = oauth;
    repo.githubAppInstallationId = null;
  }
  if (gh) {
    repo.githubAppInstallationId = gh;
    repo.oauthTokenId = null;
  }
  if (branch !== undefined) repo.branch = branch ?? "";
  if (ingress !== undefined) repo.ingressSubmodules = ingress;
  if (tagsRegex !== undefined) repo.tagsRegex = tagsRegex === "" ? null : tagsRegex;
  next.vcsRepo = repo;
}

function applyRelationships(env: WorkspaceInputEnv, data: DataObject, next: WorkspaceRecord): FlatTagRecord[] {
  const r = data.relationships;
  const R = "/data/relationships";
  const project = r["project"];
  if (project !== undefined && project !== null) {
    if (!isObject(project)) throw errors.invalidAttribute("project must be an object", `${R}/project`);
    const d = project["data"];
    if (d !== null && d !== undefined) {
      if (!isObject(d)) throw errors.invalidAttribute("project.data must be an object", `${R}/project/data`);
      if (d["type"] !== undefined && d["type"] !== "projects") {
        throw errors.invalidAttribute('type must be "projects"', `${R}/project/data/type`);
      }
      const id = d["id"];
      if (id !== undefined && typeof id !== "string") throw errors.invalidAttribute("id must be a string", `${R}/project/data/id`);
      if (typeof id === "string" && id.trim() !== "" && id !== next.projectId) {
        const target = env.store.projects.get(id);
        if (!target || target.organization !== env.org.id) {
          throw errors.invalidAttribute("Project not found", `${R}/project/data/id`);
        }
        if (env.existing && env.principal) {
          const source = env.store.projects.get(env.existing.projectId);
          const p = env.principal;
          if (!isProjectAdmin(p, env.org.id, target.id, target.name) || !isProjectAdmin(p, env.org.id, source?.id ?? "", source?.name ?? "")) {
            throw errors.notFound();
          }
        }
        next.projectId = target.id;
      }
    }
  }
  const tb = r["tag-bindings"];
  if (tb !== undefined && tb !== null) {
    if (!isObject(tb)) throw errors.invalidAttribute("tag-bindings must be an object", `${R}/tag-bindings`);
    const inputs = parseBindingInputs(tb["data"] ?? [], `${R}/tag-bindings/data`);
    next.tagBindings = replaceBindings(next.tagBindings, inputs, env.now, `${R}/tag-bindings/data`);
  }
  const tags = r["tags"];
  if (!env.existing && tags !== undefined && tags !== null) {
    if (!isObject(tags)) throw errors.invalidAttribute("tags must be an object", `${R}/tags`);
    const refs = parseTagRefs(tags["data"] ?? [], `${R}/tags/data`);
    const { attach, create } = resolveForAdd(env.store, env.org.id, refs, env.now, () =>
      errors.invalidAttribute("Tag not found", `${R}/tags/data`),
    );
    next.tagIds = withTags(next, attach);
    return create;
  }
  return [];
}

/** Validates a create (existing null) or update request and returns the next record; throws ApiError. */
export function applyWorkspaceInput(env: WorkspaceInputEnv, data: DataObject): WorkspaceChange {
  const next = env.existing ? copy(env.existing) : defaults(env);
  applyName(env, data.attributes, next);
  applySimple(env, data, next);
  applyTriggers(data, next);
  applyRemoteStateSharing(data, next);
  // The project first: what the workspace inherits depends on it.
  const newTags = applyRelationships(env, data, next);
  applyExecution(env, data, next);
  applyVcs(env, data, next);
  applyAssessments(env, data, next);
  next.updatedAt = env.now;
  return { next, newTags };
}

/** Writes a validated change. */
export function commitWorkspace(store: Store, change: WorkspaceChange): WorkspaceRecord {
  const ws = change.next;
  if (ws.seq === 0) ws.seq = store.nextSeq();
  for (const t of change.newTags) store.tags.put(t);
  store.workspaces.put(ws);
  return ws;
}

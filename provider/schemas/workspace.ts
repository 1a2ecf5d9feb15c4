// The one source of a Workspace's inputs: the interface below carries the documentation (it becomes
// the public Args type and, through typescript-json-schema, schema/Workspace.json); the zod schema
// is the runtime check, its value rules taken from rules.ts (which the JSON Schema states too). A
// compile-time assertion keeps the two shapes identical, and test/unit/input-schemas.test.ts proves
// the committed JSON Schema states the same rules. Rules that tie two properties together cannot be
// written in JSON Schema; they live in `workspaceRules` below, applied by the same zod schema.
import { z } from "zod";
import { MAX_DIRECT_TAG_BINDINGS, RULES, text } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";

/**
 * Settings the workspace sets itself instead of inheriting its organization's (or project's) default.
 * @inline
 */
export interface WorkspaceSettingOverwrites {
  /** True: the workspace's own `executionMode` applies (then `executionMode` must be declared). False: it inherits. */
  executionMode?: boolean;
  /** True: the workspace's own `agentPoolId` applies. False: it inherits the default agent pool. */
  agentPool?: boolean;
}

/**
 * The version-control repository a workspace runs from.
 * @inline
 */
export interface WorkspaceVcsRepo {
  /**
   * The repository: `:org/:repo`, or `:org/:project/_git/:repo` for Azure DevOps.
   */
  identifier: string;
  /**
   * The OAuth token (`ot-…`) of the VCS connection. Required when the repository is first connected
   * (at create, or when a workspace without a repository gets one). Never together with `githubAppInstallationId`.
   */
  oauthTokenId?: string;
  /**
   * A GitHub App installation (`ghain-…`) instead of an OAuth token. The service accepts it only on
   * update, so it can switch an existing repository connection, not make the first one.
   */
  githubAppInstallationId?: string;
  /** The branch runs use. Left out (or `""`): the repository's default branch. */
  branch?: string;
  /** Whether submodules are fetched when cloning. Left out: false. */
  ingressSubmodules?: boolean;
  /**
   * A regular expression: a pushed Git tag that matches it starts a run. Not with `fileTriggersEnabled: true`
   * or with trigger patterns or prefixes.
   */
  tagsRegex?: string;
}

/**
 * Key-value tags: tag key → value. Keys: 1–128 characters; values: up to 256 (`""` binds a key-only
 * tag); both letters, digits and `_ . = + - @ :`; keys must not start with `hc:` or `hcp:`.
 */
export interface WorkspaceTagBindings {
  [key: string]: TagValue;
}

/**
 * A tag value: up to 256 letters, digits and `_ . = + - @ :`, or `""` for a key-only tag.
 */
export type TagValue = string;

/**
 * A flat tag's name: letters, digits, `:`, `_`, `-`.
 */
export type FlatTagName = string;

/**
 * What a {@link Workspace} manages. An optional property left out means what a create without it gives
 * (its default, or the inheritance from the project or organization), whatever the stack's history: so
 * removing a line restores that. A property with no fixed default (the project, tags, the engine
 * version, global remote state, …) is not managed while left out. Pulumi's `ignoreChanges` leaves a
 * property to others. The table: docs/resources/workspace.md, "Leaving an input out".
 */
export interface WorkspaceInputs {
  /**
   * The workspace's name, unique in its organization: letters, digits, `-` and `_` only.
   * Renaming updates the workspace in place (the id stays; its URL in the API and UI changes). At most 260 characters.
   */
  name: string;
  /**
   * The organization that owns the workspace. Defaults to the `wsbridge:organization` stack config
   * (else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`). Changing it replaces the workspace.
   */
  organization?: string;
  /** Free-text description. Left out (or `""`): none. */
  description?: string;
  /**
   * Where runs execute: `remote`, `local` (state storage only) or `agent` (needs `agentPoolId`).
   * Never together with the deprecated `operations`. Left out: inherited, the project's (else the organization's) default.
   */
  executionMode?: "remote" | "local" | "agent";
  /**
   * The agent pool (`apool-…`) of the workspace's organization that runs its plans. Required with
   * `executionMode: "agent"`; refused with `remote`, `local` or `operations: true`.
   */
  agentPoolId?: string;
  /**
   * DEPRECATED by the service: use `executionMode` (`true` is `remote`, `false` is `local`).
   * Accepted with a warning; never together with `executionMode`.
   */
  operations?: boolean;
  /**
   * Which inherited settings the workspace overwrites with its own values. A key left out: `true` where the
   * program declares that setting (`executionMode`/`operations`, `agentPoolId`), else `false` (inherit).
   */
  settingOverwrites?: WorkspaceSettingOverwrites;
  /** Whether destroy plans can be queued. Left out: true. */
  allowDestroyPlan?: boolean;
  /**
   * Health assessments (drift detection). Hosted edition only (refused at preview against the
   * self-managed edition); the organization setting `assessments-enforced` may override it. Left out: not managed.
   */
  assessmentsEnabled?: boolean;
  /** Apply automatically after a successful plan, for runs started by VCS, UI or CLI. Left out: false. */
  autoApply?: boolean;
  /** Apply automatically after a successful plan, for runs started by run triggers. Left out: false. */
  autoApplyRunTrigger?: boolean;
  /**
   * When the next scheduled destroy run happens: an ISO 8601 timestamp with a time zone,
   * e.g. `2027-01-31T18:00:00Z`. Never together with `autoDestroyActivityDuration`. Left out: none.
   */
  autoDestroyAt?: string;
  /**
   * Destroy after this long without activity: 1 to 4 digits, greater than 0, then `d` (days) or `h` (hours), e.g. `14d`.
   * Never together with `autoDestroyAt`. Left out: the project's (inherited), unless `autoDestroyAt` is declared.
   */
  autoDestroyActivityDuration?: string;
  /** Start runs only for changes to files under the trigger prefixes or patterns. Left out: true. */
  fileTriggersEnabled?: boolean;
  /**
   * Glob patterns of the files whose changes start runs, relative to the repository root.
   * A set: order does not matter. Never non-empty together with `triggerPrefixes`. Left out: `[]`.
   */
  triggerPatterns?: string[];
  /**
   * Path prefixes (besides the working directory) whose changes start runs, relative to the repository root.
   * A set: order does not matter. Never non-empty together with `triggerPatterns`. Left out: `[]`.
   */
  triggerPrefixes?: string[];
  /**
   * Let every workspace of the organization read this one's state (else only its remote state consumers).
   * Left out: not managed (on the self-managed edition its administrators choose the default).
   */
  globalRemoteState?: boolean;
  /**
   * Let the other workspaces of its project read this one's state (else only its remote state consumers).
   * Never `true` together with `globalRemoteState: true`. Left out: not managed.
   */
  projectRemoteState?: boolean;
  /** Queue runs right after creation, before the first manual run. Left out: false. */
  queueAllRuns?: boolean;
  /** Automatic speculative plans (for example on pull requests). Left out: true. */
  speculativeEnabled?: boolean;
  /**
   * The engine version: an exact version (`1.9.5`) or a constraint (`~> 1.9.0`). Left out: not managed (a
   * create takes the latest release).
   */
  engineVersion?: string;
  /** The directory runs execute in, relative to the repository root. Left out (or `""`): the root. */
  workingDirectory?: string;
  /**
   * "Created via <sourceName>" in the service's UI. Set only when the workspace is created: changing it
   * later fails at preview (it would otherwise need a new workspace). Default `pulumi-wsbridge`.
   */
  sourceName?: string;
  /**
   * An http(s) URL describing what created the workspace, without a `#fragment` (the provider adds its
   * ownership marker there). Set only when the workspace is created, like `sourceName`.
   */
  sourceUrl?: string;
  /** The repository the workspace runs from. Left out: none (removing it from the program disconnects the repository). */
  vcsRepo?: WorkspaceVcsRepo;
  /**
   * The project (`prj-…`) to create the workspace in; changing it moves the workspace (an update, which
   * needs admin rights on both projects). Leave it out for the organization's default project.
   */
  projectId?: string;
  /**
   * Key-value tags bound directly to the workspace (at most 10; up to 10 more may come from its project).
   * This map is the whole set: a key removed here is unbound. Keys and values follow the rules of {@link WorkspaceTagBindingsInputs.tags}.
   */
  tagBindings?: WorkspaceTagBindings;
  /**
   * Flat (legacy) tags. This list is the whole set: names removed here are detached. Letters, digits, `:`, `_`, `-`.
   * A set: order does not matter.
   */
  tagNames?: FlatTagName[];
  /**
   * When true, destroying this resource force-deletes the workspace even if it still manages
   * resources (needs the organization owner, or a workspace admin where the organization allows it).
   * When false (the default), destroy uses safe delete and fails while the workspace manages resources.
   */
  forceDelete?: boolean;
  /**
   * When true and a workspace with this name already exists in the organization when this resource is
   * created, the resource takes it over (applies the declared settings and manages it from then on,
   * destroy included) instead of failing. The preview names the workspace it will adopt. Default false.
   */
  adoptExisting?: boolean;
}

const flag = () => z.boolean({ error: "must be a boolean" }).optional();
const textList = () => z.array(z.string({ error: "must be a string" }), { error: "must be a list of strings" }).optional();

const vcsRepoSchema = z.strictObject({
  identifier: text(RULES.vcsIdentifier),
  oauthTokenId: text(RULES.nonEmpty).optional(),
  githubAppInstallationId: text(RULES.nonEmpty).optional(),
  branch: z.string({ error: "must be a string" }).optional(),
  ingressSubmodules: flag(),
  tagsRegex: z.string({ error: "must be a string" }).optional(),
}, { error: "must be an object" });

const tagBindingsSchema = z.record(text(RULES.tagKey), text(RULES.tagValue), { error: "must be a map of tag keys to values" });

const fields = z.strictObject({
  name: text(RULES.workspaceName),
  organization: text(RULES.organizationName).optional(),
  description: z.string({ error: "must be a string" }).optional(),
  executionMode: z.enum(["remote", "local", "agent"], { error: 'must be "remote", "local" or "agent"' }).optional(),
  agentPoolId: text(RULES.nonEmpty).optional(),
  operations: flag(),
  settingOverwrites: z.strictObject({ executionMode: flag(), agentPool: flag() }, { error: "must be an object" }).optional(),
  allowDestroyPlan: flag(),
  assessmentsEnabled: flag(),
  autoApply: flag(),
  autoApplyRunTrigger: flag(),
  autoDestroyAt: text(RULES.autoDestroyAt).optional(),
  autoDestroyActivityDuration: text(RULES.autoDestroyActivityDuration).optional(),
  fileTriggersEnabled: flag(),
  triggerPatterns: textList(),
  triggerPrefixes: textList(),
  globalRemoteState: flag(),
  projectRemoteState: flag(),
  queueAllRuns: flag(),
  speculativeEnabled: flag(),
  engineVersion: text(RULES.nonEmpty).optional(),
  workingDirectory: z.string({ error: "must be a string" }).optional(),
  sourceName: text(RULES.nonEmpty).optional(),
  sourceUrl: text(RULES.sourceUrl).optional(),
  vcsRepo: vcsRepoSchema.optional(),
  projectId: text(RULES.projectId).optional(),
  tagBindings: tagBindingsSchema.optional(),
  tagNames: z.array(text(RULES.flatTagName), { error: "must be a list of strings" }).optional(),
  forceDelete: flag(),
  adoptExisting: flag(),
});

type Fields = z.output<typeof fields>;

/** The spec's rules that tie properties together; each issue names the property that breaks it. */
function workspaceRules(w: Fields, ctx: z.core.$RefinementCtx<Fields>): void {
  const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (w.executionMode !== undefined && w.operations !== undefined) {
    fail(["operations"], "must not be set together with executionMode (operations is deprecated: use executionMode)");
  }
  if (w.executionMode === "agent" && w.agentPoolId === undefined) {
    fail(["agentPoolId"], 'is required when executionMode is "agent"');
  }
  if (w.agentPoolId !== undefined && (w.executionMode === "remote" || w.executionMode === "local")) {
    fail(["agentPoolId"], `must not be set when executionMode is "${w.executionMode}"`);
  }
  if (w.agentPoolId !== undefined && w.operations === true) {
    fail(["agentPoolId"], "must not be set when operations is true");
  }
  if (w.settingOverwrites?.executionMode === true && w.executionMode === undefined && w.operations === undefined) {
    fail(["executionMode"], "is required when settingOverwrites.executionMode is true (the workspace then sets its own mode)");
  }
  if ((w.triggerPatterns?.length ?? 0) > 0 && (w.triggerPrefixes?.length ?? 0) > 0) {
    fail(["triggerPrefixes"], "must not be non-empty together with triggerPatterns (the service uses one or the other)");
  }
  if ((w.triggerPatterns?.length ?? 0) > 0 && w.fileTriggersEnabled === false) {
    fail(["triggerPatterns"], "must be empty when fileTriggersEnabled is false (the service refuses trigger patterns without file triggers; trigger prefixes are allowed)");
  }
  if (w.projectRemoteState === true && w.globalRemoteState === true) {
    fail(["projectRemoteState"], "must not be true together with globalRemoteState: true (the service shares state with the project or with the whole organization, not both)");
  }
  if (w.autoDestroyAt !== undefined && w.autoDestroyActivityDuration !== undefined) {
    fail(["autoDestroyActivityDuration"], "must not be set together with autoDestroyAt");
  }
  if (w.autoDestroyAt !== undefined && Number.isNaN(Date.parse(w.autoDestroyAt))) {
    fail(["autoDestroyAt"], "must be a valid date and time");
  }
  if (w.vcsRepo?.oauthTokenId !== undefined && w.vcsRepo.githubAppInstallationId !== undefined) {
    fail(["vcsRepo", "githubAppInstallationId"], "must not be set together with vcsRepo.oauthTokenId");
  }
  const tagsRegex = w.vcsRepo?.tagsRegex;
  if (tagsRegex !== undefined && tagsRegex !== "") {
    if (!isRegExp(tagsRegex)) fail(["vcsRepo", "tagsRegex"], "must be a valid regular expression");
    if (w.fileTriggersEnabled === true) {
      fail(["vcsRepo", "tagsRegex"], "must not be set while fileTriggersEnabled is true, its value when left out (declare fileTriggersEnabled: false: runs start on tags, not on files)");
    }
    if ((w.triggerPatterns?.length ?? 0) > 0 || (w.triggerPrefixes?.length ?? 0) > 0) {
      fail(["vcsRepo", "tagsRegex"], "must not be set together with triggerPatterns or triggerPrefixes");
    }
  }
  const bindings = Object.keys(w.tagBindings ?? {}).length;
  if (bindings > MAX_DIRECT_TAG_BINDINGS) {
    fail(["tagBindings"], `may bind at most ${MAX_DIRECT_TAG_BINDINGS} tags directly, got ${bindings}`);
  }
  const names = w.tagNames ?? [];
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) fail(["tagNames"], `must not list "${duplicate}" twice`);
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export const workspaceInputsSchema = fields.superRefine(workspaceRules);

// Fails to compile if the interface and the schema ever describe different shapes.
export type WorkspaceInputsAgree = Assert<Equals<z.input<typeof workspaceInputsSchema>, WorkspaceInputs>>;

const SPEC = "the spec's default on create";
const TFE = "terraform-provider-tfe's tfe_workspace schema";

/**
 * What each optional input means when the program leaves it out (schemas/omission.ts): fixed create
 * defaults are filled in by check; execution mode, agent pool and auto-destroy are inherited again;
 * what has no fixed value is left unmanaged. Sources are cited (the spec first, else the official clients).
 */
export const WORKSPACE_OMITTED: OmissionTable<
  | OptionalKeys<WorkspaceInputs>
  | `settingOverwrites.${OptionalKeys<WorkspaceSettingOverwrites>}`
  | `vcsRepo.${OptionalKeys<WorkspaceVcsRepo>}`
> = {
  organization: { means: "setting", rule: "the provider's organization (`wsbridge:organization`, else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`)" },
  description: { means: "value", value: "", basis: `${SPEC} (nothing)` },
  executionMode: {
    means: "inherited",
    rule: "the project's default execution mode, else the organization's (`settingOverwrites.executionMode` false)",
    basis: "the spec's `setting-overwrites`; tfe_workspace_settings sends false when no mode is declared",
  },
  agentPoolId: {
    means: "inherited",
    rule: "the project's default agent pool, else the organization's (`settingOverwrites.agentPool` false); none when `executionMode` is declared",
    basis: "the spec's `setting-overwrites`; tfe_workspace_settings sends an empty pool with a declared mode",
  },
  operations: {
    means: "inherited", rule: "as `executionMode` (its deprecated spelling): the default execution mode (`settingOverwrites.executionMode` false)",
    basis: "the spec's `setting-overwrites`",
  },
  settingOverwrites: { means: "derived", rule: "both keys filled in as below", basis: "see its keys" },
  "settingOverwrites.executionMode": {
    means: "derived", rule: "`true` when `executionMode` (or `operations`) is declared, else `false` (inherit)",
    basis: "the create of tfe_workspace and tfe_workspace_settings",
  },
  "settingOverwrites.agentPool": {
    means: "derived", rule: "`true` when `executionMode`, `operations` or `agentPoolId` is declared, else `false` (inherit)",
    basis: "the create of tfe_workspace and tfe_workspace_settings",
  },
  allowDestroyPlan: { means: "value", value: true, basis: SPEC },
  assessmentsEnabled: {
    means: "unmanaged",
    why: "hosted edition only (the self-managed one neither takes nor reports it), and the organization's `assessments-enforced` may override it",
  },
  autoApply: { means: "value", value: false, basis: SPEC },
  autoApplyRunTrigger: { means: "value", value: false, basis: SPEC },
  autoDestroyAt: { means: "none", rule: "no scheduled destroy (sent as null)", basis: `${SPEC} (nothing)` },
  autoDestroyActivityDuration: {
    means: "inherited",
    rule: "the project's inactivity duration (`inheritsProjectAutoDestroy`), unless `autoDestroyAt` is declared",
    basis: `${SPEC} (nothing) and the response's \`inherits-project-auto-destroy\`; ${TFE} (inherits_project_auto_destroy, default true)`,
  },
  fileTriggersEnabled: { means: "value", value: true, basis: SPEC },
  triggerPatterns: { means: "value", value: [], basis: SPEC },
  triggerPrefixes: { means: "value", value: [], basis: SPEC },
  globalRemoteState: { means: "unmanaged", why: "no fixed default: on the self-managed edition its administrators choose it (spec)" },
  projectRemoteState: { means: "unmanaged", why: "the spec names no default for it" },
  queueAllRuns: { means: "value", value: false, basis: SPEC },
  speculativeEnabled: { means: "value", value: true, basis: SPEC },
  engineVersion: { means: "unmanaged", why: "no fixed default: the latest release when the workspace is created" },
  workingDirectory: { means: "value", value: "", basis: `${SPEC} (nothing: the repository root)` },
  sourceName: { means: "unmanaged", why: "set only by the create (`pulumi-wsbridge` when left out); it cannot change later" },
  sourceUrl: { means: "unmanaged", why: "set only by the create; it cannot change later" },
  vcsRepo: { means: "none", rule: "no repository (an update disconnects it)", basis: `${SPEC} (none)` },
  "vcsRepo.oauthTokenId": { means: "unmanaged", why: "the connection's credential: an update changes only the keys it sends (spec)" },
  "vcsRepo.githubAppInstallationId": { means: "unmanaged", why: "the connection's credential: an update changes only the keys it sends (spec)" },
  "vcsRepo.branch": { means: "value", value: "", basis: `${SPEC} (the repository's default branch)` },
  "vcsRepo.ingressSubmodules": { means: "value", value: false, basis: SPEC },
  "vcsRepo.tagsRegex": { means: "value", value: "", basis: `${SPEC} (none)` },
  projectId: { means: "unmanaged", why: "a relationship: the organization's default project at create; moves need admin rights on both projects and are often made elsewhere" },
  tagBindings: { means: "unmanaged", why: "tags are also bound by WorkspaceTagBindings and by other tools" },
  tagNames: { means: "unmanaged", why: "flat tags are also attached by other tools" },
  forceDelete: { means: "value", value: false, basis: "the provider's switch" },
  adoptExisting: { means: "value", value: false, basis: "the provider's switch" },
};

/** settingOverwrites with each key the program leaves out derived as {@link WORKSPACE_OMITTED} says. */
export function derivedSettingOverwrites(inputs: Record<string, unknown>): Record<string, unknown> | undefined {
  const declared = inputs.settingOverwrites;
  if (declared !== undefined && (typeof declared !== "object" || declared === null || Array.isArray(declared))) return undefined;
  const own = (declared ?? {}) as Record<string, unknown>;
  const mode = inputs.executionMode !== undefined || inputs.operations !== undefined;
  return { ...own, executionMode: own.executionMode ?? mode, agentPool: own.agentPool ?? (mode || inputs.agentPoolId !== undefined) };
}

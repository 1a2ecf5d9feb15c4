// Workspace lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// Managed means declared: an optional input the program leaves out is neither sent nor compared.
// The outputs hold the server's value of every input-named property (in the input's shape), so diff
// compares what the program declares with what the server last reported, after normalizing both.
import { workspaceInputsSchema, type WorkspaceInputs } from "../../schemas/workspace";
import {
  ConflictError, ForbiddenError, NotFoundError, OutcomeUnknownError, ValidationError,
  type EffectiveTagBinding, type Workspace, type WorkspaceCreateOptions, type WorkspaceUpdateOptions, type WsbridgeClient,
} from "../api";
import { settingsProblem, sharedClient, withDefaultOrganization } from "../config";
import {
  isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, type CheckOutcome, type DiffOutcome, type Imported,
  type PropertyChange, type Props, UNKNOWN,
} from "../lifecycle";
import { childPath, pathsOfChange } from "../property-paths";
import {
  adoptedInThisRun, describeOwner, noteAdopted, ownerFragmentOf, parseOwnerUrl, sameOwner, withoutOwnerFragment, type Owner,
} from "../ownership";
import { noteForTheUser } from "../engine-log";
import type { Assert, Equals } from "../../schemas/type-equality";
import { assertServesTheApi, readWorkspaceForRefresh } from "../serves-the-api";
import { parseWorkspaceImportId, readWorkspaceForImport } from "../import-ids";

const KIND = "Workspace";
const SOURCE_NAME = "pulumi-wsbridge";
/** Every read asks for the key-value tags with where they come from: one request gives the whole state. */
const READ = { include: ["effective_tag_bindings"] };

/** Inputs after check: the organization default has been applied. */
export type CheckedWorkspaceInputs = WorkspaceInputs & { organization: string };

type VcsRepoInput = NonNullable<WorkspaceInputs["vcsRepo"]>;

/** One key-value tag as the workspace sees it: bound directly, or inherited from its project. */
export type EffectiveTagBindingOutput = { key: string; value: string; inheritedFrom: string | null };

/** The repository as the server reports it. */
export type VcsRepoOutput = {
  identifier: string | null; displayIdentifier: string | null; branch: string | null; ingressSubmodules: boolean;
  oauthTokenId: string | null; githubAppInstallationId: string | null; tagsRegex: string | null;
  repositoryHttpUrl: string | null; serviceProvider: string | null; webhookUrl: string | null;
};

/** Everything a Workspace resource exposes: the server's state, in the inputs' names and shapes where they overlap. */
// A type alias (not an interface) so outputs pass where the engine's plain property maps are expected.
export type WorkspaceOutputs = {
  workspaceId: string;
  name: string;
  organization: string;
  description: string;
  executionMode: string;
  agentPoolId: string | null;
  operations: boolean | null;
  settingOverwrites: { executionMode: boolean; agentPool: boolean };
  allowDestroyPlan: boolean;
  assessmentsEnabled: boolean | null;
  autoApply: boolean;
  autoApplyRunTrigger: boolean;
  autoDestroyAt: string | null;
  autoDestroyActivityDuration: string | null;
  autoDestroyStatus: string | null;
  inheritsProjectAutoDestroy: boolean | string | null;
  fileTriggersEnabled: boolean;
  triggerPatterns: string[];
  triggerPrefixes: string[];
  globalRemoteState: boolean;
  /** Null when the server does not report it. */
  projectRemoteState: boolean | null;
  queueAllRuns: boolean;
  speculativeEnabled: boolean;
  structuredRunOutputEnabled: boolean | null;
  engineVersion: string | null;
  workingDirectory: string;
  sourceName: string | null;
  sourceUrl: string | null;
  source: string | null;
  environment: string | null;
  vcsRepo: VcsRepoOutput | null;
  vcsRepoIdentifier: string | null;
  oauthClientName: string | null;
  projectId: string | null;
  sshKeyId: string | null;
  currentRunId: string | null;
  currentStateVersionId: string | null;
  currentConfigurationVersionId: string | null;
  tagNames: string[];
  tagBindings: Record<string, string>;
  effectiveTagBindings: EffectiveTagBindingOutput[];
  permissions: Record<string, boolean>;
  isDestroyable: boolean | null;
  locked: boolean;
  lockedReason: string | null;
  lockedBy: { type: string; id: string } | null;
  resourceCount: number;
  createdAt: string;
  updatedAt: string;
  latestChangeAt: string | null;
  lastAssessmentResultAt: string | null;
  applyDurationAverage: number | null;
  planDurationAverage: number | null;
  policyCheckFailures: number | null;
  runFailures: number | null;
  workspaceKpisRunsCount: number | null;
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
type RecordKey = "__declaredInputs" | "__declaredValues" | "__owner";

/** Every output the server's state gives a workspace (the outputs without the provider's records). */
export type WorkspaceReport = Omit<WorkspaceOutputs, RecordKey>;

/** Every key of {@link WorkspaceReport}, for the outputs a preview plans (a compile-time check keeps the list whole). */
const WORKSPACE_REPORT_KEYS = [
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
const SERVER_INPUTS = [
  "description", "executionMode", "agentPoolId", "operations", "settingOverwrites", "allowDestroyPlan",
  "assessmentsEnabled", "autoApply", "autoApplyRunTrigger", "autoDestroyAt", "autoDestroyActivityDuration",
  "fileTriggersEnabled", "triggerPatterns", "triggerPrefixes", "globalRemoteState", "projectRemoteState", "queueAllRuns",
  "speculativeEnabled", "engineVersion", "workingDirectory", "vcsRepo", "projectId", "tagBindings", "tagNames",
] as const;
type ServerInput = (typeof SERVER_INPUTS)[number];
/** Set only by the create: a later change cannot be applied (diff refuses it). */
const CREATE_ONLY = ["sourceName", "sourceUrl"] as const;
/** The provider's own switches: no request. */
const PROVIDER_INPUTS = ["forceDelete", "adoptExisting"] as const;
const OPTIONAL_INPUTS = [...SERVER_INPUTS, ...CREATE_ONLY, ...PROVIDER_INPUTS] as const;
type OptionalInput = (typeof OPTIONAL_INPUTS)[number];
/** Inputs that are sets: their order carries no meaning. */
const SET_INPUTS = ["triggerPatterns", "triggerPrefixes", "tagNames"] as const;
/** Inputs whose value is an object of independent settings: only the declared keys are managed. */
const PARTIAL_OBJECTS = ["vcsRepo", "settingOverwrites"] as const;

// ---- check ----------------------------------------------------------------------------------

export async function check(olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const { inputs, missing } = withDefaultOrganization(userInputs(news));
  // Sets in one canonical order, so a reordered list is not an input change (the CLI shows input changes).
  for (const key of SET_INPUTS) {
    const list = inputs[key];
    if (Array.isArray(list) && !isUnknown(list) && list.every((v) => typeof v === "string")) inputs[key] = [...(list as string[])].sort();
  }
  const outcome = validate(workspaceInputsSchema, inputs, KIND);
  if (missing !== undefined) outcome.failures.push(missing);
  const creating = Object.keys(userInputs(olds)).length === 0;
  const repo = inputs.vcsRepo as Partial<VcsRepoInput> | undefined;
  const hadRepo = !creating && userInputs(olds).vcsRepo !== undefined;
  if (repo !== undefined && !isUnknown(repo) && !hadRepo && repo.oauthTokenId === undefined) {
    outcome.failures.push({
      property: "vcsRepo.oauthTokenId",
      reason: "is required when the repository is first connected (the service takes githubAppInstallationId only on update)",
    });
  }
  if (outcome.failures.length === 0) await checkAgainstTheServer(inputs, userInputs(olds), creating, outcome.failures, urnOf(news));
  if (inputs.operations !== undefined && outcome.failures.length === 0) {
    await noteForTheUser("warning", `${label(news)}: \`operations\` is deprecated by the service; use \`executionMode\` ("remote" for true, "local" for false).`, urnOf(news));
  }
  // The owner marker and the resource class's note of its outputs go on to create, unchanged.
  const marker = ownerMarkerOf(news);
  const named = namedOutputsOf(news);
  if (marker === undefined && named.length === 0) return outcome;
  return { inputs: { ...outcome.inputs, ...internalInputs(marker, named) }, failures: outcome.failures };
}

/**
 * Read-only checks that need the server: the edition, and what a create with adoptExisting will take.
 * The edition is asked (one ping per process) only when `assessmentsEnabled` is about to be sent: on
 * create, or when its declared value changed. A preview with nothing changed sends nothing.
 */
async function checkAgainstTheServer(
  inputs: Props, previous: Props, creating: boolean, failures: { property: string; reason: string }[], urn: string | undefined,
): Promise<void> {
  const assessmentsSent = creating || inputs.assessmentsEnabled !== previous.assessmentsEnabled;
  if (inputs.assessmentsEnabled !== undefined && !isUnknown(inputs.assessmentsEnabled) && assessmentsSent) {
    const edition = await editionOf(sharedClient());
    if (edition === "self-managed") {
      failures.push({ property: "assessmentsEnabled", reason: "is only available in the hosted edition; this server is self-managed" });
    }
  }
  if (creating && inputs.adoptExisting === true && typeof inputs.name === "string" && typeof inputs.organization === "string" &&
      !isUnknown(inputs.name) && !isUnknown(inputs.organization)) {
    const existing = await findByName(sharedClient(), inputs.organization, inputs.name);
    const what = `${KIND} "${inputs.organization}/${inputs.name}"`;
    await noteForTheUser("info", existing
      ? `${what} exists (${existing.id}): \`up\` will adopt it (adoptExisting) and apply the declared settings instead of creating one.`
      : `${what} does not exist yet: \`up\` will create it (adoptExisting has nothing to adopt).`, urn);
  }
}

const editions = new WeakMap<WsbridgeClient, Promise<string>>();
function editionOf(client: WsbridgeClient): Promise<string> {
  let edition = editions.get(client);
  if (!edition) editions.set(client, (edition = client.edition()));
  return edition;
}

// ---- diff -----------------------------------------------------------------------------------

export async function diff(_id: string, state: Props, news: Props): Promise<DiffOutcome> {
  const olds = fromState(state);
  const replaces: string[] = [];
  // The workspace cannot move between organizations: that is a new workspace.
  if (changed(olds.organization, news.organization)) replaces.push("organization");
  if (replaces.length > 0) await assertOrganizationReachable(String(news.organization));
  const updates = changedInputs(olds, news);
  const refused = updates.filter((key): key is (typeof CREATE_ONLY)[number] => (CREATE_ONLY as readonly string[]).includes(key));
  if (refused.length > 0 && replaces.length === 0) {
    throw new Error(
      `${label(news)}: ${refused.join(" and ")} can only be set when the workspace is created (the server holds ` +
        `${refused.map((k) => `${k}: ${JSON.stringify(olds[k] ?? null)}`).join(", ")}). Put back that value or remove the ` +
        "property from the program; to really start over, replace the workspace (`pulumi up --replace <urn>`).",
    );
  }
  // Names are unique in an organization, so the old workspace goes first (the dynamic class's default
  // option says the same, and an explicit option wins over this answer on either route).
  return {
    changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: replaces.length > 0,
    detailedDiff: [...replaces.map((key): PropertyChange => ({ path: key, kind: "update", replace: true })), ...changePaths(olds, news, updates)],
  };
}

/**
 * Where each changed input changes (plugin route, `pulumi preview --diff`): a set's member, a map's
 * key, a declared sub-key of vcsRepo or settingOverwrites; a property no longer declared is a change
 * of the inputs only (nothing is sent), except vcsRepo, whose removal disconnects the repository.
 */
function changePaths(olds: Props, news: Props, updates: readonly string[]): PropertyChange[] {
  const paths: PropertyChange[] = [];
  for (const key of updates) {
    const declared = news[key];
    if (declared === undefined) {
      paths.push(key === "vcsRepo" ? { path: key, kind: "delete", replace: false } : { path: key, kind: "delete", replace: false, inputDiff: true });
      continue;
    }
    if (isUnknown(declared) || key === "name") {
      paths.push({ path: key, kind: "update", replace: false });
    } else if ((PARTIAL_OBJECTS as readonly string[]).includes(key) && olds[key] !== null && olds[key] !== undefined) {
      const mine = declared as Props;
      const theirs = olds[key] as Props;
      const subs = Object.keys(mine).filter((sub) => mine[sub] !== undefined && comparable(`${key}.${sub}`, mine[sub]) !== comparable(`${key}.${sub}`, theirs[sub]));
      paths.push(...subs.map((sub): PropertyChange => ({ path: childPath(key, sub), kind: theirs[sub] === undefined ? "add" : "update", replace: false })));
    } else if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
      paths.push({ path: key, kind: "add", replace: false }); // a repository connected where there was none
    } else if ((SET_INPUTS as readonly string[]).includes(key)) {
      paths.push(...pathsOfChange(key, Array.isArray(olds[key]) ? olds[key] : [], declared, { set: true }));
    } else if (key === "tagBindings") {
      paths.push(...pathsOfChange(key, olds[key] ?? {}, declared));
    } else {
      paths.push({ path: key, kind: olds[key] === undefined ? "add" : "update", replace: false });
    }
  }
  return paths;
}

/** The optional inputs (and `name`) whose declared value differs from the server's, plus a dropped `vcsRepo`. */
function changedInputs(olds: Props, news: Props): string[] {
  const keys: string[] = [];
  if (changed(olds.name, news.name)) keys.push("name");
  for (const key of OPTIONAL_INPUTS) {
    const declared = news[key];
    if (declared === undefined) continue;
    if (isUnknown(declared) || !sameValue(key, declared, olds[key])) keys.push(key);
  }
  // A property left out of the program is no longer managed: an update that sends nothing but records
  // it (else a later refresh would bring it back into the inputs). Leaving vcsRepo out disconnects the
  // repository instead.
  const previously = declaredInputsOf(olds);
  for (const key of OPTIONAL_INPUTS) {
    if (news[key] === undefined && previously.has(key) && (key !== "vcsRepo" || (olds.vcsRepo !== null && olds.vcsRepo !== undefined))) keys.push(key);
  }
  return keys;
}

/**
 * A move to another organization deletes the workspace first (names are unique, see the class), so
 * the preview fails, with a read, when the new organization cannot take the workspace.
 */
async function assertOrganizationReachable(organization: string): Promise<void> {
  const client = sharedClient();
  try {
    for await (const _first of client.listWorkspaces(organization, { pageSize: 1 })) break;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new Error(
      `${KIND}: cannot move to organization "${organization}": it does not exist, or the token cannot see it. Nothing was ` +
        "changed; the workspace would be deleted before it is created there.",
    );
  }
}

function changed(before: unknown, after: unknown): boolean {
  return isUnknown(after) || before !== after;
}

/** Declared value against the server's (or the recorded switch), after normalizing both sides. */
function sameValue(key: OptionalInput, declared: unknown, server: unknown): boolean {
  // Before the server value was recorded (state from an older version), a create-only value cannot be judged.
  if ((CREATE_ONLY as readonly string[]).includes(key) && server === undefined) return true;
  if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
    const mine = (declared ?? {}) as Props;
    const theirs = (server ?? {}) as Props;
    return Object.keys(mine).every((sub) => mine[sub] === undefined || comparable(`${key}.${sub}`, mine[sub]) === comparable(`${key}.${sub}`, theirs[sub]));
  }
  return comparable(key, declared) === comparable(key, server);
}

/** One canonical text per value: what the API treats alike compares equal. */
function comparable(key: string, value: unknown): string {
  switch (key) {
    // "" and null mean the same to the API.
    case "description": case "workingDirectory": case "agentPoolId": case "vcsRepo.branch": case "vcsRepo.tagsRegex":
      return typeof value === "string" ? value : "";
    // Server defaults: absent means the default.
    case "autoApplyRunTrigger": case "assessmentsEnabled": case "projectRemoteState": case "vcsRepo.ingressSubmodules":
      return String(value === true);
    case "settingOverwrites.executionMode": case "settingOverwrites.agentPool":
      return String(value !== false);
    case "autoDestroyAt": {
      const t = typeof value === "string" ? Date.parse(value) : NaN;
      return Number.isNaN(t) ? String(value ?? "") : new Date(t).toISOString();
    }
    // Sets: order carries no meaning.
    case "triggerPatterns": case "triggerPrefixes": case "tagNames":
      return JSON.stringify(Array.isArray(value) ? [...(value as string[])].sort() : []);
    case "tagBindings":
      return JSON.stringify(Object.entries((value ?? {}) as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    case "forceDelete": case "adoptExisting":
      return String(value === true);
    default:
      return JSON.stringify(value ?? null);
  }
}

// ---- create ---------------------------------------------------------------------------------

export async function create(inputs: Props): Promise<{ id: string; outs: WorkspaceState }> {
  const { id, outs } = await createWorkspace(inputs);
  return { id, outs: toState(outs, namedOutputsOf(inputs)) };
}

async function createWorkspace(inputs: Props): Promise<{ id: string; outs: WorkspaceOutputs }> {
  const declared = parseChecked(inputs);
  const marker = ownerMarkerOf(inputs);
  const owner = parseOwnerUrl(marker);
  const client = sharedClient();
  const { organization, name } = declared;
  // POST first: a free name costs one request. A name already taken (this resource's own interrupted
  // create, or someone else's workspace) or an attempt whose outcome is unknown is resolved by a
  // lookup before anything is sent again, so a create is never repeated blindly.
  let unknownOutcome = false;
  for (let attempt = 1; ; attempt++) {
    try {
      const workspace = await client.createWorkspace(organization, createOptions(declared, marker), READ);
      const final = await applyFlatTags(client, workspace, declared);
      return { id: workspace.id, outs: await outputsOf(client, final, declared, marker) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        await assertServesTheApi(client);
        throw new Error(
          `${KIND} "${organization}/${name}" cannot be created: the organization "${organization}" does not exist, or the ` +
            `token may not create workspaces in it (${error.message})`,
        );
      }
      const taken = error instanceof ValidationError && error.pointer === "/data/attributes/name";
      if (!(error instanceof OutcomeUnknownError || taken)) throw error;
      unknownOutcome ||= error instanceof OutcomeUnknownError;
      const existing = await findByName(client, organization, name);
      if (existing) {
        const theirs = parseOwnerUrl(existing.sourceUrl);
        // Without a marker (a caller other than the resource classes), only this call's own unknown POST is provably ours.
        const ours = owner ? theirs !== undefined && sameOwner(owner, theirs) : unknownOutcome;
        if (!ours && declared.adoptExisting !== true) throw new Error(refusal(organization, name, owner, theirs));
        return adopt(client, existing, declared, inputs, marker);
      }
      if (attempt >= client.retryOptions.maxAttempts) throw error;
    }
  }
}

function createOptions(declared: CheckedWorkspaceInputs, marker: string | undefined): WorkspaceCreateOptions {
  // The owner marker rides in the fragment of source-url: on the user's URL, or on the package's page.
  const fragment = ownerFragmentOf(marker);
  const base = declared.sourceUrl ?? (fragment === undefined ? undefined : withoutOwnerFragment(marker ?? ""));
  const { vcsRepo: _set, name: _named, ...writable } =
    serverOptions(declared, SERVER_INPUTS.filter((k) => k !== "tagNames" && declared[k] !== undefined), null);
  return {
    name: declared.name,
    ...writable,
    sourceName: declared.sourceName ?? SOURCE_NAME,
    ...(base !== undefined && { sourceUrl: base + (fragment ?? "") }),
    ...(declared.vcsRepo !== undefined && { vcsRepo: declared.vcsRepo }),
  };
}

async function findByName(client: WsbridgeClient, organization: string, name: string): Promise<Workspace | undefined> {
  try {
    return await client.readWorkspaceByName(organization, name, READ);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * Takes over an existing workspace: this resource's own (left by an interrupted create) or, with
 * adoptExisting, any. The declared settings are applied; create-only ones must already match.
 */
async function adopt(
  client: WsbridgeClient, existing: Workspace, declared: CheckedWorkspaceInputs, inputs: Props, marker: string | undefined,
): Promise<{ id: string; outs: WorkspaceOutputs }> {
  const current = await outputsOf(client, existing, declared, marker);
  const mismatched = CREATE_ONLY.filter((k) => declared[k] !== undefined && !sameValue(k, declared[k], current[k]));
  if (mismatched.length > 0 && parseOwnerUrl(existing.sourceUrl) === undefined) {
    throw new Error(
      `${label(inputs)}: cannot adopt ${existing.id}: ${mismatched.map((k) => `${k} is ${JSON.stringify(current[k])} there`).join(", ")}, ` +
        "and it can only be set when a workspace is created. Declare that value or remove the property.",
    );
  }
  const workspace = await reconcile(client, existing.id, declared, current);
  noteAdopted(workspace.id);
  return { id: workspace.id, outs: await outputsOf(client, workspace, declared, marker) };
}

function refusal(organization: string, name: string, owner: Owner | undefined, theirs: Owner | undefined): string {
  const what = `${KIND} "${organization}/${name}" already exists`;
  const fix = "choose another name, delete or rename the existing workspace, or set `adoptExisting: true` to manage it with this resource";
  if (!theirs) return `${what} and was not created by a pulumi-wsbridge stack resource (its source-url names none); ${fix}`;
  if (owner && theirs.project === owner.project && theirs.stack === owner.stack && theirs.kind === owner.kind) {
    return `${what}: it was created by resource "${theirs.name}" of this stack. If you renamed that resource in your ` +
      `program, add \`aliases: [{ name: "${theirs.name}" }]\` to the options of "${owner.name}", so Pulumi moves the ` +
      "workspace to the new name in the state instead of creating a second one";
  }
  return `${what} and is managed by ${describeOwner(theirs)}, not by this resource; ${fix}`;
}

// ---- read -----------------------------------------------------------------------------------

export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: WorkspaceState; inputs?: Props }> {
  const previous = fromState(props);
  const client = sharedClient();
  // Gone, unless nothing is found at this address at all: then the address is wrong, and dropping
  // the resource from the state would lose track of a workspace that still exists.
  const workspace = await readWorkspaceForRefresh(client, id, READ);
  if (workspace === undefined) return { id: "" };
  const declared = declaredInputsOf(previous);
  const marker = ownerMarkerOf(previous);
  const values = (typeof previous.__declaredValues === "object" && previous.__declaredValues !== null ? previous.__declaredValues : {}) as Props;
  const outs = await outputsOf(client, workspace, switchesOf(previous), marker, declared, values);
  const named = namedOutputsOf(previous);
  return { id: workspace.id, props: toState(outs, named), inputs: { ...declaredInputsFrom(outs, declared, values), ...internalInputs(marker, named) } };
}

/** The inputs a program declaring `declared` would have to hold to match the server: what drift looks like in a preview. */
function declaredInputsFrom(outs: WorkspaceOutputs, declared: Set<string>, values: Props): Props {
  const inputs: Props = { name: outs.name, organization: outs.organization };
  for (const key of OPTIONAL_INPUTS) {
    if (!declared.has(key)) continue;
    // Unchanged on the server: the program's own spelling.
    if (values[key] !== undefined && sameValue(key, values[key], outs[key])) {
      inputs[key] = values[key];
      continue;
    }
    if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
      const server = (outs[key as "vcsRepo" | "settingOverwrites"] ?? null) as Props | null;
      if (server === null) continue; // a repository removed outside Pulumi: the program's vcsRepo will add it back
      inputs[key] = Object.fromEntries([...declared].filter((d) => d.startsWith(`${key}.`)).map((d) => {
        const sub = d.slice(key.length + 1);
        return [sub, server[sub] ?? undefined];
      }).filter(([, v]) => v !== undefined && v !== null));
      continue;
    }
    const value = outs[key];
    if (value !== null && value !== undefined) inputs[key] = value;
  }
  return inputs;
}

function declaredInputsOf(state: Props): Set<string> {
  const recorded = state.__declaredInputs;
  if (Array.isArray(recorded)) return new Set(recorded.filter((k): k is string => typeof k === "string"));
  // State written before the record existed: keep what its values imply.
  return new Set(["description", "forceDelete"].filter((key) => state[key] !== undefined && !(key === "forceDelete" && state[key] === false)));
}

// ---- update ---------------------------------------------------------------------------------

export async function update(id: string, state: Props, news: Props): Promise<{ outs: WorkspaceState }> {
  const olds = fromState(state);
  const declared = parseChecked(news);
  const client = sharedClient();
  let workspace: Workspace;
  try {
    workspace = await reconcile(client, id, declared, olds as WorkspaceOutputs);
  } catch (error) {
    throw await explainedUpdateFailure(client, id, declared, error);
  }
  return { outs: toState(await outputsOf(client, workspace, declared, ownerMarkerOf(news)), namedOutputsOf(news)) };
}

/**
 * A refused update, explained. The service answers 404 both for a workspace that is gone and for one
 * the token may read but not change (a read-only token in a pull-request check, say); one read tells
 * them apart, so the message names the permission instead of suggesting the workspace is missing.
 */
async function explainedUpdateFailure(client: WsbridgeClient, id: string, declared: CheckedWorkspaceInputs, error: unknown): Promise<unknown> {
  if (!(error instanceof NotFoundError) && !(error instanceof ForbiddenError)) return error;
  const what = `${KIND} "${declared.organization}/${declared.name}" (${id})`;
  const readable = error instanceof ForbiddenError || await client.readWorkspace(id).then(() => true, () => false);
  if (readable) {
    return new Error(
      `${what} was not updated: the token may not change this workspace (it may only read it). Changing a workspace's ` +
        'settings or tags needs admin access on the workspace, the organization\'s "manage-workspaces" access, an ' +
        "organization token, or an owner's token: use such a token (wsbridge:token or WSBRIDGE_TOKEN). A read-only " +
        "token is enough for `pulumi preview`, not for `pulumi up`.",
      { cause: error },
    );
  }
  await assertServesTheApi(client);
  return new Error(
    `${what} was not updated: it does not exist any more, or the token may not see it (${(error as Error).message}). ` +
      "If it was deleted outside Pulumi, `pulumi refresh` drops it from the state and the next `up` creates it again.",
    { cause: error },
  );
}

/**
 * Brings the workspace to the declared state from `current` (the server's last report): one PATCH
 * with every changed attribute and relationship (its answer is the new state, so no read follows),
 * then the flat tags: the update endpoint cannot change them, and their own endpoints add (C6) and
 * remove (C7) in separate calls. A change to provider switches alone sends nothing.
 */
async function reconcile(client: WsbridgeClient, id: string, declared: CheckedWorkspaceInputs, current: WorkspaceOutputs): Promise<Workspace> {
  const changedKeys = changedInputs(current as unknown as Props, declared as unknown as Props);
  // A dropped property sends nothing, except vcsRepo (null disconnects the repository).
  const sent = (k: ServerInput): boolean => changedKeys.includes(k) && (declared[k] !== undefined || k === "vcsRepo");
  // The service resets setting-overwrites to true for what an update gives a value for (an execution
  // mode, an agent pool), so declared overwrites go along with those, or they would not hold.
  const resetsOverwrites = declared.settingOverwrites !== undefined && (["executionMode", "operations", "agentPoolId"] as const).some(sent);
  const attributes = SERVER_INPUTS.filter((k) => k !== "tagNames" && (sent(k) || (k === "settingOverwrites" && resetsOverwrites)));
  const flatTags = changedKeys.includes("tagNames") && declared.tagNames !== undefined;
  const options: WorkspaceUpdateOptions = {
    ...(changedKeys.includes("name") && { name: declared.name }),
    ...serverOptions(declared, attributes, current),
  };
  // Flat tags alone: the last report (what diff judged the change on) is the base, no read first. C6 and
  // C7 ignore a tag already present or already absent; a tag added outside since the last refresh is
  // left until a refresh shows it as drift, as for every other attribute.
  let workspace = Object.keys(options).length > 0 ? await client.updateWorkspace(id, options, READ) : workspaceFromOutputs(current);
  if (flatTags) workspace = await applyFlatTags(client, workspace, declared);
  return workspace;
}

/** The request options for `keys`, from the declared inputs. A dropped vcsRepo is sent as null. */
function serverOptions(declared: CheckedWorkspaceInputs, keys: readonly ServerInput[], current: WorkspaceOutputs | null): WorkspaceUpdateOptions {
  const o: WorkspaceUpdateOptions = {};
  for (const key of keys) {
    switch (key) {
      case "vcsRepo": o.vcsRepo = declared.vcsRepo ?? null; break;
      case "tagBindings": o.tagBindings = Object.entries(declared.tagBindings ?? {}).map(([k, value]) => (value === "" ? { key: k } : { key: k, value })); break;
      case "tagNames": break; // C6/C7, see applyFlatTags
      case "settingOverwrites": o.settingOverwrites = { ...declared.settingOverwrites }; break;
      default: (o as Record<string, unknown>)[key] = declared[key];
    }
  }
  // A project move keeps the flat tags and bindings; nothing else depends on `current` today.
  void current;
  return o;
}

/** Makes the flat tags exactly the declared list: C6 adds the missing, C7 removes the others. */
async function applyFlatTags(client: WsbridgeClient, workspace: Workspace, declared: CheckedWorkspaceInputs): Promise<Workspace> {
  if (declared.tagNames === undefined) return workspace;
  const want = new Set(declared.tagNames);
  const have = new Set(workspace.tagNames);
  const add = [...want].filter((n) => !have.has(n));
  const remove = [...have].filter((n) => !want.has(n));
  if (add.length === 0 && remove.length === 0) return workspace;
  // Adding a present tag and removing an absent one are both ignored by the service: safe to repeat.
  if (add.length > 0) await client.addTags(workspace.id, add.map((name) => ({ name })));
  if (remove.length > 0) await client.removeTags(workspace.id, remove.map((name) => ({ name })));
  return { ...workspace, tagNames: [...declared.tagNames] };
}

// ---- delete ---------------------------------------------------------------------------------

export async function remove(id: string, props: Props): Promise<void> {
  const state = fromState(props);
  // Taken over by a create of this run (see adoptedInThisRun): it is the new resource's now.
  if (adoptedInThisRun(id)) return;
  const force = state.forceDelete === true;
  const what = `${KIND} "${String(state.organization)}/${String(state.name)}" (${id})`;
  const client = sharedClient();
  try {
    // Both are retried by the client; gone already counts as done.
    if (force) await client.forceDeleteWorkspace(id);
    else await client.safeDeleteWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone: delete is idempotent
    if (error instanceof ConflictError && !force && error.reason === "locked-cannot-delete") {
      throw new Error(
        `${what} was not deleted because it is locked (${error.detail ?? error.message}). ` +
          "Unlock it (or let the run holding the lock finish), then try again. A force delete would also remove it.",
      );
    }
    if (error instanceof ConflictError && !force) {
      throw new Error(
        `${what} was not deleted because it still manages resources (${error.detail ?? error.message}). ` +
          "Destroy what it manages first, or set `forceDelete: true` on the Workspace, run `pulumi up`, then try again.",
      );
    }
    if (error instanceof ForbiddenError) {
      throw new Error(
        `${what} was not force-deleted: the token may not force delete (organization owners can; workspace admins only ` +
          `where the organization allows it). ${error.message}`,
      );
    }
    throw withStaleSettingsHint(error, "destroy");
  }
}

// ---- preview (plugin route) ------------------------------------------------------------------
//
// With the provider plugin, `pulumi preview` asks what an apply will produce. An output is known only
// where the apply certainly produces that value: an input the server stores as declared, a value
// derived from the id or the inputs, or (update) an output the change cannot alter. Everything the
// server decides is UNKNOWN. No request is made.

/** Inputs the server stores exactly as declared, so a declared value is the apply's output. */
const STORED_AS_DECLARED = [
  "description", "agentPoolId", "allowDestroyPlan", "autoApply", "autoApplyRunTrigger", "autoDestroyActivityDuration",
  "fileTriggersEnabled", "globalRemoteState", "projectRemoteState", "queueAllRuns", "speculativeEnabled", "engineVersion",
  "workingDirectory", "projectId", "tagBindings",
] as const;

/** What else a change of each input may alter on the server (outputs that become UNKNOWN). */
const ALSO_ALTERS: Partial<Record<string, readonly (keyof WorkspaceReport)[]>> = {
  executionMode: ["settingOverwrites", "agentPoolId", "operations"],
  agentPoolId: ["settingOverwrites", "executionMode"],
  operations: ["executionMode", "settingOverwrites", "agentPoolId"],
  settingOverwrites: ["executionMode", "agentPoolId"],
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
function asOutput(key: string, value: unknown): unknown {
  if (isUnknown(value)) return UNKNOWN;
  if (key === "description" || key === "workingDirectory") return typeof value === "string" ? value : "";
  if (key === "tagNames" && Array.isArray(value)) return [...(value as string[])].sort();
  return value;
}

/** The workspace's page as the service links it, from its organization and name (known in a preview). */
function derivedHtmlUrl(organization: unknown, name: unknown, address: string): string {
  if (isUnknown(organization) || isUnknown(name)) return UNKNOWN;
  return new URL(`/app/${encodeURIComponent(String(organization))}/workspaces/${encodeURIComponent(String(name))}`, address).toString();
}

/** The outputs a create with `news` will have; everything the server decides is UNKNOWN. */
export async function previewCreate(news: Props): Promise<WorkspaceState> {
  const declared = userInputs(news) as Partial<CheckedWorkspaceInputs>;
  const marker = ownerMarkerOf(news);
  const address = sharedClient().address;
  const report = Object.fromEntries(WORKSPACE_REPORT_KEYS.map((key) => [key, UNKNOWN])) as Props;
  Object.assign(report, {
    name: declared.name, organization: declared.organization,
    htmlUrl: derivedHtmlUrl(declared.organization, declared.name, address),
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
export async function previewUpdate(_id: string, state: Props, news: Props): Promise<WorkspaceState> {
  const olds = fromState(state);
  const declared = userInputs(news) as Partial<CheckedWorkspaceInputs>;
  const report: Props = Object.fromEntries(WORKSPACE_REPORT_KEYS.map((key) => [key, olds[key]]));
  const changedKeys = changedInputs(olds, news);
  for (const key of changedKeys) {
    const value = declared[key as keyof CheckedWorkspaceInputs];
    if (key === "name") {
      report.name = value;
      // The service's page moves with the name where its link is the organization/name one.
      const sameScheme = olds.htmlUrl === derivedHtmlUrl(olds.organization, olds.name, sharedClient().address);
      report.htmlUrl = sameScheme ? derivedHtmlUrl(olds.organization, value, sharedClient().address) : UNKNOWN;
    } else if ((STORED_AS_DECLARED as readonly string[]).includes(key) && value !== undefined) {
      report[key] = asOutput(key, value);
    } else if (key === "tagNames" && value !== undefined) {
      report.tagNames = asOutput(key, value);
    } else if (key === "vcsRepo" && value === undefined) {
      report.vcsRepo = null; // dropped: disconnected
    } else if (key === "executionMode" && value !== undefined && declared.settingOverwrites?.executionMode !== false) {
      report.executionMode = asOutput(key, value);
    } else if (value !== undefined && !(PROVIDER_INPUTS as readonly string[]).includes(key)) {
      report[key] = UNKNOWN;
    }
    for (const other of ALSO_ALTERS[key] ?? []) if (!(STORED_AS_DECLARED as readonly string[]).includes(other) || declared[other as keyof CheckedWorkspaceInputs] === undefined) report[other] = UNKNOWN;
  }
  report.forceDelete = declared.forceDelete === true;
  report.adoptExisting = declared.adoptExisting === true;
  // The update's PATCH (anything but flat tags, provider switches and dropped declarations) moves the timestamps.
  const patched = changedKeys.some((key) => key === "name" || ((SERVER_INPUTS as readonly string[]).includes(key) && key !== "tagNames" &&
    (declared[key as keyof CheckedWorkspaceInputs] !== undefined || key === "vcsRepo")));
  if (patched) {
    report.updatedAt = UNKNOWN;
    report.latestChangeAt = UNKNOWN;
  }
  return plannedState(report as WorkspaceReport, declared, ownerMarkerOf(news), news);
}

/** The planned report with the provider's records, as create and update would write them. */
function plannedState(report: WorkspaceReport, declared: Partial<CheckedWorkspaceInputs>, marker: string | undefined, news: Props): WorkspaceState {
  const outs: WorkspaceOutputs = {
    ...report,
    __declaredInputs: declaredKeys(declared),
    __declaredValues: Object.fromEntries(OPTIONAL_INPUTS.filter((k) => declared[k] !== undefined).map((k) => [k, declared[k]])),
    ...(marker !== undefined && { __owner: marker }),
  };
  return toState(outs, namedOutputsOf(news));
}

// ---- import (plugin route) -------------------------------------------------------------------
//
// `pulumi import wsbridge:index:Workspace <name> <import id>`, where the import id is either
//   ws-…                              the workspace's id, or
//   <organization>/<workspace name>   its organization and name (import-ids.ts).
// The answer's inputs are the settings that reproduce the workspace: declaring them, a preview shows no
// change. One request (the read that refresh makes).

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
 * to inherit), in the spelling check accepts. Create-only values (sourceName, sourceUrl) are not
 * settings, and the deprecated `operations` is said by executionMode.
 */
function reproducingInputs(workspace: Workspace): Props {
  const own = (value: unknown): boolean => value !== null && value !== undefined && value !== "";
  const inputs: Props = {
    name: workspace.name, organization: workspace.organization,
    allowDestroyPlan: workspace.allowDestroyPlan, autoApply: workspace.autoApply,
    autoApplyRunTrigger: workspace.autoApplyRunTrigger ?? false, fileTriggersEnabled: workspace.fileTriggersEnabled,
    globalRemoteState: workspace.globalRemoteState, queueAllRuns: workspace.queueAllRuns, speculativeEnabled: workspace.speculativeEnabled,
  };
  if (own(workspace.description)) inputs.description = workspace.description;
  if (workspace.settingOverwrites.executionMode !== false) inputs.executionMode = workspace.executionMode;
  if (workspace.settingOverwrites.agentPool !== false && own(workspace.agentPoolId) && workspace.executionMode === "agent") inputs.agentPoolId = workspace.agentPoolId;
  if (workspace.assessmentsEnabled === true) inputs.assessmentsEnabled = true;
  if (workspace.projectRemoteState === true) inputs.projectRemoteState = true;
  if (own(workspace.autoDestroyAt)) inputs.autoDestroyAt = workspace.autoDestroyAt;
  else if (own(workspace.autoDestroyActivityDuration) && workspace.inheritsProjectAutoDestroy !== true) {
    inputs.autoDestroyActivityDuration = workspace.autoDestroyActivityDuration;
  }
  if (workspace.triggerPatterns.length > 0) inputs.triggerPatterns = [...workspace.triggerPatterns].sort();
  if (workspace.triggerPrefixes.length > 0) inputs.triggerPrefixes = [...workspace.triggerPrefixes].sort();
  if (own(workspace.engineVersion)) inputs.engineVersion = workspace.engineVersion;
  if (own(workspace.workingDirectory)) inputs.workingDirectory = workspace.workingDirectory;
  if (own(workspace.projectId)) inputs.projectId = workspace.projectId;
  const repo = workspace.vcsRepo;
  if (repo !== null && own(repo.identifier)) {
    inputs.vcsRepo = {
      identifier: repo.identifier,
      ...(own(repo.oauthTokenId) ? { oauthTokenId: repo.oauthTokenId } : own(repo.githubAppInstallationId) && { githubAppInstallationId: repo.githubAppInstallationId }),
      ...(own(repo.branch) && { branch: repo.branch }),
      ...(repo.ingressSubmodules === true && { ingressSubmodules: true }),
      ...(own(repo.tagsRegex) && { tagsRegex: repo.tagsRegex }),
    };
  }
  const direct = effectiveBindingsOf(workspace.effectiveTagBindings ?? []).filter((b) => b.inheritedFrom === null);
  if (direct.length > 0) inputs.tagBindings = Object.fromEntries(direct.map((b) => [b.key, b.value]));
  if (workspace.tagNames.length > 0) inputs.tagNames = [...workspace.tagNames].sort();
  return inputs;
}

// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): CheckedWorkspaceInputs {
  const parsed = workspaceInputsSchema.parse(userInputs(props));
  if (parsed.organization === undefined) throw new Error(`${KIND}: organization is required`);
  return { ...parsed, organization: parsed.organization };
}

/**
 * The resource's URN: as the provider plugin passes it (`__urn`), else as the engine spells it for a
 * dynamic resource without a parent (the owner marker names the rest).
 */
function urnOf(props: Props): string | undefined {
  const given = withoutProvider(props).__urn;
  if (typeof given === "string") return given;
  const owner = parseOwnerUrl(ownerMarkerOf(props));
  return owner && `urn:pulumi:${owner.stack}::${owner.project}::pulumi-nodejs:dynamic/wsbridge:${owner.kind}::${owner.name}`;
}

function label(props: Props): string {
  const p = userInputs(props);
  return `${KIND} "${typeof p.organization === "string" ? `${p.organization}/` : ""}${String(p.name)}"`;
}

function ownerMarkerOf(props: Props): string | undefined {
  const marker = withoutProvider(props).__owner;
  return typeof marker === "string" ? marker : undefined;
}

/** The resource class's note of the optional inputs it passed as Outputs or Promises (inputs or state). */
function namedOutputsOf(props: Props): string[] {
  const named = withoutProvider(props).__namedOutputs;
  if (!Array.isArray(named)) return [];
  return named.filter((key): key is string => typeof key === "string" && (OPTIONAL_INPUTS as readonly string[]).includes(key));
}

function internalInputs(marker: string | undefined, named: readonly string[]): Props {
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
function toState(outs: WorkspaceOutputs, namedOutputs: readonly string[]): WorkspaceState {
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
function fromState(props: Props | undefined): Props {
  const { __outputs: report, ...state } = withoutProvider(props);
  if (report === null || typeof report !== "object" || Array.isArray(report)) return state;
  return { ...(report as Props), ...state };
}

/** The provider switches as last declared (read has only the old outputs). */
function switchesOf(state: Props): Pick<CheckedWorkspaceInputs, "forceDelete" | "adoptExisting"> {
  return {
    ...(state.forceDelete === true && { forceDelete: true }),
    ...(state.adoptExisting === true && { adoptExisting: true }),
  };
}

/** Which optional inputs (and sub-keys) a declaration holds. */
function declaredKeys(declared: Partial<CheckedWorkspaceInputs>): string[] {
  const keys: string[] = [];
  for (const key of OPTIONAL_INPUTS) {
    const value = declared[key];
    if (value === undefined) continue;
    keys.push(key);
    if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
      for (const [sub, v] of Object.entries(value as object)) if (v !== undefined) keys.push(`${key}.${sub}`);
    }
  }
  return keys;
}

function effectiveBindingsOf(bindings: readonly EffectiveTagBinding[]): EffectiveTagBindingOutput[] {
  return bindings
    .map((b) => ({ key: b.key, value: b.value, inheritedFrom: b.inheritedFrom ? b.inheritedFrom.id ?? b.inheritedFrom.link : null }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The outputs for `workspace`. `declaredSet` is the record of what the program declares (create and
 * update derive it from the inputs; read carries it over from the old outputs).
 */
async function outputsOf(
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
    htmlUrl: htmlUrlOf(workspace, client.address),
    apiUrl: new URL(`/api/v2/workspaces/${encodeURIComponent(workspace.id)}`, client.address).toString(),
    forceDelete: declared.forceDelete === true,
    adoptExisting: declared.adoptExisting === true,
    __declaredInputs: declaredSet ? [...declaredSet] : declaredKeys(declared),
    __declaredValues: declaredValues ?? Object.fromEntries(OPTIONAL_INPUTS.filter((k) => declared[k] !== undefined).map((k) => [k, declared[k]])),
    ...(marker !== undefined && { __owner: marker }),
  };
}

/** The server's own `self-html` link made absolute against the API address; built from org and name only if a server omits it. */
function htmlUrlOf(workspace: Workspace, address: string): string {
  const link = workspace.htmlUrl ??
    `/app/${encodeURIComponent(workspace.organization)}/workspaces/${encodeURIComponent(workspace.name)}`;
  return new URL(link, address).toString();
}

/** The last report, as a workspace, for an update that sends nothing (provider switches only). */
function workspaceFromOutputs(o: WorkspaceOutputs): Workspace {
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

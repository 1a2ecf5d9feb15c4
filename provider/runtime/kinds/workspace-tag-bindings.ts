// WorkspaceTagBindings lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// Additive by default: adds and value changes go through C10 (which never removes); a key this resource
// declared and no longer declares is removed through the workspace update's `tag-bindings` relationship
// (A5 replaces the whole direct set), written as "the current set (C8) minus the removed keys". Keys this
// resource never declared are left alone. With `exclusive`, A5 sets the declared map as the whole set.
//
// The id is `${workspaceId}:${12 hex of sha256(the sorted keys declared at create)}`, so two additive
// resources on one workspace (each with its own keys) have different ids. The id never changes after
// create; the outputs carry the workspace id and the keys managed (`__managedKeys`).
//
// Requests: the workspace's own answers carry the effective bindings (`include=effective_tag_bindings`),
// and its direct bindings are the effective ones inherited from nowhere (a direct key wins over the
// project's), so a refresh, an exclusive write and every A5 need no second read. Two requests remain
// where the API leaves no choice: C10 (the only additive write) answers with the direct bindings alone,
// so the project-inherited part of `effectiveTags` costs one C9; and removing a key goes through A5,
// which replaces the whole set, so it needs the current set (C8) first.
//
// Import ids (`pulumi import wsbridge:index:WorkspaceTagBindings <name> <id>`), one read of the workspace each:
//   ws-…                every direct tag of the workspace, additive (a workspace without direct tags has nothing to adopt)
//   ws-…:exclusive      every direct tag of the workspace, exclusive (the whole set, even an empty one)
//   ws-…/key1,key2      those keys, additive (each must be bound directly on the workspace)
//   ws-…:<12 hex>       the id create returned: the keys and mode it was created with (found among the direct tags)
import { knownOutputs } from "../known-outputs";
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import {
  MAX_DIRECT_TAG_BINDINGS, tagKeyProblem, WORKSPACE_TAG_BINDINGS_OMITTED, workspaceTagBindingsInputsSchema,
  type WorkspaceTagBindingsInputs,
} from "../../schemas/workspace-tag-bindings";
import { withFixedValues } from "../../schemas/omission";
import {
  ForbiddenError, NotFoundError, ValidationError, type EffectiveTagBinding, type TagBinding, type TagBindingInput, type WsbridgeClient,
} from "../api";
import { settingsProblem, sharedClient } from "../config";
import {
  UNKNOWN, isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, type CheckOutcome, type DiffOutcome,
  type Imported, type PropertyChange, type Props,
} from "../lifecycle";
import { childPath } from "../property-paths";
import { assertServesTheApi, readUnlessGone } from "../serves-the-api";

const KIND = "WorkspaceTagBindings";
/** Workspace reads and updates answer with the effective bindings: direct and inherited in one request. */
const WITH_EFFECTIVE = { include: ["effective_tag_bindings"] };

type TagMap = Record<string, string>;

/** An effective binding: `inheritedFrom` is the project id for a tag inherited from the project, null for a direct one. */
export type EffectiveTag = { key: string; value: string; inheritedFrom: string | null };

/** Everything a WorkspaceTagBindings exposes. A type alias so outputs pass where plain property maps are expected. */
export type WorkspaceTagBindingsOutputs = {
  workspaceId: string;
  /** The managed keys as the server reports them (a managed key removed outside Pulumi is absent). */
  tags: TagMap;
  exclusive: boolean;
  /** Every direct binding of the workspace, managed by this resource or not. */
  allDirectTags: TagMap;
  /** Direct plus project-inherited bindings (C9). */
  effectiveTags: EffectiveTag[];
  /** The keys this resource declared at its last apply: what it removes when they leave `tags`, and at destroy. */
  __managedKeys: string[];
};

/** The outputs a preview promises: each one known, or {@link UNKNOWN} (at any depth) where only the apply will tell. */
export type WorkspaceTagBindingsPreview = { [K in keyof WorkspaceTagBindingsOutputs]: WorkspaceTagBindingsOutputs[K] | typeof UNKNOWN };

// ---- check ----------------------------------------------------------------------------------

/**
 * No request for bad inputs. When every input is known and the mode is additive, one read (C8) counts
 * the keys already on the workspace that this resource keeps, so the limit of 10 fails at preview. Only
 * for a create or a changed declaration: an unchanged one was within the limit when it was applied, so
 * a preview with nothing changed sends nothing.
 */
export async function check(olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  // What the program leaves out is filled in (WORKSPACE_TAG_BINDINGS_OMITTED), so the state's inputs say it.
  const outcome = validate(workspaceTagBindingsInputsSchema, withFixedValues(WORKSPACE_TAG_BINDINGS_OMITTED, userInputs(news)), KIND);
  if (outcome.failures.length > 0 || isUnknown(outcome.inputs)) return outcome;
  const declared = parseChecked(outcome.inputs);
  if (declared.exclusive === true) return outcome;
  if (sameDeclaration(userInputs(olds), outcome.inputs)) return outcome;
  const previouslyDeclared = new Set(Object.keys(tagsOf(withoutProvider(olds).tags)));
  let live: TagBinding[];
  try {
    live = await sharedClient().listTagBindings(declared.workspaceId);
  } catch {
    return outcome; // a workspace not there yet (or not readable) is for create to report, with its reason
  }
  const othersKept = live.map((b) => b.key).filter((key) => !Object.hasOwn(declared.tags, key) && !previouslyDeclared.has(key));
  const total = Object.keys(declared.tags).length + othersKept.length;
  if (total > MAX_DIRECT_TAG_BINDINGS) {
    return {
      inputs: outcome.inputs,
      failures: [{
        property: "tags",
        reason: `would make ${total} direct tags on workspace "${declared.workspaceId}" (at most ${MAX_DIRECT_TAG_BINDINGS}): ` +
          `it already has ${othersKept.length} not managed by this resource (${othersKept.join(", ")}). Declare fewer keys, ` +
          "or remove some of those on the service (or use exclusive: true to own the whole set).",
      }],
    };
  }
  return outcome;
}

/** The same workspace, mode and tags as the last applied inputs (the engine passes those as `olds`). */
function sameDeclaration(olds: Props, news: Props): boolean {
  return olds.workspaceId === news.workspaceId && (olds.exclusive === true) === (news.exclusive === true) &&
    isDeepStrictEqual(sortedEntries(olds.tags), sortedEntries(news.tags));
}

function sortedEntries(value: unknown): [string, string][] {
  return Object.entries(tagsOf(value)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// ---- diff -----------------------------------------------------------------------------------

/**
 * No request. Compares the declaration with the state (which a refresh updates from the server):
 * a managed key changed or removed outside shows as the update that restores it; in exclusive mode an
 * unmanaged direct key does too. Another workspace replaces (bound on the new one, then removed from the old).
 * Each change is a path: `workspaceId`, `tags["key"]` per key written or unbound, `exclusive`.
 */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const state = withoutProvider(olds);
  const inputs = userInputs(news);
  const replaces = isUnknown(inputs.workspaceId) || inputs.workspaceId !== state.workspaceId ? ["workspaceId"] : [];
  const detailedDiff: PropertyChange[] = [
    ...replaces.map((path) => ({ path, kind: "update" as const, replace: true })),
    ...tagChanges(state, inputs),
    ...exclusiveChanges(state.exclusive, inputs.exclusive),
  ];
  return { changes: detailedDiff.length > 0, replaces, deleteBeforeReplace: false, detailedDiff };
}

/**
 * The keys `up` writes or unbinds, each at its own path: a declared key missing from the server's last
 * report (add) or with another value there (update; an unknown value too), a key this resource declared
 * before and no longer declares that is still bound (delete: an input change), and in exclusive mode
 * every other direct key (delete).
 */
function tagChanges(state: Props, inputs: Props): PropertyChange[] {
  if (inputs.tags === UNKNOWN) return [{ path: "tags", kind: "update", replace: false }];
  const declared = tagsOf(inputs.tags);
  const live = tagsOf(state.tags);
  const direct = tagsOf(state.allDirectTags);
  const changes: PropertyChange[] = [];
  for (const [key, value] of Object.entries(declared)) {
    if (value !== UNKNOWN && live[key] === value) continue;
    const kind = value === UNKNOWN || Object.hasOwn(live, key) ? "update" : "add";
    changes.push({ path: childPath("tags", key), kind, replace: false });
  }
  const managed = managedKeysOf(state);
  for (const key of managed) {
    if (!Object.hasOwn(declared, key) && Object.hasOwn(direct, key)) changes.push({ path: childPath("tags", key), kind: "delete", replace: false, inputDiff: true });
  }
  if (inputs.exclusive === true) {
    for (const key of Object.keys(direct)) {
      if (!Object.hasOwn(declared, key) && !managed.includes(key)) changes.push({ path: childPath("tags", key), kind: "delete", replace: false });
    }
  }
  return changes;
}

/** `exclusive` is false when not declared; declaring it no more after true is an input change (delete). */
function exclusiveChanges(before: unknown, after: unknown): PropertyChange[] {
  if (after === UNKNOWN) return [{ path: "exclusive", kind: "update", replace: false }];
  if ((before === true) === (after === true)) return [];
  if (after === undefined) return [{ path: "exclusive", kind: "delete", replace: false, inputDiff: true }];
  return [{ path: "exclusive", kind: before === undefined ? "add" : "update", replace: false }];
}

// ---- create ---------------------------------------------------------------------------------

/**
 * Exclusive: one request (A5, answering with the effective bindings). Additive: C10 then C9 (2: C10
 * answers with the direct bindings only); with no tag declared, one read of the workspace.
 */
export async function create(inputs: Props): Promise<{ id: string; outs: WorkspaceTagBindingsOutputs }> {
  const declared = parseChecked(inputs);
  const client = sharedClient();
  const tags = await write(client, declared, async () => {
    if (declared.exclusive === true) return replaceDirectSet(client, declared.workspaceId, declared.tags);
    if (Object.keys(declared.tags).length === 0) return readLiveTags(client, declared.workspaceId);
    return addBindings(client, declared.workspaceId, declared.tags);
  });
  return { id: idOf(declared), outs: outputsOf(declared, tags) };
}

// ---- read -----------------------------------------------------------------------------------

/**
 * One request: the workspace, with its effective bindings (the direct ones are those inherited from
 * nowhere). The managed keys' live values become the inputs, so a managed key changed or removed
 * outside Pulumi shows in the next preview; an unmanaged key added outside does not (unless exclusive).
 */
export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: WorkspaceTagBindingsOutputs; inputs?: Props }> {
  const state = withoutProvider(props);
  const workspaceId = typeof state.workspaceId === "string" ? state.workspaceId : id.split(":")[0] ?? id;
  const client = sharedClient();
  const live = await readUnlessGone(client, "a workspace", () => readLiveTags(client, workspaceId), "refresh");
  if (live === undefined) return { id: "" }; // gone with its workspace
  const { direct, effective } = live;
  const managed = managedKeysOf(state);
  const exclusive = state.exclusive === true;
  const outs: WorkspaceTagBindingsOutputs = {
    workspaceId, tags: pick(direct, managed), exclusive, allDirectTags: direct, effectiveTags: effective, __managedKeys: managed,
  };
  // In check's form: what the program leaves out is there as check fills it in.
  return { id, props: outs, inputs: withFixedValues(WORKSPACE_TAG_BINDINGS_OMITTED, inputsOf(outs)) };
}

// ---- update ---------------------------------------------------------------------------------

/**
 * Exclusive: A5 with the declared set (1 request). Additive: C10 with the added and changed keys, then
 * C9 (2); when a managed key leaves the declaration: C8, then A5 with the current set minus the removed
 * keys plus the declared ones (2: A5 replaces the whole set, and C10 cannot remove). Nothing to write
 * (only `exclusive` turned off): no request, the last report stands.
 */
export async function update(_id: string, olds: Props, news: Props): Promise<{ outs: WorkspaceTagBindingsOutputs }> {
  const declared = parseChecked(news);
  const state = withoutProvider(olds);
  const client = sharedClient();
  const plan = planUpdate(state, declared);
  const tags = await write(client, declared, async () => {
    switch (plan.write) {
      case "whole set": return replaceDirectSet(client, declared.workspaceId, declared.tags);
      case "remove": {
        const current = mapOf(await client.listTagBindings(declared.workspaceId));
        for (const key of plan.removed) delete current[key];
        return replaceDirectSet(client, declared.workspaceId, { ...current, ...declared.tags });
      }
      case "add": return addBindings(client, declared.workspaceId, plan.changed);
      case "read": return readLiveTags(client, declared.workspaceId);
      case "nothing": return lastReported(state);
    }
  });
  return { outs: outputsOf(declared, tags) };
}

/** What an update writes: decided from the state and the declaration alone, so a preview can tell too. */
type UpdatePlan =
  | { write: "whole set" }
  | { write: "remove"; removed: string[] }
  | { write: "add"; changed: TagMap }
  | { write: "read" }
  | { write: "nothing" };

function planUpdate(state: Props, declared: WorkspaceTagBindingsInputs): UpdatePlan {
  if (declared.exclusive === true) return { write: "whole set" };
  const removed = managedKeysOf(state).filter((key) => !Object.hasOwn(declared.tags, key));
  if (removed.length > 0) return { write: "remove", removed };
  const live = tagsOf(state.tags);
  const changed = Object.entries(declared.tags).filter(([key, value]) => live[key] !== value);
  if (changed.length > 0) return { write: "add", changed: Object.fromEntries(changed) };
  return state.workspaceId === declared.workspaceId ? { write: "nothing" } : { write: "read" };
}

// ---- delete ---------------------------------------------------------------------------------

/**
 * One request (C8) when none of the managed keys is still bound; two (C8, then A5 with the current set
 * minus the managed keys) otherwise: the API removes a key only through A5, which replaces the whole
 * set, so the current set must be read first. Keys this resource never declared stay, in both modes.
 */
export async function remove(_id: string, props: Props): Promise<void> {
  const state = withoutProvider(props);
  const workspaceId = String(state.workspaceId ?? "");
  const managed = managedKeysOf(state);
  const client = sharedClient();
  try {
    const current = mapOf(await client.listTagBindings(workspaceId));
    if (!managed.some((key) => Object.hasOwn(current, key))) return;
    for (const key of managed) delete current[key];
    await client.updateWorkspace(workspaceId, { tagBindings: bindingsOf(current) });
  } catch (error) {
    if (error instanceof NotFoundError) {
      // Gone with its workspace, unless the workspace is there and only the token may not change it.
      const readable = await client.listTagBindings(workspaceId).then(() => true, () => false);
      if (!readable) return;
      throw new Error(permissionMessage(workspaceId, "removed"), { cause: error });
    }
    if (error instanceof ForbiddenError) throw new Error(permissionMessage(workspaceId, "removed"), { cause: error });
    throw withStaleSettingsHint(error, "destroy");
  }
}

// ---- preview (plugin route) -------------------------------------------------------------------

/**
 * No request. A create binds every declared key with its declared value (C10 or A5), so `tags` and
 * `__managedKeys` are known; exclusive, A5 makes the declared set the whole direct set, so `allDirectTags`
 * is known too. Additive, the other direct keys are the server's (another resource may bind some in the
 * same deployment), and `effectiveTags` holds the project's tags, which only the server knows.
 */
export async function previewCreate(news: Props): Promise<WorkspaceTagBindingsPreview> {
  return previewOfWrite(userInputs(news));
}

/**
 * No request. An update with nothing to write (only `exclusive` turned off) returns the last report:
 * every output is known, exactly as update computes it. Any other update writes, and its outputs are
 * those of a create with the same declaration: the managed keys as declared, the rest the server's.
 */
export async function previewUpdate(_id: string, olds: Props, news: Props): Promise<WorkspaceTagBindingsPreview> {
  const state = withoutProvider(olds);
  const inputs = userInputs(news);
  if (!isUnknown(inputs)) {
    const declared = parseChecked(inputs);
    if (planUpdate(state, declared).write === "nothing") return outputsOf(declared, lastReported(state));
  }
  return previewOfWrite(inputs);
}

function previewOfWrite(inputs: Props): WorkspaceTagBindingsPreview {
  const tags = inputs.tags === UNKNOWN ? UNKNOWN : tagsOf(inputs.tags);
  const { workspaceId, exclusive } = knownOutputs(KIND, UNKNOWN, inputs, "") as Pick<WorkspaceTagBindingsPreview, "workspaceId" | "exclusive">;
  return {
    workspaceId,
    tags,
    exclusive,
    allDirectTags: exclusive === true ? tags : UNKNOWN,
    effectiveTags: UNKNOWN,
    __managedKeys: tags === UNKNOWN ? UNKNOWN : Object.keys(tags).sort(),
  };
}

// ---- import (plugin route) --------------------------------------------------------------------

/** What an import id names (see the header comment for the forms). */
type ImportRequest =
  | { workspaceId: string; form: "every key"; exclusive: boolean }
  | { workspaceId: string; form: "keys"; keys: string[] }
  | { workspaceId: string; form: "create id"; id: string };

const IMPORT_FORMS = '"ws-…" (every direct tag, additive), "ws-…:exclusive" (every direct tag, exclusive), ' +
  '"ws-…/key1,key2" (those keys, additive) or "ws-…:<12 hex>" (the id create returned)';

/**
 * One request, as a refresh: the workspace with its effective bindings. Adopts the bindings the import
 * id names as a resource that created them would hold them; undefined when the workspace is gone or
 * the id names bindings it does not have.
 */
export async function importById(importId: string, _internal: Props): Promise<Imported<WorkspaceTagBindingsOutputs> | undefined> {
  const request = parseImportId(importId);
  const client = sharedClient();
  const live = await readUnlessGone(client, "a workspace", () => readLiveTags(client, request.workspaceId));
  if (live === undefined) return undefined;
  const declared = adoptedDeclaration(request, live.direct);
  if (declared === undefined) return undefined;
  const outs = outputsOf(declared, live);
  return { id: idOf(declared), props: outs, inputs: inputsOf(outs) };
}

function parseImportId(importId: string): ImportRequest {
  const match = /^(ws-[A-Za-z0-9]+)(?::(exclusive|[0-9a-f]{12})|\/(.+))?$/.exec(importId);
  const workspaceId = match?.[1];
  if (match === null || workspaceId === undefined) throw new Error(malformedImportId(importId, "it is none of the accepted forms"));
  const [, , suffix, keyList] = match;
  if (suffix === "exclusive") return { workspaceId, form: "every key", exclusive: true };
  if (suffix !== undefined) return { workspaceId, form: "create id", id: importId };
  if (keyList === undefined) return { workspaceId, form: "every key", exclusive: false };
  const keys = keyList.split(",");
  const problem = keys.map((key) => tagKeyProblem(key)).find((p) => p !== undefined);
  if (problem !== undefined) throw new Error(malformedImportId(importId, problem));
  if (new Set(keys).size !== keys.length) throw new Error(malformedImportId(importId, "it names a key twice"));
  return { workspaceId, form: "keys", keys };
}

function malformedImportId(importId: string, why: string): string {
  return `${KIND}: cannot import "${importId}": ${why}. Use ${IMPORT_FORMS}.`;
}

/** The declaration that reproduces what the import id names, given the workspace's direct tags. */
function adoptedDeclaration(request: ImportRequest, direct: TagMap): WorkspaceTagBindingsInputs | undefined {
  const { workspaceId } = request;
  switch (request.form) {
    case "every key":
      if (request.exclusive) return { workspaceId, tags: direct, exclusive: true };
      return Object.keys(direct).length === 0 ? undefined : { workspaceId, tags: direct };
    case "keys":
      if (!request.keys.every((key) => Object.hasOwn(direct, key))) return undefined;
      return { workspaceId, tags: pick(direct, request.keys) };
    case "create id":
      return createdDeclaration(request.id, workspaceId, direct);
  }
}

/**
 * The declaration a create gave `id` to: the id's digest is of the mode and the sorted keys, so it is
 * found by trying the direct keys (exclusive: all of them, as that mode owns the whole set; additive:
 * each non-empty subset, at most 2^10 with the service's limit of 10 direct tags).
 */
function createdDeclaration(id: string, workspaceId: string, direct: TagMap): WorkspaceTagBindingsInputs | undefined {
  const exclusive: WorkspaceTagBindingsInputs = { workspaceId, tags: direct, exclusive: true };
  if (idOf(exclusive) === id) return exclusive;
  const keys = Object.keys(direct).sort();
  if (keys.length > 16) {
    throw new Error(`${KIND}: cannot import "${id}": workspace "${workspaceId}" has ${keys.length} direct tags, too many to ` +
      `find which this id was created with. Use ${IMPORT_FORMS}.`);
  }
  for (let subset = 1; subset < 2 ** keys.length; subset++) {
    const chosen = keys.filter((_key, i) => (subset & (1 << i)) !== 0);
    const candidate: WorkspaceTagBindingsInputs = { workspaceId, tags: pick(direct, chosen) };
    if (idOf(candidate) === id) return candidate;
  }
  return undefined;
}

// ---- requests and errors ----------------------------------------------------------------------

/** The direct and effective bindings after a write, as the server reported them. */
type LiveTags = { direct: TagMap; effective: EffectiveTag[] };

/** A5 with the given set as the whole direct set; its answer carries the effective bindings. */
async function replaceDirectSet(client: WsbridgeClient, workspaceId: string, tags: TagMap): Promise<LiveTags> {
  const workspace = await client.updateWorkspace(workspaceId, { tagBindings: bindingsOf(tags) }, WITH_EFFECTIVE);
  // A server that ignored `include`: the set just written is the direct set, C9 adds the inherited ones.
  if (workspace.effectiveTagBindings === undefined) return { direct: { ...tags }, effective: await effectiveOf(client, workspaceId) };
  return liveTagsFrom(workspace.effectiveTagBindings);
}

/** C10 (answers with every direct binding), then C9: the only way to learn the project-inherited ones. */
async function addBindings(client: WsbridgeClient, workspaceId: string, tags: TagMap): Promise<LiveTags> {
  const direct = mapOf(await client.addTagBindings(workspaceId, bindingsOf(tags)));
  return { direct, effective: await effectiveOf(client, workspaceId) };
}

async function effectiveOf(client: WsbridgeClient, workspaceId: string): Promise<EffectiveTag[]> {
  const effective = await client.listEffectiveTagBindings(workspaceId);
  return effective.map(toEffectiveTag);
}

/** One read of the workspace with its effective bindings (C8 and C9 instead, from a server that ignores `include`). */
async function readLiveTags(client: WsbridgeClient, workspaceId: string): Promise<LiveTags> {
  const workspace = await client.readWorkspace(workspaceId, WITH_EFFECTIVE);
  if (workspace.effectiveTagBindings !== undefined) return liveTagsFrom(workspace.effectiveTagBindings);
  return { direct: mapOf(await client.listTagBindings(workspaceId)), effective: await effectiveOf(client, workspaceId) };
}

/** Direct and effective bindings from the effective ones: the direct ones are inherited from nowhere. */
function liveTagsFrom(bindings: readonly EffectiveTagBinding[]): LiveTags {
  const effective = bindings.map(toEffectiveTag);
  const direct = Object.fromEntries(effective.filter((b) => b.inheritedFrom === null).map((b) => [b.key, b.value]));
  return { direct, effective };
}

/** The bindings the last apply or refresh recorded. */
function lastReported(state: Props): LiveTags {
  const effective = Array.isArray(state.effectiveTags) ? state.effectiveTags as EffectiveTag[] : [];
  return { direct: tagsOf(state.allDirectTags), effective };
}

/** Runs a write; every refusal becomes a message naming the property at fault. */
async function write(client: WsbridgeClient, declared: WorkspaceTagBindingsInputs, action: () => Promise<LiveTags>): Promise<LiveTags> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ForbiddenError) throw new Error(permissionMessage(declared.workspaceId, "bound"), { cause: error });
    if (error instanceof ValidationError) {
      throw new Error(
        `${KIND} on workspace "${declared.workspaceId}": the service refused the tags (${error.detail ?? error.message}` +
          `${error.pointer ? ` at ${error.pointer}` : ""}). Check \`tags\` against the rules (at most ${MAX_DIRECT_TAG_BINDINGS} direct ` +
          "tags, including those bound by others). Nothing was changed.", { cause: error },
      );
    }
    if (!(error instanceof NotFoundError)) throw error;
    // 404: a missing workspace, or one the token may only read. One read tells them apart.
    const readable = await client.listTagBindings(declared.workspaceId).then(() => true, () => false);
    if (readable) throw new Error(permissionMessage(declared.workspaceId, "bound"), { cause: error });
    await assertServesTheApi(client);
    throw new Error(
      `${KIND}: workspaceId "${declared.workspaceId}" does not exist, or the token may not read it. Check the id ` +
        "(a Workspace resource's `id` or `workspaceId` output) and the token's access. Nothing was changed.", { cause: error },
    );
  }
}

function permissionMessage(workspaceId: string, action: "bound" | "removed"): string {
  return `${KIND} on workspace "${workspaceId}": the tags were not ${action} because the token may not manage the ` +
    "workspace's tags (it needs admin access on the workspace, the organization's \"manage-workspaces\" access, an " +
    "organization token, or an owner). Use such a token (wsbridge:token), or ask an owner to grant the access.";
}


// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): WorkspaceTagBindingsInputs {
  return workspaceTagBindingsInputsSchema.parse(userInputs(props));
}

/** `${workspaceId}:${12 hex of sha256 of the sorted declared keys}`: distinct per additive resource on a workspace. */
function idOf(declared: WorkspaceTagBindingsInputs): string {
  const keys = Object.keys(declared.tags).sort().join("\n");
  const digest = createHash("sha256").update(`${declared.exclusive === true ? "exclusive" : "additive"}\n${keys}`).digest("hex");
  return `${declared.workspaceId}:${digest.slice(0, 12)}`;
}

function outputsOf(declared: WorkspaceTagBindingsInputs, { direct, effective }: LiveTags): WorkspaceTagBindingsOutputs {
  const managed = Object.keys(declared.tags).sort();
  return {
    workspaceId: declared.workspaceId, tags: pick(direct, managed), exclusive: declared.exclusive === true,
    allDirectTags: direct, effectiveTags: effective, __managedKeys: managed,
  };
}

/** The inputs that reproduce `outs`: what refresh and import report as declared. */
function inputsOf(outs: WorkspaceTagBindingsOutputs): Props {
  return { workspaceId: outs.workspaceId, tags: outs.tags, ...(outs.exclusive && { exclusive: true }) };
}

function toEffectiveTag(b: EffectiveTagBinding): EffectiveTag {
  return { key: b.key, value: b.value, inheritedFrom: b.inheritedFrom === null ? null : (b.inheritedFrom.id ?? b.inheritedFrom.link) };
}

function bindingsOf(tags: TagMap): TagBindingInput[] {
  return Object.entries(tags).map(([key, value]) => ({ key, value }));
}

function mapOf(bindings: TagBinding[]): TagMap {
  return Object.fromEntries(bindings.map((b) => [b.key, b.value]));
}

function pick(tags: TagMap, keys: string[]): TagMap {
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(tags, key)).map((key) => [key, tags[key] as string]));
}

function tagsOf(value: unknown): TagMap {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

function managedKeysOf(state: Props): string[] {
  const keys = state.__managedKeys;
  if (Array.isArray(keys)) return keys.filter((k): k is string => typeof k === "string");
  return Object.keys(tagsOf(state.tags));
}

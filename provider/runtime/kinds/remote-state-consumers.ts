// RemoteStateConsumers lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// The resource is a set of consumers of one workspace's state (C1–C4). Additive mode (default) adds
// the declared consumers (C2) and removes only those it declared and no longer declares (C4), so
// several instances on one workspace coexist; its id is `<workspaceId>:<12 hex of the owner marker>`.
// Exclusive mode replaces the whole list (C3). Consumer lists are sorted in check, so order is never
// a change.
//
// Import ids (`pulumi import wsbridge:index:RemoteStateConsumers <name> <id>`), one listing of the consumers each;
// the resource's id is then `<workspaceId>:<12 hex of the importing resource's owner marker>`, as its create would give:
//   ws-…                every consumer listed, additive (a workspace without consumers has nothing to adopt)
//   ws-…:exclusive      the whole list, exclusive (even an empty one)
//   ws-…/ws-a,ws-b      those consumers, additive (each must be listed)
//   ws-…:<12 hex>       an id create returned: every consumer listed, additive (the suffix names its creator, not its consumers)
import { RULES, brokenCheck } from "../../schemas/rules";
import { createHash, randomUUID } from "node:crypto";
import { withFixedValues } from "../../schemas/omission";
import { REMOTE_STATE_CONSUMERS_OMITTED, remoteStateConsumersInputsSchema, type RemoteStateConsumersInputs } from "../../schemas/remote-state-consumers";
import { NotFoundError, ValidationError, type WsbridgeClient } from "../api";
import { settingsProblem, sharedClient } from "../config";
import {
  UNKNOWN, isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, type CheckFailure, type Adoption, type CheckOutcome,
  type DiffOutcome, type Imported, type PropertyChange, type Props,
} from "../lifecycle";
import { childPath } from "../property-paths";
import { assertServesTheApi, readUnlessGone } from "../serves-the-api";

const KIND = "RemoteStateConsumers";

/** Everything a RemoteStateConsumers exposes. A type alias so outputs pass where plain property maps are expected. */
export type RemoteStateConsumersOutputs = {
  workspaceId: string;
  /** The managed consumers (sorted): declared ones the server lists; in exclusive mode, the whole list. */
  consumerIds: string[];
  /** Every consumer the server lists (sorted), managed or not. */
  allConsumerIds: string[];
  exclusive: boolean;
  /** The owner marker the class sent (project/stack/name), kept so refresh returns the same inputs. */
  __owner?: string;
};

/** The outputs a preview promises: each one known, or {@link UNKNOWN} where only the apply will tell. */
export type RemoteStateConsumersPreview = { [K in keyof RemoteStateConsumersOutputs]: RemoteStateConsumersOutputs[K] | typeof UNKNOWN };

// ---- check ----------------------------------------------------------------------------------

export async function check(olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const raw = userInputs(news);
  const outcome = validate(remoteStateConsumersInputsSchema, raw, KIND);
  const failures: CheckFailure[] = [...outcome.failures, ...entryFailures(raw)];
  // What the program leaves out is filled in (REMOTE_STATE_CONSUMERS_OMITTED), so the state's inputs say it.
  const inputs: Props = withFixedValues(REMOTE_STATE_CONSUMERS_OMITTED, { ...withoutProvider(news) });
  if (Array.isArray(raw.consumerIds)) inputs.consumerIds = [...raw.consumerIds].sort(byId);
  // The workspace's sharing is checked on create and when the declaration changes: an unchanged one was
  // accepted when it was applied, so a preview with nothing changed sends nothing.
  if (failures.length === 0 && !isUnknown(raw.workspaceId) && typeof raw.workspaceId === "string" && !sameDeclaration(olds, inputs)) {
    const shared = await sharesState(raw.workspaceId);
    if (shared !== undefined) failures.push({ property: "workspaceId", reason: shared });
  }
  return { inputs, failures };
}

/**
 * Per-entry rules the schema cannot say (and the pattern of known entries of a list that still holds
 * unknown ones, which validate() leaves for later): the workspace itself, and repeats.
 */
function entryFailures(raw: Props): CheckFailure[] {
  const list = raw.consumerIds;
  if (!Array.isArray(list) || !isUnknown(list) && !list.every((v) => typeof v === "string")) return [];
  const failures: CheckFailure[] = [];
  const seen = new Map<string, number>();
  list.forEach((entry: unknown, index) => {
    if (isUnknown(entry) || typeof entry !== "string") return;
    const property = `consumerIds[${index}]`;
    if (isUnknown(list) && brokenCheck(RULES.workspaceId, entry) !== undefined) {
      failures.push({ property, reason: 'must be a workspace id ("ws-…")' });
      return;
    }
    if (entry === raw.workspaceId) {
      failures.push({ property, reason: `is "${entry}", the workspace itself (workspaceId): a workspace cannot consume its own state; remove the entry` });
      return;
    }
    const first = seen.get(entry);
    if (first !== undefined) {
      failures.push({ property, reason: `repeats consumerIds[${first}] ("${entry}"): list each consumer once` });
      return;
    }
    seen.set(entry, index);
  });
  return failures;
}

/**
 * One read-only GET of an existing workspace: consumers apply only while `global-remote-state` and
 * `project-remote-state` are false, so a workspace shared with the whole organization or with its
 * project fails the preview. A workspace that cannot be read now is left for create to report.
 */
async function sharesState(workspaceId: string): Promise<string | undefined> {
  try {
    const workspace = await sharedClient().readWorkspace(workspaceId);
    if (workspace.globalRemoteState) {
      return `workspace "${workspaceId}" has global-remote-state true: every workspace of the organization may read its ` +
        "state, and the service refuses consumer lists then. Set globalRemoteState: false on the workspace, or remove this resource";
    }
    if (workspace.projectRemoteState === true) {
      return `workspace "${workspaceId}" has project-remote-state true: every workspace of its project may read its ` +
        "state, and the service refuses consumer lists then. Set projectRemoteState: false on the workspace, or remove this resource";
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** The same workspace, consumers (as a set) and mode as the last applied inputs (the engine passes those as `olds`). */
function sameDeclaration(olds: Props, news: Props): boolean {
  const before = userInputs(olds);
  const after = userInputs(news);
  return before.workspaceId === after.workspaceId && (before.exclusive === true) === (after.exclusive === true) &&
    Array.isArray(before.consumerIds) && sameSet(before.consumerIds, after.consumerIds);
}

const byId = (a: unknown, b: unknown): number => String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;

// ---- diff -----------------------------------------------------------------------------------

/**
 * No request. Each change is a path: `workspaceId` (replaces), each consumer added at its index in the
 * new list and each one removed at its index in the old one (`consumerIds[1]`), `exclusive`.
 */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const replaces = isUnknown(news.workspaceId) || olds.workspaceId !== news.workspaceId ? ["workspaceId"] : [];
  const detailedDiff: PropertyChange[] = [
    ...replaces.map((path) => ({ path, kind: "update" as const, replace: true })),
    ...consumerChanges(olds.consumerIds, news.consumerIds),
    ...exclusiveChanges(olds.exclusive, news.exclusive),
  ];
  return { changes: detailedDiff.length > 0, replaces, deleteBeforeReplace: false, detailedDiff };
}

/**
 * The list is a set: a consumer added is an add at its index in the declared list, one dropped a delete
 * at its index in the server's last report, and an entry not known yet an update at its own index. An
 * add and a delete at the same index are one update there (the engine keys the changes by path).
 */
function consumerChanges(before: unknown, after: unknown): PropertyChange[] {
  if (after === UNKNOWN) return [{ path: "consumerIds", kind: "update", replace: false }];
  const old = Array.isArray(before) ? before.map(String) : [];
  const declared = Array.isArray(after) ? after : [];
  const had = new Set(old);
  const has = new Set(declared.map(String));
  const byIndex = new Map<number, PropertyChange["kind"]>();
  declared.forEach((entry: unknown, index) => {
    if (entry === UNKNOWN) byIndex.set(index, "update");
    else if (!had.has(String(entry))) byIndex.set(index, "add");
  });
  old.forEach((entry, index) => {
    if (has.has(entry)) return;
    byIndex.set(index, byIndex.has(index) ? "update" : "delete");
  });
  return [...byIndex].sort(([a], [b]) => a - b).map(([index, kind]) => ({ path: childPath("consumerIds", index), kind, replace: false }));
}

/** `exclusive` is false when not declared; declaring it no more after true is an input change (delete). */
function exclusiveChanges(before: unknown, after: unknown): PropertyChange[] {
  if (after === UNKNOWN) return [{ path: "exclusive", kind: "update", replace: false }];
  if ((before === true) === (after === true)) return [];
  if (after === undefined) return [{ path: "exclusive", kind: "delete", replace: false, inputDiff: true }];
  return [{ path: "exclusive", kind: before === undefined ? "add" : "update", replace: false }];
}

function sameSet(before: unknown, after: unknown): boolean {
  const a = Array.isArray(before) ? [...new Set(before.map(String))].sort() : [];
  const b = Array.isArray(after) ? [...new Set(after.map(String))].sort() : [];
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

// ---- create ---------------------------------------------------------------------------------

/**
 * Additive: C2 then C1 (2 requests; C1 one more per 100 consumers): C2 answers 204 with no body, and
 * `allConsumerIds` is the server's whole list, which only C1 tells. Exclusive: C3 (1 request), whose
 * list is the whole list.
 */
export async function create(inputs: Props): Promise<{ id: string; outs: RemoteStateConsumersOutputs }> {
  const declared = parseChecked(inputs);
  const client = sharedClient();
  const owner = withoutProvider(inputs).__owner;
  const outs = await apply(client, declared, []);
  return { id: idOf(declared.workspaceId, owner), outs: withOwner(outs, owner) };
}

/** `<workspaceId>:<12 hex of the owner marker>`; without a marker, of a random value (no two alike). */
function idOf(workspaceId: string, owner: unknown): string {
  const suffix = createHash("sha256").update(typeof owner === "string" ? owner : randomUUID()).digest("hex").slice(0, 12);
  return `${workspaceId}:${suffix}`;
}

// ---- read -----------------------------------------------------------------------------------

/**
 * C1, every page (one request per 100 consumers). A managed consumer removed outside Pulumi drops out
 * of `consumerIds` (the next preview adds it back); one added outside shows only in `allConsumerIds`,
 * unless exclusive, where it shows in `consumerIds` too (the next preview removes it).
 */
export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: RemoteStateConsumersOutputs; inputs?: Props }> {
  const state = withoutProvider(props);
  const workspaceId = typeof state.workspaceId === "string" ? state.workspaceId : id.split(":")[0] ?? id;
  const client = sharedClient();
  const live = await readUnlessGone(client, "a workspace", () => listAll(client, workspaceId), "refresh");
  if (live === undefined) return { id: "" };
  const exclusive = state.exclusive === true;
  const managed = Array.isArray(state.consumerIds) ? state.consumerIds.map(String) : [];
  const outs = withOwner(outputsOf(workspaceId, exclusive ? live : managed.filter((c) => live.includes(c)), live, exclusive), state.__owner);
  // In check's form: what the program leaves out is there as check fills it in.
  return { id, props: outs, inputs: withFixedValues(REMOTE_STATE_CONSUMERS_OMITTED, inputsOf(outs)) };
}

/** The inputs that reproduce `outs`: what refresh and import report as declared (with the owner marker, the class's). */
function inputsOf(outs: RemoteStateConsumersOutputs): Props {
  return {
    workspaceId: outs.workspaceId, consumerIds: outs.consumerIds, ...(outs.exclusive && { exclusive: true }),
    ...(outs.__owner !== undefined && { __owner: outs.__owner }),
  };
}

// ---- update ---------------------------------------------------------------------------------

/**
 * Additive: C2 for the new, C4 for the dropped, then C1 (each write only when needed; no endpoint adds
 * and removes in one call except C3, which would replace consumers others added). Exclusive: C3.
 */
export async function update(_id: string, olds: Props, news: Props): Promise<{ outs: RemoteStateConsumersOutputs }> {
  const before = withoutProvider(olds);
  const managedBefore = Array.isArray(before.consumerIds) ? before.consumerIds.map(String) : [];
  return { outs: withOwner(await apply(sharedClient(), parseChecked(news), managedBefore), withoutProvider(news).__owner ?? before.__owner) };
}

async function apply(client: WsbridgeClient, declared: RemoteStateConsumersInputs, managedBefore: string[]): Promise<RemoteStateConsumersOutputs> {
  const wanted = [...declared.consumerIds].sort(byId);
  if (declared.exclusive === true) {
    await write(client, "replace", declared.workspaceId, wanted, declared.consumerIds);
    return outputsOf(declared.workspaceId, wanted, wanted, true);
  }
  const adding = wanted.filter((c) => !managedBefore.includes(c));
  const dropping = managedBefore.filter((c) => !wanted.includes(c));
  await write(client, "add", declared.workspaceId, adding, declared.consumerIds);
  await write(client, "remove", declared.workspaceId, dropping, managedBefore);
  const live = await listAll(client, declared.workspaceId);
  return outputsOf(declared.workspaceId, wanted.filter((c) => live.includes(c)), live, false);
}

// ---- delete ---------------------------------------------------------------------------------

/**
 * C4 with the managed consumers (1 request; none when there are none). Consumers added outside
 * Pulumi stay. A consumer deleted since is skipped: the server refuses unknown ids, so then one C1
 * finds those still listed and C4 removes them.
 */
export async function remove(_id: string, props: Props): Promise<void> {
  const state = withoutProvider(props);
  const workspaceId = String(state.workspaceId);
  const managed = Array.isArray(state.consumerIds) ? state.consumerIds.map(String) : [];
  if (managed.length === 0) return;
  const client = sharedClient();
  try {
    await client.removeRemoteStateConsumers(workspaceId, managed);
  } catch (error) {
    if (error instanceof NotFoundError) {
      if (await workspaceGone(client, workspaceId)) return;
      throw new Error(permissionMessage(workspaceId, "remove"));
    }
    if (!(error instanceof ValidationError)) throw withStaleSettingsHint(error, "destroy");
    const live = await listAll(client, workspaceId);
    const still = managed.filter((c) => live.includes(c));
    if (still.length > 0) await client.removeRemoteStateConsumers(workspaceId, still);
  }
}

// ---- preview (plugin route) -------------------------------------------------------------------

/**
 * No request. Create and update end with exactly the declared consumers managed (added, or already
 * there), so `consumerIds` is the declared list, sorted; exclusive, C3 makes it the whole list, so
 * `allConsumerIds` is known too. Additive, the whole list is the server's: others (another resource on
 * the same workspace, in the same deployment too) add and remove theirs.
 */
export async function previewCreate(news: Props): Promise<RemoteStateConsumersPreview> {
  const inputs = withoutProvider(news);
  return withOwner(previewOf(inputs), inputs.__owner);
}

/** No request. As {@link previewCreate}; the owner marker is the new one, else the old one, as update keeps it. */
export async function previewUpdate(_id: string, olds: Props, news: Props): Promise<RemoteStateConsumersPreview> {
  const inputs = withoutProvider(news);
  return withOwner(previewOf(inputs), inputs.__owner ?? withoutProvider(olds).__owner);
}

function previewOf(inputs: Props): RemoteStateConsumersPreview {
  // An entry not known yet may sort anywhere: the whole list is unknown then.
  const consumerIds = Array.isArray(inputs.consumerIds) && !isUnknown(inputs.consumerIds)
    ? inputs.consumerIds.map(String).sort(byId) : UNKNOWN;
  const exclusive = inputs.exclusive === UNKNOWN ? UNKNOWN : inputs.exclusive === true;
  return {
    workspaceId: typeof inputs.workspaceId === "string" ? inputs.workspaceId : UNKNOWN,
    consumerIds,
    allConsumerIds: exclusive === true ? consumerIds : UNKNOWN,
    exclusive,
  };
}

// ---- import (plugin route) --------------------------------------------------------------------

/** What an import id names (see the header comment for the forms). */
type ImportRequest = { workspaceId: string; exclusive: boolean; consumers?: string[] };

const IMPORT_FORMS = '"ws-…" (every consumer, additive), "ws-…:exclusive" (the whole list, exclusive), ' +
  '"ws-…/ws-a,ws-b" (those consumers, additive) or "ws-…:<12 hex>" (an id create returned)';

/**
 * As many requests as a refresh: the consumer list, every page. Adopts the consumers the import id
 * names as a resource that added them would hold them, under the id its create would give (from
 * `internal.__owner`); undefined when the workspace is gone or the id names consumers it does not list.
 */
export async function importById(importId: string, internal: Props): Promise<Imported<RemoteStateConsumersOutputs> | undefined> {
  const request = parseImportId(importId);
  const client = sharedClient();
  const live = await readUnlessGone(client, "a workspace", () => listAll(client, request.workspaceId));
  if (live === undefined) return undefined;
  const managed = request.consumers ?? live;
  if (!managed.every((c) => live.includes(c))) return undefined;
  if (managed.length === 0 && !request.exclusive) return undefined; // an additive resource with no consumer adopts nothing
  const owner = internal.__owner;
  const outs = withOwner(outputsOf(request.workspaceId, managed, live, request.exclusive), owner);
  return { id: idOf(request.workspaceId, owner), props: outs, inputs: inputsOf(outs) };
}

/**
 * What an import adopts of a workspace's consumers, additively: those named (the consumers an
 * adoption can declare); none is nothing (undefined). The import id names them, so a consumer added
 * between the listing and the import is not adopted unseen.
 */
export function adoptionOf(workspaceId: string, consumerIds: readonly string[]): Adoption | undefined {
  if (consumerIds.length === 0) return undefined;
  const sorted = [...consumerIds].sort(byId);
  return { importId: `${workspaceId}/${sorted.join(",")}`, inputs: { workspaceId, consumerIds: sorted } };
}

function parseImportId(importId: string): ImportRequest {
  const match = /^(ws-[A-Za-z0-9]+)(?::(exclusive|[0-9a-f]{12})|\/(.+))?$/.exec(importId);
  const workspaceId = match?.[1];
  if (match === null || workspaceId === undefined) throw new Error(malformedImportId(importId, "it is none of the accepted forms"));
  const [, , suffix, list] = match;
  if (list === undefined) return { workspaceId, exclusive: suffix === "exclusive" };
  const consumers = list.split(",");
  const bad = consumers.find((c) => brokenCheck(RULES.workspaceId, c) !== undefined);
  if (bad !== undefined) throw new Error(malformedImportId(importId, `"${bad}" is not a workspace id ("ws-…")`));
  if (consumers.includes(workspaceId)) throw new Error(malformedImportId(importId, "a workspace cannot consume its own state"));
  if (new Set(consumers).size !== consumers.length) throw new Error(malformedImportId(importId, "it names a consumer twice"));
  return { workspaceId, exclusive: false, consumers };
}

function malformedImportId(importId: string, why: string): string {
  return `${KIND}: cannot import "${importId}": ${why}. Use ${IMPORT_FORMS}.`;
}

// ---- requests and errors ----------------------------------------------------------------------

type Write = "add" | "remove" | "replace";

/** One write; a refusal becomes a message naming the entry (`consumerIds[i]`) or the permission. */
async function write(client: WsbridgeClient, action: Write, workspaceId: string, ids: string[], declaredOrder: string[]): Promise<void> {
  if (ids.length === 0 && action !== "replace") return;
  try {
    if (action === "add") await client.addRemoteStateConsumers(workspaceId, ids);
    else if (action === "remove") await client.removeRemoteStateConsumers(workspaceId, ids);
    else await client.replaceRemoteStateConsumers(workspaceId, ids);
  } catch (error) {
    if (error instanceof ValidationError) throw new Error(refusalMessage(error, workspaceId, ids, declaredOrder));
    if (error instanceof NotFoundError) {
      if (await workspaceGone(client, workspaceId)) {
        throw new Error(
          `${KIND}: workspaceId "${workspaceId}" does not exist, or the token may not read it. Check the id (a ` +
            "Workspace resource's `id` output) and the token's access. Nothing was changed.",
        );
      }
      throw new Error(permissionMessage(workspaceId, action));
    }
    throw error;
  }
}

function refusalMessage(error: ValidationError, workspaceId: string, sent: string[], declaredOrder: string[]): string {
  const detail = error.detail ?? error.message;
  const entry = /^\/data\/(\d+)/.exec(error.pointer ?? "");
  const consumer = entry ? sent[Number(entry[1])] : undefined;
  if (consumer !== undefined) {
    const index = declaredOrder.indexOf(consumer);
    return `${KIND} on workspace "${workspaceId}": consumerIds[${index}] "${consumer}" was refused (${detail}): no such ` +
      "workspace in the organization, or the token may not read it. Use the id of a workspace the token can read. " +
      "Nothing was changed.";
  }
  return `${KIND} on workspace "${workspaceId}": the consumer list was refused (${detail}). If the workspace shares its ` +
    "state globally (globalRemoteState: true) or with its project (projectRemoteState: true), consumers cannot be set: turn that off first. Nothing was changed.";
}

async function workspaceGone(client: WsbridgeClient, workspaceId: string): Promise<boolean> {
  try {
    await client.readWorkspace(workspaceId);
    return false;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await assertServesTheApi(client);
    return true;
  }
}

function permissionMessage(workspaceId: string, action: Write): string {
  if (action === "replace") {
    return `${KIND} on workspace "${workspaceId}": exclusive: true replaces the whole consumer list, which needs a token ` +
      'whose team may "manage all workspaces" of the organization (or an owner or organization token); this token ' +
      "may not. A team with admin access on this workspace only must use the additive mode: remove `exclusive` " +
      "(or set it to false). Nothing was changed.";
  }
  return `${KIND} on workspace "${workspaceId}": the consumers were not ${action === "add" ? "added" : "removed"} because ` +
    "the token may not change the workspace's settings: it needs admin access on the workspace (a team with admin " +
    "access to it or \"manage all workspaces\", an organization token, or an owner). Nothing was changed.";
}

async function listAll(client: WsbridgeClient, workspaceId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const workspace of client.listRemoteStateConsumers(workspaceId)) ids.push(workspace.id);
  return ids.sort(byId);
}


// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): RemoteStateConsumersInputs {
  return remoteStateConsumersInputsSchema.parse(userInputs(props));
}

function withOwner<O extends RemoteStateConsumersPreview>(outs: O, owner: unknown): O {
  return typeof owner === "string" ? { ...outs, __owner: owner } : outs;
}

function outputsOf(workspaceId: string, managed: string[], all: string[], exclusive: boolean): RemoteStateConsumersOutputs {
  return { workspaceId, consumerIds: [...managed].sort(byId), allConsumerIds: [...all].sort(byId), exclusive };
}

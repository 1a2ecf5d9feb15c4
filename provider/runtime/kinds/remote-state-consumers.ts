// RemoteStateConsumers lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// The resource is a set of consumers of one workspace's state (C1–C4). Additive mode (default) adds
// the declared consumers (C2) and removes only those it declared and no longer declares (C4), so
// several instances on one workspace coexist; its id is `<workspaceId>:<12 hex of the owner marker>`.
// Exclusive mode replaces the whole list (C3). Consumer lists are sorted in check, so order is never
// a change.
import { createHash, randomUUID } from "node:crypto";
import { remoteStateConsumersInputsSchema, type RemoteStateConsumersInputs } from "../../schemas/remote-state-consumers";
import { NotFoundError, ValidationError, type WsbridgeClient } from "../api";
import { settingsProblem, sharedClient } from "../config";
import {
  isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, type CheckFailure, type CheckOutcome,
  type DiffOutcome, type Props,
} from "../lifecycle";
import { assertServesTheApi } from "../serves-the-api";

const KIND = "RemoteStateConsumers";
const WORKSPACE_ID = /^ws-[A-Za-z0-9]+$/;

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

// ---- check ----------------------------------------------------------------------------------

export async function check(olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const raw = userInputs(news);
  const outcome = validate(remoteStateConsumersInputsSchema, raw, KIND);
  const failures: CheckFailure[] = [...outcome.failures, ...entryFailures(raw)];
  const inputs: Props = { ...withoutProvider(news) };
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
    if (isUnknown(list) && !WORKSPACE_ID.test(entry)) {
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

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const replaces = isUnknown(news.workspaceId) || olds.workspaceId !== news.workspaceId ? ["workspaceId"] : [];
  const updates: string[] = [];
  if (isUnknown(news.consumerIds) || !sameSet(olds.consumerIds, news.consumerIds)) updates.push("consumerIds");
  if (isUnknown(news.exclusive) || (olds.exclusive === true) !== (news.exclusive === true)) updates.push("exclusive");
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: false };
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
  const suffix = createHash("sha256").update(typeof owner === "string" ? owner : randomUUID()).digest("hex").slice(0, 12);
  const outs = await apply(client, declared, []);
  return { id: `${declared.workspaceId}:${suffix}`, outs: withOwner(outs, owner) };
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
  let live: string[];
  try {
    live = await listAll(client, workspaceId);
  } catch (error) {
    if (error instanceof NotFoundError) {
      await assertServesTheApi(client, ", so a workspace not found there is not known to be gone");
      return { id: "" };
    }
    throw withStaleSettingsHint(error, "refresh");
  }
  const exclusive = state.exclusive === true;
  const managed = Array.isArray(state.consumerIds) ? state.consumerIds.map(String) : [];
  const outs = withOwner(outputsOf(workspaceId, exclusive ? live : managed.filter((c) => live.includes(c)), live, exclusive), state.__owner);
  const inputs: Props = {
    workspaceId, consumerIds: outs.consumerIds, ...(exclusive && { exclusive: true }),
    ...(outs.__owner !== undefined && { __owner: outs.__owner }),
  };
  return { id, props: outs, inputs };
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

function withOwner(outs: RemoteStateConsumersOutputs, owner: unknown): RemoteStateConsumersOutputs {
  return typeof owner === "string" ? { ...outs, __owner: owner } : outs;
}

function outputsOf(workspaceId: string, managed: string[], all: string[], exclusive: boolean): RemoteStateConsumersOutputs {
  return { workspaceId, consumerIds: [...managed].sort(byId), allConsumerIds: [...all].sort(byId), exclusive };
}

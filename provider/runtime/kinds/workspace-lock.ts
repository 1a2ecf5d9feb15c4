// WorkspaceLock lifecycle: check, diff, create, read, update, delete; for the provider plugin, the outputs
// a create or an update will have (previewCreate, previewUpdate) and import.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// The resource is the lock of one workspace (B1–B3), so its id is the workspace id. The outputs record
// both the lock the server reports (`locked`, `lockedReason`, `lockedById`, `lockedByKind`) and who took
// this resource's lock (`__takenBy`): a lock is "this resource's" only while the same identity holds
// it with this resource's reason. Destroy releases only such a lock; refresh reports any other one
// without adopting it. The lock POST is not idempotent, so it is never repeated blindly: a create
// reads the workspace first, and an unknown outcome is resolved by reading it again.
//
// Import ids (`pulumi import wsbridge:index:WorkspaceLock <name> <id>`), of a workspace locked by a user or a team:
//   ws-<id>                            the workspace id (the resource id)
//   <organization>/<workspace name>    the workspace by name
import { knownOutputs } from "../known-outputs";
import { withFixedValues } from "../../schemas/omission";
import { WORKSPACE_LOCK_OMITTED, workspaceLockInputsSchema, type WorkspaceLockInputs } from "../../schemas/workspace-lock";
import {
  ConflictError, NotFoundError, OutcomeUnknownError, ServerError, type LockHolder, type Workspace, type WsbridgeClient,
} from "../api";
import { settingsProblem, sharedClient } from "../config";
import {
  isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, UNKNOWN,
  type Adoption, type CheckOutcome, type DiffOutcome, type Imported, type Props, type PropertyChange,
} from "../lifecycle";
import { noteForTheUser } from "../engine-log";
import { pathsOfChange } from "../property-paths";
import { parseWorkspaceImportId, readWorkspaceForImport } from "../import-ids";
import { readWorkspaceForRefresh } from "../serves-the-api";

const KIND = "WorkspaceLock";
const OPTIONAL_INPUTS = ["reason", "forceUnlockOnDestroy"] as const;
const LOCK_PERMISSION = 'the "Lock/unlock" permission on the workspace (a team with write or admin access, or custom ' +
  "access with workspace locking; an organization token can never lock)";

/** Who holds a lock, as `locked-by` says: a user, a team or a run. */
export type LockHolderKind = "users" | "teams" | "runs";

/** Everything a WorkspaceLock exposes. A type alias so outputs pass where plain property maps are expected. */
export type WorkspaceLockOutputs = {
  workspaceId: string;
  /** The declared reason (`""` when none): the reason this resource locks with. */
  reason: string;
  forceUnlockOnDestroy: boolean;
  /** Whether the workspace is locked (by anyone), as last read. */
  locked: boolean;
  /** The reason of the lock the workspace holds now, or null when unlocked. */
  lockedReason: string | null;
  /** Who holds the workspace's lock now (`user-…`, `team-…`, `run-…`), or null. */
  lockedById: string | null;
  /** `users`, `teams` or `runs`, or null. */
  lockedByKind: string | null;
  /** True while the workspace's lock is the one this resource took; false after a refresh found another holder. */
  heldByThisResource: boolean;
  /** The identity that took this resource's lock (from the lock's answer); null if the server did not say. */
  __takenBy: LockHolder | null;
  /** Which optional inputs the program declared: refresh returns exactly these as inputs. */
  __declaredInputs: string[];
};

/** The outputs a preview announces: each known value, or UNKNOWN where only the apply will tell. */
export type WorkspaceLockPreview = { [K in keyof WorkspaceLockOutputs]: WorkspaceLockOutputs[K] | typeof UNKNOWN };

// ---- check ----------------------------------------------------------------------------------

export async function check(_olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  // No request: whether the workspace can be locked is the server's to say, at `up` (see create).
  // What the program leaves out is filled in (WORKSPACE_LOCK_OMITTED), so the state's inputs say it.
  return validate(workspaceLockInputsSchema, withFixedValues(WORKSPACE_LOCK_OMITTED, userInputs(news)), KIND);
}

// ---- diff -----------------------------------------------------------------------------------

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const changes: PropertyChange[] = [];
  // Another workspace is another lock.
  if (isUnknown(news.workspaceId) || olds.workspaceId !== news.workspaceId) {
    changes.push(...changeAt("workspaceId", olds.workspaceId, news.workspaceId, true));
  }
  // The service cannot change a held lock's reason: unlock, then lock again.
  if (isUnknown(news.reason) || reasonOf(olds.reason) !== reasonOf(news.reason)) {
    changes.push(...changeAt("reason", olds.reason, news.reason, true));
  }
  // A refresh found the lock released and taken by someone else: `up` tries to lock again (and fails,
  // naming the holder, while they hold it). Never an adoption of their lock.
  if (olds.heldByThisResource === false && changes.length === 0) {
    changes.push({ path: "locked", kind: "update", replace: true });
  }
  if (isUnknown(news.forceUnlockOnDestroy) || (olds.forceUnlockOnDestroy === true) !== (news.forceUnlockOnDestroy === true)) {
    changes.push(...changeAt("forceUnlockOnDestroy", olds.forceUnlockOnDestroy, news.forceUnlockOnDestroy, false));
  }
  // Every path here is a top-level property.
  const replaces = changes.filter((c) => c.replace).map((c) => c.path);
  // One workspace has one lock: the old one must go before the new one can be taken.
  return { changes: changes.length > 0, replaces, deleteBeforeReplace: replaces.length > 0, detailedDiff: changes };
}

/**
 * Where a property the diff judged changed changes: an unknown value at its own path; a property the
 * program stopped declaring as a change of the inputs (the state holds its normalized value).
 */
function changeAt(path: string, before: unknown, after: unknown, replace: boolean): PropertyChange[] {
  if (isUnknown(after)) return [{ path, kind: "update", replace }];
  return pathsOfChange(path, before ?? undefined, after, { replace, inputDiff: after === undefined });
}

function reasonOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}

// ---- create ---------------------------------------------------------------------------------

/**
 * Two requests: a read (is it locked, and may this token lock?), then the lock. The read lets a
 * refusal name the holder or the missing permission without a write, and makes an unknown outcome
 * of the lock decidable: the workspace was unlocked just before, so a lock with this reason found
 * right after is this request's.
 */
export async function create(inputs: Props): Promise<{ id: string; outs: WorkspaceLockOutputs }> {
  const declared = parseChecked(inputs);
  const client = sharedClient();
  const id = declared.workspaceId;
  const reason = declared.reason ?? "";
  const before = await readForLock(client, id);
  if (before.locked) throw new Error(lockedByOtherMessage(before, reason));
  if (before.permissions.canLock === false) {
    throw new Error(`${KIND} ${id}: the token may not lock this workspace: it needs ${LOCK_PERMISSION}. Nothing was changed.`);
  }
  let workspace: Workspace;
  try {
    workspace = await client.lockWorkspace(id, reason === "" ? undefined : reason);
  } catch (error) {
    workspace = await resolveFailedLock(client, id, reason, error);
  }
  return { id: workspace.id, outs: outputsOf(workspace, declared, workspace.lockedBy) };
}

async function readForLock(client: WsbridgeClient, id: string): Promise<Workspace> {
  try {
    return await client.readWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Error(
        `${KIND}: workspace ${id} does not exist, or the token may not see it (reading needs at least read access to ` +
          `the workspace; locking needs ${LOCK_PERMISSION}). Check workspaceId and the token.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The lock request failed: say why, or, when its outcome is unknown, find out by reading. */
async function resolveFailedLock(client: WsbridgeClient, id: string, reason: string, error: unknown): Promise<Workspace> {
  if (error instanceof NotFoundError) {
    // The workspace was readable a moment ago: the 404 is the service's answer to a missing right.
    throw new Error(`${KIND} ${id}: the service refused the lock (404): the token needs ${LOCK_PERMISSION}. Nothing was changed.`, { cause: error });
  }
  if (error instanceof ConflictError) {
    // Locked by someone else between the read and the lock.
    throw new Error(lockedByOtherMessage(await client.readWorkspace(id), reason), { cause: error });
  }
  if (!(error instanceof OutcomeUnknownError)) throw error;
  const after = await client.readWorkspace(id);
  if (after.locked && after.lockedReason === reason) {
    // Unlocked just before, locked with this reason now: this request's lock, whose answer was lost.
    await noteForTheUser("info", `${KIND} ${id}: the answer to the lock request was lost, but the workspace is now locked ` +
      `with this resource's reason by ${holderText(after.lockedBy)}: that is this request's lock, kept as this resource's.`);
    return after;
  }
  if (after.locked) throw new Error(lockedByOtherMessage(after, reason), { cause: error });
  // Not applied: nothing was locked, so one more lock request cannot lock twice.
  return client.lockWorkspace(id, reason === "" ? undefined : reason);
}

function lockedByOtherMessage(workspace: Workspace, reason: string): string {
  const held = `${KIND} ${workspace.id}: the workspace is already locked by ${holderText(workspace.lockedBy)}` +
    ` (reason: ${JSON.stringify(workspace.lockedReason ?? "")}); this resource never takes over a lock it did not take.`;
  const wait = workspace.lockedBy?.type === "runs"
    ? " Wait for the run to finish (a run's lock ends with it), then run `pulumi up` again."
    : " Ask the holder to unlock it (or an admin to force-unlock it), then run `pulumi up` again.";
  const own = (workspace.lockedReason ?? "") === reason && workspace.lockedBy?.type !== "runs"
    ? " If it is this resource's own lock, left by an interrupted `pulumi up` with this token, unlock it with the same " +
      `token (POST /api/v2/workspaces/${workspace.id}/actions/unlock) and run \`pulumi up\` again: the API cannot tell the ` +
      "provider which user or team its token is, so it does not adopt it."
    : "";
  return held + wait + own;
}

function holderText(holder: LockHolder | null): string {
  if (holder === null) return "someone the service does not name";
  const word = holder.type === "users" ? "user" : holder.type === "teams" ? "team" : holder.type === "runs" ? "run" : holder.type;
  return `${word} ${holder.id}`;
}

// ---- read -----------------------------------------------------------------------------------

/**
 * One request. Unlocked (released outside Pulumi): the resource is gone, and the next `up` locks
 * again. Locked by another identity or with another reason: kept, with outputs naming the holder and
 * `heldByThisResource: false`, so the next preview proposes to lock again; never adopted.
 */
export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: WorkspaceLockOutputs; inputs?: Props }> {
  const state = stateOf(props, id);
  const client = sharedClient();
  const workspace = await readWorkspaceForRefresh(client, id);
  if (workspace === undefined || !workspace.locked) return { id: "" };
  const outs = outputsOf(workspace, declaredOf(state), state.__takenBy);
  if (!outs.heldByThisResource) {
    await noteForTheUser("warning", `${KIND} ${id}: the workspace is now locked by ${holderText(workspace.lockedBy)} ` +
      `(reason: ${JSON.stringify(workspace.lockedReason ?? "")}), not by this resource. It is not adopted: the next ` +
      "`pulumi up` tries to lock it again and fails while they hold it, and destroy leaves their lock alone.");
  }
  // In check's form: what the program leaves out is there as check fills it in.
  return { id: workspace.id, props: outs, inputs: withFixedValues(WORKSPACE_LOCK_OMITTED, inputsOf(state)) };
}

// ---- update ---------------------------------------------------------------------------------

/** Only `forceUnlockOnDestroy` updates in place (the rest replaces): the provider's switch, no request. */
export async function update(id: string, olds: Props, news: Props): Promise<{ outs: WorkspaceLockOutputs }> {
  parseChecked(news);
  return { outs: updatedOutputs(stateOf(olds, id), news) };
}

/** The outputs after an update: the state, with the switch and the declared inputs of `news`. */
function updatedOutputs(state: WorkspaceLockOutputs, news: Props): WorkspaceLockOutputs {
  return { ...state, forceUnlockOnDestroy: news.forceUnlockOnDestroy === true, __declaredInputs: declaredInputsOf(news) };
}

function declaredInputsOf(inputs: Props): string[] {
  return OPTIONAL_INPUTS.filter((k) => inputs[k] !== undefined);
}

// ---- delete ---------------------------------------------------------------------------------

/**
 * Two requests: a read, then unlock (or force-unlock). Only a lock that is still this resource's is
 * released; a lock someone else holds now is left alone and the resource is dropped, with a warning
 * (the lock this resource took no longer exists).
 */
export async function remove(id: string, props: Props): Promise<void> {
  const state = stateOf(props, id);
  const client = sharedClient();
  let workspace: Workspace;
  try {
    workspace = await client.readWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // the workspace, and so its lock, is gone
    throw withStaleSettingsHint(error, "destroy");
  }
  if (!workspace.locked) return; // released already: nothing to undo
  if (!isThisResources(workspace, state.reason, state.__takenBy)) {
    await noteForTheUser("warning", `${KIND} ${id}: not unlocked: the workspace is locked by ${holderText(workspace.lockedBy)} ` +
      `(reason: ${JSON.stringify(workspace.lockedReason ?? "")}), not by this resource, so their lock was left in place and ` +
      "the resource was removed from the stack.");
    return;
  }
  if (state.forceUnlockOnDestroy) await forceUnlock(client, workspace);
  else await unlock(client, workspace, state);
}

async function unlock(client: WsbridgeClient, workspace: Workspace, state: WorkspaceLockOutputs): Promise<void> {
  const id = workspace.id;
  if (workspace.permissions.canUnlock === false) {
    throw new Error(`${KIND} ${id}: the token may not unlock this workspace: it needs ${LOCK_PERMISSION}. The lock was left in place.`);
  }
  try {
    await client.unlockWorkspace(id);
  } catch (error) {
    if (error instanceof ConflictError && error.reason === "not-locked") return;
    if (error instanceof ConflictError && error.reason === "locked-by-other") {
      throw new Error(
        `${KIND} ${id}: this resource's lock was taken by ${holderText(state.__takenBy)}, and the token used now is another ` +
          "identity, which the service does not let unlock it. Destroy with the token that took the lock, or set " +
          "`forceUnlockOnDestroy: true` (needs admin access on the workspace), run `pulumi up`, then destroy again.",
        { cause: error },
      );
    }
    if (error instanceof ServerError && error.status === 503) {
      const seconds = Math.round(client.retryOptions.unlockRetryPeriodMs / 1000);
      throw new Error(
        `${KIND} ${id}: the service kept refusing the unlock with 503 for ${seconds} s: the workspace's latest intermediate ` +
          "state version is not finalized yet (a run is still uploading state). The lock was left in place. Wait for it to " +
          "finish, then run destroy again; to wait longer, raise `wsbridge:unlockRetryPeriodMs` (milliseconds).",
        { cause: error },
      );
    }
    if (error instanceof NotFoundError) {
      throw new Error(`${KIND} ${id}: the service refused the unlock (404): the token needs ${LOCK_PERMISSION}.`, { cause: error });
    }
    if (error instanceof OutcomeUnknownError && !(await client.readWorkspace(id)).locked) return;
    throw error;
  }
}

async function forceUnlock(client: WsbridgeClient, workspace: Workspace): Promise<void> {
  const id = workspace.id;
  const adminNeeded = "force-unlock needs admin access on the workspace (forceUnlockOnDestroy is set)";
  if (workspace.permissions.canForceUnlock === false) {
    throw new Error(`${KIND} ${id}: the token may not force-unlock this workspace: ${adminNeeded}. The lock was left in place; ` +
      "use an admin's token, or set `forceUnlockOnDestroy: false` and destroy with the token that took the lock.");
  }
  try {
    await client.forceUnlockWorkspace(id);
  } catch (error) {
    if (error instanceof ConflictError) return; // already unlocked
    if (error instanceof NotFoundError) throw new Error(`${KIND} ${id}: the service refused the force-unlock (404): ${adminNeeded}.`, { cause: error });
    if (error instanceof OutcomeUnknownError && !(await client.readWorkspace(id)).locked) return;
    throw error;
  }
}

// ---- preview (plugin route) -----------------------------------------------------------------

/**
 * The outputs a create with `news` will have, without a request. A create that succeeds holds the
 * lock it asked for, with the declared reason (the service stores the reason it is sent). Who holds
 * it (`lockedById`, `lockedByKind`, `__takenBy`) is the token's identity, which only the lock's
 * answer names.
 */
export async function previewCreate(news: Props): Promise<WorkspaceLockPreview> {
  const inputs = userInputs(news);
  const reason = whenKnown(inputs.reason, reasonOf);
  return {
    ...(knownOutputs(KIND, UNKNOWN, inputs, "") as Pick<WorkspaceLockPreview, "workspaceId">),
    reason,
    forceUnlockOnDestroy: whenKnown(inputs.forceUnlockOnDestroy, (v) => v === true),
    locked: true,
    lockedReason: reason,
    lockedById: UNKNOWN,
    lockedByKind: UNKNOWN,
    heldByThisResource: true,
    __takenBy: UNKNOWN,
    __declaredInputs: declaredInputsOf(inputs),
  };
}

/** The outputs an update will have: all known, since an update sends nothing (only the switch changes). */
export async function previewUpdate(id: string, olds: Props, news: Props): Promise<WorkspaceLockPreview> {
  const inputs = userInputs(news);
  const outs = updatedOutputs(stateOf(olds, id), inputs);
  return { ...outs, forceUnlockOnDestroy: isUnknown(inputs.forceUnlockOnDestroy) ? UNKNOWN : outs.forceUnlockOnDestroy };
}

/** `map(value)`, or UNKNOWN while the preview does not know the value. */
function whenKnown<T>(value: unknown, map: (v: unknown) => T): T | typeof UNKNOWN {
  return isUnknown(value) ? UNKNOWN : map(value);
}

// ---- import (plugin route) ------------------------------------------------------------------

/**
 * Adopts the lock a user or a team holds on the workspace `importId` names, as if this resource had
 * taken it: its reason becomes the declared `reason`, and its holder the one destroy checks before it
 * unlocks. One request. An unlocked workspace has nothing to adopt (undefined); a run's lock ends
 * with its run and is never a resource's.
 */
export async function importById(importId: string, _internal: Props): Promise<Imported<WorkspaceLockOutputs> | undefined> {
  const ref = parseWorkspaceImportId(KIND, importId);
  const workspace = await readWorkspaceForImport(sharedClient(), ref);
  const adoption = workspace === undefined ? undefined : adoptionOf(workspace);
  if (workspace === undefined || adoption === undefined) return undefined;
  if ("refusal" in adoption) throw new Error(`${KIND}: cannot import ${JSON.stringify(importId)}: ${adoption.refusal}.`);
  const props = outputsOf(workspace, adoption.inputs as Partial<WorkspaceLockInputs>, workspace.lockedBy);
  return { id: workspace.id, props, inputs: inputsOf(props) };
}

/**
 * What an import adopts of the workspace's lock: the declared reason (an empty one is the default, so
 * nothing is declared); a run's lock is refused; an unlocked workspace has nothing (undefined).
 */
export function adoptionOf(workspace: Workspace): Adoption | undefined {
  if (!workspace.locked) return undefined;
  if (workspace.lockedBy?.type === "runs") {
    return { refusal: `workspace ${workspace.id} is locked by ${holderText(workspace.lockedBy)}, whose lock ends with the run; only a lock a user or a team took can be a ${KIND}` };
  }
  const reason = workspace.lockedReason ?? "";
  return { importId: workspace.id, inputs: { workspaceId: workspace.id, ...(reason !== "" && { reason }) } };
}

// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): WorkspaceLockInputs {
  return workspaceLockInputsSchema.parse(userInputs(props));
}

function sameHolder(a: LockHolder | null, b: LockHolder | null): boolean {
  return a !== null && b !== null && a.type === b.type && a.id === b.id;
}

/** This resource's lock: held by the identity that took it, with this resource's reason. */
function isThisResources(workspace: Workspace, reason: string, takenBy: LockHolder | null): boolean {
  if (!workspace.locked || (workspace.lockedReason ?? "") !== reason) return false;
  // A server that named no holder when the lock was taken: the reason is all there is to go by.
  return takenBy === null || sameHolder(workspace.lockedBy, takenBy);
}

function outputsOf(workspace: Workspace, declared: Partial<WorkspaceLockInputs>, takenBy: LockHolder | null): WorkspaceLockOutputs {
  const reason = declared.reason ?? "";
  return {
    workspaceId: workspace.id,
    reason,
    forceUnlockOnDestroy: declared.forceUnlockOnDestroy === true,
    locked: workspace.locked,
    lockedReason: workspace.locked ? workspace.lockedReason ?? "" : null,
    lockedById: workspace.lockedBy?.id ?? null,
    lockedByKind: workspace.lockedBy?.type ?? null,
    heldByThisResource: isThisResources(workspace, reason, takenBy),
    __takenBy: takenBy,
    __declaredInputs: OPTIONAL_INPUTS.filter((k) => declared[k] !== undefined),
  };
}

/** The recorded outputs, tolerant of missing fields. */
function stateOf(props: Props | undefined, id: string): WorkspaceLockOutputs {
  const s = withoutProvider(props);
  const takenBy = s.__takenBy as Partial<LockHolder> | null | undefined;
  const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
  return {
    workspaceId: text(s.workspaceId) ?? id,
    reason: reasonOf(s.reason),
    forceUnlockOnDestroy: s.forceUnlockOnDestroy === true,
    locked: s.locked === true,
    lockedReason: text(s.lockedReason),
    lockedById: text(s.lockedById),
    lockedByKind: text(s.lockedByKind),
    heldByThisResource: s.heldByThisResource !== false,
    __takenBy: takenBy && typeof takenBy.type === "string" && typeof takenBy.id === "string" ? { type: takenBy.type, id: takenBy.id } : null,
    __declaredInputs: Array.isArray(s.__declaredInputs) ? s.__declaredInputs.filter((k): k is string => typeof k === "string") : [...OPTIONAL_INPUTS],
  };
}

/** What the program declared, as far as the state tells. */
function declaredOf(state: WorkspaceLockOutputs): Partial<WorkspaceLockInputs> {
  return {
    workspaceId: state.workspaceId,
    ...(state.__declaredInputs.includes("reason") && { reason: state.reason }),
    ...(state.__declaredInputs.includes("forceUnlockOnDestroy") && { forceUnlockOnDestroy: state.forceUnlockOnDestroy }),
  };
}

/** Refresh's inputs: the declared ones, unchanged (a lock taken by someone else is reported in the outputs, not as drift). */
function inputsOf(state: WorkspaceLockOutputs): Props {
  return { ...declaredOf(state) };
}

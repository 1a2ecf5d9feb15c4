// SshKeyAssignment lifecycle: check, diff, create, read, update, delete; for the provider plugin, the outputs
// a create or an update will have (previewCreate, previewUpdate) and import.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// The resource is the workspace's SSH-key relationship (B4), so its id is the workspace id: a
// workspace has one key. The outputs record both the key the server reports (`sshKeyId`, what diff
// compares) and the key this resource last assigned (`__assignedSshKeyId`), so that destroy, even
// after a refresh recorded another key, unassigns only what this resource put there.
//
// Import ids (`pulumi import wsbridge:index:SshKeyAssignment <name> <id>`), of a workspace with a key assigned:
//   ws-<id>                            the workspace id (the resource id)
//   <organization>/<workspace name>    the workspace by name
import { knownOutputs } from "../known-outputs";
import { randomUUID } from "node:crypto";
import { sshKeyAssignmentInputsSchema, type SshKeyAssignmentInputs } from "../../schemas/ssh-key-assignment";
import { ForbiddenError, NotFoundError, ValidationError, type Workspace, type WsbridgeClient } from "../api";
import { settingsProblem, sharedClient } from "../config";
import {
  isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, UNKNOWN,
  type Adoption, type CheckOutcome, type DiffOutcome, type Imported, type Props, type PropertyChange,
} from "../lifecycle";
import { noteForTheUser } from "../engine-log";
import { pathsOfChange } from "../property-paths";
import { parseWorkspaceImportId, readWorkspaceForImport } from "../import-ids";
import { assertServesTheApi, readWorkspaceForRefresh } from "../serves-the-api";

const KIND = "SshKeyAssignment";

/**
 * What this process's creates assigned, by workspace id. One provider process serves a whole
 * deployment, so when a replacement that keeps the workspace (`up --replace`, a renamed resource)
 * deletes the old resource after creating the new one, the delete finds the new one's key and leaves it.
 */
const assignedByCreateInThisRun = new Map<string, { sshKeyId: string; creation: string }>();

/** Everything a SshKeyAssignment exposes. A type alias so outputs pass where plain property maps are expected. */
export type SshKeyAssignmentOutputs = {
  workspaceId: string;
  /** The key the server reports on the workspace (null after a refresh that found none). */
  sshKeyId: string | null;
  /** The key this resource last assigned: destroy unassigns only this one. */
  __assignedSshKeyId: string;
  /** Which create made this resource, to tell it from a replacement on the same workspace. */
  __creation: string;
};

/** The outputs a preview announces: each known value, or UNKNOWN where only the apply will tell. */
export type SshKeyAssignmentPreview = { [K in keyof SshKeyAssignmentOutputs]: SshKeyAssignmentOutputs[K] | typeof UNKNOWN };

// ---- check ----------------------------------------------------------------------------------

export async function check(_olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  // No request: whether the key exists is the server's to say, at `up` (see create).
  return validate(sshKeyAssignmentInputsSchema, userInputs(news), KIND);
}

// ---- diff -----------------------------------------------------------------------------------

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  // Another workspace is another relationship: a new resource. The two workspaces are independent,
  // so the new one is assigned before the old one is unassigned (the engine's default order).
  const replaced = changed(olds.workspaceId, news.workspaceId) ? changeAt("workspaceId", olds.workspaceId, news.workspaceId, true) : [];
  const updated = changed(olds.sshKeyId, news.sshKeyId) ? changeAt("sshKeyId", olds.sshKeyId, news.sshKeyId, false) : [];
  const detailedDiff = [...replaced, ...updated];
  const replaces = replaced.length > 0 ? ["workspaceId"] : [];
  return { changes: detailedDiff.length > 0, replaces, deleteBeforeReplace: false, detailedDiff };
}

function changed(before: unknown, after: unknown): boolean {
  return isUnknown(after) || before !== after;
}

/** Where a changed property changes: an unknown value at its own path; null (no key) is no value, as for Pulumi. */
function changeAt(path: string, before: unknown, after: unknown, replace: boolean): PropertyChange[] {
  if (isUnknown(after)) return [{ path, kind: "update", replace }];
  return pathsOfChange(path, before ?? undefined, after, { replace });
}

// ---- create ---------------------------------------------------------------------------------

/** One request: B4 assigns the key, whatever key the workspace had before (one key per workspace). */
export async function create(inputs: Props): Promise<{ id: string; outs: SshKeyAssignmentOutputs }> {
  const declared = parseChecked(inputs);
  const workspace = await assign(sharedClient(), declared, "assigned");
  const creation = randomUUID();
  assignedByCreateInThisRun.set(workspace.id, { sshKeyId: declared.sshKeyId, creation });
  return { id: workspace.id, outs: outputsOf(workspace, declared.sshKeyId, creation) };
}

// ---- read -----------------------------------------------------------------------------------

/**
 * One request: the workspace. Its live key becomes the input, so another key (or none) assigned
 * outside Pulumi shows in the next preview as exactly the update that restores the declared one.
 */
export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: SshKeyAssignmentOutputs; inputs?: Props }> {
  const previous = withoutProvider(props);
  const client = sharedClient();
  // Gone with its workspace.
  const workspace = await readWorkspaceForRefresh(client, id);
  if (workspace === undefined) return { id: "" };
  const assigned = typeof previous.__assignedSshKeyId === "string" ? previous.__assignedSshKeyId
    : typeof previous.sshKeyId === "string" ? previous.sshKeyId : "";
  const outs = outputsOf(workspace, assigned, creationOf(previous));
  return { id: workspace.id, props: outs, inputs: { workspaceId: workspace.id, sshKeyId: workspace.sshKeyId } };
}

// ---- update ---------------------------------------------------------------------------------

/** One request: B4 with the new key (only `sshKeyId` updates; a new `workspaceId` replaces). */
export async function update(_id: string, olds: Props, news: Props): Promise<{ outs: SshKeyAssignmentOutputs }> {
  const declared = parseChecked(news);
  const workspace = await assign(sharedClient(), declared, "assigned");
  return { outs: outputsOf(workspace, declared.sshKeyId, creationOf(olds)) };
}

// ---- delete ---------------------------------------------------------------------------------

/**
 * Two requests: read the workspace, then B4 with null, only while the key assigned is still the one
 * this resource assigned. Another key assigned since then is someone else's decision: it stays, the
 * destroy succeeds (this resource's assignment no longer exists) and a warning says so.
 */
export async function remove(id: string, props: Props): Promise<void> {
  const state = withoutProvider(props);
  const ours = typeof state.__assignedSshKeyId === "string" ? state.__assignedSshKeyId : String(state.sshKeyId ?? "");
  const client = sharedClient();
  let workspace: Workspace;
  try {
    workspace = await client.readWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // the workspace is gone, and its assignment with it
    throw withStaleSettingsHint(error, "destroy");
  }
  if (workspace.sshKeyId === null) return; // already unassigned
  // The resource that replaced this one on the same workspace assigned it: it is that resource's now.
  const created = assignedByCreateInThisRun.get(id);
  if (created !== undefined && created.creation !== creationOf(state) && created.sshKeyId === workspace.sshKeyId) return;
  if (workspace.sshKeyId !== ours) {
    await noteForTheUser(
      "warning",
      `${KIND} on workspace "${id}": the workspace now uses SSH key "${workspace.sshKeyId}", not "${ours}" that this ` +
        "resource assigned, so it was left assigned and the resource was removed from the stack. Unassign it on the " +
        "service if it should go.",
    );
    return;
  }
  try {
    await client.unassignSshKey(id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      const refusal = await diagnoseRefusal(client, id, null, "unassigned");
      if (refusal === "gone") return;
      if (refusal !== undefined) throw new Error(refusal);
    }
    if (error instanceof ForbiddenError) throw new Error(permissionMessage(id, "unassigned"));
    throw withStaleSettingsHint(error, "destroy");
  }
}

// ---- preview (plugin route) -----------------------------------------------------------------

/**
 * The outputs a create with `news` will have, without a request: B4 leaves the workspace with the
 * declared key. `__creation` is drawn at random by the create.
 */
export async function previewCreate(news: Props): Promise<SshKeyAssignmentPreview> {
  return { ...assignedPreview(userInputs(news)), __creation: UNKNOWN };
}

/** The outputs an update will have: the declared key on the same workspace, and the same creation. */
export async function previewUpdate(_id: string, olds: Props, news: Props): Promise<SshKeyAssignmentPreview> {
  return { ...assignedPreview(userInputs(news)), __creation: creationOf(olds) };
}

/** What B4 with the declared key reports: that workspace, with that key. */
function assignedPreview(inputs: Props): Omit<SshKeyAssignmentPreview, "__creation"> {
  const sshKeyId = whenKnown(inputs.sshKeyId, String);
  const { workspaceId } = knownOutputs(KIND, UNKNOWN, inputs, "") as Pick<SshKeyAssignmentPreview, "workspaceId">;
  return { workspaceId, sshKeyId, __assignedSshKeyId: sshKeyId };
}

/** `map(value)`, or UNKNOWN while the preview does not know the value. */
function whenKnown<T>(value: unknown, map: (v: unknown) => T): T | typeof UNKNOWN {
  return isUnknown(value) ? UNKNOWN : map(value);
}

// ---- import (plugin route) ------------------------------------------------------------------

/**
 * Adopts the key assigned to the workspace `importId` names, as if this resource had assigned it
 * (destroy unassigns it). One request. A workspace without a key has nothing to adopt (undefined).
 */
export async function importById(importId: string, _internal: Props): Promise<Imported<SshKeyAssignmentOutputs> | undefined> {
  const ref = parseWorkspaceImportId(KIND, importId);
  const workspace = await readWorkspaceForImport(sharedClient(), ref);
  const adoption = workspace === undefined ? undefined : adoptionOf(workspace);
  if (workspace === undefined || workspace.sshKeyId === null || adoption === undefined || "refusal" in adoption) return undefined;
  // A creation of its own, as a create draws: the imported resource is no other resource's replacement.
  const props = outputsOf(workspace, workspace.sshKeyId, randomUUID());
  return { id: workspace.id, props, inputs: adoption.inputs };
}

/** What an import adopts: the key assigned to the workspace; none assigned is nothing (undefined). */
export function adoptionOf(workspace: Workspace): Adoption | undefined {
  if (workspace.sshKeyId === null) return undefined;
  return { importId: workspace.id, inputs: { workspaceId: workspace.id, sshKeyId: workspace.sshKeyId } };
}

// ---- requests and errors ----------------------------------------------------------------------

type Action = "assigned" | "unassigned";

/** B4 with the declared key; every refusal becomes a message naming the property at fault. */
async function assign(client: WsbridgeClient, declared: SshKeyAssignmentInputs, action: Action): Promise<Workspace> {
  try {
    return await client.assignSshKey(declared.workspaceId, declared.sshKeyId);
  } catch (error) {
    if (error instanceof ForbiddenError) throw new Error(permissionMessage(declared.workspaceId, action));
    // The service names the attribute it refuses (a key of another organization, a malformed one).
    if (error instanceof ValidationError) throw new Error(missingKeyMessage(declared, error.detail ?? error.message));
    if (!(error instanceof NotFoundError)) throw error;
    const refusal = await diagnoseRefusal(client, declared.workspaceId, declared.sshKeyId, action);
    if (refusal === "gone") {
      throw new Error(
        `${KIND}: workspaceId "${declared.workspaceId}" does not exist, or the token may not read it. Check the id ` +
          "(a Workspace resource's `id` or `workspaceId` output) and the token's access. Nothing was changed.",
      );
    }
    if (refusal !== undefined) throw new Error(refusal);
    throw error;
  }
}

/**
 * B4 answers 404 for a missing workspace, a workspace the token may only read, and a missing key
 * alike. One read of the workspace (only after a refusal) tells them apart: "gone", or the message.
 */
async function diagnoseRefusal(
  client: WsbridgeClient, workspaceId: string, sshKeyId: string | null, action: Action,
): Promise<string | "gone" | undefined> {
  let workspace: Workspace;
  try {
    workspace = await client.readWorkspace(workspaceId);
  } catch (error) {
    if (error instanceof NotFoundError) {
      await assertServesTheApi(client);
      return "gone";
    }
    throw error;
  }
  if (workspace.permissions.canUpdate === false) return permissionMessage(workspaceId, action);
  if (sshKeyId !== null) {
    return missingKeyMessage({ workspaceId, sshKeyId }, `the service answered 404; the workspace is in organization "${workspace.organization}"`);
  }
  return undefined;
}

function permissionMessage(workspaceId: string, action: Action): string {
  return `${KIND} on workspace "${workspaceId}": the SSH key was not ${action} because the token may not change the ` +
    "workspace's settings. An SSH key assignment is a settings change: it needs admin access on the workspace (a team " +
    'with "admin" access to it or the organization\'s "manage-workspaces" access, an organization token, or an owner). ' +
    "Use such a token (wsbridge:token), or ask an owner to grant the access. Nothing was changed.";
}

function missingKeyMessage(declared: SshKeyAssignmentInputs, detail: string): string {
  return `${KIND} on workspace "${declared.workspaceId}": sshKeyId "${declared.sshKeyId}" was refused (${detail}): no ` +
    "such SSH key in the workspace's organization, or the token may not read it. Use the id of one of the " +
    "organization's SSH keys (GET /api/v2/organizations/<organization>/ssh-keys lists them). Nothing was changed.";
}


// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): SshKeyAssignmentInputs {
  return sshKeyAssignmentInputsSchema.parse(userInputs(props));
}

function outputsOf(workspace: Workspace, assigned: string, creation: string): SshKeyAssignmentOutputs {
  return { workspaceId: workspace.id, sshKeyId: workspace.sshKeyId, __assignedSshKeyId: assigned, __creation: creation };
}

function creationOf(state: Props | undefined): string {
  const creation = withoutProvider(state).__creation;
  return typeof creation === "string" ? creation : "";
}

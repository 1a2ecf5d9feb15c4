// DataRetentionPolicy lifecycle: check, diff, create, read, update, delete; for the provider plugin, the outputs
// a create or an update will have (previewCreate, previewUpdate) and import.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// The resource is the policy set explicitly on one workspace (C11–C13, self-managed edition only); its id
// is the workspace id. Create and update set it (C12, one request, idempotent: the same policy sent
// again changes nothing), switching between the two forms in place. Destroy removes it (C13), so the
// workspace falls back to its organization's default. A policy removed outside Pulumi makes the
// resource gone at refresh (the next `up` sets it again).
//
// Import ids (`pulumi import wsbridge:index:DataRetentionPolicy <name> <id>`), of a workspace with a policy of its own:
//   ws-<id>                            the workspace id (the resource id)
//   <organization>/<workspace name>    the workspace by name (one more request, to find its id)
import { knownOutputs } from "../known-outputs";
import {
  DATA_RETENTION_ONE_FORM, dataRetentionPolicyInputsSchema, type DataRetentionPolicyInputs,
} from "../../schemas/data-retention-policy";
import {
  ForbiddenError, NotFoundError, UnsupportedEditionError,
  type DataRetentionPolicy, type DataRetentionPolicyInput, type Workspace, type WsbridgeClient,
} from "../api";
import { resolveSettings, settingsProblem, sharedClient } from "../config";
import {
  isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, UNKNOWN,
  type CheckFailure, type Adoption, type CheckOutcome, type DiffOutcome, type Imported, type Props, type PropertyChange,
} from "../lifecycle";
import { changedPaths, pathsOfChange } from "../property-paths";
import { parseWorkspaceImportId, readWorkspaceForImport, type WorkspaceRef } from "../import-ids";
import { readUnlessGone } from "../serves-the-api";

const KIND = "DataRetentionPolicy";

/** The two forms, as the outputs name them. */
export type DataRetentionPolicyKind = "delete-older" | "dont-delete";

/** Whose policy the server reports: the workspace's own, or (when none is set) its organization's default. */
export type DataRetentionPolicySource = "workspace" | "organization";

/** Everything a DataRetentionPolicy resource exposes. */
// A type alias (not an interface) so outputs pass where the engine's plain property maps are expected.
export type DataRetentionPolicyOutputs = {
  /** The workspace the policy is set on (also the resource id). */
  workspaceId: string;
  /** The effective policy's form. */
  kind: DataRetentionPolicyKind;
  /** Days after which backing data is deleted; null for `dont-delete`. */
  deleteOlderThanNDays: number | null;
  /** True for `dont-delete`. */
  dontDelete: boolean;
  /** `workspace` while the policy is the workspace's own (always, for a resource that exists). */
  source: DataRetentionPolicySource;
  /** The server's id of the policy (`drp-…`); it changes when the form changes. */
  policyId: string;
};

/** The outputs a preview announces: each known value, or UNKNOWN where only the apply will tell. */
export type DataRetentionPolicyPreview = { [K in keyof DataRetentionPolicyOutputs]: DataRetentionPolicyOutputs[K] | typeof UNKNOWN };

// ---- check ----------------------------------------------------------------------------------

export async function check(olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const inputs = userInputs(news);
  const outcome = validate(dataRetentionPolicyInputsSchema, inputs, KIND);
  // "Neither form" is decided here, not in zod: a form whose value is still unknown counts as declared.
  if (inputs.deleteOlderThanNDays === undefined && inputs.dontDelete === undefined) {
    outcome.failures.push({ property: "deleteOlderThanNDays", reason: `is required unless dontDelete: true is given: ${DATA_RETENTION_ONE_FORM}` });
  }
  // The edition matters for a policy about to be written: on create, or when the declaration changed. An
  // unchanged one was written already, so a preview with nothing changed sends nothing (not even the ping).
  if (outcome.failures.length === 0 && !sameDeclaration(userInputs(olds), inputs)) await checkTheEdition(inputs, outcome.failures);
  return outcome;
}

/** The same workspace and policy as the last applied inputs (the engine passes those as `olds`). */
function sameDeclaration(olds: Props, news: Props): boolean {
  return typeof olds.workspaceId === "string" && olds.workspaceId === news.workspaceId &&
    olds.deleteOlderThanNDays === news.deleteOlderThanNDays && olds.dontDelete === news.dontDelete;
}

/**
 * The policy exists only in the self-managed edition. The edition comes from `wsbridge:edition` (no
 * request) or from one read-only ping per process; nothing else is sent during a preview.
 */
async function checkTheEdition(inputs: Props, failures: CheckFailure[]): Promise<void> {
  const settings = resolveSettings();
  const client = sharedClient();
  const edition = await client.edition();
  if (edition !== "hosted") return;
  const how = settings.edition === undefined ? "its ping says so" : "wsbridge:edition says so";
  failures.push({
    property: inputs.dontDelete !== undefined ? "dontDelete" : "deleteOlderThanNDays",
    reason:
      `cannot be set: data retention policies exist only in the self-managed edition, and ${client.address} is the hosted ` +
      `edition (${how}). Remove this ${KIND}, or point wsbridge:address at a self-managed server`,
  });
}

// ---- diff -----------------------------------------------------------------------------------

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const changes: PropertyChange[] = [];
  // The policy belongs to one workspace: another workspace is another policy.
  if (isUnknown(news.workspaceId) || news.workspaceId !== olds.workspaceId) {
    changes.push(...(isUnknown(news.workspaceId) ? [{ path: "workspaceId", kind: "update", replace: true } as const]
      : pathsOfChange("workspaceId", olds.workspaceId, news.workspaceId, { replace: true })));
  }
  const formChanged = isUnknown(news.deleteOlderThanNDays) || isUnknown(news.dontDelete) ||
    formKey(desiredForm(userInputs(news))) !== formKey(currentForm(olds));
  if (formChanged) changes.push(...formChanges(currentForm(olds), userInputs(news)));
  const replaces = changes.filter((c) => c.replace).map((c) => c.path);
  return { changes: changes.length > 0, replaces, deleteBeforeReplace: false, detailedDiff: changes };
}

/**
 * Where a changed policy changes, in the inputs' terms: the days (none for `dont-delete`), and
 * `dontDelete` present (true) or absent. A form the program stopped declaring is a change of its inputs.
 */
function formChanges(current: DataRetentionPolicyInput | undefined, news: Props): PropertyChange[] {
  const days = current?.kind === "delete-older" ? current.deleteOlderThanNDays : undefined;
  const dontDelete = current?.kind === "dont-delete" ? true : undefined;
  return [...inputChange("deleteOlderThanNDays", days, news.deleteOlderThanNDays), ...inputChange("dontDelete", dontDelete, news.dontDelete)];
}

/** The change of one form property; none when it stays; an unknown value is an update at its own path. */
function inputChange(path: string, before: unknown, after: unknown): PropertyChange[] {
  if (isUnknown(after)) return [{ path, kind: "update", replace: false }];
  return changedPaths(path, before, after, { inputDiff: after === undefined });
}

/** The policy the inputs declare (after check: exactly one form). */
function desiredForm(inputs: Props): DataRetentionPolicyInput {
  if (inputs.dontDelete === true) return { kind: "dont-delete" };
  return { kind: "delete-older", deleteOlderThanNDays: Number(inputs.deleteOlderThanNDays) };
}

/** The policy the server last reported (the old outputs). */
function currentForm(state: Props): DataRetentionPolicyInput | undefined {
  if (state.kind === "dont-delete") return { kind: "dont-delete" };
  if (state.kind === "delete-older" && typeof state.deleteOlderThanNDays === "number") {
    return { kind: "delete-older", deleteOlderThanNDays: state.deleteOlderThanNDays };
  }
  return undefined;
}

function formKey(form: DataRetentionPolicyInput | undefined): string {
  if (form === undefined) return "";
  return form.kind === "dont-delete" ? "dont-delete" : `delete-older:${form.deleteOlderThanNDays}`;
}

// ---- create ---------------------------------------------------------------------------------

export async function create(inputs: Props): Promise<{ id: string; outs: DataRetentionPolicyOutputs }> {
  const declared = parseChecked(inputs);
  const outs = await setPolicy(declared);
  return { id: declared.workspaceId, outs };
}

/** C12: one request. Setting the same policy again changes nothing, so the client may retry it. */
async function setPolicy(declared: DataRetentionPolicyInputs): Promise<DataRetentionPolicyOutputs> {
  const client = sharedClient();
  try {
    const policy = await client.setDataRetentionPolicy(declared.workspaceId, desiredForm(declared as unknown as Props));
    return outputsOf(declared.workspaceId, policy, "workspace");
  } catch (error) {
    throw await explained(client, error, declared.workspaceId, "set");
  }
}

// ---- read -----------------------------------------------------------------------------------

export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: DataRetentionPolicyOutputs; inputs?: Props }> {
  const previous = withoutProvider(props);
  const workspaceId = typeof previous.workspaceId === "string" ? previous.workspaceId : id;
  const client = sharedClient();
  // No policy (and no organization default), or no workspace: gone.
  const policy = await readUnlessGone(client, "a policy", () => client.readDataRetentionPolicy(workspaceId), "refresh");
  if (policy === undefined) return { id: "" };
  const source = await sourceOf(client, workspaceId, policy);
  // The workspace's own policy was removed outside Pulumi: what C11 reports is the organization's.
  if (source === "organization") return { id: "" };
  const outs = outputsOf(workspaceId, policy, source);
  return { id: workspaceId, props: outs, inputs: inputsFrom(outs) };
}

/**
 * Whose policy C11 reported. The service names the policy's `target` (the workspace, or the organization
 * for its default); a server that leaves it out is asked through the workspace, whose
 * `data-retention-policy` relationship is set only by an explicit policy (what go-tfe relies on).
 */
async function sourceOf(
  client: WsbridgeClient, workspaceId: string, policy: DataRetentionPolicy, known?: Workspace,
): Promise<DataRetentionPolicySource> {
  if (policy.target !== null) return policy.target.type === "workspaces" && policy.target.id === workspaceId ? "workspace" : "organization";
  const workspace = known ?? await client.readWorkspace(workspaceId);
  return workspace.dataRetentionPolicy === null ? "organization" : "workspace";
}

/** The inputs a program would declare to hold this policy: what drift looks like in the next preview. */
function inputsFrom(outs: DataRetentionPolicyOutputs): Props {
  return outs.kind === "dont-delete"
    ? { workspaceId: outs.workspaceId, dontDelete: true }
    : { workspaceId: outs.workspaceId, deleteOlderThanNDays: outs.deleteOlderThanNDays };
}

// ---- update ---------------------------------------------------------------------------------

export async function update(_id: string, _olds: Props, news: Props): Promise<{ outs: DataRetentionPolicyOutputs }> {
  // The same C12 as create: it replaces the policy, whichever form either side has.
  return { outs: await setPolicy(parseChecked(news)) };
}

// ---- delete ---------------------------------------------------------------------------------

export async function remove(id: string, props: Props): Promise<void> {
  const state = withoutProvider(props);
  const workspaceId = typeof state.workspaceId === "string" ? state.workspaceId : id;
  const client = sharedClient();
  try {
    // 204 removed it; 200 with the organization's default means none was set: both are done.
    await client.deleteDataRetentionPolicy(workspaceId);
  } catch (error) {
    if (error instanceof NotFoundError) {
      // Nothing to remove, or the workspace is gone: done. Unless the token only may not change it.
      const refusal = await permissionRefusal(client, workspaceId, "remove");
      if (refusal === undefined) return;
      throw new Error(refusal, { cause: error });
    }
    const hinted = withStaleSettingsHint(error, "destroy");
    if (hinted !== error) throw hinted;
    throw await explained(client, error, workspaceId, "remove");
  }
}

// ---- preview (plugin route) -----------------------------------------------------------------

/**
 * The outputs a create with `news` will have, without a request: the declared policy, set on the
 * workspace. `policyId` is the server's to choose.
 */
export async function previewCreate(news: Props): Promise<DataRetentionPolicyPreview> {
  return previewOf(userInputs(news));
}

/**
 * The outputs an update will have: the same as a create's (an update sets the policy anew). `policyId`
 * changes with the form, and the service does not promise to keep it otherwise.
 */
export async function previewUpdate(_id: string, _olds: Props, news: Props): Promise<DataRetentionPolicyPreview> {
  return previewOf(userInputs(news));
}

/** The declared form, set on the workspace (runtime/known-outputs.ts); the policy's id is the server's to choose. */
function previewOf(inputs: Props): DataRetentionPolicyPreview {
  const known = knownOutputs(KIND, UNKNOWN, inputs, "") as Pick<DataRetentionPolicyPreview, "workspaceId" | "kind" | "deleteOlderThanNDays" | "dontDelete">;
  return { ...known, source: "workspace", policyId: UNKNOWN };
}

// ---- import (plugin route) ------------------------------------------------------------------

/**
 * Adopts the policy set on the workspace `importId` names, as if this resource had set it (destroy
 * removes it). The requests of a refresh (C11), plus one read to find a workspace given by name. A
 * workspace that follows its organization's default has nothing to adopt (undefined).
 */
export async function importById(importId: string, _internal: Props): Promise<Imported<DataRetentionPolicyOutputs> | undefined> {
  const client = sharedClient();
  const found = await resolveWorkspace(client, parseWorkspaceImportId(KIND, importId));
  if (found === undefined) return undefined;
  let policy: DataRetentionPolicy | undefined;
  try {
    // No workspace, or neither a policy of its own nor an organization default: nothing to import.
    policy = await readUnlessGone(client, "a workspace", () => client.readDataRetentionPolicy(found.id), undefined, "missing");
  } catch (error) {
    if (!(error instanceof UnsupportedEditionError)) throw error;
    throw new Error(`${KIND}: cannot import ${JSON.stringify(importId)}: ${error.message}`, { cause: error });
  }
  if (policy === undefined) return undefined;
  if (await sourceOf(client, found.id, policy, found.workspace) === "organization") return undefined;
  const props = outputsOf(found.id, policy, "workspace");
  return { id: found.id, props, inputs: inputsFrom(props) };
}

/**
 * What an import adopts, given the workspace (its `data-retention-policy` relationship says whether it
 * has a policy of its own) and, when it has, the policy C11 answered: the workspace's own policy; one
 * that follows the organization's default is nothing (undefined).
 */
export function adoptionOf(workspace: Workspace, policy: DataRetentionPolicy | undefined): Adoption | undefined {
  if (policy === undefined || workspace.dataRetentionPolicy === null) return undefined;
  if (policy.target !== null && !(policy.target.type === "workspaces" && policy.target.id === workspace.id)) return undefined;
  return { importId: workspace.id, inputs: inputsFrom(outputsOf(workspace.id, policy, "workspace")) };
}

/**
 * The workspace id `ref` names, with the workspace when a read was needed to find it (by name);
 * undefined when there is no workspace of that name (on an address that serves the API).
 */
async function resolveWorkspace(client: WsbridgeClient, ref: WorkspaceRef): Promise<{ id: string; workspace?: Workspace } | undefined> {
  if ("id" in ref) return { id: ref.id };
  const workspace = await readWorkspaceForImport(client, ref);
  return workspace === undefined ? undefined : { id: workspace.id, workspace };
}

// ---- errors ---------------------------------------------------------------------------------

/**
 * The error to show for a failed C12/C13. The service answers 404 both for a missing workspace and for a
 * token that may read but not administer it; one read of the workspace tells which, and names the permission.
 */
async function explained(client: WsbridgeClient, error: unknown, workspaceId: string, verb: "set" | "remove"): Promise<Error> {
  const what = `${KIND} of workspace ${workspaceId}`;
  if (error instanceof UnsupportedEditionError) {
    return new Error(`${what}: ${error.message}. Remove this ${KIND}, or point wsbridge:address at a self-managed server`, { cause: error });
  }
  if (error instanceof ForbiddenError) {
    return new Error(`${what} could not be ${verb === "set" ? "set" : "removed"}: ${adminNeeded(verb)} (${error.message})`, { cause: error });
  }
  if (error instanceof NotFoundError) {
    const refusal = await permissionRefusal(client, workspaceId, verb);
    if (refusal !== undefined) return new Error(refusal, { cause: error });
    return new Error(
      `${what} could not be ${verb === "set" ? "set" : "removed"}: workspace ${workspaceId} does not exist, or the token may not ` +
        `see it (${error.message}). Check workspaceId and the token's access to the workspace`,
      { cause: error },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** A message naming the missing permission when the workspace is readable but not administrable; else undefined. */
async function permissionRefusal(client: WsbridgeClient, workspaceId: string, verb: "set" | "remove"): Promise<string | undefined> {
  let canUpdate: boolean | undefined;
  try {
    canUpdate = (await client.readWorkspace(workspaceId)).permissions.canUpdate;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined; // not visible at all: the caller's own message applies
    throw error;
  }
  if (canUpdate !== false) return undefined;
  return `${KIND} of workspace ${workspaceId} could not be ${verb === "set" ? "set" : "removed"}: ${adminNeeded(verb)} ` +
    "(the token can read the workspace, whose permissions report can-update: false)";
}

function adminNeeded(verb: "set" | "remove"): string {
  return `the token lacks admin permission on the workspace, which ${verb === "set" ? "setting" : "removing"} its data retention ` +
    "policy requires. Use a token of the organization's owners, of a team with admin access to the workspace (or " +
    'organization access "manage workspaces"), or the organization token';
}

// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): DataRetentionPolicyInputs {
  const parsed = dataRetentionPolicyInputsSchema.parse(userInputs(props));
  if (parsed.deleteOlderThanNDays === undefined && parsed.dontDelete === undefined) {
    throw new Error(`${KIND}: deleteOlderThanNDays ${DATA_RETENTION_ONE_FORM}`);
  }
  return parsed;
}

function outputsOf(workspaceId: string, policy: DataRetentionPolicy, source: DataRetentionPolicySource): DataRetentionPolicyOutputs {
  return {
    workspaceId,
    kind: policy.kind,
    deleteOlderThanNDays: policy.kind === "dont-delete" ? null : policy.deleteOlderThanNDays,
    dontDelete: policy.kind === "dont-delete",
    source,
    policyId: policy.id,
  };
}

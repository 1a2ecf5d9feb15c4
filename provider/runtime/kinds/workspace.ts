// Workspace lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
import { workspaceInputsSchema, type WorkspaceInputs } from "../../schemas/workspace";
import { ConflictError, ForbiddenError, NotFoundError, OutcomeUnknownError, type Workspace, type WsbridgeClient } from "../api";
import { resolveSettings, sharedClient } from "../config";
import {
  isUnknown,
  normalizeOptionalText,
  validate,
  withoutProvider,
  type CheckOutcome,
  type DiffOutcome,
  type Props,
} from "../lifecycle";

const KIND = "Workspace";

/** Inputs after check: the organization default has been applied. */
export type CheckedWorkspaceInputs = WorkspaceInputs & { organization: string };

/** Everything a Workspace resource exposes: the declared inputs plus the server's state. */
// A type alias (not an interface) so outputs pass where the engine's plain property maps are expected.
export type WorkspaceOutputs = {
  name: string;
  organization: string;
  description?: string;
  forceDelete: boolean;
  /** The workspace's id (`ws-…`), the same as the resource id. */
  workspaceId: string;
  executionMode: string;
  engineVersion: string | null;
  locked: boolean;
  resourceCount: number;
  projectId: string | null;
  createdAt: string;
  updatedAt: string;
  /** The workspace's page in the service's UI. */
  htmlUrl: string;
  /**
   * Which optional inputs the program declared. `read` only receives the old outputs, and must
   * return refreshed inputs for exactly these: an input it invented would show in the next preview
   * as a change that `up` would not make.
   */
  __declaredInputs: OptionalInput[];
};

const OPTIONAL_INPUTS = ["description", "forceDelete"] as const;
type OptionalInput = (typeof OPTIONAL_INPUTS)[number];

// ---- check ----------------------------------------------------------------------------------

export async function check(_olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  const raw = withoutProvider(news);
  const organization = raw.organization ?? resolveSettings().organization;
  const inputs: Props = organization === undefined ? raw : { ...raw, organization };
  const outcome = validate(workspaceInputsSchema, inputs, KIND);
  if (organization === undefined) {
    outcome.failures.push({
      property: "organization",
      reason:
        "is required: set it on the resource, or set the `wsbridge:organization` stack config " +
        "(or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)",
    });
  }
  return outcome;
}

// ---- diff -----------------------------------------------------------------------------------

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const replaces: string[] = [];
  const updates: string[] = [];
  // The workspace cannot move between organizations: that is a new workspace.
  if (changed(olds.organization, news.organization)) replaces.push("organization");
  if (changed(olds.name, news.name)) updates.push("name");
  // Only a declared description is managed; "" and null mean the same to the API.
  if (news.description !== undefined &&
      (isUnknown(news.description) || normalizeOptionalText(olds.description) !== normalizeOptionalText(news.description))) {
    updates.push("description");
  }
  if (changed(olds.forceDelete ?? false, news.forceDelete ?? false)) updates.push("forceDelete");
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: false };
}

function changed(before: unknown, after: unknown): boolean {
  return isUnknown(after) || before !== after;
}

// ---- create ---------------------------------------------------------------------------------

export async function create(inputs: Props): Promise<{ id: string; outs: WorkspaceOutputs }> {
  const declared = parseChecked(inputs);
  const client = sharedClient();
  const { organization, name } = declared;
  // Refuse to touch a workspace we did not create: adopting an existing one must be explicit.
  if (await findByName(client, organization, name)) {
    throw new Error(
      `${KIND} "${organization}/${name}" already exists and is not managed by this stack; ` +
        "choose another name, or delete or rename the existing workspace first",
    );
  }
  const options = { name, sourceName: "pulumi-wsbridge", ...(declared.description !== undefined && { description: declared.description }) };
  let workspace: Workspace;
  try {
    workspace = await client.createWorkspace(organization, options);
  } catch (error) {
    if (!(error instanceof OutcomeUnknownError)) throw error;
    // The POST may have been applied: look before trying again, so the workspace is never duplicated.
    const found = await findByName(client, organization, name);
    workspace = found ?? (await client.createWorkspace(organization, options));
  }
  return { id: workspace.id, outs: outputsOf(workspace, declared, client.address) };
}

async function findByName(client: WsbridgeClient, organization: string, name: string): Promise<Workspace | undefined> {
  try {
    return await client.readWorkspaceByName(organization, name);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

// ---- read -----------------------------------------------------------------------------------

export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: WorkspaceOutputs; inputs?: Props }> {
  const previous = withoutProvider(props);
  const client = sharedClient();
  let workspace: Workspace;
  try {
    workspace = await client.readWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return { id: "" };
    throw error;
  }
  const declared = declaredInputsOf(previous);
  const live: CheckedWorkspaceInputs = {
    name: workspace.name,
    organization: workspace.organization,
    ...(declared.has("description") && { description: workspace.description ?? "" }),
    ...(declared.has("forceDelete") && { forceDelete: previous.forceDelete === true }),
  };
  return { id: workspace.id, props: outputsOf(workspace, live, client.address), inputs: { ...live } };
}

function declaredInputsOf(state: Props): Set<OptionalInput> {
  const recorded = state.__declaredInputs;
  if (Array.isArray(recorded)) return new Set(OPTIONAL_INPUTS.filter((key) => recorded.includes(key)));
  // State written before the record existed: keep what its values imply.
  return new Set(OPTIONAL_INPUTS.filter((key) => state[key] !== undefined && !(key === "forceDelete" && state[key] === false)));
}

// ---- update ---------------------------------------------------------------------------------

export async function update(id: string, olds: Props, news: Props): Promise<{ outs: WorkspaceOutputs }> {
  const declared = parseChecked(news);
  const client = sharedClient();
  const changes: { name?: string; description?: string } = {};
  if (declared.name !== olds.name) changes.name = declared.name;
  if (declared.description !== undefined &&
      normalizeOptionalText(olds.description) !== normalizeOptionalText(declared.description)) {
    changes.description = declared.description;
  }
  // A forceDelete-only change touches nothing on the server; read so the outputs stay current.
  const workspace = Object.keys(changes).length > 0
    ? await client.updateWorkspace(id, changes)
    : await client.readWorkspace(id);
  return { outs: outputsOf(workspace, declared, client.address) };
}

// ---- delete ---------------------------------------------------------------------------------

export async function remove(id: string, props: Props): Promise<void> {
  const state = withoutProvider(props);
  const force = state.forceDelete === true;
  const label = `${KIND} "${String(state.organization)}/${String(state.name)}" (${id})`;
  const client = sharedClient();
  try {
    if (force) await client.forceDeleteWorkspace(id);
    else await client.safeDeleteWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone: delete is idempotent
    if (error instanceof ConflictError && !force && error.reason === "locked-cannot-delete") {
      throw new Error(
        `${label} was not deleted because it is locked (${error.detail ?? error.message}). ` +
          "Unlock it (or let the run holding the lock finish), then destroy again. A force delete would also remove it.",
      );
    }
    if (error instanceof ConflictError && !force) {
      throw new Error(
        `${label} was not deleted because it still manages resources (${error.detail ?? error.message}). ` +
          "Destroy what it manages first, or set `forceDelete: true` on the Workspace, run `pulumi up`, then destroy again.",
      );
    }
    if (error instanceof ForbiddenError) {
      throw new Error(
        `${label} was not force-deleted: the token may not force delete (organization owners can; workspace admins only ` +
          `where the organization allows it). ${error.message}`,
      );
    }
    throw error;
  }
}

// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): CheckedWorkspaceInputs {
  const parsed = workspaceInputsSchema.parse(withoutProvider(props));
  if (parsed.organization === undefined) throw new Error(`${KIND}: organization is required`);
  return { ...parsed, organization: parsed.organization };
}

/** The server's own `self-html` link made absolute against the API address; built from org and name only if a server omits it. */
function htmlUrlOf(workspace: Workspace, address: string): string {
  const link = workspace.htmlUrl ??
    `/app/${encodeURIComponent(workspace.organization)}/workspaces/${encodeURIComponent(workspace.name)}`;
  return new URL(link, address).toString();
}

function outputsOf(workspace: Workspace, declared: CheckedWorkspaceInputs, address: string): WorkspaceOutputs {
  return {
    name: workspace.name,
    organization: workspace.organization,
    ...(workspace.description !== null && { description: workspace.description }),
    forceDelete: declared.forceDelete ?? false,
    workspaceId: workspace.id,
    executionMode: workspace.executionMode,
    engineVersion: workspace.engineVersion,
    locked: workspace.locked,
    resourceCount: workspace.resourceCount,
    projectId: workspace.projectId,
    createdAt: workspace.createdAt,
    updatedAt: workspace.updatedAt,
    htmlUrl: htmlUrlOf(workspace, address),
    __declaredInputs: OPTIONAL_INPUTS.filter((key) => declared[key] !== undefined),
  };
}

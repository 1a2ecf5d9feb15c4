// Workspace lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
import { workspaceInputsSchema, type WorkspaceInputs } from "../../schemas/workspace";
import {
  ConflictError, ForbiddenError, NotFoundError, OutcomeUnknownError, ValidationError, type Workspace, type WsbridgeClient,
} from "../api";
import { resolveSettings, settingsProblem, sharedClient } from "../config";
import {
  isUnknown,
  normalizeOptionalText,
  staleSettingsHint,
  userInputs,
  validate,
  withoutProvider,
  type CheckOutcome,
  type DiffOutcome,
  type Props,
} from "../lifecycle";
import { adoptedInThisRun, describeOwner, noteAdopted, parseOwnerUrl, sameOwner, type Owner } from "../ownership";

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
  /** The owner marker (runtime/ownership.ts), kept so that refresh returns it with the inputs unchanged. */
  __owner?: string;
};

const OPTIONAL_INPUTS = ["description", "forceDelete"] as const;
type OptionalInput = (typeof OPTIONAL_INPUTS)[number];

// ---- check ----------------------------------------------------------------------------------

export async function check(_olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const raw = userInputs(news);
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
  // The owner marker goes on to create, unchanged.
  const marker = ownerMarkerOf(news);
  if (marker === undefined) return outcome;
  return { inputs: { ...outcome.inputs, __owner: marker }, failures: outcome.failures };
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
  const marker = ownerMarkerOf(inputs);
  const owner = parseOwnerUrl(marker);
  const client = sharedClient();
  const { organization, name } = declared;
  const options = {
    name,
    sourceName: "pulumi-wsbridge",
    ...(marker !== undefined && { sourceUrl: marker }),
    ...(declared.description !== undefined && { description: declared.description }),
  };
  // Each round looks before it creates, so an attempt whose outcome was unknown is found, never repeated.
  let unknownOutcome = false;
  for (let attempt = 1; ; attempt++) {
    const existing = await findByName(client, organization, name);
    if (existing) {
      const theirs = parseOwnerUrl(existing.sourceUrl);
      // Without a marker (a caller other than the resource classes), only this call's own unknown POST is provably ours.
      const ours = owner ? theirs !== undefined && sameOwner(owner, theirs) : unknownOutcome;
      if (!ours) throw new Error(refusal(organization, name, owner, theirs));
      return adopt(client, existing, declared, marker);
    }
    try {
      const workspace = await client.createWorkspace(organization, options);
      return { id: workspace.id, outs: outputsOf(workspace, declared, client.address, marker) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        await assertServesTheApi(client);
        throw new Error(
          `${KIND} "${organization}/${name}" cannot be created: the organization "${organization}" does not exist, or the ` +
            `token may not create workspaces in it (${error.message})`,
        );
      }
      // A name taken between the look and the POST (an earlier run's provider still finishing its
      // create) is looked up again like an unknown outcome: it may be this resource's own.
      const raced = error instanceof ValidationError && error.pointer === "/data/attributes/name";
      if (!(error instanceof OutcomeUnknownError || raced) || attempt >= client.retryOptions.maxAttempts) throw error;
      unknownOutcome ||= error instanceof OutcomeUnknownError;
    }
  }
}

async function findByName(client: WsbridgeClient, organization: string, name: string): Promise<Workspace | undefined> {
  try {
    return await client.readWorkspaceByName(organization, name);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** This resource's own workspace, left by an interrupted create: take it, with the declared description. */
async function adopt(
  client: WsbridgeClient, existing: Workspace, declared: CheckedWorkspaceInputs, marker: string | undefined,
): Promise<{ id: string; outs: WorkspaceOutputs }> {
  const stale = declared.description !== undefined &&
    normalizeOptionalText(existing.description) !== normalizeOptionalText(declared.description);
  const workspace = stale ? await client.updateWorkspace(existing.id, { description: declared.description ?? "" }) : existing;
  noteAdopted(workspace.id);
  return { id: workspace.id, outs: outputsOf(workspace, declared, client.address, marker) };
}

function refusal(organization: string, name: string, owner: Owner | undefined, theirs: Owner | undefined): string {
  const what = `${KIND} "${organization}/${name}" already exists`;
  const fix = "choose another name, or delete or rename the existing workspace first";
  if (!theirs) return `${what} and was not created by a pulumi-wsbridge stack resource (its source-url names none); ${fix}`;
  if (owner && theirs.project === owner.project && theirs.stack === owner.stack && theirs.kind === owner.kind) {
    return `${what}: it was created by resource "${theirs.name}" of this stack. If you renamed that resource in your ` +
      `program, add \`aliases: [{ name: "${theirs.name}" }]\` to the options of "${owner.name}", so Pulumi moves the ` +
      "workspace to the new name in the state instead of creating a second one";
  }
  return `${what} and is managed by ${describeOwner(theirs)}, not by this resource; ${fix}`;
}

// ---- read -----------------------------------------------------------------------------------

export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: WorkspaceOutputs; inputs?: Props }> {
  const previous = withoutProvider(props);
  const client = sharedClient();
  let workspace: Workspace;
  try {
    workspace = await client.readWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      // Gone, unless nothing is found at this address at all: then the address is wrong, and dropping
      // the resource from the state would lose track of a workspace that still exists.
      await assertServesTheApi(client);
      return { id: "" };
    }
    const hint = staleSettingsHint(error, "refresh");
    if (hint !== undefined) throw new Error(`${(error as Error).message}. ${hint}`);
    throw error;
  }
  const declared = declaredInputsOf(previous);
  const live: CheckedWorkspaceInputs = {
    name: workspace.name,
    organization: workspace.organization,
    ...(declared.has("description") && { description: workspace.description ?? "" }),
    ...(declared.has("forceDelete") && { forceDelete: previous.forceDelete === true }),
  };
  const marker = ownerMarkerOf(previous);
  return {
    id: workspace.id,
    props: outputsOf(workspace, live, client.address, marker),
    inputs: { ...live, ...(marker !== undefined && { __owner: marker }) },
  };
}

async function assertServesTheApi(client: WsbridgeClient): Promise<void> {
  try {
    await client.ping();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new Error(
      `${client.address} does not serve the API (GET /api/v2/ping answered 404), so a workspace not found there is not ` +
        "known to be gone; check wsbridge:address (the service's base address, without /api/v2)",
    );
  }
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
  return { outs: outputsOf(workspace, declared, client.address, ownerMarkerOf(news)) };
}

// ---- delete ---------------------------------------------------------------------------------

export async function remove(id: string, props: Props): Promise<void> {
  const state = withoutProvider(props);
  // Taken over by a create of this run (see adoptedInThisRun): it is the new resource's now.
  if (adoptedInThisRun(id)) return;
  const force = state.forceDelete === true;
  const label = `${KIND} "${String(state.organization)}/${String(state.name)}" (${id})`;
  const client = sharedClient();
  try {
    // Both are retried by the client; gone already counts as done.
    if (force) await client.forceDeleteWorkspace(id);
    else await client.safeDeleteWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone: delete is idempotent
    if (error instanceof ConflictError && !force && error.reason === "locked-cannot-delete") {
      throw new Error(
        `${label} was not deleted because it is locked (${error.detail ?? error.message}). ` +
          "Unlock it (or let the run holding the lock finish), then try again. A force delete would also remove it.",
      );
    }
    if (error instanceof ConflictError && !force) {
      throw new Error(
        `${label} was not deleted because it still manages resources (${error.detail ?? error.message}). ` +
          "Destroy what it manages first, or set `forceDelete: true` on the Workspace, run `pulumi up`, then try again.",
      );
    }
    if (error instanceof ForbiddenError) {
      throw new Error(
        `${label} was not force-deleted: the token may not force delete (organization owners can; workspace admins only ` +
          `where the organization allows it). ${error.message}`,
      );
    }
    const hint = staleSettingsHint(error, "destroy");
    if (hint !== undefined) throw new Error(`${(error as Error).message}. ${hint}`);
    throw error;
  }
}

// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): CheckedWorkspaceInputs {
  const parsed = workspaceInputsSchema.parse(userInputs(props));
  if (parsed.organization === undefined) throw new Error(`${KIND}: organization is required`);
  return { ...parsed, organization: parsed.organization };
}

/** The server's own `self-html` link made absolute against the API address; built from org and name only if a server omits it. */
function htmlUrlOf(workspace: Workspace, address: string): string {
  const link = workspace.htmlUrl ??
    `/app/${encodeURIComponent(workspace.organization)}/workspaces/${encodeURIComponent(workspace.name)}`;
  return new URL(link, address).toString();
}

function ownerMarkerOf(props: Props): string | undefined {
  const marker = withoutProvider(props).__owner;
  return typeof marker === "string" ? marker : undefined;
}

function outputsOf(workspace: Workspace, declared: CheckedWorkspaceInputs, address: string, marker: string | undefined): WorkspaceOutputs {
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
    ...(marker !== undefined && { __owner: marker }),
  };
}

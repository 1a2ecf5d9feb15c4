// create: one POST; an interrupted or refused create is resolved by a lookup by name, never repeated
// blindly, and a workspace is adopted only when it is this resource's own or adoptExisting says so.
import {
  NotFoundError, OutcomeUnknownError, ValidationError, type Workspace, type WorkspaceCreateOptions,
  type WsbridgeClient,
} from "../../api";
import { sharedClient } from "../../config";
import type { Props } from "../../lifecycle";
import {
  describeOwner, noteAdopted, type Owner, ownerFragmentOf, parseOwnerUrl, sameOwner, withoutOwnerFragment,
} from "../../ownership";
import { assertServesTheApi } from "../../serves-the-api";
import { sameValue } from "./compare";
import {
  type CheckedWorkspaceInputs, CREATE_ONLY, KIND, READ, SERVER_INPUTS, SOURCE_NAME, type WorkspaceOutputs,
  type WorkspaceState,
} from "./fields";
import { label, namedOutputsOf, outputsOf, ownerMarkerOf, parseChecked, toState } from "./state";
import { findByName } from "./read";
import { applyFlatTags, reconcile, serverOptions } from "./update";

export async function create(inputs: Props): Promise<{ id: string; outs: WorkspaceState }> {
  const { id, outs } = await createWorkspace(inputs);
  return { id, outs: toState(outs, namedOutputsOf(inputs)) };
}

export async function createWorkspace(inputs: Props): Promise<{ id: string; outs: WorkspaceOutputs }> {
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

export function createOptions(declared: CheckedWorkspaceInputs, marker: string | undefined): WorkspaceCreateOptions {
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

/**
 * Takes over an existing workspace: this resource's own (left by an interrupted create) or, with
 * adoptExisting, any. The declared settings are applied; create-only ones must already match.
 */
export async function adopt(
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

export function refusal(organization: string, name: string, owner: Owner | undefined, theirs: Owner | undefined): string {
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

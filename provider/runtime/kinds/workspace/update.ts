// update: one PATCH with every changed attribute and relationship, then the flat tags (their own endpoints).
import { ForbiddenError, NotFoundError, type Workspace, type WorkspaceUpdateOptions, type WsbridgeClient } from "../../api";
import { sharedClient } from "../../config";
import type { Props } from "../../lifecycle";
import { assertServesTheApi } from "../../serves-the-api";
import { changedInputs, isRestored } from "./compare";
import {
  type CheckedWorkspaceInputs, KIND, READ, SERVER_INPUTS, type ServerInput, type WorkspaceOutputs,
  type WorkspaceState,
} from "./fields";
import { fromState, namedOutputsOf, outputsOf, ownerMarkerOf, parseChecked, toState, workspaceFromOutputs } from "./state";

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
export async function explainedUpdateFailure(client: WsbridgeClient, id: string, declared: CheckedWorkspaceInputs, error: unknown): Promise<unknown> {
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
export async function reconcile(client: WsbridgeClient, id: string, declared: CheckedWorkspaceInputs, current: WorkspaceOutputs): Promise<Workspace> {
  const changedKeys = changedInputs(current as unknown as Props, declared as unknown as Props);
  // An input left out is sent only where its omission is restored (null: RESTORED_WHEN_OMITTED); a
  // mode or pool left out is inherited through settingOverwrites, which check filled in.
  const sent = (k: ServerInput): boolean => changedKeys.includes(k) && (declared[k] !== undefined || isRestored(k));
  // The service resets setting-overwrites to true for what an update gives a value for (an execution
  // mode, an agent pool), so declared overwrites go along with those, or they would not hold.
  const resetsOverwrites = declared.settingOverwrites !== undefined && (["executionMode", "operations", "agentPoolId"] as const).some(sent);
  // And the reverse: the service takes setting-overwrites.execution-mode true only beside the mode itself.
  const ownMode = (sent("settingOverwrites") || resetsOverwrites) && declared.settingOverwrites?.executionMode === true;
  const modeKey = declared.operations !== undefined ? "operations" : "executionMode";
  const attributes = SERVER_INPUTS.filter((k) => k !== "tagNames" &&
    (sent(k) || (k === "settingOverwrites" && resetsOverwrites) || (k === modeKey && ownMode && declared[k] !== undefined)));
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

/** The request options for `keys`, from the declared inputs. An input left out that is restored is sent as null. */
export function serverOptions(declared: CheckedWorkspaceInputs, keys: readonly ServerInput[], current: WorkspaceOutputs | null): WorkspaceUpdateOptions {
  const o: WorkspaceUpdateOptions = {};
  for (const key of keys) {
    switch (key) {
      case "vcsRepo": o.vcsRepo = declared.vcsRepo ?? null; break;
      case "autoDestroyAt": o.autoDestroyAt = declared.autoDestroyAt ?? null; break;
      case "autoDestroyActivityDuration": o.autoDestroyActivityDuration = declared.autoDestroyActivityDuration ?? null; break;
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
export async function applyFlatTags(client: WsbridgeClient, workspace: Workspace, declared: CheckedWorkspaceInputs): Promise<Workspace> {
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

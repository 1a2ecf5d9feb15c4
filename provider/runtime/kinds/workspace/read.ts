// read (refresh): the workspace as the server holds it now, and the inputs a program would have to
// declare to match it, so drift shows in the next preview.
import { NotFoundError, type Workspace, type WsbridgeClient } from "../../api";
import { sharedClient } from "../../config";
import type { Props } from "../../lifecycle";
import { readWorkspaceForRefresh } from "../../serves-the-api";
import { declaredInputsOf, sameValue } from "./compare";
import { OPTIONAL_INPUTS, PARTIAL_OBJECTS, READ, type WorkspaceOutputs, type WorkspaceState } from "./fields";
import { fromState, internalInputs, namedOutputsOf, outputsOf, ownerMarkerOf, switchesOf, toState } from "./state";

export async function read(id: string, props: Props | undefined): Promise<{ id: string; props?: WorkspaceState; inputs?: Props }> {
  const previous = fromState(props);
  const client = sharedClient();
  // Gone, unless nothing is found at this address at all: then the address is wrong, and dropping
  // the resource from the state would lose track of a workspace that still exists.
  const workspace = await readWorkspaceForRefresh(client, id, READ);
  if (workspace === undefined) return { id: "" };
  const declared = declaredInputsOf(previous);
  const marker = ownerMarkerOf(previous);
  const values = (typeof previous.__declaredValues === "object" && previous.__declaredValues !== null ? previous.__declaredValues : {}) as Props;
  const outs = await outputsOf(client, workspace, switchesOf(previous), marker, declared, values);
  const named = namedOutputsOf(previous);
  return { id: workspace.id, props: toState(outs, named), inputs: { ...declaredInputsFrom(outs, declared, values), ...internalInputs(marker, named) } };
}

/** The inputs a program declaring `declared` would have to hold to match the server: what drift looks like in a preview. */
export function declaredInputsFrom(outs: WorkspaceOutputs, declared: Set<string>, values: Props): Props {
  const inputs: Props = { name: outs.name, organization: outs.organization };
  for (const key of OPTIONAL_INPUTS) {
    if (!declared.has(key)) continue;
    // Unchanged on the server: the program's own spelling.
    if (values[key] !== undefined && sameValue(key, values[key], outs[key])) {
      inputs[key] = values[key];
      continue;
    }
    if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
      const server = (outs[key as "vcsRepo" | "settingOverwrites"] ?? null) as Props | null;
      if (server === null) continue; // a repository removed outside Pulumi: the program's vcsRepo will add it back
      inputs[key] = Object.fromEntries([...declared].filter((d) => d.startsWith(`${key}.`)).map((d) => {
        const sub = d.slice(key.length + 1);
        return [sub, server[sub] ?? undefined];
      }).filter(([, v]) => v !== undefined && v !== null));
      continue;
    }
    const value = outs[key];
    if (value !== null && value !== undefined) inputs[key] = value;
  }
  return inputs;
}

/** The workspace of this name in the organization, or undefined (create and adoptExisting's preview look it up). */
export async function findByName(client: WsbridgeClient, organization: string, name: string): Promise<Workspace | undefined> {
  try {
    return await client.readWorkspaceByName(organization, name, READ);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

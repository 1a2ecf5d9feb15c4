// read (refresh): the workspace as the server holds it now, and the inputs a program would have to
// declare to match it, so drift shows in the next preview.
import { NotFoundError, type Workspace, type WsbridgeClient } from "../../api";
import { sharedClient } from "../../config";
import type { Props } from "../../lifecycle";
import { readWorkspaceForRefresh } from "../../serves-the-api";
import { comparable, declaredInputsOf, holdsOmitted, isRestored, sameValue } from "./compare";
import { OPTIONAL_INPUTS, type OptionalInput, PARTIAL_OBJECTS, READ, type WorkspaceOutputs, type WorkspaceState } from "./fields";
import type { Omission, OmittedValue } from "../../../schemas/omission";
import { WORKSPACE_OMITTED } from "../../../schemas/workspace";
import { fromState, internalInputs, namedOutputsOf, outputsOf, ownerMarkerOf, repositoryInput, switchesOf, toState } from "./state";

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

/**
 * The inputs a program declaring `declared` would have to hold to match the server: what drift looks
 * like in a preview. They have check's form: every input with a fixed value when left out is there
 * (the server's value, in the program's spelling where it is the same), and settingOverwrites in full.
 * An input the program leaves out with no fixed value is there where the server holds something else
 * than leaving it out means (a repository, a time, a mode of its own), so the next preview shows its
 * restore as a change of that input, and `ignoreChanges` (which keeps the inputs the state holds) can
 * leave it to others.
 */
export function declaredInputsFrom(outs: WorkspaceOutputs, declared: Set<string>, values: Props): Props {
  const inputs: Props = { name: outs.name, organization: outs.organization };
  const server = outs as unknown as Props;
  for (const key of OPTIONAL_INPUTS) {
    const omission = omissionOf(key);
    // Unchanged on the server: the program's own spelling.
    const spelled = declared.has(key) && values[key] !== undefined && sameValue(key, values[key], server[key]);
    if (key === "settingOverwrites") {
      inputs[key] = { executionMode: outs.settingOverwrites.executionMode, agentPool: outs.settingOverwrites.agentPool };
    } else if (omission?.means === "value") {
      inputs[key] = spelled ? values[key] : asInput(key, server[key], omission.value);
    } else if (!declared.has(key)) {
      const deviation = deviationFromOmitted(key, outs, declared);
      if (deviation !== undefined) inputs[key] = deviation;
    } else if (key === "vcsRepo") {
      const held = outs.vcsRepo;
      if (held === null) continue; // a repository removed outside Pulumi: the program's vcsRepo will add it back
      const heldProps = held as unknown as Props;
      const own = spelled ? (values[key] as Props) : Object.fromEntries(Object.keys(heldProps)
        .filter((sub) => declared.has(`${key}.${sub}`) && heldProps[sub] !== null && heldProps[sub] !== undefined).map((sub) => [sub, heldProps[sub]]));
      // The sub-keys check fills in, as the server holds them.
      const filled = REPO_FIXED_VALUES.filter(([sub]) => own[sub] === undefined).map(([sub, value]) => [sub, asInput(`vcsRepo.${sub}`, heldProps[sub], value)]);
      inputs[key] = { ...own, ...Object.fromEntries(filled) };
    } else if (spelled) {
      inputs[key] = values[key];
    } else {
      const value = server[key];
      if (value !== null && value !== undefined) inputs[key] = value;
    }
  }
  return inputs;
}

/** The keys of a declared repository that check fills in, with their values. */
const REPO_FIXED_VALUES = Object.entries(WORKSPACE_OMITTED as Readonly<Record<string, Omission>>)
  .flatMap(([path, o]) => (path.startsWith("vcsRepo.") && o.means === "value" ? [[path.slice("vcsRepo.".length), o.value] as const] : []));

function omissionOf(path: string): Omission | undefined {
  return (WORKSPACE_OMITTED as Readonly<Record<string, Omission>>)[path];
}

/** The server's value as an input: the fixed value itself where the server holds it in another spelling (none for ""). */
function asInput(path: string, value: unknown, fixed: OmittedValue): unknown {
  if (value === null || value === undefined || comparable(path, value) === comparable(path, fixed)) return Array.isArray(fixed) ? [...(fixed as string[])] : fixed;
  return Array.isArray(value) ? [...(value as string[])].sort() : value;
}

/** The server's value of an input the program leaves out (no fixed value), where it is not what leaving it out means. */
function deviationFromOmitted(key: OptionalInput, outs: WorkspaceOutputs, declared: Set<string>): unknown {
  const server = outs as unknown as Props;
  if (isRestored(key)) {
    if (holdsOmitted(key, server, declared.has("autoDestroyAt") ? { autoDestroyAt: outs.autoDestroyAt } : {})) return undefined;
    return key === "vcsRepo" && outs.vcsRepo !== null ? repositoryInput(outs.vcsRepo) : server[key] ?? undefined;
  }
  // A mode or pool of the workspace's own where the program leaves it to inherit: what `ignoreChanges`
  // keeps to leave the execution mode to others.
  if (key === "executionMode") {
    const spelled = declared.has("executionMode") || declared.has("operations");
    return !spelled && outs.settingOverwrites.executionMode ? outs.executionMode : undefined;
  }
  if (key === "agentPoolId") return outs.settingOverwrites.agentPool && outs.agentPoolId !== null ? outs.agentPoolId : undefined;
  return undefined;
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

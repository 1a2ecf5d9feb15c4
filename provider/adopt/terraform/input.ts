// The Terraform input of `wsbridge adopt`: a state (a file, or a workspace's current state read through
// the API), what moves (takeover.ts), and from it the one thing adopt's pipeline takes: the selection of
// workspaces, each with which of its objects and the base of its names. Nothing else differs from any
// other adopt run: the program is written from the server.
import * as fs from "node:fs";
import type { WsbridgeClient } from "../../runtime/api";
import type { AdoptedKind } from "../model";
import type { ChosenWorkspace } from "../selection";
import { readTerraformState, TerraformStateError, type TerraformState } from "./state";
import { takeoverOf, type Takeover } from "./takeover";

/** Where the state comes from: a file (`-`: standard input; else a path the caller resolved), or a workspace of the same organization. */
export type TerraformSource = { readonly file: string; readonly shown?: string } | { readonly workspace: string };

export interface TerraformInput {
  /** The source in words, for the report and messages. */
  readonly source: string;
  readonly state: TerraformState;
  readonly takeover: Takeover;
  readonly chosen: readonly ChosenWorkspace[];
}

/** Reads the source (only GETs, for a workspace) and decides what moves; refuses bad input with a sentence. */
export async function readTerraformInput(
  from: TerraformSource, organization: string, address: string, client: Pick<WsbridgeClient, "readCurrentState">,
): Promise<TerraformInput> {
  if ("file" in from) {
    let text: string;
    try {
      text = fs.readFileSync(from.file === "-" ? 0 : from.file, "utf8");
    } catch (error) {
      throw new TerraformStateError(from.file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
    }
    return terraformInputOf(text, from.file === "-" ? "standard input" : from.shown ?? from.file, organization, address);
  }
  const current = await client.readCurrentState(organization, from.workspace);
  if ("none" in current) {
    throw new TerraformStateError(`workspace ${from.workspace}`, "has no state version yet: there is nothing Terraform manages there to take over.");
  }
  return terraformInputOf(current.content, `workspace ${from.workspace} (state version ${current.stateVersionId}, serial ${current.serial})`, organization, address);
}

export function terraformInputOf(text: string, source: string, organization: string, address: string): TerraformInput {
  const state = readTerraformState(text, source);
  const takeover = takeoverOf(state, organization, source, address);
  return { source, state, takeover, chosen: chosenOf(takeover) };
}

/**
 * The workspaces adopt takes: one Terraform created (a tfe_workspace) whole, named after its address;
 * one it did not, only the objects Terraform managed on it (its consumers, its retention policy),
 * named after the first of their addresses.
 */
export function chosenOf(takeover: Takeover): ChosenWorkspace[] {
  const byWorkspace = new Map<string, { name?: string; first: string; kinds: Set<AdoptedKind> }>();
  const ordered = [...takeover.taken].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  for (const taken of ordered) {
    const entry = byWorkspace.get(taken.workspaceId) ?? { first: taken.name, kinds: new Set<AdoptedKind>() };
    entry.kinds.add(taken.kind);
    if (taken.kind === "Workspace") entry.name = taken.name;
    byWorkspace.set(taken.workspaceId, entry);
  }
  return [...byWorkspace].map(([id, entry]) => (entry.name !== undefined
    ? { id, name: entry.name }
    : { id, name: entry.first, only: [...entry.kinds].sort() }));
}


// Which workspaces `adopt` takes: by project, by name glob, by key-value tag, minus excluded globs;
// the whole organization when nothing is given.
import type { Workspace } from "../runtime/api";
import type { AdoptedKind } from "./model";

/**
 * A workspace chosen by its id (the Terraform input, terraform/input.ts): the base of its resources'
 * names, and which of its objects are taken.
 */
export interface ChosenWorkspace {
  readonly id: string;
  /** The base of its resources' names; adopt adds each kind's suffix (`app`, `app-lock`). */
  readonly name: string;
  /** Only these of its objects; every object adopt takes of a workspace when absent. */
  readonly only?: readonly AdoptedKind[];
}

export interface Selection {
  /** Project names or ids (`prj-…`); a workspace in any of them. */
  readonly projects: readonly string[];
  /** Name globs (`*` any run of characters, `?` one); a workspace matching any of them. */
  readonly workspaces: readonly string[];
  /**
   * Key-value tags, direct or inherited from the project; a workspace carrying all of them. `absent`:
   * a workspace carrying no tag of that key (the folder of a `--split-by tag:<key>` for those without).
   */
  readonly tags: readonly { readonly key: string; readonly value?: string; readonly absent?: true }[];
  /** Name globs; a workspace matching any of them is left out. */
  readonly excludes: readonly string[];
  /** Workspaces chosen one by one, and where from (`--from-terraform`): only these, with the other criteria. */
  readonly chosen?: { readonly from: string; readonly workspaces: readonly ChosenWorkspace[] };
}

export const EVERYTHING: Selection = { projects: [], workspaces: [], tags: [], excludes: [] };

export function isEverything(selection: Selection): boolean {
  return selection.chosen === undefined && selection.projects.length + selection.workspaces.length + selection.tags.length + selection.excludes.length === 0;
}

/** `*` any run of characters, `?` one character, anything else itself; the whole name must match. */
export function globPattern(glob: string): RegExp {
  const body = [...glob].map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.|+()[\]{}]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`);
}

/**
 * The predicate a selection makes, given the project ids its project names resolved to (every name
 * or id in `selection.projects` resolved; see discover.ts).
 */
export function selector(selection: Selection, projectIds: ReadonlySet<string>): (workspace: Workspace) => boolean {
  const names = selection.workspaces.map(globPattern);
  const excluded = selection.excludes.map(globPattern);
  const chosen = selection.chosen === undefined ? undefined : new Set(selection.chosen.workspaces.map((w) => w.id));
  return (workspace) => {
    if (chosen !== undefined && !chosen.has(workspace.id)) return false;
    if (projectIds.size > 0 && !projectIds.has(workspace.projectId ?? "")) return false;
    if (names.length > 0 && !names.some((p) => p.test(workspace.name))) return false;
    if (excluded.some((p) => p.test(workspace.name))) return false;
    const tags = workspace.effectiveTagBindings ?? [];
    return selection.tags.every((want) => (want.absent === true
      ? !tags.some((t) => t.key === want.key)
      : tags.some((t) => t.key === want.key && (want.value === undefined || t.value === want.value))));
  };
}

/** The selection in words, for comments and the summary. */
export function describeSelection(selection: Selection): string {
  if (isEverything(selection)) return "the whole organization";
  const parts: string[] = [];
  if (selection.chosen !== undefined) parts.push(`--from-terraform ${selection.chosen.from} (${selection.chosen.workspaces.length} workspaces)`);
  if (selection.projects.length > 0) parts.push(`--project ${selection.projects.join(", ")}`);
  if (selection.workspaces.length > 0) parts.push(`--workspace ${selection.workspaces.join(", ")}`);
  const present = selection.tags.filter((t) => t.absent !== true);
  const absent = selection.tags.filter((t) => t.absent === true);
  if (present.length > 0) parts.push(`--tag ${present.map((t) => (t.value === undefined ? t.key : `${t.key}=${t.value}`)).join(", ")}`);
  if (absent.length > 0) parts.push(`without tag ${absent.map((t) => t.key).join(", ")}`);
  if (selection.excludes.length > 0) parts.push(`--exclude ${selection.excludes.join(", ")}`);
  return parts.join(" ");
}

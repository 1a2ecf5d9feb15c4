// How `--split-by` groups an estate: the one place that decides which objects go into which project
// (folder, stack). A group holds workspaces and what hangs off them; the registry's deprecations are a
// group of their own. A workspace another group adopts is a literal id in this one's program, with a
// comment naming the folder that adopts it (docs/adopt.md says why not a stack reference).
import type { DiscoveredWorkspace, Estate } from "./model";
import { uniqueNames } from "./names";
import type { Selection } from "./selection";

export const SPLITS = ["project"] as const;
export type SplitBy = (typeof SPLITS)[number];

/** The key of the registry's group (project groups are keyed by project id). */
export const REGISTRY_GROUP = "registry";

export interface Group {
  /** Stable between runs: the project's id, or {@link REGISTRY_GROUP}. */
  readonly key: string;
  /** Its folder below --out. */
  readonly folder: string;
  /** What it holds, for people. */
  readonly title: string;
  /** What a run of its folder alone selects: its own objects and nothing else. */
  readonly selection: Selection;
  readonly modules: boolean;
  /** The estate its program adopts. */
  readonly estate: Estate;
}

/**
 * The groups of `estate` (the split's whole selection). `folders` are the folders earlier runs gave
 * each key (kept, so a renamed project keeps its folder); `heldBy` the workspaces a folder's stack
 * holds (a workspace that moved to another project stays with the stack that holds it: nothing is
 * adopted twice).
 */
export function groupsOf(
  estate: Estate, splitBy: SplitBy, selection: Selection, folders: Readonly<Record<string, string>>, heldBy: ReadonlyMap<string, string>,
): Group[] {
  void splitBy; // one way to split today; a `tag:<key>` split would key the groups by that tag's value
  const keyOf = (found: DiscoveredWorkspace): string => {
    const holder = heldBy.get(found.workspace.id);
    const held = holder === undefined ? undefined : Object.entries(folders).find(([, folder]) => folder === holder)?.[0];
    return held ?? found.workspace.projectId ?? "";
  };
  const keys = [...new Set(estate.workspaces.map(keyOf))];
  const registry = estate.modules !== undefined;
  const all = [...keys, ...(registry ? [REGISTRY_GROUP] : [])];
  const fresh = all.filter((key) => folders[key] === undefined);
  const named = uniqueNames(fresh.map((key) => ({ key, base: folderName(key === REGISTRY_GROUP ? "registry" : estate.projects.get(key) ?? key) })),
    new Set(Object.values(folders)));
  const folderOf = (key: string): string => folders[key] ?? named.get(key) ?? key;
  return all.map((key) => {
    const mine = estate.workspaces.filter((w) => key !== REGISTRY_GROUP && keyOf(w) === key);
    const others = estate.workspaces.filter((w) => !mine.includes(w));
    const elsewhere = new Map(others.map((w) => [w.workspace.id,
      `adopted by the stack of ../${folderOf(keyOf(w))} (wsbridge adopt --split-by ${splitBy}), so a literal id here`]));
    const isRegistry = key === REGISTRY_GROUP;
    return {
      key,
      folder: folderOf(key),
      title: isRegistry ? "the registry's module deprecations" : `project ${estate.projects.get(key) ?? key} (${key})`,
      selection: isRegistry ? { projects: [], workspaces: [], tags: [], excludes: ["*"] } : { ...selection, projects: [key] },
      modules: isRegistry,
      estate: {
        ...estate,
        workspaces: mine,
        unselected: new Map([...estate.unselected, ...others.map((w) => [w.workspace.id, w.workspace.name] as const)]),
        elsewhere,
        ...(isRegistry ? {} : { modules: undefined }),
      },
    };
  });
}

/** A project's name as a folder's: letters, digits, `-`, `_` and `.`; anything else becomes `-`. */
export function folderName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return cleaned === "" ? "project" : cleaned;
}

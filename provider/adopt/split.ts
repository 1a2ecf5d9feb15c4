// How `--split-by` groups an estate: the one place that decides which objects go into which project
// (folder, stack). A group holds workspaces and what hangs off them; the registry's deprecations are a
// group of their own. A workspace another group adopts is a literal id in this one's program, with a
// comment naming the folder that adopts it (docs/adopt.md says why not a stack reference).
import type { DiscoveredWorkspace, Estate } from "./model";
import { uniqueNames } from "./names";
import type { Selection } from "./selection";

/**
 * `project`: one group per project of the organization. `tag:<key>`: one per value of that tag key
 * (direct or inherited from the project: teams own workspaces by a tag such as `team` as often as by
 * project), and one for the workspaces without it.
 */
export type SplitBy = "project" | `tag:${string}`;

/** The usage's words for the splits. */
export const SPLITS_USAGE = "project or tag:<key>";

/** `--split-by`'s value, or a sentence saying what is wrong with it. */
export function parseSplitBy(text: string): SplitBy | { readonly refusal: string } {
  if (text === "project") return "project";
  const key = /^tag:(.*)$/.exec(text)?.[1];
  if (key === undefined) return { refusal: `--split-by must be ${SPLITS_USAGE}, got "${text}".` };
  if (key === "" || key.length > 128 || key.includes("=")) return { refusal: `--split-by tag:<key>: the key must be 1 to 128 characters without "=" (a tag key), got "${key}".` };
  return `tag:${key}`;
}

/** The tag key of a `tag:<key>` split; undefined for `project`. */
export function splitTagKey(splitBy: SplitBy): string | undefined {
  return splitBy.startsWith("tag:") ? splitBy.slice("tag:".length) : undefined;
}

/** The key of the registry's group (project groups are keyed by project id). */
export const REGISTRY_GROUP = "registry";

export interface Group {
  /** Stable between runs: the project's id, `tag:<key>=<value>` (`tag:<key>` for those without), or {@link REGISTRY_GROUP}. */
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
  const tagKey = splitTagKey(splitBy);
  const keyOf = (found: DiscoveredWorkspace): string => {
    const holder = heldBy.get(found.workspace.id);
    const held = holder === undefined ? undefined : Object.entries(folders).find(([, folder]) => folder === holder)?.[0];
    return held ?? (tagKey === undefined ? found.workspace.projectId ?? "" : tagGroupKey(tagKey, found));
  };
  const keys = [...new Set(estate.workspaces.map(keyOf))];
  const registry = estate.modules !== undefined;
  const all = [...keys, ...(registry ? [REGISTRY_GROUP] : [])];
  const fresh = all.filter((key) => folders[key] === undefined);
  const named = uniqueNames(fresh.map((key) => ({ key, base: folderName(key === REGISTRY_GROUP ? "registry" : groupName(key, estate)) })),
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
      title: isRegistry ? "the registry's module deprecations" : groupTitle(key, estate),
      selection: isRegistry ? { projects: [], workspaces: [], tags: [], excludes: ["*"] } : groupSelection(key, selection),
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

/** A workspace a stack holds that the split would now put in another group: it stays where it is held. */
export interface Staying {
  readonly workspace: string;
  /** The folder whose stack holds it. */
  readonly folder: string;
  /** The group it would join if nobody held it, for people. */
  readonly now: string;
}

/** The held workspaces whose project (or tag value) changed since their stack took them: reported, not moved. */
export function stayingWorkspaces(
  estate: Estate, splitBy: SplitBy, folders: Readonly<Record<string, string>>, heldBy: ReadonlyMap<string, string>,
): Staying[] {
  const tagKey = splitTagKey(splitBy);
  const out: Staying[] = [];
  for (const found of estate.workspaces) {
    const folder = heldBy.get(found.workspace.id);
    if (folder === undefined) continue;
    const natural = tagKey === undefined ? found.workspace.projectId ?? "" : tagGroupKey(tagKey, found);
    if (folders[natural] === folder) continue;
    out.push({ workspace: `${found.workspace.name} (${found.workspace.id})`, folder, now: groupTitle(natural, estate) });
  }
  return out;
}

/** `tag:team=payments` for a workspace carrying team=payments (direct or inherited), `tag:team` for one without `team`. */
function tagGroupKey(tagKey: string, found: DiscoveredWorkspace): string {
  const tag = (found.workspace.effectiveTagBindings ?? []).find((t) => t.key === tagKey);
  return tag === undefined ? `tag:${tagKey}` : `tag:${tagKey}=${tag.value}`;
}

/** A group key's tag: its key, and its value (undefined: the workspaces without the key). */
function tagOfGroup(key: string): { key: string; value?: string } | undefined {
  if (!key.startsWith("tag:")) return undefined;
  const body = key.slice("tag:".length);
  const at = body.indexOf("=");
  return at < 0 ? { key: body } : { key: body.slice(0, at), value: body.slice(at + 1) };
}

/** The folder's base name: the project's name, the tag's value, or `no-<key>`. */
function groupName(key: string, estate: Estate): string {
  const tag = tagOfGroup(key);
  if (tag === undefined) return estate.projects.get(key) ?? key;
  if (tag.value === undefined) return `no-${tag.key}`;
  return tag.value === "" ? `${tag.key}-without-value` : tag.value;
}

function groupTitle(key: string, estate: Estate): string {
  const tag = tagOfGroup(key);
  if (tag === undefined) return `project ${estate.projects.get(key) ?? key} (${key})`;
  return tag.value === undefined ? `the workspaces without tag ${tag.key}` : `tag ${tag.key}=${tag.value}`;
}

/** What a run of the group's folder alone selects. */
function groupSelection(key: string, selection: Selection): Selection {
  const tag = tagOfGroup(key);
  if (tag === undefined) return { ...selection, projects: [key] };
  return { ...selection, tags: [...selection.tags, tag.value === undefined ? { key: tag.key, absent: true } : { key: tag.key, value: tag.value }] };
}

/** A project's name as a folder's: letters, digits, `-`, `_` and `.`; anything else becomes `-`. */
export function folderName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return cleaned === "" ? "project" : cleaned;
}

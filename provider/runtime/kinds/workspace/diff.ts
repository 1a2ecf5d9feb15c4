// diff: which declared inputs differ from the server's last report, each as a property path, and what
// replaces the workspace (a move to another organization).
import { NotFoundError } from "../../api";
import { sharedClient } from "../../config";
import { type DiffOutcome, isUnknown, type PropertyChange, type Props } from "../../lifecycle";
import { childPath, pathsOfChange } from "../../property-paths";
import { changed, changedInputs, comparable } from "./compare";
import { CREATE_ONLY, KIND, PARTIAL_OBJECTS, SET_INPUTS } from "./fields";
import { fromState, label } from "./state";

export async function diff(_id: string, state: Props, news: Props): Promise<DiffOutcome> {
  const olds = fromState(state);
  const replaces: string[] = [];
  // The workspace cannot move between organizations: that is a new workspace.
  if (changed(olds.organization, news.organization)) replaces.push("organization");
  if (replaces.length > 0) await assertOrganizationReachable(String(news.organization));
  const updates = changedInputs(olds, news);
  const refused = updates.filter((key): key is (typeof CREATE_ONLY)[number] => (CREATE_ONLY as readonly string[]).includes(key));
  if (refused.length > 0 && replaces.length === 0) {
    throw new Error(
      `${label(news)}: ${refused.join(" and ")} can only be set when the workspace is created (the server holds ` +
        `${refused.map((k) => `${k}: ${JSON.stringify(olds[k] ?? null)}`).join(", ")}). Put back that value or remove the ` +
        "property from the program; to really start over, replace the workspace (`pulumi up --replace <urn>`).",
    );
  }
  // Names are unique in an organization, so the old workspace goes first (the dynamic class's default
  // option says the same, and an explicit option wins over this answer on either route).
  return {
    changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: replaces.length > 0,
    detailedDiff: [...replaces.map((key): PropertyChange => ({ path: key, kind: "update", replace: true })), ...changePaths(olds, news, updates)],
  };
}

/**
 * Where each changed input changes (plugin route, `pulumi preview --diff`): a set's member, a map's
 * key, a declared sub-key of vcsRepo or settingOverwrites. An input left out that the update restores
 * (a repository disconnected, an auto-destroy cleared or inherited, a mode or pool of the workspace's
 * own inherited again beside settingOverwrites) is a delete of the server's value.
 */
export function changePaths(olds: Props, news: Props, updates: readonly string[]): PropertyChange[] {
  const paths: PropertyChange[] = [];
  for (const key of updates) {
    const declared = news[key];
    if (declared === undefined) {
      // The server's value goes (against the last report: the input may never have been declared).
      paths.push({ path: key, kind: "delete", replace: false });
      continue;
    }
    if (isUnknown(declared) || key === "name") {
      paths.push({ path: key, kind: "update", replace: false });
    } else if ((PARTIAL_OBJECTS as readonly string[]).includes(key) && olds[key] !== null && olds[key] !== undefined) {
      const mine = declared as Props;
      const theirs = olds[key] as Props;
      const subs = Object.keys(mine).filter((sub) => mine[sub] !== undefined && comparable(`${key}.${sub}`, mine[sub]) !== comparable(`${key}.${sub}`, theirs[sub]));
      paths.push(...subs.map((sub): PropertyChange => ({ path: childPath(key, sub), kind: theirs[sub] === undefined ? "add" : "update", replace: false })));
    } else if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
      paths.push({ path: key, kind: "add", replace: false }); // a repository connected where there was none
    } else if ((SET_INPUTS as readonly string[]).includes(key)) {
      paths.push(...pathsOfChange(key, Array.isArray(olds[key]) ? olds[key] : [], declared, { set: true }));
    } else if (key === "tagBindings") {
      paths.push(...pathsOfChange(key, olds[key] ?? {}, declared));
    } else {
      paths.push({ path: key, kind: olds[key] === undefined ? "add" : "update", replace: false });
    }
  }
  return paths;
}
/**
 * A move to another organization deletes the workspace first (names are unique, see the class), so
 * the preview fails, with a read, when the new organization cannot take the workspace.
 */
export async function assertOrganizationReachable(organization: string): Promise<void> {
  const client = sharedClient();
  try {
    for await (const _first of client.listWorkspaces(organization, { pageSize: 1 })) break;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new Error(
      `${KIND}: cannot move to organization "${organization}": it does not exist, or the token cannot see it. Nothing was ` +
        "changed; the workspace would be deleted before it is created there.",
    );
  }
}

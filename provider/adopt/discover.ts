// Discovery: everything `adopt` can adopt in one organization, read with GETs only (a read-only token
// is enough). The requests, for N selected workspaces of which G share their state globally and P name
// a data-retention policy of their own (self-managed), and M registry modules:
//   1 ping (the edition) + ⌈projects/100⌉ + ⌈workspaces/100⌉ (with their tag bindings included)
//   + (N − G) consumer lists (C1) + P policies (C11) + ⌈M/100⌉ + M version lists (D4).
// Locks, SSH keys and direct tags come with the workspace list; no other read is needed.
import {
  ForbiddenError, NotFoundError, type DataRetentionPolicy, type RegistryModule, type Workspace, type WsbridgeClient,
} from "../runtime/api";
import type { DiscoveredModule, DiscoveredWorkspace, Estate, Unreadable } from "./model";
import { selector, type Selection } from "./selection";
import { eachAtMost } from "./each-at-most";

export interface DiscoveryOptions {
  readonly organization: string;
  readonly selection: Selection;
  /** Read the registry's modules and their deprecations (default true). */
  readonly modules: boolean;
  /** Reads in flight at once (the client's rate limiter paces them). */
  readonly concurrency: number;
  /** Called as reads finish, for the progress line. */
  readonly progress?: (phase: string, done: number, total: number) => void;
}

/** Thrown when a name given to --project matches no project. */
export class UnknownProjectError extends Error {}

export async function discover(client: WsbridgeClient, options: DiscoveryOptions): Promise<Estate> {
  const { organization, progress } = options;
  const edition = await client.edition();
  progress?.("the projects", 0, 0);
  const projects = new Map<string, string>();
  for await (const project of client.listProjects(organization)) projects.set(project.id, project.name);
  const projectIds = resolveProjects(options.selection.projects, projects);

  const all: Workspace[] = [];
  for await (const workspace of client.listWorkspaces(organization, { include: ["effective_tag_bindings"] })) {
    all.push(workspace);
    progress?.("the workspace list", all.length, 0);
  }
  const selects = selector(options.selection, projectIds);
  const selected = all.filter(selects).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const unselected = new Map(all.filter((w) => !selects(w)).map((w) => [w.id, w.name]));

  let done = 0;
  const workspaces = await eachAtMost(options.concurrency, selected, async (workspace): Promise<DiscoveredWorkspace> => {
    const consumers = workspace.globalRemoteState ? undefined : await readable(`the remote-state consumers of ${workspace.name}`, () => collect(client.listRemoteStateConsumers(workspace.id)));
    const policy = edition === "self-managed" && workspace.dataRetentionPolicy !== null
      ? await readable<DataRetentionPolicy>(`the data-retention policy of ${workspace.name}`, () => client.readDataRetentionPolicy(workspace.id))
      : undefined;
    progress?.("each workspace", ++done, selected.length);
    return { workspace, ...(consumers !== undefined && { consumers }), ...(policy !== undefined && { policy }) };
  });

  const modules = options.modules ? await discoverModules(client, options) : undefined;
  return {
    address: client.address, organization, edition, workspaces, unselected, projects,
    ...(modules !== undefined && { modules }),
  };
}

async function discoverModules(client: WsbridgeClient, options: DiscoveryOptions): Promise<readonly DiscoveredModule[] | Unreadable> {
  const listed = await readable("the registry's modules", () => collect(client.listRegistryModules(options.organization)));
  if ("unreadable" in listed) return listed;
  // Deprecation is of private modules' versions; a public module added to the registry has none here.
  const own = listed.filter((m: RegistryModule) => m.registryName === "private")
    .sort((a, b) => (`${a.name}/${a.provider}` < `${b.name}/${b.provider}` ? -1 : 1));
  let done = 0;
  return eachAtMost(options.concurrency, own, async (module): Promise<DiscoveredModule> => {
    const versions = await readable(`the versions of module ${module.name}/${module.provider}`, () =>
      client.listRegistryModuleVersions({ namespace: module.namespace, name: module.name, provider: module.provider }));
    options.progress?.("each module", ++done, own.length);
    return { module, versions };
  });
}

/** The project ids the names or ids of --project name; an Error naming the one that matches nothing. */
function resolveProjects(wanted: readonly string[], projects: ReadonlyMap<string, string>): Set<string> {
  const ids = new Set<string>();
  for (const want of wanted) {
    const matches = [...projects].filter(([id, name]) => id === want || name === want).map(([id]) => id);
    if (matches.length === 0) {
      throw new UnknownProjectError(`--project ${JSON.stringify(want)} names no project of the organization (it has ${[...projects.values()].map((n) => JSON.stringify(n)).join(", ") || "none"}).`);
    }
    matches.forEach((id) => ids.add(id));
  }
  return ids;
}

/** The read's value, or why the token could not read it (404/403 answer both "none" and "not yours"). */
async function readable<T>(what: string, read: () => Promise<T>): Promise<T | Unreadable> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ForbiddenError) {
      return { unreadable: `the token cannot read ${what} (${error.status})` };
    }
    throw error;
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

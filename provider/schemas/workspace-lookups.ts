// The arguments and results of the workspace lookups (provider/dynamic/functions/workspaces.ts): plain,
// documented types, shared by the program-facing functions and their runtime, so neither imports
// the other's module for them.

/** Arguments of {@link getWorkspace}: exactly one of `id` or `name`. */
export interface GetWorkspaceArgs {
  /**
   * The organization to find `name` in. Defaults to the `wsbridge:organization` stack config (else
   * `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`). With `id`, the workspace must belong to it.
   * Letters, digits, `-` and `_`.
   */
  organization?: string;
  /** The workspace's name (letters, digits, `-` and `_`). Give this or `id`, not both. */
  name?: string;
  /** The workspace's id, `ws-` followed by letters and digits. Give this or `name`, not both. */
  id?: string;
}

/** Arguments of {@link listWorkspaces}. Every filter is optional; filters given combine with AND. */
export interface ListWorkspacesArgs {
  /**
   * The organization whose workspaces to list. Defaults to the `wsbridge:organization` stack config
   * (else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`). Letters, digits, `-` and `_`.
   */
  organization?: string;
  /** Fuzzy match on the name: workspaces whose name contains this text (`search[name]`). */
  search?: string;
  /**
   * Name pattern with `*` as prefix, suffix or both, e.g. `app-*`, `*-prod`, `*-net-*`
   * (`search[wildcard-name]`). Letters, digits, `-`, `_` and `*`.
   */
  wildcardName?: string;
  /** Only workspaces carrying ALL of these flat tags (`search[tags]`). Non-empty, without commas. */
  tags?: string[];
  /** Leave out workspaces carrying ANY of these flat tags (`search[exclude-tags]`). Non-empty, without commas. */
  excludeTags?: string[];
  /** Only workspaces of this project, `prj-` followed by letters and digits (`filter[project][id]`). */
  projectId?: string;
  /**
   * Only workspaces with ALL of these key-value tags, their own or inherited from their project
   * (`filter[tagged]`). A value of `""` matches the key whatever its value.
   */
  tagged?: Record<string, string>;
}

/** The repository a workspace runs from. */
export interface WorkspaceLookupVcsRepo {
  /** The repository, `:org/:repo` (or `:org/:project/_git/:repo`); null if the server sent none. */
  identifier: string | null;
  /** The branch runs use; null for the repository's default branch. */
  branch: string | null;
}

/** A workspace as a lookup returns it: plain data, safe to export as a stack output (no token in it). */
export interface WorkspaceLookupResult {
  /** The workspace's id (`ws-…`). */
  id: string;
  /** The workspace's name, unique in its organization. */
  name: string;
  /** The organization that owns the workspace. */
  organization: string;
  /** Free-text description; null when it has none. */
  description: string | null;
  /** `remote`, `local` or `agent`: what applies, inherited or the workspace's own. */
  executionMode: string;
  /** The engine version or version constraint the workspace uses; null if the server sent none. */
  engineVersion: string | null;
  /** The project the workspace belongs to (`prj-…`); null if the server sent none. */
  projectId: string | null;
  /** The agent pool runs use (`apool-…`); null unless the execution mode is `agent`. */
  agentPoolId: string | null;
  /** The SSH key assigned to the workspace (`sshkey-…`); null when none is. */
  sshKeyId: string | null;
  /** Whether runs apply automatically after a successful plan. */
  autoApply: boolean;
  /** Whether every workspace of the organization may read this one's state. */
  globalRemoteState: boolean;
  /** Whether the other workspaces of its project may read this one's state; null if the server sent none. */
  projectRemoteState: boolean | null;
  /** The directory the engine runs in, relative to the repository root; null for the root. */
  workingDirectory: string | null;
  /** The workspace's flat tags. */
  tagNames: string[];
  /** Whether the workspace is locked. */
  locked: boolean;
  /** How many resources the workspace's current state manages. */
  resourceCount: number;
  /** The repository the workspace runs from; null when it has none. */
  vcsRepo: WorkspaceLookupVcsRepo | null;
  /** When the workspace was created (ISO 8601, UTC). */
  createdAt: string;
  /** When the workspace was last updated (ISO 8601, UTC). */
  updatedAt: string;
  /** The workspace's page in the service's UI (absolute URL). */
  htmlUrl: string;
  /** The workspace in the API: the absolute URL of `/api/v2/workspaces/<id>`. */
  apiUrl: string;
}

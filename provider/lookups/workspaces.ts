// Read-only lookups of workspaces the program does not manage (like Terraform's `tfe_workspace` and
// `tfe_workspace_ids` data sources). They run in the program process, during `pulumi preview` too,
// and only ever send GET requests.
//
// This module is loaded with the resource classes, so it stays light: the runtime (HTTP client, zod)
// is required inside each call, the first time a lookup runs. Nothing here is serialized into state.
import * as pulumi from "@pulumi/pulumi";
import type * as lookupRuntime from "../runtime/lookups/workspaces";
import { warnIfTokenInPlaintext } from "../resources/program-checks";

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

/** Arguments of {@link getWorkspaceOutput}: those of {@link GetWorkspaceArgs}, each a Pulumi `Input`. */
export interface GetWorkspaceOutputArgs {
  /** See {@link GetWorkspaceArgs.organization}. */
  organization?: pulumi.Input<string>;
  /** See {@link GetWorkspaceArgs.name}. */
  name?: pulumi.Input<string>;
  /** See {@link GetWorkspaceArgs.id}. */
  id?: pulumi.Input<string>;
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

/** Arguments of {@link listWorkspacesOutput}: those of {@link ListWorkspacesArgs}, each a Pulumi `Input`. */
export interface ListWorkspacesOutputArgs {
  /** See {@link ListWorkspacesArgs.organization}. */
  organization?: pulumi.Input<string>;
  /** See {@link ListWorkspacesArgs.search}. */
  search?: pulumi.Input<string>;
  /** See {@link ListWorkspacesArgs.wildcardName}. */
  wildcardName?: pulumi.Input<string>;
  /** See {@link ListWorkspacesArgs.tags}. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** See {@link ListWorkspacesArgs.excludeTags}. */
  excludeTags?: pulumi.Input<pulumi.Input<string>[]>;
  /** See {@link ListWorkspacesArgs.projectId}. */
  projectId?: pulumi.Input<string>;
  /** See {@link ListWorkspacesArgs.tagged}. */
  tagged?: pulumi.Input<Record<string, pulumi.Input<string>>>;
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

/** Loads the runtime on the first lookup (see the header comment). */
function runtime(): typeof lookupRuntime {
  return require("../runtime/lookups/workspaces") as typeof lookupRuntime;
}

/** Stack config as this program's run sees it (`wsbridge:*` keys), read when a lookup runs. */
const programConfig: lookupRuntime.ConfigSource = { get: (key) => pulumi.runtime.getConfig(key) };

/**
 * Reads one workspace, by `id` or by `organization` and `name`. Fails when it is not found, naming
 * what was looked for (the API answers 404 both for a missing workspace and for one the token may
 * not see), and, before any request, when the arguments break a rule.
 *
 * @example
 * const shared = await getWorkspace({ name: "networking-prod" });
 */
export async function getWorkspace(args: GetWorkspaceArgs): Promise<WorkspaceLookupResult> {
  warnIfTokenInPlaintext();
  return runtime().getWorkspace(args, { config: programConfig });
}

/**
 * {@link getWorkspace} for Pulumi inputs: runs once every argument is known (during preview too).
 *
 * @example
 * const shared = getWorkspaceOutput({ name: "networking-prod" });
 * export const sharedId = shared.id;
 */
export function getWorkspaceOutput(args: GetWorkspaceOutputArgs): pulumi.Output<WorkspaceLookupResult> {
  return pulumi.output(args).apply((plain) => getWorkspace(plain));
}

/**
 * Lists the organization's workspaces that match every filter given, reading every page.
 *
 * @example
 * const prod = await listWorkspaces({ tags: ["prod"], excludeTags: ["legacy"] });
 */
export async function listWorkspaces(args: ListWorkspacesArgs = {}): Promise<WorkspaceLookupResult[]> {
  warnIfTokenInPlaintext();
  return runtime().listWorkspaces(args, { config: programConfig });
}

/**
 * {@link listWorkspaces} for Pulumi inputs: runs once every argument is known (during preview too).
 *
 * @example
 * export const prodIds = listWorkspacesOutput({ tagged: { env: "prod" } }).apply((ws) => ws.map((w) => w.id));
 */
export function listWorkspacesOutput(args: ListWorkspacesOutputArgs = {}): pulumi.Output<WorkspaceLookupResult[]> {
  return pulumi.output(args).apply((plain) => listWorkspaces(plain));
}

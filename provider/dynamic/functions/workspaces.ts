// Read-only lookups of workspaces the program does not manage (like Terraform's `tfe_workspace` and
// `tfe_workspace_ids` data sources). They run in the program process, during `pulumi preview` too,
// and only ever send GET requests.
//
// This module is loaded with the resource classes, so it stays light: the runtime (HTTP client, zod)
// is required inside each call, the first time a lookup runs. Nothing here is serialized into state.
import * as pulumi from "@pulumi/pulumi";
import type * as lookupRuntime from "../../runtime/lookups/workspaces";
import { warnIfTokenInPlaintext } from "../program-checks";
import type { GetWorkspaceArgs, ListWorkspacesArgs, WorkspaceLookupResult, WorkspaceLookupVcsRepo } from "../../schemas/workspace-lookups";

export type { GetWorkspaceArgs, ListWorkspacesArgs, WorkspaceLookupResult, WorkspaceLookupVcsRepo };

/** Arguments of {@link getWorkspaceOutput}: those of {@link GetWorkspaceArgs}, each a Pulumi `Input`. */
export interface GetWorkspaceOutputArgs {
  /** See {@link GetWorkspaceArgs.organization}. */
  organization?: pulumi.Input<string>;
  /** See {@link GetWorkspaceArgs.name}. */
  name?: pulumi.Input<string>;
  /** See {@link GetWorkspaceArgs.id}. */
  id?: pulumi.Input<string>;
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

/** Loads the runtime on the first lookup (see the header comment). */
function runtime(): typeof lookupRuntime {
  return require("../../runtime/lookups/workspaces") as typeof lookupRuntime;
}

/** Stack config as this program's run sees it (`wsbridge:*` keys), read when a lookup runs. */
const programConfig: lookupRuntime.ConfigSource = { get: (key) => pulumi.runtime.getConfig(key) };

/**
 * Reads one workspace, by `id` or by `organization` and `name`. Fails when it is not found, naming
 * what was looked for (the API answers 404 both for a missing workspace and for one the token may
 * not see), and, before any request, when the arguments break a rule.
 *
 * @param args Which workspace: `id` or `name`, and `organization` (which defaults to the stack config).
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
 * @param args The arguments of {@link getWorkspace}, each may be a Pulumi `Input`.
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
 * @param args The filters; with none, every workspace of the organization is listed.
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
 * @param args The filters of {@link listWorkspaces}, each may be a Pulumi `Input`.
 *
 * @example
 * export const prodIds = listWorkspacesOutput({ tagged: { env: "prod" } }).apply((ws) => ws.map((w) => w.id));
 */
export function listWorkspacesOutput(args: ListWorkspacesOutputArgs = {}): pulumi.Output<WorkspaceLookupResult[]> {
  return pulumi.output(args).apply((plain) => listWorkspaces(plain));
}

import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceInputs } from "../schemas/workspace";
import { workspaceProvider } from "../shims";
import { claimUniqueName, ownerMarker, warnIfTokenInPlaintext } from "./program-checks";

/** Arguments of a {@link Workspace}; every field may be a Pulumi `Input`. See {@link WorkspaceInputs}. */
export type WorkspaceArgs = { [K in keyof WorkspaceInputs]: pulumi.Input<WorkspaceInputs[K]> };

/**
 * A workspace of the Workspace Management API. Destroy uses safe delete unless `forceDelete` is set,
 * so a workspace that still manages resources is never removed by accident.
 *
 * @example
 * const ws = new Workspace("networking", { name: "networking-prod", description: "VPCs and peering" });
 */
export class Workspace extends pulumi.dynamic.Resource {
  /** The workspace's name. */
  declare readonly name: pulumi.Output<string>;
  /** The organization that owns the workspace. */
  declare readonly organization: pulumi.Output<string>;
  /** The workspace's description, as the server holds it (absent when it has none). */
  declare readonly description: pulumi.Output<string | undefined>;
  /** Whether destroy force-deletes the workspace. */
  declare readonly forceDelete: pulumi.Output<boolean>;
  /** The workspace's id (`ws-…`), the same as the resource's `id`. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** `remote`, `local` or `agent`. */
  declare readonly executionMode: pulumi.Output<string>;
  /** The engine version or version constraint the workspace uses. */
  declare readonly engineVersion: pulumi.Output<string | null>;
  /** Whether the workspace is locked. */
  declare readonly locked: pulumi.Output<boolean>;
  /** How many resources the workspace's current state manages. */
  declare readonly resourceCount: pulumi.Output<number>;
  /** The project the workspace belongs to. */
  declare readonly projectId: pulumi.Output<string | null>;
  /** When the workspace was created (ISO 8601, UTC). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the workspace was last updated (ISO 8601, UTC). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** The workspace's page in the service's UI. */
  declare readonly htmlUrl: pulumi.Output<string>;

  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs that are not inputs must be present (as undefined) to be registered on the resource.
    const outputs = {
      workspaceId: undefined, executionMode: undefined, engineVersion: undefined, locked: undefined,
      resourceCount: undefined, projectId: undefined, createdAt: undefined, updatedAt: undefined, htmlUrl: undefined,
    };
    warnIfTokenInPlaintext();
    const organization = args.organization ?? defaultOrganization();
    if (organization !== undefined) claimUniqueName("Workspace", [organization, args.name], name);
    // `__owner` marks the workspace as this resource's (runtime/ownership.ts); it is not a user input.
    const internal = { __owner: ownerMarker("Workspace", name) };
    // Names are unique in an organization, so a replacement that keeps the name must delete first; the
    // provider cannot tell `up --replace` from a retried create (README, Workspace). Overridable.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(workspaceProvider, name, { ...outputs, description: undefined, forceDelete: undefined, organization: undefined, ...args, ...internal }, options, "wsbridge", "Workspace");
  }
}

/** The organization a Workspace without one gets, as the provider resolves it (stack config, then environment). */
function defaultOrganization(): string | undefined {
  const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);
  return nonEmpty(pulumi.runtime.getConfig("wsbridge:organization")) ??
    nonEmpty(process.env["WSBRIDGE_ORGANIZATION"]) ?? nonEmpty(process.env["TFE_ORGANIZATION"]);
}

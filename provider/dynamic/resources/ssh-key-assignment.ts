import * as pulumi from "@pulumi/pulumi";
import type { SshKeyAssignmentInputs } from "../../schemas/ssh-key-assignment";
import { sshKeyAssignmentProvider } from "../serialized-providers";
import { WsbridgeResource } from "../resource-base";

/** Arguments of a {@link SshKeyAssignment}; every field may be a Pulumi `Input`. See {@link SshKeyAssignmentInputs}. */
export type SshKeyAssignmentArgs = { [P in keyof SshKeyAssignmentInputs]: pulumi.Input<SshKeyAssignmentInputs[P]> };

/**
 * The SSH key a workspace uses to clone private modules (one key per workspace).
 *
 * - The resource's id is the workspace id. Changing `sshKeyId` updates in place (one request);
 *   changing `workspaceId` replaces: the key is assigned to the new workspace, then unassigned from the old.
 * - Refresh reads the workspace: another key (or none) assigned outside Pulumi shows in the next
 *   preview as the update that restores the declared key.
 * - Destroy unassigns the key only while it is still the one this resource assigned; another key
 *   assigned since is left in place, with a warning, and the destroy succeeds.
 *
 * @example
 * const ws = new Workspace("app", { name: "app-prod" });
 * new SshKeyAssignment("app-key", { workspaceId: ws.id, sshKeyId: "sshkey-GxrePWre1Ezug7aM" });
 */
export class SshKeyAssignment extends WsbridgeResource {
  /** The workspace (`ws-…`), the same as the resource's `id`. Known during preview once the workspace exists. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The SSH key the workspace uses (`sshkey-…`), as the server last reported it: null after a refresh that found none. */
  declare readonly sshKeyId: pulumi.Output<string | null>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link SshKeyAssignmentInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: SshKeyAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, { kind: "SshKeyAssignment", provider: sshKeyAssignmentProvider, inputs: args, props: { ...args } }, opts);
  }
}

import * as pulumi from "@pulumi/pulumi";
import type { RemoteStateConsumersInputs } from "../../schemas/remote-state-consumers";
import { remoteStateConsumersProvider } from "../serialized-providers";
import { claimConsumerList, ownerMarker, refuseGloballySharedWorkspace } from "../program-checks";
import { WsbridgeResource } from "../resource-base";

/** Arguments of a {@link RemoteStateConsumers}; every field may be a Pulumi `Input`. See {@link RemoteStateConsumersInputs}. */
export type RemoteStateConsumersArgs = {
  [P in keyof RemoteStateConsumersInputs]: pulumi.Input<NonNullable<RemoteStateConsumersInputs[P]> extends string[]
    ? pulumi.Input<string>[] : RemoteStateConsumersInputs[P]>
};

/**
 * The workspaces allowed to read one workspace's state (its remote state consumers).
 *
 * - Additive (default): adds `consumerIds`; removes only consumers it declared and no longer declares.
 *   Consumers added outside Pulumi are left alone and never show as a change. Several additive
 *   resources may manage one workspace; each has its own id, `<workspaceId>:<12 hex chars>` derived
 *   from the project, stack and resource name.
 * - `exclusive: true` replaces the whole list (needs "manage all workspaces"); it must be the only
 *   RemoteStateConsumers of its workspace in the program.
 * - Refresh: a managed consumer removed outside Pulumi shows in the next preview as the update that
 *   adds it back. Destroy removes only the managed consumers.
 *
 * @example
 * const net = new Workspace("net", { name: "net", globalRemoteState: false });
 * const app = new Workspace("app", { name: "app" });
 * new RemoteStateConsumers("net-readers", { workspaceId: net.id, consumerIds: [app.id] });
 */
export class RemoteStateConsumers extends WsbridgeResource {
  /** The workspace (`ws-…`) whose state the consumers may read. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The managed consumers, sorted: the declared ones the server lists (in exclusive mode, the whole list). */
  declare readonly consumerIds: pulumi.Output<string[]>;
  /** Every consumer the server lists, sorted, managed by this resource or not. */
  declare readonly allConsumerIds: pulumi.Output<string[]>;
  /** Whether this resource replaces the whole list. */
  declare readonly exclusive: pulumi.Output<boolean>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link RemoteStateConsumersInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: RemoteStateConsumersArgs, opts?: pulumi.CustomResourceOptions) {
    refuseGloballySharedWorkspace(args.workspaceId, name);
    claimConsumerList(args.workspaceId, args.exclusive, name);
    // `__owner` names this resource (project/stack/name) so its id differs from another instance's on the same workspace.
    const internal = { __owner: ownerMarker("RemoteStateConsumers", name) };
    const props = { exclusive: undefined, ...args, ...internal, allConsumerIds: undefined };
    super(name, { kind: "RemoteStateConsumers", provider: remoteStateConsumersProvider, inputs: args, props }, opts);
  }
}

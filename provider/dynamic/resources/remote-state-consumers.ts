import * as pulumi from "@pulumi/pulumi";
import type { RemoteStateConsumersInputs } from "../../schemas/remote-state-consumers";
import { remoteStateConsumersProvider } from "../serialized-providers";
import { ownerMarker, warnIfTokenInPlaintext } from "../program-checks";
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
    warnIfTokenInPlaintext();
    refuseGloballySharedWorkspace(args.workspaceId, name);
    claimWorkspace(args.workspaceId, args.exclusive, name);
    // `__owner` names this resource (project/stack/name) so its id differs from another instance's on the same workspace.
    const internal = { __owner: ownerMarker("RemoteStateConsumers", name) };
    super(remoteStateConsumersProvider, name, { exclusive: undefined, ...args, ...internal, allConsumerIds: undefined }, opts, "wsbridge", "RemoteStateConsumers");
  }
}

// ---- program-side registry -----------------------------------------------------------------------
// The provider sees one resource at a time, so rules that span resources run here. Per program run
// (the Automation API runs several in one process): keyed by the run's stack resource.

interface Run {
  /** Workspace id outputs (by identity) → the workspace's declared state sharing and resource name. */
  sharing: WeakMap<object, WorkspaceStateSharing & { resourceName: string }>;
  /** Resolved workspace id → the RemoteStateConsumers declared on it. */
  claims: Map<string, { name: string; exclusive: boolean }[]>;
}
const runs = new WeakMap<object, Run>();
const outsideAStack = {};

function thisRun(): Run {
  const key: object = pulumi.runtime.getStackResource() ?? outsideAStack;
  let run = runs.get(key);
  if (!run) runs.set(key, (run = { sharing: new WeakMap(), claims: new Map() }));
  return run;
}

/** A workspace's declared sharing of its state: with the whole organization, or with its project. */
export interface WorkspaceStateSharing {
  globalRemoteState: pulumi.Input<boolean | undefined>;
  projectRemoteState: pulumi.Input<boolean | undefined>;
}

/**
 * For the Workspace class: call in its constructor with the outputs that carry its id (`this.id`,
 * and `workspaceId` if that is another Output) and its `globalRemoteState` and `projectRemoteState`
 * inputs. A RemoteStateConsumers on one of those outputs then fails the preview when the workspace
 * shares its state globally or with its project, even while the workspace is not created yet (the id unknown).
 */
export function registerWorkspaceStateSharing(
  idOutputs: pulumi.Output<string>[], sharing: WorkspaceStateSharing, resourceName: string,
): void {
  const run = thisRun();
  for (const output of idOutputs) run.sharing.set(output, { ...sharing, resourceName });
}

function refuseGloballySharedWorkspace(workspaceId: pulumi.Input<string>, name: string): void {
  if (typeof workspaceId !== "object" || workspaceId === null) return;
  const sharing = thisRun().sharing.get(workspaceId);
  if (sharing === undefined) return;
  pulumi.all([sharing.globalRemoteState, sharing.projectRemoteState]).apply(([global, project]) => {
    const [property, scope] = global === true ? ["globalRemoteState", "the whole organization"] : project === true ? ["projectRemoteState", "its project"] : [];
    if (property === undefined) return;
    void pulumi.log.error(
      `RemoteStateConsumers "${name}": workspaceId is Workspace "${sharing.resourceName}", which declares ` +
        `${property}: true, and the service refuses consumer lists for a workspace shared with ${scope}. ` +
        `Set ${property}: false on the workspace, or remove this resource.`,
    );
  });
}

/** Two exclusive resources, or an exclusive one and another, on one workspace would undo each other at every `up`. */
function claimWorkspace(workspaceId: pulumi.Input<string>, exclusive: pulumi.Input<boolean | undefined> | undefined, name: string): void {
  pulumi.all([workspaceId, exclusive]).apply(([id, isExclusive]) => {
    if (typeof id !== "string" || id === "") return;
    const claims = thisRun().claims;
    const others = claims.get(id) ?? [];
    const mine = { name, exclusive: isExclusive === true };
    const clash = others.find((o) => o.name !== name && (o.exclusive || mine.exclusive));
    if (clash !== undefined) {
      void pulumi.log.error(
        `RemoteStateConsumers resources "${clash.name}" and "${name}" both manage workspace "${id}" and at least one ` +
          "has exclusive: true, which replaces the whole list, so they would undo each other at every `up`. Keep " +
          "one exclusive resource per workspace, or make them all additive (no `exclusive`).",
      );
      return;
    }
    claims.set(id, [...others, mine]);
  });
}

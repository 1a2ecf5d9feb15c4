import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceLockInputs } from "../../schemas/workspace-lock";
import { workspaceLockProvider } from "../serialized-providers";
import { WsbridgeResource } from "../resource-base";

/** Arguments of a {@link WorkspaceLock}; every field may be a Pulumi `Input`. See {@link WorkspaceLockInputs}. */
export type WorkspaceLockArgs = { [P in keyof WorkspaceLockInputs]: pulumi.Input<WorkspaceLockInputs[P]> };

/** Every output that is not also an input; each must be registered (as undefined) to appear on the resource. */
const OUTPUT_ONLY = ["locked", "lockedReason", "lockedById", "lockedByKind", "heldByThisResource"] as const;
/** Every input, so that the outputs of the same name exist even when the program leaves the input out. */
const INPUTS: readonly (keyof WorkspaceLockInputs)[] = ["workspaceId", "reason", "forceUnlockOnDestroy"];

/**
 * The lock of one workspace, held by the identity of the provider's token for as long as the resource
 * exists. The resource's id is the workspace id.
 *
 * - Create locks the workspace with `reason`. A workspace someone else has locked fails, naming the
 *   holder; a lock is never taken over.
 * - Destroy unlocks, but only a lock that is still this resource's (same holder, same reason); one
 *   someone else holds now is left alone. `forceUnlockOnDestroy: true` force-unlocks instead (admin).
 * - Changing `reason` or `workspaceId` replaces the lock: unlock first, then lock again.
 *
 * `workspaceId` stays known during `pulumi preview`.
 *
 * @example
 * const ws = new Workspace("network", { name: "platform-network" });
 * new WorkspaceLock("freeze", { workspaceId: ws.id, reason: "change freeze until 2027-01-05" });
 */
export class WorkspaceLock extends WsbridgeResource {
  /** The locked workspace (`ws-…`), the same as the resource's `id`. Known during preview. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The declared reason (`""` when none). */
  declare readonly reason: pulumi.Output<string>;
  /** The declared `forceUnlockOnDestroy` (false when it is not declared). */
  declare readonly forceUnlockOnDestroy: pulumi.Output<boolean>;
  /** Whether the workspace is locked (by anyone), as last read. */
  declare readonly locked: pulumi.Output<boolean>;
  /** The reason of the workspace's current lock, or null when unlocked. */
  declare readonly lockedReason: pulumi.Output<string | null>;
  /** Who holds the workspace's lock (`user-…`, `team-…` or `run-…`), or null. */
  declare readonly lockedById: pulumi.Output<string | null>;
  /** `users`, `teams` or `runs`, or null. */
  declare readonly lockedByKind: pulumi.Output<"users" | "teams" | "runs" | null>;
  /** False after a refresh found the workspace locked by someone else (or with another reason). */
  declare readonly heldByThisResource: pulumi.Output<boolean>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link WorkspaceLockInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options. `deleteBeforeReplace` defaults to true: a workspace has one lock,
   * so a replacement unlocks before it locks again.
   */
  constructor(name: string, args: WorkspaceLockArgs, opts?: pulumi.CustomResourceOptions) {
    const registered: Record<string, unknown> = {};
    for (const key of [...OUTPUT_ONLY, ...INPUTS]) registered[key] = undefined;
    // One workspace has one lock: a replacement (`up --replace` included, where the provider is not
    // asked) must unlock before it locks again. Overridable.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(name, { kind: "WorkspaceLock", provider: workspaceLockProvider, inputs: args, props: { ...registered, ...args } }, options);
  }
}

import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceTagBindingsInputs } from "../../schemas/workspace-tag-bindings";
import { workspaceTagBindingsProvider } from "../serialized-providers";
import { claimWorkspaceTagKeys } from "../program-checks";
import { WsbridgeResource } from "../resource-base";

/** Arguments of a {@link WorkspaceTagBindings}; every field may be a Pulumi `Input`. See {@link WorkspaceTagBindingsInputs}. */
export type WorkspaceTagBindingsArgs = { [P in keyof WorkspaceTagBindingsInputs]: pulumi.Input<WorkspaceTagBindingsInputs[P]> };

/** A direct binding effective on the workspace; `inheritedFrom` is the project id when it comes from the project. */
export interface EffectiveTag {
  /** The tag's key. */
  key: string;
  /** The tag's value (`""` for a key-only tag). */
  value: string;
  /** The project (`prj-…`) the binding is inherited from, or null for a direct binding. */
  inheritedFrom: string | null;
}

/**
 * Key-value tags bound directly on one workspace, alongside tags others bind (the UI, another stack).
 *
 * - Additive by default: keys this resource never declared are left alone; a key removed from `tags` is
 *   unbound. `exclusive: true` makes `tags` the whole direct set.
 * - The id is `${workspaceId}:${hash of the keys declared at create}`, so several additive resources
 *   (each with its own keys) may manage one workspace. Declaring one key twice, an exclusive resource
 *   beside any other, or a key also in the Workspace's `tagBindings`, fails the preview.
 * - Destroy unbinds only the keys this resource manages.
 *
 * @example
 * const ws = new Workspace("app", { name: "app-prod" });
 * new WorkspaceTagBindings("app-tags", { workspaceId: ws.id, tags: { team: "platform", env: "prod" } });
 */
export class WorkspaceTagBindings extends WsbridgeResource {
  /** The workspace (`ws-…`). Known during preview whenever the input is. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The managed keys as the server last reported them. */
  declare readonly tags: pulumi.Output<Record<string, string>>;
  /** Whether `tags` is the whole direct set. */
  declare readonly exclusive: pulumi.Output<boolean>;
  /** Every direct binding of the workspace, managed here or not. */
  declare readonly allDirectTags: pulumi.Output<Record<string, string>>;
  /** Direct plus project-inherited bindings. */
  declare readonly effectiveTags: pulumi.Output<EffectiveTag[]>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link WorkspaceTagBindingsInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: WorkspaceTagBindingsArgs, opts?: pulumi.CustomResourceOptions) {
    claimWorkspaceTagKeys("WorkspaceTagBindings", name, args.workspaceId, args.tags, args.exclusive);
    const props = { ...args, allDirectTags: undefined, effectiveTags: undefined };
    super(name, { kind: "WorkspaceTagBindings", provider: workspaceTagBindingsProvider, inputs: args, props }, opts);
  }
}

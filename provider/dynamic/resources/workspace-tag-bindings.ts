import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceTagBindingsInputs, WorkspaceTagBindingsTags } from "../../schemas/workspace-tag-bindings";
import { workspaceTagBindingsProvider } from "../serialized-providers";
import { warnIfTokenInPlaintext } from "../program-checks";
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
    warnIfTokenInPlaintext();
    claimWorkspaceTagKeys("WorkspaceTagBindings", name, args.workspaceId, args.tags, args.exclusive);
    super(workspaceTagBindingsProvider, name, { ...args, allDirectTags: undefined, effectiveTags: undefined }, opts, "wsbridge", "WorkspaceTagBindings");
    // An update cannot change these, so they stay known to dependents during a preview
    // (the engine leaves every output of an updated dynamic resource unknown otherwise).
    const self = this as unknown as Record<string, pulumi.Output<unknown>>;
    self["workspaceId"] = pulumi.output(args.workspaceId);
    self["exclusive"] = pulumi.output(args.exclusive).apply((e) => e === true);
  }
}

// ---- the program-side registry of tag keys per workspace ------------------------------------------

/** Who declares direct tags: this kind, or a Workspace's `tagBindings` (the whole set). */
export type TagKeyOwnerKind = "WorkspaceTagBindings" | "Workspace";

interface TagKeyClaim {
  kind: TagKeyOwnerKind;
  resourceName: string;
  exclusive: boolean;
  keys: string[];
}

/** Per program run (the Automation API runs several in one process): keyed by the run's stack resource. */
const runs = new WeakMap<object, Map<string, TagKeyClaim[]>>();
const outsideAStack = {};

function claimsOfThisRun(): Map<string, TagKeyClaim[]> {
  const key: object = pulumi.runtime.getStackResource() ?? outsideAStack;
  let claims = runs.get(key);
  if (!claims) runs.set(key, (claims = new Map()));
  return claims;
}

/**
 * Records which resource declares which direct tag keys on a workspace, and fails the program (an error
 * diagnostic) when two declare the same key, or when an exclusive WorkspaceTagBindings shares a workspace
 * with any other declaration: the two would undo each other at every `up`. Runs once the workspace id
 * and the keys are known (for a workspace being created, its id is not known in preview: then at `up`).
 * Workspace's class calls it with kind "Workspace", its `id` and its `tagBindings` (exclusive: false).
 */
export function claimWorkspaceTagKeys(
  kind: TagKeyOwnerKind, resourceName: string, workspaceId: pulumi.Input<string>,
  tags: pulumi.Input<WorkspaceTagBindingsTags | undefined> | undefined, exclusive: pulumi.Input<boolean | undefined>,
): void {
  if (tags === undefined) return;
  pulumi.all([workspaceId, tags, exclusive]).apply(([id, declared, isExclusive]) => {
    if (typeof id !== "string" || id === "") return;
    const claims = claimsOfThisRun();
    const onWorkspace = claims.get(id) ?? [];
    const mine: TagKeyClaim = { kind, resourceName, exclusive: isExclusive === true, keys: Object.keys(declared ?? {}) };
    for (const other of onWorkspace) {
      if (other.kind === mine.kind && other.resourceName === mine.resourceName) continue;
      const names = `${other.kind} "${other.resourceName}" and ${mine.kind} "${mine.resourceName}"`;
      if ((mine.exclusive || other.exclusive) && (mine.kind === "WorkspaceTagBindings" || other.kind === "WorkspaceTagBindings")) {
        void pulumi.log.error(
          `${names} both declare tags of workspace "${id}", and one is exclusive (it owns the whole direct set), so the ` +
            "other's tags would be removed at every `up`. Use one exclusive resource alone, or make both additive " +
            "(exclusive: false), each with its own keys.",
        );
        return;
      }
      const shared = mine.keys.filter((key) => other.keys.includes(key));
      if (shared.length > 0) {
        void pulumi.log.error(
          `${names} both declare the tag key${shared.length > 1 ? "s" : ""} ${shared.map((k) => `"${k}"`).join(", ")} on ` +
            `workspace "${id}"; each key may be declared by one resource only (Workspace.tagBindings owns the whole ` +
            "direct set; WorkspaceTagBindings adds to a set shared with others). Remove the key from one of them.",
        );
        return;
      }
    }
    claims.set(id, [...onWorkspace.filter((c) => !(c.kind === mine.kind && c.resourceName === mine.resourceName)), mine]);
  });
}

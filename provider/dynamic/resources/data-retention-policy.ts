import * as pulumi from "@pulumi/pulumi";
import type { DataRetentionPolicyInputs } from "../../schemas/data-retention-policy";
import type { DataRetentionPolicyKind, DataRetentionPolicySource } from "../../runtime/kinds/data-retention-policy";
import { dataRetentionPolicyProvider } from "../serialized-providers";
import { WsbridgeResource } from "../resource-base";

/** Arguments of a {@link DataRetentionPolicy}; every field may be a Pulumi `Input`. See {@link DataRetentionPolicyInputs}. */
export type DataRetentionPolicyArgs = { [P in keyof DataRetentionPolicyInputs]: pulumi.Input<DataRetentionPolicyInputs[P]> };

/** Every output that is not also an input; each must be registered (as undefined) to appear on the resource. */
const OUTPUT_ONLY = ["kind", "source", "policyId"] as const;

/** Every input, so that the outputs of the same name exist even when the program leaves the input out. */
const INPUTS: readonly (keyof DataRetentionPolicyInputs)[] = ["workspaceId", "deleteOlderThanNDays", "dontDelete"];

/**
 * The data retention policy set on one workspace (self-managed edition only): delete backing data
 * (configuration and state version files) older than `deleteOlderThanNDays`, or never (`dontDelete: true`).
 *
 * - Exactly one form is declared; switching between them, or changing the days, updates in place.
 * - Changing `workspaceId` replaces the resource; one resource per workspace (a second fails the preview).
 * - Destroy removes the workspace's own policy, so the workspace falls back to its organization's default.
 * - Against the hosted edition the preview fails: the policy does not exist there.
 *
 * `workspaceId`, `kind`, `deleteOlderThanNDays` and `dontDelete` are derived from the resource id and the
 * inputs, so they stay known during `pulumi preview` and dependents preview exactly.
 *
 * @example
 * const ws = new Workspace("app", { name: "app-prod" });
 * new DataRetentionPolicy("app-retention", { workspaceId: ws.id, deleteOlderThanNDays: 30 });
 */
export class DataRetentionPolicy extends WsbridgeResource {
  /** The workspace (`ws-…`) the policy is set on; the same as the resource's `id`. Known during preview. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The policy's form: `delete-older` or `dont-delete`. Known during preview. */
  declare readonly kind: pulumi.Output<DataRetentionPolicyKind>;
  /** Days after which backing data is deleted; null for `dont-delete`. Known during preview. */
  declare readonly deleteOlderThanNDays: pulumi.Output<number | null>;
  /** True when backing data is never deleted. Known during preview. */
  declare readonly dontDelete: pulumi.Output<boolean>;
  /**
   * Whose policy the server reports: `workspace` (the workspace's own, which this resource sets). A policy
   * removed outside Pulumi (the workspace back on its organization's default) makes the resource gone at refresh.
   */
  declare readonly source: pulumi.Output<DataRetentionPolicySource>;
  /** The server's id of the policy (`drp-…`); it changes when the form changes. */
  declare readonly policyId: pulumi.Output<string>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link DataRetentionPolicyInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: DataRetentionPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    const registered: Record<string, unknown> = {};
    for (const key of [...OUTPUT_ONLY, ...INPUTS]) registered[key] = undefined;
    super(name, { kind: "DataRetentionPolicy", provider: dataRetentionPolicyProvider, inputs: args, props: { ...registered, ...args } }, opts);
  }
}

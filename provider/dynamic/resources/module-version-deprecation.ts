import * as pulumi from "@pulumi/pulumi";
import type { ModuleVersionDeprecationInputs } from "../../schemas/module-version-deprecation";
import { moduleVersionDeprecationProvider } from "../serialized-providers";
import { defaultOrganization } from "../program-checks";
import { WsbridgeResource } from "../resource-base";

/** Arguments of a {@link ModuleVersionDeprecation}; every field may be a Pulumi `Input`. See {@link ModuleVersionDeprecationInputs}. */
export type ModuleVersionDeprecationArgs = { [P in keyof ModuleVersionDeprecationInputs]: pulumi.Input<ModuleVersionDeprecationInputs[P]> };

/** Every output that is not also an input; each must be registered (as undefined) to appear on the resource. */
const OUTPUT_ONLY = ["moduleSource", "registryReason", "registryLink", "moduleVersionId", "deprecationId"] as const;

/** Every input, so that the outputs of the same name exist even when the program leaves the input out. */
const INPUTS: readonly (keyof ModuleVersionDeprecationInputs)[] = ["organization", "moduleName", "provider", "version", "reason", "link"];

/**
 * The deprecation of one version of a private registry module: while the resource exists the version is
 * deprecated, and its consumers see `reason` and `link` as warnings; destroy reinstates the version.
 *
 * - `reason` and `link` update in place; the organization, module, provider or version replace the resource.
 * - The server may store the reason with text appended (`registryReason`); that is not drift. A reason or
 *   link changed outside Pulumi is drift; a deprecation reverted outside Pulumi makes the resource gone.
 * - One resource per module version (a second fails the preview).
 *
 * The id is `organization/moduleName/provider/version`. `organization`, `moduleName`, `provider`,
 * `version`, `moduleSource`, `reason` and `link` are derived from the id and the inputs, so they stay
 * known during `pulumi preview` and dependents preview exactly.
 *
 * @example
 * new ModuleVersionDeprecation("vpc-1-0", {
 *   moduleName: "vpc", provider: "aws", version: "1.0.0",
 *   reason: "1.0.0 opens port 22 to the world", link: "https://example.com/vpc/upgrade-to-1.1",
 * });
 */
export class ModuleVersionDeprecation extends WsbridgeResource {
  /** The organization whose private registry holds the module. Known during preview. */
  declare readonly organization: pulumi.Output<string>;
  /** The module's name. Known during preview. */
  declare readonly moduleName: pulumi.Output<string>;
  /** The provider the module is for. Known during preview. */
  declare readonly provider: pulumi.Output<string>;
  /** The deprecated version. Known during preview. */
  declare readonly version: pulumi.Output<string>;
  /** The module's registry address, `organization/moduleName/provider`. Known during preview. */
  declare readonly moduleSource: pulumi.Output<string>;
  /** The reason as declared (null when none is). Known during preview. */
  declare readonly reason: pulumi.Output<string | null>;
  /** The link as declared (null when none is). Known during preview. */
  declare readonly link: pulumi.Output<string | null>;
  /** The reason as the registry stores and shows it: the server may append text to the declared one. */
  declare readonly registryReason: pulumi.Output<string | null>;
  /** The link as the registry shows it. */
  declare readonly registryLink: pulumi.Output<string | null>;
  /** The server's id of the module version. */
  declare readonly moduleVersionId: pulumi.Output<string>;
  /** The server's id of the deprecation (null if the server names none). */
  declare readonly deprecationId: pulumi.Output<string | null>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link ModuleVersionDeprecationInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options.
   */
  constructor(name: string, args: ModuleVersionDeprecationArgs, opts?: pulumi.CustomResourceOptions) {
    const registered: Record<string, unknown> = {};
    for (const key of [...OUTPUT_ONLY, ...INPUTS]) registered[key] = undefined;
    const inputs = { ...args, organization: args.organization ?? defaultOrganization() };
    super(name, { kind: "ModuleVersionDeprecation", provider: moduleVersionDeprecationProvider, inputs, props: { ...registered, ...args } }, opts);
  }
}

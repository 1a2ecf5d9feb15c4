// Read-only lookups of private registry module versions and their deprecations (D3, D4): what a
// program needs to refuse to pin a deprecated version, or to report which versions are deprecated.
// They run in the program process, during `pulumi preview` too, and only ever send GET requests.
//
// This module is loaded with the resource classes, so it stays light: the runtime (HTTP client, zod)
// is required inside each call, the first time a lookup runs. Nothing here is serialized into state.
import * as pulumi from "@pulumi/pulumi";
import type * as lookupRuntime from "../../runtime/lookups/module-versions";
import { warnIfTokenInPlaintext } from "../program-checks";
import type {
  GetModuleVersionArgs, ListModuleVersionsArgs, ModuleVersionDeprecationNotice, ModuleVersionLookupResult,
  ModuleVersionSummary, ModuleVersionsLookupResult,
} from "../../schemas/module-version-lookups";

export type {
  GetModuleVersionArgs, ListModuleVersionsArgs, ModuleVersionDeprecationNotice, ModuleVersionLookupResult,
  ModuleVersionSummary, ModuleVersionsLookupResult,
};

/** Arguments of {@link getModuleVersionOutput}: those of {@link GetModuleVersionArgs}, each a Pulumi `Input`. */
export interface GetModuleVersionOutputArgs {
  /** See {@link GetModuleVersionArgs.organization}. */
  organization?: pulumi.Input<string>;
  /** See {@link GetModuleVersionArgs.moduleName}. */
  moduleName: pulumi.Input<string>;
  /** See {@link GetModuleVersionArgs.provider}. */
  provider: pulumi.Input<string>;
  /** See {@link GetModuleVersionArgs.version}. */
  version: pulumi.Input<string>;
}

/** Arguments of {@link listModuleVersionsOutput}: those of {@link ListModuleVersionsArgs}, each a Pulumi `Input`. */
export interface ListModuleVersionsOutputArgs {
  /** See {@link ListModuleVersionsArgs.organization}. */
  organization?: pulumi.Input<string>;
  /** See {@link ListModuleVersionsArgs.moduleName}. */
  moduleName: pulumi.Input<string>;
  /** See {@link ListModuleVersionsArgs.provider}. */
  provider: pulumi.Input<string>;
}

/** Loads the runtime on the first lookup (see the header comment). */
function runtime(): typeof lookupRuntime {
  return require("../../runtime/lookups/module-versions") as typeof lookupRuntime;
}

/** Stack config as this program's run sees it (`wsbridge:*` keys), read when a lookup runs. */
const programConfig: lookupRuntime.ConfigSource = { get: (key) => pulumi.runtime.getConfig(key) };

/**
 * Reads one version of a private registry module, with its deprecation. Fails when it is not found,
 * naming what was looked for (the registry answers 404 both for a missing module or version and for
 * one the token may not see), and, before any request, when the arguments break a rule.
 *
 * @param args The module (`moduleName`, `provider`, and `organization`, which defaults to the stack
 * config) and the `version`.
 *
 * @example
 * const v = await getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.2.0" });
 * if (v.deprecated) throw new Error(`vpc 1.2.0 is deprecated: ${v.deprecation?.reason}`);
 */
export async function getModuleVersion(args: GetModuleVersionArgs): Promise<ModuleVersionLookupResult> {
  warnIfTokenInPlaintext();
  return runtime().getModuleVersion(args, { config: programConfig });
}

/**
 * {@link getModuleVersion} for Pulumi inputs: runs once every argument is known (during preview too).
 *
 * @param args The arguments of {@link getModuleVersion}, each may be a Pulumi `Input`.
 *
 * @example
 * export const vpcDeprecated = getModuleVersionOutput({ moduleName: "vpc", provider: "aws", version: "1.2.0" }).deprecated;
 */
export function getModuleVersionOutput(args: GetModuleVersionOutputArgs): pulumi.Output<ModuleVersionLookupResult> {
  return pulumi.output(args).apply((plain) => getModuleVersion(plain));
}

/**
 * Lists every version of a private registry module, each with its deprecation, in the registry's order.
 *
 * @param args The module: `moduleName`, `provider`, and `organization`, which defaults to the stack config.
 *
 * @example
 * const { versions } = await listModuleVersions({ moduleName: "vpc", provider: "aws" });
 * const deprecated = versions.filter((v) => v.deprecated).map((v) => v.version);
 */
export async function listModuleVersions(args: ListModuleVersionsArgs): Promise<ModuleVersionsLookupResult> {
  warnIfTokenInPlaintext();
  return runtime().listModuleVersions(args, { config: programConfig });
}

/**
 * {@link listModuleVersions} for Pulumi inputs: runs once every argument is known (during preview too).
 *
 * @param args The arguments of {@link listModuleVersions}, each may be a Pulumi `Input`.
 *
 * @example
 * export const vpcVersions = listModuleVersionsOutput({ moduleName: "vpc", provider: "aws" }).versions;
 */
export function listModuleVersionsOutput(args: ListModuleVersionsOutputArgs): pulumi.Output<ModuleVersionsLookupResult> {
  return pulumi.output(args).apply((plain) => listModuleVersions(plain));
}

// The arguments and results of the registry lookups (provider/dynamic/functions/module-versions.ts): plain,
// documented types shared by the program-facing functions and their runtime, and the zod schemas
// of the arguments. The rules of each argument are those of ModuleVersionDeprecation's inputs (the
// same fields, taken from its schema), so a version that can be looked up can be deprecated and back.
// The program side imports only the types from here, so loading the package does not load zod.
import { z } from "zod";
import { moduleVersionDeprecationInputsSchema } from "./module-version-deprecation";
import type { Assert, Equals } from "./type-equality";

/** Arguments of {@link getModuleVersion}: one version of a private registry module. */
export interface GetModuleVersionArgs {
  /**
   * The organization whose private registry holds the module (the module's namespace). Defaults to
   * the `wsbridge:organization` stack config (else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`).
   * Letters, digits, `-` and `_`.
   */
  organization?: string;
  /** The module's name, e.g. `vpc`: letters, digits, `-` and `_`. */
  moduleName: string;
  /** The provider the module is for, e.g. `aws`: lower-case letters, digits and `_`. */
  provider: string;
  /** The version exactly as published: `MAJOR.MINOR.PATCH`, optionally `-prerelease` and `+build` (no leading `v`). */
  version: string;
}

/** Arguments of {@link listModuleVersions}: a private registry module, every version of it. */
export interface ListModuleVersionsArgs {
  /** See {@link GetModuleVersionArgs.organization}. */
  organization?: string;
  /** See {@link GetModuleVersionArgs.moduleName}. */
  moduleName: string;
  /** See {@link GetModuleVersionArgs.provider}. */
  provider: string;
}

/** Why a version is deprecated, as the registry shows it to the module's consumers. */
export interface ModuleVersionDeprecationNotice {
  /** The reason as the registry stores it (the server may have appended text); null when it has none. */
  reason: string | null;
  /** The link to more information; null when it has none. */
  link: string | null;
}

/** One version of a private registry module (D3): plain data, safe to export as a stack output. */
export interface ModuleVersionLookupResult {
  /** The registry's id of the version, `organization/moduleName/provider/version`. */
  id: string;
  /** The organization whose registry holds the module (the registry's `namespace`). */
  organization: string;
  /** The module's name. */
  moduleName: string;
  /** The provider the module is for. */
  provider: string;
  /** The version. */
  version: string;
  /** The module's description; null when it has none. */
  description: string | null;
  /** Where the version was published from, as the registry reports it (`source`); null when it reports none. */
  source: string | null;
  /** When the version was published (as the registry reports it); null when it reports none. */
  publishedAt: string | null;
  /** Whether the version is deprecated (then `deprecation` is set). */
  deprecated: boolean;
  /** The deprecation's reason and link; null when the version is not deprecated. */
  deprecation: ModuleVersionDeprecationNotice | null;
}

/** One entry of {@link ModuleVersionsLookupResult.versions}. */
export interface ModuleVersionSummary {
  /** The version. */
  version: string;
  /** Whether the version is deprecated (then `deprecation` is set). */
  deprecated: boolean;
  /** The deprecation's reason and link; null when the version is not deprecated. */
  deprecation: ModuleVersionDeprecationNotice | null;
}

/** Every version of a private registry module (D4): plain data, safe to export as a stack output. */
export interface ModuleVersionsLookupResult {
  /** The module's registry address, `organization/moduleName/provider`. */
  source: string;
  /**
   * Every published version, in the order the registry lists them (not sorted here; the emulator
   * lists them in ascending semver order).
   */
  versions: ModuleVersionSummary[];
}

// ---- argument schemas -------------------------------------------------------------------------

/** The rules of ModuleVersionDeprecation's inputs, reused field by field. */
const rules = moduleVersionDeprecationInputsSchema.shape;
const notAnObject = { error: (issue: { code?: string }) => (issue.code === "invalid_type" ? "must be an object" : undefined) };

/** The rule of an organization name, also applied to the default from the config. */
export const organizationNameSchema = rules.organization.unwrap();

export const getModuleVersionArgsSchema = z.strictObject({
  organization: rules.organization, moduleName: rules.moduleName, provider: rules.provider, version: rules.version,
}, notAnObject);

export const listModuleVersionsArgsSchema = z.strictObject({
  organization: rules.organization, moduleName: rules.moduleName, provider: rules.provider,
}, notAnObject);

// Fail to compile if the documented argument types and the schemas ever describe different shapes.
export type GetModuleVersionArgsAgree = Assert<Equals<z.input<typeof getModuleVersionArgsSchema>, GetModuleVersionArgs>>;
export type ListModuleVersionsArgsAgree = Assert<Equals<z.input<typeof listModuleVersionsArgsSchema>, ListModuleVersionsArgs>>;

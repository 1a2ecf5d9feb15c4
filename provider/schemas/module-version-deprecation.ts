// The one source of a ModuleVersionDeprecation's inputs: the interface below carries the documentation
// (it becomes the public Args type and, through typescript-json-schema, schema/ModuleVersionDeprecation.json);
// the zod schema is the runtime check. A compile-time assertion keeps the two shapes identical.
import { z } from "zod";
import { RULES, text } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";

/**
 * What a {@link ModuleVersionDeprecation} manages: the deprecation of one version of a private registry
 * module. While the resource exists the version is deprecated (with `reason` and `link`); destroying it
 * reverts the deprecation.
 */
export interface ModuleVersionDeprecationInputs {
  /**
   * The organization whose private registry holds the module (also the module's namespace). Defaults to
   * the `wsbridge:organization` stack config (else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`).
   * Changing it replaces the resource.
   */
  organization?: string;
  /**
   * The module's name, e.g. `vpc`: letters, digits, `-` and `_`. Changing it replaces the resource.
   */
  moduleName: string;
  /**
   * The provider the module is for, e.g. `aws`: lower-case letters, digits and `_`. Changing it replaces
   * the resource.
   */
  provider: string;
  /**
   * The version to deprecate, exactly as published: `MAJOR.MINOR.PATCH`, with an optional `-prerelease`
   * and `+build` (no leading `v`). Changing it replaces the resource (the old version is reinstated).
   */
  version: string;
  /**
   * Why the version is deprecated, shown to its consumers. The server may store it with text appended;
   * drift is judged on what is declared here. Updates in place.
   */
  reason?: string;
  /**
   * An absolute `http` or `https` URL with more information (e.g. the upgrade guide). Updates in place.
   */
  link?: string;
}


/** An absolute http(s) URL that the WHATWG parser accepts (the pattern alone lets `http://` through). */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The runtime check. Each message names the rule; the property is named by the path. */
export const moduleVersionDeprecationInputsSchema = z.strictObject({
  organization: text(RULES.organizationName, "must be an organization name: letters, digits, - and _ only").optional(),
  moduleName: text(RULES.moduleName),
  provider: text(RULES.moduleProvider),
  version: text(RULES.moduleVersion),
  reason: text(RULES.deprecationReason).optional(),
  link: text(RULES.deprecationLink)
    .refine(isHttpUrl, { message: 'must be an absolute http or https URL (e.g. "https://example.com/upgrade")' })
    .optional(),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type ModuleVersionDeprecationInputsAgree = Assert<Equals<z.input<typeof moduleVersionDeprecationInputsSchema>, ModuleVersionDeprecationInputs>>;

/** What each optional input means when the program leaves it out (schemas/omission.ts). */
export const MODULE_VERSION_DEPRECATION_OMITTED: OmissionTable<OptionalKeys<ModuleVersionDeprecationInputs>> = {
  organization: { means: "setting", rule: "the provider's organization (`wsbridge:organization`, else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`)" },
  reason: { means: "none", rule: "no reason (the deprecation is sent without one)", basis: "the deprecation request sets reason and link to what it sends" },
  link: { means: "none", rule: "no link (the deprecation is sent without one)", basis: "the deprecation request sets reason and link to what it sends" },
};

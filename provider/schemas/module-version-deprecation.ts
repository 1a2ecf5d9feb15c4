// The one source of a ModuleVersionDeprecation's inputs: the interface below carries the documentation
// (it becomes the public Args type and, through typescript-json-schema, schema/ModuleVersionDeprecation.json);
// the zod schema is the runtime check. A compile-time assertion keeps the two shapes identical.
import { z } from "zod";
import type { Equals, Assert } from "./type-equality";

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
   * @pattern ^[A-Za-z0-9_-]+$
   */
  organization?: string;
  /**
   * The module's name, e.g. `vpc`: letters, digits, `-` and `_`. Changing it replaces the resource.
   * @minLength 1
   * @pattern ^[A-Za-z0-9_-]+$
   */
  moduleName: string;
  /**
   * The provider the module is for, e.g. `aws`: lower-case letters, digits and `_`. Changing it replaces
   * the resource.
   * @minLength 1
   * @pattern ^[a-z0-9_]+$
   */
  provider: string;
  /**
   * The version to deprecate, exactly as published: `MAJOR.MINOR.PATCH`, with an optional `-prerelease`
   * and `+build` (no leading `v`). Changing it replaces the resource (the old version is reinstated).
   * @pattern ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$
   */
  version: string;
  /**
   * Why the version is deprecated, shown to its consumers. The server may store it with text appended;
   * drift is judged on what is declared here. Updates in place.
   * @maxLength 2000
   */
  reason?: string;
  /**
   * An absolute `http` or `https` URL with more information (e.g. the upgrade guide). Updates in place.
   * @pattern ^https?://[^\s]+$
   * @maxLength 2000
   */
  link?: string;
}

const NAME = /^[A-Za-z0-9_-]+$/;
const PROVIDER = /^[a-z0-9_]+$/;
const VERSION = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/;

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
  organization: z.string({ error: "must be a string" })
    .regex(NAME, "must be an organization name: letters, digits, - and _ only").optional(),
  moduleName: z.string({ error: "must be a string" })
    .min(1, "must not be empty")
    .regex(NAME, "must be a module name: letters, digits, - and _ only"),
  provider: z.string({ error: "must be a string" })
    .min(1, "must not be empty")
    .regex(PROVIDER, "must be a provider name: lower-case letters, digits and _ only (e.g. aws)"),
  version: z.string({ error: "must be a string" })
    .regex(VERSION, 'must be a version string MAJOR.MINOR.PATCH, optionally with -prerelease and +build (e.g. "1.2.0"; no leading "v")'),
  reason: z.string({ error: "must be a string" }).max(2000, "must be at most 2000 characters").optional(),
  link: z.string({ error: "must be a string" })
    .max(2000, "must be at most 2000 characters")
    .regex(HTTP_URL, 'must be an absolute http or https URL without spaces (e.g. "https://example.com/upgrade")')
    .refine(isHttpUrl, { message: 'must be an absolute http or https URL (e.g. "https://example.com/upgrade")' })
    .optional(),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type ModuleVersionDeprecationInputsAgree = Assert<Equals<z.input<typeof moduleVersionDeprecationInputsSchema>, ModuleVersionDeprecationInputs>>;

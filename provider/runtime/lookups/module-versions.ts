// The runtime of the registry lookups (provider/dynamic/functions/module-versions.ts): check the arguments,
// resolve the settings, call the client, map the result. It runs in the program process, not in the
// dynamic provider's, and sends GET requests only (D3, D4, and the ping that tells "not found" from
// "no API at this address"), so it is safe during `pulumi preview` with a read-only token.
import type {
  GetModuleVersionArgs, ListModuleVersionsArgs, ModuleVersionDeprecationNotice, ModuleVersionLookupResult, ModuleVersionsLookupResult,
} from "../../schemas/module-version-lookups";
import { getModuleVersionArgsSchema, listModuleVersionsArgsSchema, organizationNameSchema } from "../../schemas/module-version-lookups";
import { NotFoundError, type Deprecation, type WsbridgeClient } from "../api";
import { assertServesTheApi } from "../serves-the-api";
import {
  InvalidLookupArgumentsError, lookupOrganization, parseLookupArgs, resolveLookupSettings, type ConfigSource, type LookupContext,
} from "./arguments";

export { InvalidLookupArgumentsError };
export type { ConfigSource, LookupContext };

/** A 404 from the registry, explained: after the ping proves the address serves the API. */
async function explainNotFound(client: WsbridgeClient, error: unknown, what: string, missing: string, check: string): Promise<never> {
  if (!(error instanceof NotFoundError)) throw error;
  await assertServesTheApi(client);
  throw new Error(
    `${what} was not found in the private registry: ${missing}, or the token may not see it (the registry answers 404 for ` +
      `both; check ${check}, and the token's permissions)`,
    { cause: error },
  );
}

/** The organization-name rule of the arguments, for a default organization from the settings. */
function organizationRule(name: string): string | undefined {
  const checked = organizationNameSchema.safeParse(name);
  return checked.success ? undefined : checked.error.issues[0]?.message ?? "is invalid";
}

// ---- lookups ------------------------------------------------------------------------------------

/** D3: one version, with its deprecation. */
export async function getModuleVersion(args: GetModuleVersionArgs, context?: LookupContext): Promise<ModuleVersionLookupResult> {
  const lookup = "getModuleVersion";
  const a = parseLookupArgs(lookup, getModuleVersionArgsSchema, args);
  const { client, defaultOrganization } = resolveLookupSettings(context);
  const organization = lookupOrganization(lookup, a.organization, defaultOrganization, organizationRule);
  const ref = { namespace: organization, name: a.moduleName, provider: a.provider, version: a.version };
  try {
    const v = await client.readRegistryModuleVersion(ref);
    const deprecation = noticeOf(v.deprecation);
    return {
      id: v.id,
      organization: v.namespace,
      moduleName: v.name,
      provider: v.provider,
      version: v.version,
      description: nonEmpty(v.description),
      source: nonEmpty(v.source),
      publishedAt: nonEmpty(v.publishedAt),
      deprecated: deprecation !== null,
      deprecation,
    };
  } catch (error) {
    return explainNotFound(
      client, error, `Module version "${organization}/${a.moduleName}/${a.provider}/${a.version}"`,
      "the module or this version of it does not exist", "organization, moduleName, provider and version",
    );
  }
}

/** D4: every version, each with its deprecation, in the registry's order. */
export async function listModuleVersions(args: ListModuleVersionsArgs, context?: LookupContext): Promise<ModuleVersionsLookupResult> {
  const lookup = "listModuleVersions";
  const a = parseLookupArgs(lookup, listModuleVersionsArgsSchema, args);
  const { client, defaultOrganization } = resolveLookupSettings(context);
  const organization = lookupOrganization(lookup, a.organization, defaultOrganization, organizationRule);
  const address = `${organization}/${a.moduleName}/${a.provider}`;
  try {
    const summaries = await client.listRegistryModuleVersions({ namespace: organization, name: a.moduleName, provider: a.provider });
    return {
      source: nonEmpty(summaries[0]?.source ?? null) ?? address,
      versions: summaries.map((s) => {
        const deprecation = noticeOf(s.deprecation);
        return { version: s.version, deprecated: deprecation !== null, deprecation };
      }),
    };
  } catch (error) {
    return explainNotFound(client, error, `Module "${address}"`, "it does not exist", "organization, moduleName and provider");
  }
}

// ---- mapping ------------------------------------------------------------------------------------

/** The registry sends `""` for fields it has no value for; a lookup reports those as null. */
function nonEmpty(value: string | null): string | null {
  return value === null || value === "" ? null : value;
}

function noticeOf(d: Deprecation | null): ModuleVersionDeprecationNotice | null {
  return d === null ? null : { reason: nonEmpty(d.reason), link: nonEmpty(d.link) };
}

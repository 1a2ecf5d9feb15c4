/**
 * Registry read API (spec D3, D4; `/api/registry/v1/modules/...`, plain JSON with snake_case keys).
 */
import { z } from "zod";
import { paginatedDocument } from "./common";

const deprecation = z.object({ reason: z.string().nullable().optional(), link: z.string().nullable().optional() });

export const registryModuleVersionDocument = z.object({
  id: z.string(),
  namespace: z.string(),
  name: z.string(),
  version: z.string(),
  provider: z.string(),
  description: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  published_at: z.string().nullable().optional(),
  deprecation: deprecation.nullable().optional(),
});

export const registryModuleVersionsDocument = z.object({
  modules: z.array(z.object({
    source: z.string().nullable().optional(),
    versions: z.array(z.object({
      version: z.string(),
      root: z.object({
        providers: z.array(z.object({ name: z.string(), version: z.string().nullable().optional() })).nullable().optional(),
      }).nullable().optional(),
      deprecation: deprecation.nullable().optional(),
    })),
  })),
});

/**
 * `GET /api/v2/organizations/:organization/registry-modules` (not in the spec, which lists no endpoint
 * to find an organization's modules; the service's, as the official Go client calls it:
 * go-tfe `registry_module.go`, `RegistryModules.List`). A JSON:API page of `registry-modules`.
 */
export const registryModuleListDocument = paginatedDocument(z.object({
  id: z.string(),
  type: z.literal("registry-modules"),
  attributes: z.object({
    name: z.string(),
    namespace: z.string(),
    provider: z.string(),
    "registry-name": z.string().nullable().optional(),
  }),
}));

/** A module of the organization's registry. */
export interface RegistryModule extends RegistryModuleRef {
  id: string;
  /** `private` or `public` (a public module the organization added to its registry). */
  registryName: string;
}

export interface RegistryModuleRef {
  /** The organization name for private modules. */
  namespace: string;
  name: string;
  provider: string;
}

export interface RegistryModuleVersionRef extends RegistryModuleRef {
  version: string;
}

export interface Deprecation {
  reason: string | null;
  link: string | null;
}

export interface RegistryModuleVersion {
  /** `<namespace>/<name>/<provider>/<version>`. */
  id: string;
  namespace: string;
  name: string;
  version: string;
  provider: string;
  description: string | null;
  source: string | null;
  publishedAt: string | null;
  /** null when the version is not deprecated. */
  deprecation: Deprecation | null;
}

export interface RegistryModuleVersionSummary {
  version: string;
  /** `<namespace>/<name>/<provider>`. */
  source: string | null;
  providers: { name: string; version: string | null }[];
  deprecation: Deprecation | null;
}

function toDeprecation(d: z.output<typeof deprecation> | null | undefined): Deprecation | null {
  return d ? { reason: d.reason ?? null, link: d.link ?? null } : null;
}

export function toRegistryModuleVersion(d: z.output<typeof registryModuleVersionDocument>): RegistryModuleVersion {
  return {
    id: d.id, namespace: d.namespace, name: d.name, version: d.version, provider: d.provider,
    description: d.description ?? null,
    source: d.source ?? null,
    publishedAt: d.published_at ?? null,
    deprecation: toDeprecation(d.deprecation),
  };
}

export function toRegistryModuleVersionSummaries(d: z.output<typeof registryModuleVersionsDocument>): RegistryModuleVersionSummary[] {
  return d.modules.flatMap((m) => m.versions.map((v) => ({
    version: v.version,
    source: m.source ?? null,
    providers: (v.root?.providers ?? []).map((p) => ({ name: p.name, version: p.version ?? null })),
    deprecation: toDeprecation(v.deprecation),
  })));
}

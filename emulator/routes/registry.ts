/**
 * D3/D4: the registry read API (plain JSON, `{"errors":["Not Found"]}` on 404), with deprecations.
 */
import { canSeeOrganization } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { findModule, findVersion, versionsOf } from "../domain/module-deprecation";
import { errors } from "../errors";
import type { ModuleVersionRecord, RegistryModuleRecord } from "../store/model";
import { compareVersions, parseVersion } from "../semver";

const BASE = "/api/registry/v1/modules/:namespace/:module_name/:module_provider";

function visibleModule(ctx: RequestContext): RegistryModuleRecord {
  const ns = ctx.params["namespace"] ?? "";
  if (!ctx.app.store.organizations.get(ns) || !canSeeOrganization(caller(ctx), ns)) throw errors.notFound();
  const mod = findModule(ctx.app.store, ns, ctx.params["module_name"] ?? "", ctx.params["module_provider"] ?? "");
  if (!mod) throw errors.notFound();
  return mod;
}

function sorted(versions: ModuleVersionRecord[]): ModuleVersionRecord[] {
  return [...versions].sort((a, b) => {
    const va = parseVersion(a.version);
    const vb = parseVersion(b.version);
    return va && vb ? compareVersions(va, vb) : a.version.localeCompare(b.version);
  });
}

function deprecationOf(v: ModuleVersionRecord): { reason: string; link: string } | null {
  return v.deprecation ? { reason: v.deprecation.reason, link: v.deprecation.link } : null;
}

function readVersion(ctx: RequestContext): HandlerResult {
  const mod = visibleModule(ctx);
  const v = findVersion(ctx.app.store, mod.id, ctx.params["version"] ?? "");
  if (!v) throw errors.notFound();
  const all = sorted(versionsOf(ctx.app.store, mod.id));
  const body: Record<string, unknown> = {
    id: `${mod.organization}/${mod.name}/${mod.provider}/${v.version}`,
    owner: "",
    namespace: mod.organization,
    name: mod.name,
    version: v.version,
    provider: mod.provider,
    provider_logo_url: "",
    description: mod.description,
    source: "",
    tag: "",
    published_at: v.createdAt,
    downloads: 0,
    verified: false,
    root: {
      path: "",
      name: mod.name,
      readme: "",
      empty: false,
      inputs: [],
      outputs: [],
      dependencies: [],
      provider_dependencies: v.providers.map((p) => ({ name: p.name, namespace: "hashicorp", source: `hashicorp/${p.name}`, version: p.version })),
      resources: [],
    },
    submodules: [],
    providers: [mod.provider],
    versions: all.map((x) => x.version),
  };
  const dep = deprecationOf(v);
  if (dep) body["deprecation"] = dep;
  return { status: 200, body };
}

function listVersions(ctx: RequestContext): HandlerResult {
  const mod = visibleModule(ctx);
  const versions = sorted(versionsOf(ctx.app.store, mod.id)).map((v) => ({
    version: v.version,
    submodules: [],
    root: { dependencies: [], providers: v.providers.map((p) => ({ name: p.name, version: p.version })) },
    deprecation: deprecationOf(v),
  }));
  return { status: 200, body: { modules: [{ source: `${mod.organization}/${mod.name}/${mod.provider}`, versions }] } };
}

export const registryRoutes: RouteDef[] = [
  { method: "GET", path: `${BASE}/versions`, handler: listVersions, registry: true },
  { method: "GET", path: `${BASE}/:version`, handler: readVersion, registry: true },
];

/**
 * Setup calls for the private registry: modules (no VCS) and their versions.
 */
import { canManageModules } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { findModule, findVersion, versionsOf } from "../domain/module-deprecation";
import { errors } from "../errors";
import { newId, nowIso } from "../ids";
import { attr, isObject, paginate, readDataObject, readPage } from "../jsonapi";
import type { RegistryModuleRecord } from "../store/model";
import { isExactVersion } from "../semver";
import { moduleVersionResource, registryModuleResource } from "../serializers/resources";
import { visibleOrganization } from "./lookup";

const ORG = "/api/v2/organizations/:organization_name/registry-modules";
const MOD = `${ORG}/private/:namespace/:module_name/:module_provider`;
const NAME_RE = /^[A-Za-z0-9_-]+$/;

function moduleOf(ctx: RequestContext, manage: boolean): RegistryModuleRecord {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (ctx.params["namespace"] !== org.id) throw errors.notFound();
  if (manage && !canManageModules(caller(ctx), org.id)) throw errors.notFound();
  const mod = findModule(ctx.app.store, org.id, ctx.params["module_name"] ?? "", ctx.params["module_provider"] ?? "");
  if (!mod) throw errors.notFound();
  return mod;
}

function createModule(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!canManageModules(caller(ctx), org.id)) throw errors.notFound();
  const data = readDataObject(ctx.body, "registry-modules");
  const a = data.attributes;
  const name = attr.string(a, "name");
  const provider = attr.string(a, "provider");
  if (!name || !NAME_RE.test(name)) throw errors.invalidAttribute("Name is invalid", "/data/attributes/name");
  // Lower-case letters, digits and underscores (`my_provider`), as the service accepts; no dashes,
  // which module addresses (`ns/name/provider`) cannot carry.
  if (!provider || !/^[a-z0-9_]+$/.test(provider)) throw errors.invalidAttribute("Provider is invalid", "/data/attributes/provider");
  const registryName = attr.string(a, "registry-name") ?? "private";
  if (registryName !== "private") throw errors.invalidAttribute('registry-name must be "private"', "/data/attributes/registry-name");
  if (findModule(ctx.app.store, org.id, name, provider)) {
    throw errors.invalidAttribute("Name has already been taken", "/data/attributes/name");
  }
  const now = nowIso();
  const mod: RegistryModuleRecord = {
    id: newId("mod"),
    organization: org.id,
    name,
    provider,
    description: attr.string(a, "description") ?? "",
    createdAt: now,
    updatedAt: now,
  };
  ctx.app.store.registryModules.put(mod);
  return { status: 201, body: { data: registryModuleResource(mod, []) } };
}

function listModules(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const store = ctx.app.store;
  const mods = store.registryModules.filter((m) => m.organization === org.id);
  return { status: 200, body: paginate(ctx, mods, readPage(ctx), (m) => registryModuleResource(m, versionsOf(store, m.id))) };
}

function showModule(ctx: RequestContext): HandlerResult {
  const mod = moduleOf(ctx, false);
  return { status: 200, body: { data: registryModuleResource(mod, versionsOf(ctx.app.store, mod.id)) } };
}

function deleteModule(ctx: RequestContext): HandlerResult {
  const mod = moduleOf(ctx, true);
  const store = ctx.app.store;
  for (const v of versionsOf(store, mod.id)) store.moduleVersions.delete(v.id);
  store.registryModules.delete(mod.id);
  return { status: 204 };
}

function createVersion(ctx: RequestContext): HandlerResult {
  const mod = moduleOf(ctx, true);
  const data = readDataObject(ctx.body, "registry-module-versions");
  const version = attr.string(data.attributes, "version");
  if (!version || !isExactVersion(version)) throw errors.invalidAttribute("Version must be a semantic version", "/data/attributes/version");
  const store = ctx.app.store;
  if (findVersion(store, mod.id, version)) throw errors.invalidAttribute("Version has already been taken", "/data/attributes/version");
  const rawProviders = data.attributes["providers"];
  let providers = [{ name: mod.provider, version: "" }];
  if (rawProviders !== undefined) {
    if (!Array.isArray(rawProviders) || rawProviders.some((p) => !isObject(p) || typeof p["name"] !== "string")) {
      throw errors.invalidAttribute("providers must be an array of {name, version}", "/data/attributes/providers");
    }
    providers = rawProviders.map((p: Record<string, unknown>) => ({
      name: String(p["name"]),
      version: typeof p["version"] === "string" ? p["version"] : "",
    }));
  }
  const rec = { id: newId("modver"), moduleId: mod.id, version, createdAt: nowIso(), providers, deprecation: null };
  store.moduleVersions.put(rec);
  store.registryModules.put({ ...mod, updatedAt: rec.createdAt });
  return { status: 201, body: { data: moduleVersionResource(rec, mod) } };
}

function deleteVersion(ctx: RequestContext): HandlerResult {
  const mod = moduleOf(ctx, true);
  const v = findVersion(ctx.app.store, mod.id, ctx.params["module_version"] ?? "");
  if (!v) throw errors.notFound();
  ctx.app.store.moduleVersions.delete(v.id);
  return { status: 204 };
}

export const setupRegistryRoutes: RouteDef[] = [
  { method: "POST", path: ORG, handler: createModule },
  { method: "GET", path: ORG, handler: listModules },
  { method: "GET", path: MOD, handler: showModule },
  { method: "DELETE", path: MOD, handler: deleteModule },
  { method: "POST", path: `${MOD}/versions`, handler: createVersion },
  { method: "DELETE", path: `${MOD}/:module_version`, handler: deleteVersion },
];

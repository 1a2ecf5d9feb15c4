/**
 * D1/D2: deprecate and undeprecate a private registry module version.
 */
import { canManageModules, canSeeOrganization } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { findModule, findVersion, storedReason } from "../domain/module-deprecation";
import { errors } from "../errors";
import { newId } from "../ids";
import { attr, isObject, readDataObject } from "../jsonapi";

const PATH =
  "/api/v2/organizations/:organization_name/registry-modules/private/:namespace/:module_name/:module_provider/:module_version";
const D = "/data/attributes/deprecation";

function isUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function patchVersion(ctx: RequestContext): HandlerResult {
  const store = ctx.app.store;
  const orgName = ctx.params["organization_name"] ?? "";
  const org = store.organizations.get(orgName);
  const p = caller(ctx);
  // Unknown organization, a namespace that is not the organization, no entitlement or no right: all 404.
  if (!org || !canSeeOrganization(p, org.id) || ctx.params["namespace"] !== org.id) throw errors.notFound();
  if (!org.moduleDeprecations || !canManageModules(p, org.id)) throw errors.notFound();
  const mod = findModule(store, org.id, ctx.params["module_name"] ?? "", ctx.params["module_provider"] ?? "");
  const version = mod ? findVersion(store, mod.id, ctx.params["module_version"] ?? "") : undefined;
  if (!mod || !version) throw errors.notFound();

  const data = readDataObject(ctx.body, "module-versions");
  const dep = data.attributes["deprecation"];
  if (!isObject(dep)) throw errors.invalidAttribute("deprecation is required and must be an object", D);
  const status = dep["deprecated-status"];
  if (status !== "Deprecated" && status !== "Undeprecated") {
    throw errors.invalidAttribute('deprecated-status must be "Deprecated" or "Undeprecated"', `${D}/deprecated-status`);
  }
  if (status === "Undeprecated") {
    store.moduleVersions.put({ ...version, deprecation: null });
    return { status: 200, body: { data: { type: "module-versions", id: version.id } } };
  }
  const reason = attr.string(dep, "reason", D) ?? "";
  const link = attr.string(dep, "link", D) ?? "";
  if (link !== "" && !isUrl(link)) throw errors.invalidAttribute("link must be an http(s) URL", `${D}/link`);
  const deprecation = { id: version.deprecation?.id ?? newId("moddep"), reason: storedReason(reason), link };
  store.moduleVersions.put({ ...version, deprecation });
  return {
    status: 200,
    body: {
      data: {
        type: "module-versions",
        id: version.id,
        relationships: { deprecation: { data: { id: deprecation.id, type: "deprecations" } } },
      },
      included: [{ type: "deprecations", id: deprecation.id, attributes: { link: deprecation.link, reason: deprecation.reason } }],
    },
  };
}

export const moduleVersionRoutes: RouteDef[] = [{ method: "PATCH", path: PATH, handler: patchVersion }];

/**
 * C5–C7: flat tags of a workspace, and the organization-wide tag list.
 */
import type { HandlerResult, RequestContext, RouteDef } from "../context";
import { parseTagRefs, removeOrphanTags, resolveForAdd, tagByName, withTags } from "../domain/flat-tags";
import { errors } from "../errors";
import { nowIso } from "../ids";
import { isObject, paginate, readPage } from "../jsonapi";
import type { FlatTagRecord } from "../store/model";
import { tagResource } from "../serializers/resources";
import { adminWorkspace, visibleOrganization, visibleWorkspace } from "./lookup";

const PATH = "/api/v2/workspaces/:workspace_id/relationships/tags";

function refsOf(ctx: RequestContext): ReturnType<typeof parseTagRefs> {
  if (!isObject(ctx.body)) throw errors.unprocessable("Request body must be a JSON object", "");
  return parseTagRefs(ctx.body["data"], "/data");
}

function list(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  const page = readPage(ctx);
  const store = ctx.app.store;
  const tags = ws.tagIds.map((id) => store.tags.get(id)).filter((t): t is FlatTagRecord => t !== undefined);
  return { status: 200, body: paginate(ctx, tags, page, (t) => tagResource(t, store)) };
}

function add(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const store = ctx.app.store;
  const { attach, create } = resolveForAdd(store, ws.organization, refsOf(ctx), nowIso(), () => errors.notFound());
  for (const t of create) store.tags.put(t);
  store.workspaces.put({ ...ws, tagIds: withTags(ws, attach) });
  return { status: 204 };
}

function remove(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const store = ctx.app.store;
  const drop = new Set<string>();
  for (const ref of refsOf(ctx)) {
    if ("id" in ref) {
      const t = store.tags.get(ref.id);
      if (!t || t.organization !== ws.organization) throw errors.notFound();
      drop.add(t.id);
    } else {
      // A name with no matching organization tag is ignored.
      const t = tagByName(store, ws.organization, ref.name);
      if (t) drop.add(t.id);
    }
  }
  store.workspaces.put({ ...ws, tagIds: ws.tagIds.filter((id) => !drop.has(id)) });
  removeOrphanTags(store, ws.organization);
  return { status: 204 };
}

function organizationTags(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const page = readPage(ctx);
  const store = ctx.app.store;
  const q = ctx.query.get("q");
  const tags = store.tags.filter((t) => t.organization === org.id && (!q || t.name.includes(q)));
  return { status: 200, body: paginate(ctx, tags, page, (t) => tagResource(t, store)) };
}

export const tagRoutes: RouteDef[] = [
  { method: "GET", path: PATH, handler: list },
  { method: "POST", path: PATH, handler: add },
  { method: "DELETE", path: PATH, handler: remove },
  { method: "GET", path: "/api/v2/organizations/:organization_name/tags", handler: organizationTags },
];

/**
 * A. Workspace CRUD (A1–A10). Each function: validate, build the path, request, map the result.
 */
import {
  listQuery, validateCreateOptions, validateUpdateOptions, workspaceCreateBody, workspaceUpdateBody,
  type WorkspaceCreateOptions, type WorkspaceListOptions, type WorkspaceUpdateOptions,
} from "../documents/workspace-requests";
import { toWorkspace, workspaceDocument, workspaceListDocument, type Workspace } from "../documents/workspaces";
import { effectiveTagBindingResource, toEffectiveTagBinding } from "../documents/tag-bindings";
import { nextPageOf, pageSize, paginate } from "../paginate";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

/** Options of the reads (A3, A4). */
export interface WorkspaceReadOptions {
  /** Optional: related resources to embed (`include`), returned in `Workspace.included`. */
  include?: string[];
}

const byId = (workspaceId: string) => `/api/v2/workspaces/${seg(workspaceId)}`;
const byName = (organization: string, name: string) =>
  `/api/v2/organizations/${seg(organization)}/workspaces/${seg(name)}`;
const includeQuery = (o: WorkspaceReadOptions | undefined) => ({ include: o?.include?.join(",") });

/** The workspace of a single-workspace document, with the effective tag bindings it included (if asked). */
function workspaceOf(doc: { data: Parameters<typeof toWorkspace>[0]; included?: Parameters<typeof toWorkspace>[1] }): Workspace {
  return withEffectiveBindings(doc.data, doc.included);
}

/**
 * The workspace with its effective tag bindings when the answer includes them. In a list, `included`
 * holds the bindings of the whole page: the workspace's own are those its relationship names.
 */
function withEffectiveBindings(data: Parameters<typeof toWorkspace>[0], included: Parameters<typeof toWorkspace>[1]): Workspace {
  const ws = toWorkspace(data, included);
  if (included !== undefined && ws.included !== undefined) {
    const named = data.relationships["effective-tag-bindings"]?.data;
    const own = named === undefined || named === null ? undefined : new Set(named.map((r) => r.id));
    const bindings = ws.included.filter((i) => i.type === "effective-tag-bindings" && (own === undefined || own.has(i.id)));
    // An answer that honoured the include carries `included` (possibly empty); one that ignored it does not.
    ws.effectiveTagBindings = bindings.map((b) => toEffectiveTagBinding(effectiveTagBindingResource.parse(b)));
    // A list's `included` is the page's: keep only this workspace's share.
    if (own !== undefined) ws.included = ws.included.filter((i) => i.type !== "effective-tag-bindings" || own.has(i.id));
  }
  return ws;
}

/** A1. Never repeated once sent: a lost connection throws OutcomeUnknownError (read by name to resolve). */
export async function createWorkspace(
  core: Requester, organization: string, options: WorkspaceCreateOptions, read?: WorkspaceReadOptions,
): Promise<Workspace> {
  requireId("createWorkspace", "organization", organization);
  validateCreateOptions(options);
  const res = await core.request({
    method: "POST", path: `/api/v2/organizations/${seg(organization)}/workspaces`, body: workspaceCreateBody(options),
    query: includeQuery(read),
  });
  return workspaceOf(core.parse(workspaceDocument, res));
}

/** A2. Reads every page. */
export function listWorkspaces(core: Requester, organization: string, options?: WorkspaceListOptions): AsyncGenerator<Workspace, void, undefined> {
  requireId("listWorkspaces", "organization", organization);
  const size = pageSize(options?.pageSize);
  const query = listQuery(options);
  return paginate(async (page) => {
    const res = await core.request({
      method: "GET", path: `/api/v2/organizations/${seg(organization)}/workspaces`,
      query: { ...query, "page[number]": page, "page[size]": size },
    });
    const doc = core.parse(workspaceListDocument, res);
    return { items: doc.data.map((w) => withEffectiveBindings(w, doc.included)), nextPage: nextPageOf(doc) };
  });
}

/** A3. */
export async function readWorkspaceByName(core: Requester, organization: string, name: string, options?: WorkspaceReadOptions): Promise<Workspace> {
  requireId("readWorkspaceByName", "organization", organization);
  requireId("readWorkspaceByName", "name", name);
  const res = await core.request({ method: "GET", path: byName(organization, name), query: includeQuery(options) });
  return workspaceOf(core.parse(workspaceDocument, res));
}

/** A4. */
export async function readWorkspace(core: Requester, workspaceId: string, options?: WorkspaceReadOptions): Promise<Workspace> {
  requireId("readWorkspace", "workspaceId", workspaceId);
  const res = await core.request({ method: "GET", path: byId(workspaceId), query: includeQuery(options) });
  return workspaceOf(core.parse(workspaceDocument, res));
}

/** A5. Setting values is idempotent, so a lost connection or 5xx is retried. */
export async function updateWorkspace(
  core: Requester, workspaceId: string, options: WorkspaceUpdateOptions, read?: WorkspaceReadOptions,
): Promise<Workspace> {
  requireId("updateWorkspace", "workspaceId", workspaceId);
  validateUpdateOptions("updateWorkspace", options);
  const res = await core.request({
    method: "PATCH", path: byId(workspaceId), body: workspaceUpdateBody(options), idempotent: true, query: includeQuery(read),
  });
  return workspaceOf(core.parse(workspaceDocument, res));
}

/** A6. Idempotent unless it renames: after a rename the old name no longer resolves. */
export async function updateWorkspaceByName(core: Requester, organization: string, name: string, options: WorkspaceUpdateOptions): Promise<Workspace> {
  requireId("updateWorkspaceByName", "organization", organization);
  requireId("updateWorkspaceByName", "name", name);
  validateUpdateOptions("updateWorkspaceByName", options);
  const renames = options.name !== undefined && options.name !== name;
  const res = await core.request({ method: "PATCH", path: byName(organization, name), body: workspaceUpdateBody(options), idempotent: !renames });
  return toWorkspace(core.parse(workspaceDocument, res).data);
}

/** A7. 409 (ConflictError reason "not-safe-to-delete") while the workspace manages resources. */
export async function safeDeleteWorkspace(core: Requester, workspaceId: string): Promise<void> {
  requireId("safeDeleteWorkspace", "workspaceId", workspaceId);
  // Safe to repeat: once applied, a repeat answers 404, which callers take as "deleted".
  await core.request({ method: "POST", path: `${byId(workspaceId)}/actions/safe-delete`, idempotent: true });
}

/** A8. */
export async function safeDeleteWorkspaceByName(core: Requester, organization: string, name: string): Promise<void> {
  requireId("safeDeleteWorkspaceByName", "organization", organization);
  requireId("safeDeleteWorkspaceByName", "name", name);
  await core.request({ method: "POST", path: `${byName(organization, name)}/actions/safe-delete`, idempotent: true });
}

/** A9. A repeat after a lost connection may answer 404: callers treat 404 on delete as done. */
export async function forceDeleteWorkspace(core: Requester, workspaceId: string): Promise<void> {
  requireId("forceDeleteWorkspace", "workspaceId", workspaceId);
  await core.request({ method: "DELETE", path: byId(workspaceId) });
}

/** A10. */
export async function forceDeleteWorkspaceByName(core: Requester, organization: string, name: string): Promise<void> {
  requireId("forceDeleteWorkspaceByName", "organization", organization);
  requireId("forceDeleteWorkspaceByName", "name", name);
  await core.request({ method: "DELETE", path: byName(organization, name) });
}

/**
 * Setup calls shaped like the service's own endpoints: organizations and projects.
 */
import { canManageAllWorkspaces, canSeeOrganization, isOwner, isProjectAdmin } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import {
  applyOrganizationInput,
  commitOrganization,
  deleteOrganization,
  isValidOrganizationName,
  organizationDefaults,
} from "../domain/organizations";
import { applyProjectInput, newProject, sameProjectName } from "../domain/projects";
import { errors } from "../errors";
import { newId, nowIso } from "../ids";
import { attr, paginate, readDataObject, readPage, type Json } from "../jsonapi";
import type { OrganizationRecord, ProjectRecord } from "../store/model";
import { organizationResource, parseProjectInclude, projectIncluded, projectResource } from "../serializers/resources";
import { visibleOrganization } from "./lookup";

function createOrg(ctx: RequestContext): HandlerResult {
  const p = caller(ctx);
  // Only people create organizations; team and organization tokens cannot.
  if (p.actor?.type !== "users") throw errors.notFound();
  const data = readDataObject(ctx.body, "organizations");
  const name = attr.string(data.attributes, "name");
  if (!name || !isValidOrganizationName(name)) {
    throw errors.invalidAttribute("Name may contain only letters, numbers, - and _ (at most 40 characters)", "/data/attributes/name");
  }
  const store = ctx.app.store;
  if (store.organizations.get(name)) throw errors.invalidAttribute("Name has already been taken", "/data/attributes/name");
  const org = commitOrganization(store, applyOrganizationInput(store, organizationDefaults({ name }), data));
  const user = store.users.get(p.actor.id);
  if (user) store.users.put({ ...user, ownerOf: [...user.ownerOf, org.id] });
  return { status: 201, body: { data: organizationResource(org, ctx.app.edition) } };
}

function listOrgs(ctx: RequestContext): HandlerResult {
  const p = caller(ctx);
  const page = readPage(ctx);
  const orgs = ctx.app.store.organizations.filter((o) => canSeeOrganization(p, o.id));
  return { status: 200, body: paginate(ctx, orgs, page, (o) => organizationResource(o, ctx.app.edition)) };
}

function showOrg(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  return { status: 200, body: { data: organizationResource(org, ctx.app.edition) } };
}

function ownedOrganization(ctx: RequestContext): OrganizationRecord {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!isOwner(caller(ctx), org.id)) throw errors.notFound();
  return org;
}

function updateOrg(ctx: RequestContext): HandlerResult {
  const org = ownedOrganization(ctx);
  const next = applyOrganizationInput(ctx.app.store, org, readDataObject(ctx.body, "organizations"));
  ctx.app.store.organizations.put(next);
  return { status: 200, body: { data: organizationResource(next, ctx.app.edition) } };
}

/** Owners delete an organization with everything in it, so suites that make one per test can clean up. */
function deleteOrg(ctx: RequestContext): HandlerResult {
  deleteOrganization(ctx.app.store, ownedOrganization(ctx));
  return { status: 204 };
}

function createProject(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!canManageAllWorkspaces(caller(ctx), org.id)) throw errors.notFound();
  const data = readDataObject(ctx.body, "projects");
  const now = nowIso();
  const store = ctx.app.store;
  const draft = newProject({ id: newId("prj"), organization: org.id, name: "", createdAt: now });
  const project = applyProjectInput(store, org, draft, data, now, true);
  store.projects.put(project);
  return { status: 201, body: { data: projectResource(project, store) } };
}

function listProjects(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const page = readPage(ctx);
  const store = ctx.app.store;
  const q = ctx.query.get("filter[names]");
  const names = q ? q.split(",") : null;
  const projects = store.projects.filter(
    (p) => p.organization === org.id && (!names || names.some((n) => sameProjectName(n, p.name))),
  );
  return { status: 200, body: paginate(ctx, projects, page, (p) => projectResource(p, store)) };
}

function visibleProject(ctx: RequestContext): ProjectRecord {
  const p = ctx.app.store.projects.get(ctx.params["project_id"] ?? "");
  if (!p || !canSeeOrganization(caller(ctx), p.organization)) throw errors.notFound();
  return p;
}

/** Project show honors `include=effective_tag_bindings`, with linkage from the relationship. */
function showProject(ctx: RequestContext): HandlerResult {
  const include = parseProjectInclude(ctx.query.get("include"));
  const project = visibleProject(ctx);
  const body: Json = { data: projectResource(project, ctx.app.store, include) };
  if (include.size > 0) body["included"] = projectIncluded(project, include);
  return { status: 200, body };
}

function updateProject(ctx: RequestContext): HandlerResult {
  const p = visibleProject(ctx);
  if (!isProjectAdmin(caller(ctx), p.organization, p.id, p.name)) throw errors.notFound();
  const store = ctx.app.store;
  const org = store.organizations.get(p.organization);
  if (!org) throw errors.notFound();
  const next = applyProjectInput(store, org, p, readDataObject(ctx.body, "projects"), nowIso(), false);
  store.projects.put(next);
  return { status: 200, body: { data: projectResource(next, store) } };
}

function deleteProject(ctx: RequestContext): HandlerResult {
  const p = visibleProject(ctx);
  const store = ctx.app.store;
  if (!canManageAllWorkspaces(caller(ctx), p.organization)) throw errors.notFound();
  if (store.organizations.get(p.organization)?.defaultProjectId === p.id) {
    throw errors.conflict("The default project cannot be deleted");
  }
  if (store.workspacesOf(p.organization).some((w) => w.projectId === p.id)) {
    throw errors.conflict("Project still contains workspaces");
  }
  store.projects.delete(p.id);
  return { status: 204 };
}

const ORG = "/api/v2/organizations/:organization_name";

export const setupOrganizationRoutes: RouteDef[] = [
  { method: "POST", path: "/api/v2/organizations", handler: createOrg },
  { method: "GET", path: "/api/v2/organizations", handler: listOrgs },
  { method: "GET", path: ORG, handler: showOrg },
  { method: "PATCH", path: ORG, handler: updateOrg },
  { method: "DELETE", path: ORG, handler: deleteOrg },
  { method: "POST", path: `${ORG}/projects`, handler: createProject },
  { method: "GET", path: `${ORG}/projects`, handler: listProjects },
  { method: "GET", path: "/api/v2/projects/:project_id", handler: showProject },
  { method: "PATCH", path: "/api/v2/projects/:project_id", handler: updateProject },
  { method: "DELETE", path: "/api/v2/projects/:project_id", handler: deleteProject },
];

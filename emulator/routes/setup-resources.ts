/**
 * Setup calls shaped like the service's own endpoints: SSH keys, agent pools, OAuth clients and
 * tokens, and reads of users (a target of `locked-by`; teams are in setup-teams.ts).
 */
import { canManageAllWorkspaces, canSeeOrganization } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { agentPoolInUse } from "../domain/inheritance";
import { errors } from "../errors";
import { newId, nowIso } from "../ids";
import { attr, isObject, paginate, readDataObject, readPage, type DataObject } from "../jsonapi";
import type { AgentPoolRecord, OAuthClientRecord } from "../store/model";
import {
  agentPoolResource,
  oauthClientResource,
  oauthTokenResource,
  sshKeyResource,
  userResource,
} from "../serializers/resources";
import { visibleOrganization } from "./lookup";

const ORG = "/api/v2/organizations/:organization_name";

function managedOrg(ctx: RequestContext): string {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!canManageAllWorkspaces(caller(ctx), org.id)) throw errors.notFound();
  return org.id;
}

function requiredName(data: DataObject): string {
  const name = attr.string(data.attributes, "name");
  if (!name) throw errors.invalidAttribute("Name can't be blank", "/data/attributes/name");
  return name;
}

// SSH keys

function createSshKey(ctx: RequestContext): HandlerResult {
  const org = managedOrg(ctx);
  const data = readDataObject(ctx.body, "ssh-keys");
  const name = requiredName(data);
  const value = attr.string(data.attributes, "value");
  if (!value) throw errors.invalidAttribute("Value can't be blank", "/data/attributes/value");
  const key = { id: newId("sshkey"), organization: org, name, createdAt: nowIso() };
  ctx.app.store.sshKeys.put(key);
  return { status: 201, body: { data: sshKeyResource(key) } };
}

function listSshKeys(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const keys = ctx.app.store.sshKeys.filter((k) => k.organization === org.id);
  return { status: 200, body: paginate(ctx, keys, readPage(ctx), sshKeyResource) };
}

function showSshKey(ctx: RequestContext): HandlerResult {
  const key = ctx.app.store.sshKeys.get(ctx.params["ssh_key_id"] ?? "");
  if (!key || !canSeeOrganization(caller(ctx), key.organization)) throw errors.notFound();
  return { status: 200, body: { data: sshKeyResource(key) } };
}

/**
 * A new name and/or value. The value is write-only in the service (never returned), so the emulator
 * checks it and keeps nothing of it: no secret lands in its state file.
 */
function updateSshKey(ctx: RequestContext): HandlerResult {
  const store = ctx.app.store;
  const key = store.sshKeys.get(ctx.params["ssh_key_id"] ?? "");
  if (!key || !canManageAllWorkspaces(caller(ctx), key.organization)) throw errors.notFound();
  const data = readDataObject(ctx.body, "ssh-keys");
  const name = attr.string(data.attributes, "name");
  if (name === "") throw errors.invalidAttribute("Name can't be blank", "/data/attributes/name");
  const value = attr.string(data.attributes, "value");
  if (value === "") throw errors.invalidAttribute("Value can't be blank", "/data/attributes/value");
  const next = name === undefined ? key : { ...key, name };
  store.sshKeys.put(next);
  return { status: 200, body: { data: sshKeyResource(next) } };
}

function deleteSshKey(ctx: RequestContext): HandlerResult {
  const store = ctx.app.store;
  const key = store.sshKeys.get(ctx.params["ssh_key_id"] ?? "");
  if (!key || !canManageAllWorkspaces(caller(ctx), key.organization)) throw errors.notFound();
  for (const ws of store.workspacesOf(key.organization)) {
    if (ws.sshKeyId === key.id) store.workspaces.put({ ...ws, sshKeyId: null });
  }
  store.sshKeys.delete(key.id);
  return { status: 204 };
}

// Agent pools

function allowedWorkspaces(ctx: RequestContext, data: DataObject, org: string): string[] | undefined {
  const rel = data.relationships["allowed-workspaces"];
  if (rel === undefined || rel === null) return undefined;
  const list = isObject(rel) ? rel["data"] : undefined;
  if (!Array.isArray(list)) throw errors.invalidAttribute("allowed-workspaces.data must be an array", "/data/relationships/allowed-workspaces/data");
  return list.map((m: unknown, i) => {
    const id = isObject(m) ? m["id"] : undefined;
    const ws = typeof id === "string" ? ctx.app.store.workspaces.get(id) : undefined;
    if (!ws || ws.organization !== org) {
      throw errors.invalidAttribute("Workspace not found", `/data/relationships/allowed-workspaces/data/${i}/id`);
    }
    return ws.id;
  });
}

function createAgentPool(ctx: RequestContext): HandlerResult {
  const org = managedOrg(ctx);
  const data = readDataObject(ctx.body, "agent-pools");
  const pool: AgentPoolRecord = {
    id: newId("apool"),
    organization: org,
    name: requiredName(data),
    organizationScoped: attr.bool(data.attributes, "organization-scoped") ?? true,
    allowedWorkspaceIds: allowedWorkspaces(ctx, data, org) ?? [],
    createdAt: nowIso(),
  };
  ctx.app.store.agentPools.put(pool);
  return { status: 201, body: { data: agentPoolResource(pool) } };
}

function listAgentPools(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const pools = ctx.app.store.agentPools.filter((p) => p.organization === org.id);
  return { status: 200, body: paginate(ctx, pools, readPage(ctx), agentPoolResource) };
}

function visiblePool(ctx: RequestContext): AgentPoolRecord {
  const pool = ctx.app.store.agentPools.get(ctx.params["agent_pool_id"] ?? "");
  if (!pool || !canSeeOrganization(caller(ctx), pool.organization)) throw errors.notFound();
  return pool;
}

function showAgentPool(ctx: RequestContext): HandlerResult {
  return { status: 200, body: { data: agentPoolResource(visiblePool(ctx)) } };
}

function updateAgentPool(ctx: RequestContext): HandlerResult {
  const pool = visiblePool(ctx);
  if (!canManageAllWorkspaces(caller(ctx), pool.organization)) throw errors.notFound();
  const data = readDataObject(ctx.body, "agent-pools");
  const next: AgentPoolRecord = {
    ...pool,
    name: attr.string(data.attributes, "name") ?? pool.name,
    organizationScoped: attr.bool(data.attributes, "organization-scoped") ?? pool.organizationScoped,
    allowedWorkspaceIds: allowedWorkspaces(ctx, data, pool.organization) ?? pool.allowedWorkspaceIds,
  };
  ctx.app.store.agentPools.put(next);
  return { status: 200, body: { data: agentPoolResource(next) } };
}

function deleteAgentPool(ctx: RequestContext): HandlerResult {
  const pool = visiblePool(ctx);
  const store = ctx.app.store;
  if (!canManageAllWorkspaces(caller(ctx), pool.organization)) throw errors.notFound();
  // Only use in effect counts: a workspace that stopped overwriting its pool no longer holds it.
  if (agentPoolInUse(store, pool.organization, pool.id)) throw errors.conflict("Agent pool is still used by workspaces");
  store.agentPools.delete(pool.id);
  return { status: 204 };
}

// OAuth clients and tokens

function createOAuthClient(ctx: RequestContext): HandlerResult {
  const org = managedOrg(ctx);
  const data = readDataObject(ctx.body, "oauth-clients");
  const a = data.attributes;
  const serviceProvider = attr.string(a, "service-provider") ?? "github";
  const httpUrl = attr.string(a, "http-url") ?? "https://github.com";
  const apiUrl = attr.string(a, "api-url") ?? (httpUrl === "https://github.com" ? "https://api.github.com" : `${httpUrl}/api/v3`);
  const now = nowIso();
  const client: OAuthClientRecord = {
    id: newId("oc"),
    organization: org,
    name: attr.string(a, "name") ?? serviceProvider,
    serviceProvider,
    httpUrl,
    apiUrl,
    createdAt: now,
    oauthTokenId: newId("ot"),
  };
  ctx.app.store.oauthClients.put(client);
  ctx.app.store.oauthTokens.put({ id: client.oauthTokenId, organization: org, oauthClientId: client.id, createdAt: now });
  return { status: 201, body: { data: oauthClientResource(client) } };
}

function listOAuthClients(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  const clients = ctx.app.store.oauthClients.filter((c) => c.organization === org.id);
  return { status: 200, body: paginate(ctx, clients, readPage(ctx), oauthClientResource) };
}

function visibleClient(ctx: RequestContext): OAuthClientRecord {
  const c = ctx.app.store.oauthClients.get(ctx.params["oauth_client_id"] ?? "");
  if (!c || !canSeeOrganization(caller(ctx), c.organization)) throw errors.notFound();
  return c;
}

function showOAuthClient(ctx: RequestContext): HandlerResult {
  return { status: 200, body: { data: oauthClientResource(visibleClient(ctx)) } };
}

function listClientTokens(ctx: RequestContext): HandlerResult {
  const c = visibleClient(ctx);
  const tokens = ctx.app.store.oauthTokens.filter((t) => t.oauthClientId === c.id);
  return { status: 200, body: paginate(ctx, tokens, readPage(ctx), oauthTokenResource) };
}

function deleteOAuthClient(ctx: RequestContext): HandlerResult {
  const c = visibleClient(ctx);
  if (!canManageAllWorkspaces(caller(ctx), c.organization)) throw errors.notFound();
  ctx.app.store.oauthTokens.delete(c.oauthTokenId);
  ctx.app.store.oauthClients.delete(c.id);
  return { status: 204 };
}

function showOAuthToken(ctx: RequestContext): HandlerResult {
  const t = ctx.app.store.oauthTokens.get(ctx.params["oauth_token_id"] ?? "");
  if (!t || !canSeeOrganization(caller(ctx), t.organization)) throw errors.notFound();
  return { status: 200, body: { data: oauthTokenResource(t) } };
}

// Users and account

function showUser(ctx: RequestContext): HandlerResult {
  const u = ctx.app.store.users.get(ctx.params["user_id"] ?? "");
  if (!u) throw errors.notFound();
  return { status: 200, body: { data: userResource(u) } };
}

function accountDetails(ctx: RequestContext): HandlerResult {
  const actor = caller(ctx).actor;
  const u = actor?.type === "users" ? ctx.app.store.users.get(actor.id) : undefined;
  if (!u) throw errors.notFound();
  return { status: 200, body: { data: userResource(u) } };
}

export const setupResourceRoutes: RouteDef[] = [
  { method: "POST", path: `${ORG}/ssh-keys`, handler: createSshKey },
  { method: "GET", path: `${ORG}/ssh-keys`, handler: listSshKeys },
  { method: "GET", path: "/api/v2/ssh-keys/:ssh_key_id", handler: showSshKey },
  { method: "PATCH", path: "/api/v2/ssh-keys/:ssh_key_id", handler: updateSshKey },
  { method: "DELETE", path: "/api/v2/ssh-keys/:ssh_key_id", handler: deleteSshKey },
  { method: "POST", path: `${ORG}/agent-pools`, handler: createAgentPool },
  { method: "GET", path: `${ORG}/agent-pools`, handler: listAgentPools },
  { method: "GET", path: "/api/v2/agent-pools/:agent_pool_id", handler: showAgentPool },
  { method: "PATCH", path: "/api/v2/agent-pools/:agent_pool_id", handler: updateAgentPool },
  { method: "DELETE", path: "/api/v2/agent-pools/:agent_pool_id", handler: deleteAgentPool },
  { method: "POST", path: `${ORG}/oauth-clients`, handler: createOAuthClient },
  { method: "GET", path: `${ORG}/oauth-clients`, handler: listOAuthClients },
  { method: "GET", path: "/api/v2/oauth-clients/:oauth_client_id", handler: showOAuthClient },
  { method: "DELETE", path: "/api/v2/oauth-clients/:oauth_client_id", handler: deleteOAuthClient },
  { method: "GET", path: "/api/v2/oauth-clients/:oauth_client_id/oauth-tokens", handler: listClientTokens },
  { method: "GET", path: "/api/v2/oauth-tokens/:oauth_token_id", handler: showOAuthToken },
  { method: "GET", path: "/api/v2/users/:user_id", handler: showUser },
  { method: "GET", path: "/api/v2/account/details", handler: accountDetails },
];

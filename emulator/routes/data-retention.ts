/**
 * C11–C13: data retention policies, plus the organization default policy the workspace falls back
 * to. The routes exist only in the self-managed edition; in the hosted one they are unknown (404).
 */
import { isOwner } from "../auth";
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { errors } from "../errors";
import { newId } from "../ids";
import { readDataObject } from "../jsonapi";
import type { DrpRecord } from "../store/model";
import { drpResource } from "../serializers/resources";
import { adminWorkspace, visibleOrganization, visibleWorkspace } from "./lookup";

const WS = "/api/v2/workspaces/:workspace_id/relationships/data-retention-policy";
const ORG = "/api/v2/organizations/:organization_name/relationships/data-retention-policy";
const DELETE_OLDERS = "data-retention-policy-delete-olders";
const DONT_DELETES = "data-retention-policy-dont-deletes";
const SELF_MANAGED = ["self-managed"] as const;

/** Parses a policy document; accepts both `delete-older-than-n-days` and the documented camelCase. */
function readPolicy(ctx: RequestContext, existing: DrpRecord | null): DrpRecord {
  const data = readDataObject(ctx.body, null);
  if (data.type === DONT_DELETES) {
    return { id: existing?.kind === "dont-delete" ? existing.id : newId("drp"), kind: "dont-delete" };
  }
  if (data.type !== DELETE_OLDERS) {
    throw errors.invalidAttribute(`data.type must be "${DELETE_OLDERS}" or "${DONT_DELETES}"`, "/data/type");
  }
  const key = data.has("delete-older-than-n-days") ? "delete-older-than-n-days" : "deleteOlderThanNDays";
  const days = data.attributes[key];
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1) {
    throw errors.invalidAttribute("delete-older-than-n-days must be a positive integer", `/data/attributes/${key}`);
  }
  return { id: existing?.kind === "delete-older" ? existing.id : newId("drp"), kind: "delete-older", deleteOlderThanNDays: days };
}

function show(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  if (ws.dataRetentionPolicy) return { status: 200, body: { data: drpResource(ws.dataRetentionPolicy, { id: ws.id, type: "workspaces" }) } };
  const org = ctx.app.store.organizations.get(ws.organization);
  if (!org?.dataRetentionPolicy) throw errors.notFound();
  return { status: 200, body: { data: drpResource(org.dataRetentionPolicy, { id: org.id, type: "organizations" }) } };
}

function set(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  const policy = readPolicy(ctx, ws.dataRetentionPolicy);
  ctx.app.store.workspaces.put({ ...ws, dataRetentionPolicy: policy });
  return { status: ws.dataRetentionPolicy ? 200 : 201, body: { data: drpResource(policy, { id: ws.id, type: "workspaces" }) } };
}

function remove(ctx: RequestContext): HandlerResult {
  const ws = adminWorkspace(ctx);
  if (ws.dataRetentionPolicy) {
    ctx.app.store.workspaces.put({ ...ws, dataRetentionPolicy: null });
    return { status: 204 };
  }
  // Nothing set on the workspace: the spec has DELETE answer with the organization default.
  const org = ctx.app.store.organizations.get(ws.organization);
  if (!org?.dataRetentionPolicy) throw errors.notFound();
  return { status: 200, body: { data: drpResource(org.dataRetentionPolicy, { id: org.id, type: "organizations" }) } };
}

function showOrg(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!org.dataRetentionPolicy) throw errors.notFound();
  return { status: 200, body: { data: drpResource(org.dataRetentionPolicy, { id: org.id, type: "organizations" }) } };
}

function setOrg(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!isOwner(caller(ctx), org.id)) throw errors.notFound();
  const policy = readPolicy(ctx, org.dataRetentionPolicy);
  ctx.app.store.organizations.put({ ...org, dataRetentionPolicy: policy });
  return { status: org.dataRetentionPolicy ? 200 : 201, body: { data: drpResource(policy, { id: org.id, type: "organizations" }) } };
}

function removeOrg(ctx: RequestContext): HandlerResult {
  const org = visibleOrganization(ctx, ctx.params["organization_name"] ?? "");
  if (!isOwner(caller(ctx), org.id) || !org.dataRetentionPolicy) throw errors.notFound();
  ctx.app.store.organizations.put({ ...org, dataRetentionPolicy: null });
  return { status: 204 };
}

export const dataRetentionRoutes: RouteDef[] = [
  { method: "GET", path: WS, handler: show, editions: SELF_MANAGED },
  { method: "POST", path: WS, handler: set, editions: SELF_MANAGED },
  { method: "PATCH", path: WS, handler: set, editions: SELF_MANAGED },
  { method: "DELETE", path: WS, handler: remove, editions: SELF_MANAGED },
  { method: "GET", path: ORG, handler: showOrg, editions: SELF_MANAGED },
  { method: "POST", path: ORG, handler: setOrg, editions: SELF_MANAGED },
  { method: "PATCH", path: ORG, handler: setOrg, editions: SELF_MANAGED },
  { method: "DELETE", path: ORG, handler: removeOrg, editions: SELF_MANAGED },
];

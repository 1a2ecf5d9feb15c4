/**
 * Setup calls for state and runs: state versions make a workspace "manage resources" (safe delete
 * refuses it) and intermediate ones decide the unlock's 503; runs give workspaces a current run
 * (list filter and sort) and can hold a workspace's lock. Reading state is in setup-state-outputs.ts.
 */
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import {
  addStateVersion,
  finalizeStateVersion,
  newStateVersion,
  parseStateBytes,
  settleIntermediates,
  type ParsedState,
} from "../domain/state-versions";
import { errors } from "../errors";
import { newId, nowIso } from "../ids";
import { attr, isObject, paginate, readDataObject, readPage } from "../jsonapi";
import type { RunRecord, WorkspaceRecord } from "../store/model";
import { runResource, stateVersionResource } from "../serializers/resources";
import { rightsOn, visibleWorkspace } from "./lookup";
import { visibleStateVersion } from "./setup-state-outputs";

const RUN_STATUSES = [
  "pending", "fetching", "queuing", "planning", "planned", "cost_estimating", "cost_estimated", "policy_checking",
  "policy_override", "policy_soft_failed", "policy_checked", "confirmed", "post_plan_running", "post_plan_completed",
  "planned_and_finished", "planned_and_saved", "apply_queued", "applying", "applied", "discarded", "errored",
  "canceled", "force_canceled",
];
const FINAL_STATUSES = new Set(["planned_and_finished", "applied", "discarded", "errored", "canceled", "force_canceled"]);

function writableWorkspace(ctx: RequestContext): WorkspaceRecord {
  const { ws, rights } = visibleWorkspace(ctx);
  if (!rights.lock || caller(ctx).kind === "organization") throw errors.notFound();
  return ws;
}

function decodeState(b64: string): ParsedState {
  const parsed = parseStateBytes(Buffer.from(b64, "base64"));
  if (!parsed) throw errors.invalidAttribute("state must be a base64-encoded UTF-8 JSON state file", "/data/attributes/state");
  return parsed;
}

function createStateVersion(ctx: RequestContext): HandlerResult {
  const ws = writableWorkspace(ctx);
  const data = readDataObject(ctx.body, "state-versions");
  const a = data.attributes;
  const serial = attr.integer(a, "serial");
  if (serial === undefined || serial < 0) throw errors.invalidAttribute("serial is required", "/data/attributes/serial");
  const state = attr.string(a, "state");
  const parsed = state !== undefined ? decodeState(state) : null;
  const count = attr.integer(a, "resource-count");
  if (count !== undefined && count < 0) throw errors.invalidAttribute("resource-count must not be negative", "/data/attributes/resource-count");
  const intermediate = attr.bool(a, "intermediate") ?? false;
  const finalized = attr.bool(a, "finalized") ?? true;
  if (intermediate && !ws.lock) {
    throw errors.conflict("Intermediate state versions can only be created while the workspace is locked");
  }
  const sv = newStateVersion(
    ws,
    {
      serial,
      lineage: attr.string(a, "lineage") ?? parsed?.lineage ?? null,
      md5: attr.string(a, "md5") ?? null,
      finalized,
      intermediate,
      resourceCount: count ?? parsed?.resourceCount ?? 0,
      state: parsed,
    },
    nowIso(),
  );
  addStateVersion(ctx.app.store, ws, sv);
  return { status: 201, body: { data: stateVersionResource(sv, ctx.baseUrl) } };
}

function finalize(ctx: RequestContext): HandlerResult {
  const sv = visibleStateVersion(ctx);
  const ws = ctx.app.store.workspaces.get(sv.workspaceId);
  if (!ws || !rightsOn(ctx, ws).lock) throw errors.notFound();
  if (sv.finalized) throw errors.conflict("State version is already finalized");
  const next = finalizeStateVersion(ctx.app.store, sv, null);
  return { status: 200, body: { data: stateVersionResource(next, ctx.baseUrl) } };
}

/** The hosted upload URL: like the service's archivist, it needs no token and takes the raw state. */
function upload(ctx: RequestContext): HandlerResult {
  const sv = ctx.app.store.stateVersions.get(ctx.params["state_version_id"] ?? "");
  if (!sv || sv.finalized) throw errors.notFound();
  const parsed = parseStateBytes(ctx.rawBody);
  if (!parsed) throw errors.unprocessable("The uploaded content is not a UTF-8 JSON state file");
  finalizeStateVersion(ctx.app.store, sv, parsed);
  return { status: 200 };
}

function listStateVersions(ctx: RequestContext): HandlerResult {
  const org = ctx.query.get("filter[organization][name]");
  const name = ctx.query.get("filter[workspace][name]");
  if (!org || !name) throw errors.badRequest("filter[organization][name] and filter[workspace][name] are required");
  const ws = ctx.app.store.workspaceByName(org, name);
  if (!ws || !rightsOn(ctx, ws).read) throw errors.notFound();
  const list = ctx.app.store.stateVersions
    .filter((sv) => sv.workspaceId === ws.id)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.serial - a.serial));
  return { status: 200, body: paginate(ctx, list, readPage(ctx), (sv) => stateVersionResource(sv, ctx.baseUrl)) };
}

// Runs

function readStatus(a: Record<string, unknown>): string | undefined {
  const status = attr.string(a, "status");
  if (status !== undefined && !RUN_STATUSES.includes(status)) {
    throw errors.invalidAttribute(`status must be one of ${RUN_STATUSES.join(", ")}`, "/data/attributes/status");
  }
  return status;
}

function createRun(ctx: RequestContext): HandlerResult {
  const data = readDataObject(ctx.body, "runs");
  const rel = data.relationships["workspace"];
  const d = isObject(rel) ? rel["data"] : undefined;
  const wsId = isObject(d) && typeof d["id"] === "string" ? d["id"] : undefined;
  if (!wsId) throw errors.invalidAttribute("workspace relationship is required", "/data/relationships/workspace/data/id");
  const ws = ctx.app.store.workspaces.get(wsId);
  if (!ws || !rightsOn(ctx, ws).lock || caller(ctx).kind === "organization") throw errors.notFound();
  const status = readStatus(data.attributes) ?? "pending";
  const lockWorkspace = attr.bool(data.attributes, "lock-workspace") ?? false;
  if (lockWorkspace && ws.lock) throw errors.conflict("The workspace is already locked");
  const now = nowIso();
  const run: RunRecord = {
    id: newId("run"),
    workspaceId: ws.id,
    status,
    message: attr.string(data.attributes, "message") ?? "Queued via the API",
    isDestroy: attr.bool(data.attributes, "is-destroy") ?? false,
    createdAt: now,
    statusChangedAt: now,
  };
  ctx.app.store.runs.put(run);
  const lock = lockWorkspace && !FINAL_STATUSES.has(status) ? { by: { type: "runs" as const, id: run.id }, reason: "Locked by run", at: now } : ws.lock;
  ctx.app.store.workspaces.put({ ...ws, currentRunId: run.id, lock });
  return { status: 201, body: { data: runResource(run) } };
}

function visibleRun(ctx: RequestContext): { run: RunRecord; ws: WorkspaceRecord } {
  const run = ctx.app.store.runs.get(ctx.params["run_id"] ?? "");
  const ws = run ? ctx.app.store.workspaces.get(run.workspaceId) : undefined;
  if (!run || !ws || !rightsOn(ctx, ws).read) throw errors.notFound();
  return { run, ws };
}

function showRun(ctx: RequestContext): HandlerResult {
  return { status: 200, body: { data: runResource(visibleRun(ctx).run) } };
}

/** Emulator extension: move a run to another status; a final status releases the run's lock. */
function updateRun(ctx: RequestContext): HandlerResult {
  const { run, ws } = visibleRun(ctx);
  if (!rightsOn(ctx, ws).lock) throw errors.notFound();
  const data = readDataObject(ctx.body, "runs");
  const status = readStatus(data.attributes);
  if (status === undefined) throw errors.invalidAttribute("status is required", "/data/attributes/status");
  const next = { ...run, status, statusChangedAt: nowIso() };
  ctx.app.store.runs.put(next);
  if (FINAL_STATUSES.has(status) && ws.lock?.by.type === "runs" && ws.lock.by.id === run.id) {
    const { next: settled, settle } = settleIntermediates(ctx.app.store, ws, true);
    settle();
    ctx.app.store.workspaces.put({ ...settled, lock: null });
  }
  return { status: 200, body: { data: runResource(next) } };
}

const WS = "/api/v2/workspaces/:workspace_id";
const SV = "/api/v2/state-versions/:state_version_id";

export const setupStateRoutes: RouteDef[] = [
  { method: "POST", path: `${WS}/state-versions`, handler: createStateVersion },
  { method: "GET", path: "/api/v2/state-versions", handler: listStateVersions },
  { method: "POST", path: `${SV}/actions/finalize`, handler: finalize },
  { method: "PUT", path: `${SV}/upload`, handler: upload, auth: false, rawBody: true },
  { method: "POST", path: "/api/v2/runs", handler: createRun },
  { method: "GET", path: "/api/v2/runs/:run_id", handler: showRun },
  { method: "PATCH", path: "/api/v2/runs/:run_id", handler: updateRun },
];

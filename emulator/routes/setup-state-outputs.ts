/**
 * Reading state: state versions (with `include=outputs`), their outputs, a workspace's current
 * outputs, and the state file itself at the version's download URL. Everything but the download
 * needs read access on the workspace (404 otherwise, like the service).
 */
import { param, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { downloadPath, findOutput } from "../domain/state-versions";
import { errors } from "../errors";
import { paginate, readPage } from "../jsonapi";
import type { StateVersionRecord } from "../store/model";
import { outputResource, parseStateVersionInclude, stateVersionDocument } from "../serializers/resources";
import { rightsOn, visibleWorkspace } from "./lookup";

/** The version of `:state_version_id`; 404 unless its workspace is readable. */
export function visibleStateVersion(ctx: RequestContext): StateVersionRecord {
  const sv = ctx.app.store.stateVersions.get(param(ctx, "state_version_id"));
  const ws = sv ? ctx.app.store.workspaces.get(sv.workspaceId) : undefined;
  if (!sv || !ws || !rightsOn(ctx, ws).read) throw errors.notFound();
  return sv;
}

function showStateVersion(ctx: RequestContext): HandlerResult {
  // Parsed first: a bad include is a 400 whatever the version.
  const include = parseStateVersionInclude(ctx.query.get("include"));
  return { status: 200, body: stateVersionDocument(visibleStateVersion(ctx), ctx.baseUrl, include) };
}

function currentStateVersion(ctx: RequestContext): HandlerResult {
  const include = parseStateVersionInclude(ctx.query.get("include"));
  const { ws } = visibleWorkspace(ctx);
  const sv = ws.currentStateVersionId ? ctx.app.store.stateVersions.get(ws.currentStateVersionId) : undefined;
  if (!sv) throw errors.notFound();
  return { status: 200, body: stateVersionDocument(sv, ctx.baseUrl, include) };
}

function listOutputs(ctx: RequestContext): HandlerResult {
  const sv = visibleStateVersion(ctx);
  return { status: 200, body: paginate(ctx, sv.outputs, readPage(ctx), (o) => outputResource(o)) };
}

/**
 * One output, with its value even when sensitive: the service's documented way to read a sensitive
 * value, which the engine's cloud backend and the tfe_outputs data source rely on.
 */
function showOutput(ctx: RequestContext): HandlerResult {
  const found = findOutput(ctx.app.store, param(ctx, "output_id"));
  const ws = found ? ctx.app.store.workspaces.get(found.sv.workspaceId) : undefined;
  if (!found || !ws || !rightsOn(ctx, ws).read) throw errors.notFound();
  return { status: 200, body: { data: outputResource(found.output, true) } };
}

/** The service types these `state-version-outputs` (its docs; go-tfe's ReadCurrent decodes that type). */
function currentOutputs(ctx: RequestContext): HandlerResult {
  const { ws } = visibleWorkspace(ctx);
  const sv = ws.currentStateVersionId ? ctx.app.store.stateVersions.get(ws.currentStateVersionId) : undefined;
  const outputs = sv?.outputs ?? [];
  return { status: 200, body: paginate(ctx, outputs, readPage(ctx), (o) => outputResource(o)) };
}

/**
 * The download URL. Like the upload URL, and like the service's signed archivist URLs, it takes no
 * token: the version id in it is random and handed out only to readers of the workspace.
 */
function download(ctx: RequestContext): HandlerResult {
  const sv = ctx.app.store.stateVersions.get(param(ctx, "state_version_id"));
  if (!sv || downloadPath(sv) === null || sv.content === null) throw errors.notFound();
  return { status: 200, raw: { bytes: Buffer.from(sv.content, "utf8"), contentType: "application/json" } };
}

const WS = "/api/v2/workspaces/:workspace_id";
const SV = "/api/v2/state-versions/:state_version_id";

export const setupStateOutputRoutes: RouteDef[] = [
  { method: "GET", path: `${WS}/current-state-version`, handler: currentStateVersion },
  { method: "GET", path: `${WS}/current-state-version-outputs`, handler: currentOutputs },
  { method: "GET", path: SV, handler: showStateVersion },
  { method: "GET", path: `${SV}/outputs`, handler: listOutputs },
  { method: "GET", path: `${SV}/download`, handler: download, auth: false },
  { method: "GET", path: "/api/v2/state-version-outputs/:output_id", handler: showOutput },
];

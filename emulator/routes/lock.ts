/**
 * B1–B3: lock, unlock and force-unlock, exactly as the spec's state table says.
 */
import { caller, type HandlerResult, type RequestContext, type RouteDef } from "../context";
import { settleIntermediates } from "../domain/state-versions";
import { errors } from "../errors";
import { nowIso } from "../ids";
import { isObject } from "../jsonapi";
import type { LockRecord } from "../store/model";
import { visibleWorkspace, workspaceDocument } from "./lookup";

const WS = "/api/v2/workspaces/:workspace_id/actions";

/** The reason from `{reason}` (docs) or `{data:{type:"", attributes:{reason}}}` (what go-tfe sends). */
function readReason(body: unknown): string {
  if (body === undefined) return "";
  if (!isObject(body)) throw errors.unprocessable("Request body must be a JSON object", "");
  const data = body["data"];
  const holder = isObject(data) && isObject(data["attributes"]) ? data["attributes"] : body;
  const reason = holder["reason"];
  if (reason === undefined || reason === null) return "";
  if (typeof reason !== "string") {
    throw errors.invalidAttribute("reason must be a string", holder === body ? "/reason" : "/data/attributes/reason");
  }
  return reason;
}

const LOCKER_WORD: Record<LockRecord["by"]["type"], string> = { users: "User", teams: "Team", runs: "Run" };

function lock(ctx: RequestContext): HandlerResult {
  const { ws, rights } = visibleWorkspace(ctx);
  const actor = caller(ctx).actor;
  if (!rights.lock || !actor) throw errors.notFound();
  const reason = readReason(ctx.body);
  if (ws.lock) throw errors.conflict("Unable to lock workspace. The workspace is already locked.");
  const next = { ...ws, lock: { by: actor, reason, at: nowIso() } };
  ctx.app.store.workspaces.put(next);
  return workspaceDocument(ctx, next);
}

function unlock(ctx: RequestContext): HandlerResult {
  const { ws, rights } = visibleWorkspace(ctx);
  const actor = caller(ctx).actor;
  if (!rights.lock || !actor) throw errors.notFound();
  if (!ws.lock) throw errors.conflict("Unable to unlock workspace. The workspace is not locked.");
  const by = ws.lock.by;
  if (by.type !== actor.type || by.id !== actor.id) {
    throw errors.conflict(
      `Unable to unlock workspace. The workspace is locked by ${LOCKER_WORD[by.type]} ${by.id} and may not be unlocked except by them.`,
    );
  }
  const { next, settle } = settleIntermediates(ctx.app.store, ws, false);
  settle();
  const unlocked = { ...next, lock: null };
  ctx.app.store.workspaces.put(unlocked);
  return workspaceDocument(ctx, unlocked);
}

function forceUnlock(ctx: RequestContext): HandlerResult {
  const { ws, rights } = visibleWorkspace(ctx);
  if (!rights.admin || caller(ctx).kind === "organization") throw errors.notFound();
  if (!ws.lock) throw errors.conflict("Unable to force-unlock workspace. The workspace is not locked.");
  const { next, settle } = settleIntermediates(ctx.app.store, ws, true);
  settle();
  const unlocked = { ...next, lock: null };
  ctx.app.store.workspaces.put(unlocked);
  return workspaceDocument(ctx, unlocked);
}

export const lockRoutes: RouteDef[] = [
  { method: "POST", path: `${WS}/lock`, handler: lock },
  { method: "POST", path: `${WS}/unlock`, handler: unlock },
  { method: "POST", path: `${WS}/force-unlock`, handler: forceUnlock },
];

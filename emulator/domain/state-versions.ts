/**
 * State versions: what makes a workspace "manage resources", and the intermediate versions that
 * decide whether an unlock succeeds (503 while the latest one is not finalized).
 */
import { errors } from "../errors";
import { newId } from "../ids";
import { isObject } from "../jsonapi";
import type { StateOutputRecord, StateVersionRecord, WorkspaceRecord } from "../store/model";
import type { Store } from "../store/store";

export interface ParsedState {
  resourceCount: number;
  outputs: StateOutputRecord[];
  serial: number | null;
  lineage: string | null;
}

/** Reads an engine state file (format v4): managed resource instances and outputs. */
export function parseStateContent(text: string): ParsedState | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(doc)) return null;
  let resourceCount = 0;
  const resources = doc["resources"];
  if (Array.isArray(resources)) {
    for (const r of resources) {
      if (!isObject(r) || r["mode"] === "data") continue;
      const inst = r["instances"];
      resourceCount += Array.isArray(inst) ? inst.length : 1;
    }
  }
  const outputs: StateOutputRecord[] = [];
  const outs = doc["outputs"];
  if (isObject(outs)) {
    for (const [name, o] of Object.entries(outs)) {
      if (!isObject(o)) continue;
      const type = o["type"];
      outputs.push({
        id: newId("wsout"),
        name,
        sensitive: o["sensitive"] === true,
        type: typeof type === "string" ? type : Array.isArray(type) ? String(type[0]) : typeof o["value"],
        value: o["value"] ?? null,
      });
    }
  }
  return {
    resourceCount,
    outputs,
    serial: typeof doc["serial"] === "number" ? doc["serial"] : null,
    lineage: typeof doc["lineage"] === "string" ? doc["lineage"] : null,
  };
}

/** Makes a finalized, non-intermediate version current. */
function promote(store: Store, ws: WorkspaceRecord, sv: StateVersionRecord): void {
  const fresh = store.workspaces.get(ws.id) ?? ws;
  store.workspaces.put({ ...fresh, currentStateVersionId: sv.id });
}

export function addStateVersion(store: Store, ws: WorkspaceRecord, sv: StateVersionRecord): void {
  store.stateVersions.put(sv);
  if (sv.finalized && !sv.intermediate) promote(store, ws, sv);
}

export function newStateVersion(
  ws: WorkspaceRecord,
  input: { serial: number; lineage?: string | null; md5?: string | null; finalized: boolean; intermediate: boolean; resourceCount: number; outputs?: StateOutputRecord[] },
  now: string,
): StateVersionRecord {
  return {
    id: newId("sv"),
    workspaceId: ws.id,
    serial: input.serial,
    lineage: input.lineage ?? null,
    md5: input.md5 ?? null,
    createdAt: now,
    finalized: input.finalized,
    intermediate: input.intermediate,
    discarded: false,
    resourceCount: input.resourceCount,
    outputs: input.outputs ?? [],
  };
}

/** Finalizes an uploaded version (with parsed content when given). */
export function finalizeStateVersion(store: Store, sv: StateVersionRecord, parsed: ParsedState | null): StateVersionRecord {
  const next: StateVersionRecord = {
    ...sv,
    finalized: true,
    resourceCount: parsed ? parsed.resourceCount : sv.resourceCount,
    outputs: parsed ? parsed.outputs : sv.outputs,
    serial: parsed?.serial ?? sv.serial,
    lineage: parsed?.lineage ?? sv.lineage,
  };
  store.stateVersions.put(next);
  const ws = store.workspaces.get(sv.workspaceId);
  if (ws && !next.intermediate) promote(store, ws, next);
  return next;
}

/** Intermediate versions of the workspace still waiting for the lock release, oldest first. */
function pendingIntermediates(store: Store, ws: WorkspaceRecord): StateVersionRecord[] {
  return store.stateVersions
    .filter((sv) => sv.workspaceId === ws.id && sv.intermediate && !sv.discarded)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.serial - b.serial));
}

/**
 * On unlock: 503 while the latest intermediate version is not finalized; otherwise the latest
 * finalized one becomes current. Returns the next workspace record (not yet written).
 */
export function settleIntermediates(store: Store, ws: WorkspaceRecord, force: boolean): { next: WorkspaceRecord; settle: () => void } {
  const pending = pendingIntermediates(store, ws);
  const latest = pending[pending.length - 1];
  if (latest && !latest.finalized && !force) {
    throw errors.serviceUnavailable("The latest intermediate state version is not finalized yet; retry shortly");
  }
  const finalized = pending.filter((sv) => sv.finalized);
  const chosen = finalized[finalized.length - 1];
  const next = chosen ? { ...ws, currentStateVersionId: chosen.id } : { ...ws };
  const settle = (): void => {
    for (const sv of pending) {
      store.stateVersions.put({ ...sv, intermediate: false, discarded: sv.id !== chosen?.id && !sv.finalized });
    }
  };
  return { next, settle };
}

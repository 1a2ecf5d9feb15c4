/**
 * State versions: what makes a workspace "manage resources", the intermediate versions that
 * decide whether an unlock succeeds (503 while the latest one is not finalized), and the content
 * and outputs read from an uploaded state file.
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
  /** The file as received, served back byte for byte by the download URL. */
  content: string;
  formatVersion: number | null;
  terraformVersion: string | null;
}

/**
 * The engine's type of a JSON value, as it implies one when a state output names none (ctyjson's
 * ImpliedType): arrays are tuples, objects are objects, null is dynamic.
 */
export function impliedType(value: unknown): unknown {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", value.map(impliedType)];
  if (isObject(value)) return ["object", Object.fromEntries(Object.entries(value).map(([k, v]) => [k, impliedType(v)]))];
  return "dynamic";
}

/**
 * The `type` attribute: the kind of the value in JSON terms. The service's docs show `string` and,
 * for a tuple, `array`; the other names follow the same JSON wording (unverified).
 */
export function outputKind(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/** One output of a state file, or of an older emulator's record that kept no detailed type. */
export function stateOutput(id: string, name: string, sensitive: boolean, value: unknown, detailedType: unknown): StateOutputRecord {
  return { id, name, sensitive, type: outputKind(value), value, detailedType: detailedType ?? impliedType(value) };
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
      const detailed = typeof type === "string" || Array.isArray(type) ? type : undefined;
      outputs.push(stateOutput(newId("wsout"), name, o["sensitive"] === true, o["value"] ?? null, detailed));
    }
  }
  const version = doc["version"];
  const engine = doc["terraform_version"];
  return {
    resourceCount,
    outputs,
    serial: typeof doc["serial"] === "number" ? doc["serial"] : null,
    lineage: typeof doc["lineage"] === "string" ? doc["lineage"] : null,
    content: text,
    formatVersion: typeof version === "number" && Number.isInteger(version) ? version : null,
    terraformVersion: typeof engine === "string" ? engine : null,
  };
}

/**
 * Reads uploaded bytes. Only well-formed UTF-8 is taken (a BOM included, which then fails as JSON):
 * decoding anything else would replace bytes, and the download must return exactly what was sent.
 */
export function parseStateBytes(bytes: Buffer): ParsedState | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  return parseStateContent(text);
}

/** Where a finalized version with content can be downloaded; null until then (clients poll for it). */
export function downloadPath(sv: StateVersionRecord): string | null {
  return sv.finalized && sv.content !== null ? `/api/v2/state-versions/${sv.id}/download` : null;
}

/** An output and the version it belongs to, by the output's id. */
export function findOutput(store: Store, id: string): { sv: StateVersionRecord; output: StateOutputRecord } | undefined {
  for (const sv of store.stateVersions.all()) {
    const output = sv.outputs.find((o) => o.id === id);
    if (output) return { sv, output };
  }
  return undefined;
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
  input: { serial: number; lineage?: string | null; md5?: string | null; finalized: boolean; intermediate: boolean; resourceCount: number; state?: ParsedState | null },
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
    outputs: input.state?.outputs ?? [],
    content: input.state?.content ?? null,
    stateFormatVersion: input.state?.formatVersion ?? null,
    terraformVersion: input.state?.terraformVersion ?? null,
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
    content: parsed ? parsed.content : sv.content,
    stateFormatVersion: parsed ? parsed.formatVersion : sv.stateFormatVersion,
    terraformVersion: parsed ? parsed.terraformVersion : sv.terraformVersion,
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

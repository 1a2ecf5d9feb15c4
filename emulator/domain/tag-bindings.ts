/**
 * Key-value tag bindings: input validation (limits, characters, reserved prefixes), the additive
 * merge of C10, the replace-all of the workspace update, and effective bindings with inheritance.
 */
import { errors } from "../errors";
import { newId, stableHexId } from "../ids";
import { isObject, type Json } from "../jsonapi";
import type { ProjectRecord, TagBindingRecord, WorkspaceRecord } from "../store/model";

export const MAX_DIRECT_BINDINGS = 10;
export const MAX_KEY_LENGTH = 128;
export const MAX_VALUE_LENGTH = 256;
const ALLOWED = /^[A-Za-z0-9_.=+\-@:]*$/;
const RESERVED = [/^hc:/i, /^hcp:/i];

export interface BindingInput {
  key: string;
  value: string;
}

function validate(key: string, value: string, pointer: string): void {
  if (key === "") throw errors.invalidAttribute("Tag key can't be blank", `${pointer}/attributes/key`);
  if (key.length > MAX_KEY_LENGTH) {
    throw errors.invalidAttribute(`Tag key is too long (maximum is ${MAX_KEY_LENGTH} characters)`, `${pointer}/attributes/key`);
  }
  if (!ALLOWED.test(key)) {
    throw errors.invalidAttribute(
      "Tag key may contain only alphanumerics and the characters _ . = + - @ :",
      `${pointer}/attributes/key`,
    );
  }
  if (RESERVED.some((r) => r.test(key))) {
    throw errors.invalidAttribute('Tag key must not start with the reserved prefixes "hc:" or "hcp:"', `${pointer}/attributes/key`);
  }
  if (value.length > MAX_VALUE_LENGTH) {
    throw errors.invalidAttribute(
      `Tag value is too long (maximum is ${MAX_VALUE_LENGTH} characters)`,
      `${pointer}/attributes/value`,
    );
  }
  if (!ALLOWED.test(value)) {
    throw errors.invalidAttribute(
      "Tag value may contain only alphanumerics and the characters _ . = + - @ :",
      `${pointer}/attributes/value`,
    );
  }
}

/** Parses `[{type:'tag-bindings', attributes:{key, value?}}...]`; `base` is the pointer of the array. */
export function parseBindingInputs(list: unknown, base: string): BindingInput[] {
  if (!Array.isArray(list)) throw errors.invalidAttribute("tag bindings must be an array", base);
  return list.map((m: unknown, i) => {
    const pointer = `${base}/${i}`;
    if (!isObject(m)) throw errors.invalidAttribute("each tag binding must be an object", pointer);
    if (m["type"] !== "tag-bindings") throw errors.invalidAttribute('type must be "tag-bindings"', `${pointer}/type`);
    const attrs = (m["attributes"] ?? {}) as Json;
    if (!isObject(attrs)) throw errors.invalidAttribute("attributes must be an object", `${pointer}/attributes`);
    const key = attrs["key"];
    const value = attrs["value"] ?? "";
    if (typeof key !== "string") throw errors.invalidAttribute("Tag key must be a string", `${pointer}/attributes/key`);
    if (typeof value !== "string") throw errors.invalidAttribute("Tag value must be a string", `${pointer}/attributes/value`);
    validate(key, value, pointer);
    return { key, value };
  });
}

function checkLimit(list: TagBindingRecord[], pointer: string): void {
  if (list.length > MAX_DIRECT_BINDINGS) {
    throw errors.invalidAttribute(`cannot exceed ${MAX_DIRECT_BINDINGS} bindings per resource`, pointer);
  }
}

/** C10: adds keys or updates values; never removes. */
export function mergeBindings(existing: TagBindingRecord[], inputs: BindingInput[], now: string, pointer: string): TagBindingRecord[] {
  const out = existing.map((b) => ({ ...b }));
  for (const { key, value } of inputs) {
    const found = out.find((b) => b.key === key);
    if (found) found.value = value;
    else out.push({ id: newId("tb"), key, value, createdAt: now });
  }
  checkLimit(out, pointer);
  return out;
}

/** Workspace/project update relationship: exactly the given set (ids kept for keys that stay). */
export function replaceBindings(existing: TagBindingRecord[], inputs: BindingInput[], now: string, pointer: string): TagBindingRecord[] {
  const out: TagBindingRecord[] = [];
  for (const { key, value } of inputs) {
    const dup = out.find((b) => b.key === key);
    if (dup) {
      dup.value = value;
      continue;
    }
    const old = existing.find((b) => b.key === key);
    out.push(old ? { ...old, value } : { id: newId("tb"), key, value, createdAt: now });
  }
  checkLimit(out, pointer);
  return out;
}

export interface EffectiveBinding {
  id: string;
  key: string;
  value: string;
  /** Project id when inherited. */
  inheritedFrom: string | null;
}

/** Direct bindings plus the project's, the direct one winning on the same key. */
/** A project's effective bindings are its own (projects inherit none). */
export function projectEffectiveBindings(project: ProjectRecord): EffectiveBinding[] {
  return project.tagBindings.map((b) => ({ id: b.id, key: b.key, value: b.value, inheritedFrom: null }));
}

export function effectiveBindings(ws: WorkspaceRecord, project: ProjectRecord | undefined): EffectiveBinding[] {
  const out: EffectiveBinding[] = ws.tagBindings.map((b) => ({
    id: stableHexId(ws.id, b.key),
    key: b.key,
    value: b.value,
    inheritedFrom: null,
  }));
  for (const b of project?.tagBindings ?? []) {
    if (out.some((e) => e.key === b.key)) continue;
    out.push({ id: stableHexId(project?.id ?? "", b.key), key: b.key, value: b.value, inheritedFrom: project?.id ?? null });
  }
  return out;
}

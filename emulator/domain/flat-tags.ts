/**
 * Flat (legacy) organization tags attached to workspaces. A tag that is on no workspace any more
 * leaves the organization-wide list.
 */
import { errors } from "../errors";
import { newId } from "../ids";
import { isObject, type Json } from "../jsonapi";
import type { FlatTagRecord, WorkspaceRecord } from "../store/model";
import type { Store } from "../store/store";

const TAG_NAME = /^[A-Za-z0-9:_-]{1,255}$/;

/** A tag reference in a request: by id or by name. */
export type TagRef = { id: string } | { name: string };

/** Parses `[{type:'tags', id?, attributes?:{name}}...]`. */
export function parseTagRefs(list: unknown, base: string): TagRef[] {
  if (!Array.isArray(list)) throw errors.unprocessable("data must be an array", base);
  return list.map((m: unknown, i) => {
    const pointer = `${base}/${i}`;
    if (!isObject(m)) throw errors.unprocessable("each tag must be an object", pointer);
    if (m["type"] !== "tags") throw errors.invalidAttribute('type must be "tags"', `${pointer}/type`);
    const id = m["id"];
    if (typeof id === "string" && id !== "") return { id };
    const attrs = m["attributes"];
    const name = isObject(attrs) ? (attrs as Json)["name"] : undefined;
    if (typeof name !== "string") {
      throw errors.invalidAttribute("a tag needs an id or attributes.name", `${pointer}/attributes/name`);
    }
    if (!TAG_NAME.test(name)) {
      throw errors.invalidAttribute(
        "Tag names may contain only letters, numbers, colons, hyphens and underscores (1 to 255 characters)",
        `${pointer}/attributes/name`,
      );
    }
    return { name };
  });
}

export function tagByName(store: Store, org: string, name: string): FlatTagRecord | undefined {
  return store.tags.find((t) => t.organization === org && t.name === name);
}

/**
 * Resolves references for adding: ids must exist in the organization (else `onMissingId`),
 * names are created if needed. Returns the records to attach and the ones to create.
 */
export function resolveForAdd(
  store: Store,
  org: string,
  refs: TagRef[],
  now: string,
  onMissingId: () => Error,
): { attach: FlatTagRecord[]; create: FlatTagRecord[] } {
  const attach: FlatTagRecord[] = [];
  const create: FlatTagRecord[] = [];
  for (const ref of refs) {
    if ("id" in ref) {
      const t = store.tags.get(ref.id);
      if (!t || t.organization !== org) throw onMissingId();
      attach.push(t);
    } else {
      const t = tagByName(store, org, ref.name) ?? create.find((c) => c.name === ref.name);
      if (t) attach.push(t);
      else {
        const fresh = { id: newId("tag"), organization: org, name: ref.name, createdAt: now };
        create.push(fresh);
        attach.push(fresh);
      }
    }
  }
  return { attach, create };
}

/** Ids attached once each, in first-seen order. */
export function withTags(ws: WorkspaceRecord, tags: FlatTagRecord[]): string[] {
  const ids = [...ws.tagIds];
  for (const t of tags) if (!ids.includes(t.id)) ids.push(t.id);
  return ids;
}

export function instanceCount(store: Store, tag: FlatTagRecord): number {
  let n = 0;
  for (const w of store.workspacesOf(tag.organization)) if (w.tagIds.includes(tag.id)) n++;
  return n;
}

/** Removes organization tags no workspace carries any more. */
export function removeOrphanTags(store: Store, org: string): void {
  const used = new Set<string>();
  for (const w of store.workspacesOf(org)) for (const id of w.tagIds) used.add(id);
  for (const t of store.tags.filter((x) => x.organization === org)) if (!used.has(t.id)) store.tags.delete(t.id);
}

export function tagNames(store: Store, ws: WorkspaceRecord): string[] {
  const out: string[] = [];
  for (const id of ws.tagIds) {
    const t = store.tags.get(id);
    if (t) out.push(t.name);
  }
  return out;
}

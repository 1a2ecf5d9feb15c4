/**
 * Flat tags (type `tags`, spec C5–C7): the legacy flat list of organization tags attached to workspaces.
 */
import { z } from "zod";
import { InvalidOptionsError } from "../errors";
import { bodyId, paginatedDocument, requestDocument, type RequestDocument } from "./common";

export const tagResource = z.object({
  id: z.string(),
  type: z.literal("tags"),
  attributes: z.object({
    name: z.string(),
    "created-at": z.string().nullable().optional(),
    "instance-count": z.number().nullable().optional(),
  }),
  relationships: z.object({
    organization: z.object({ data: z.object({ id: z.string(), type: z.string() }).nullable().optional() }).optional(),
  }).optional(),
});

export const tagListDocument = paginatedDocument(tagResource);

export interface Tag {
  id: string;
  name: string;
  createdAt: string | null;
  /** Number of workspaces carrying the tag. */
  instanceCount: number | null;
  /** Organization name. */
  organization: string | null;
}

export function toTag(r: z.output<typeof tagResource>): Tag {
  return {
    id: r.id,
    name: r.attributes.name,
    createdAt: r.attributes["created-at"] ?? null,
    instanceCount: r.attributes["instance-count"] ?? null,
    organization: r.relationships?.organization?.data?.id ?? null,
  };
}

/** A tag named by id (must exist) or by name (created on add if missing; ignored on remove if missing). */
export type TagRef = { id: string } | { name: string };

/** Same reading as validateTagRefs: an empty name does not make a reference "by name". */
export function isTagByName(ref: TagRef): ref is { name: string } {
  return "name" in ref && typeof ref.name === "string" && ref.name !== "";
}

export function validateTagRefs(operation: string, refs: readonly TagRef[]): void {
  if (!Array.isArray(refs)) throw new InvalidOptionsError(operation, "tags", "must be a list");
  refs.forEach((ref, i) => {
    const hasId = typeof (ref as { id?: unknown })?.id === "string" && (ref as { id: string }).id !== "";
    const hasName = typeof (ref as { name?: unknown })?.name === "string" && (ref as { name: string }).name !== "";
    if (hasId === hasName) throw new InvalidOptionsError(operation, `tags[${i}]`, "must have exactly one of id or name");
  });
}

/** C6/C7 request document: each tag by id, or by name. */
export const tagRefsRequest = z.strictObject({
  data: z.array(z.union([
    z.strictObject({ type: z.literal("tags"), id: bodyId }),
    z.strictObject({ type: z.literal("tags"), attributes: z.strictObject({ name: z.string().min(1) }) }),
  ])),
});

/** `{ data: [{ type: "tags", id } | { type: "tags", attributes: { name } }] }` */
export function tagRefsBody(refs: readonly TagRef[]): RequestDocument {
  return requestDocument(tagRefsRequest, {
    data: refs.map((ref) => (isTagByName(ref) ? { type: "tags" as const, attributes: { name: ref.name } } : { type: "tags" as const, id: ref.id })),
  });
}

/**
 * Key-value tags (spec C8–C10): tag bindings bound directly to a workspace, and effective tag bindings
 * (direct plus inherited from the project).
 *
 * Inheritance is reported as `links.inherited-from` by the service and as
 * `relationships.inherited-from.links.related` by the spec (research/api.md §8): both are read.
 */
import { z } from "zod";
import { lastSegment, requestDocument, type RequestDocument } from "./common";
import {
  tagBindingRequestResource, tagBindingResource as tagBindingRequestItem, type EffectiveTagBinding, type TagBindingInput,
} from "./workspaces";

export type { EffectiveTagBinding };

export const tagBindingResource = z.object({
  id: z.string(),
  type: z.literal("tag-bindings"),
  attributes: z.object({
    key: z.string(),
    value: z.string().nullable().optional(),
    "created-at": z.string().nullable().optional(),
  }),
});

/** C8 and C10: `{ data: [tag-bindings], links?: { target } }`, never paginated. */
export const tagBindingListDocument = z.object({
  data: z.array(tagBindingResource),
  links: z.object({ target: z.string().nullable().optional() }).optional(),
});

const inheritedLink = z.union([z.string(), z.object({ href: z.string() })]);

export const effectiveTagBindingResource = z.object({
  id: z.string(),
  type: z.literal("effective-tag-bindings"),
  attributes: z.object({ key: z.string(), value: z.string().nullable().optional() }),
  links: z.object({ "inherited-from": inheritedLink.nullable().optional() }).nullable().optional(),
  relationships: z.object({
    "inherited-from": z.object({
      data: z.object({ id: z.string(), type: z.string() }).nullable().optional(),
      links: z.object({ related: z.string().nullable().optional() }).optional(),
    }).nullable().optional(),
  }).optional(),
});

/** C9: `{ data: [effective-tag-bindings] }`. */
export const effectiveTagBindingListDocument = z.object({ data: z.array(effectiveTagBindingResource) });

/** C10 request document: at most 10 bindings (spec Limits). */
export const tagBindingsRequest = z.strictObject({ data: z.array(tagBindingRequestResource).max(10) });

export function tagBindingsBody(bindings: readonly TagBindingInput[]): RequestDocument {
  return requestDocument(tagBindingsRequest, { data: bindings.map(tagBindingRequestItem) });
}

export interface TagBinding {
  id: string;
  key: string;
  /** "" for a key-only tag. */
  value: string;
  createdAt: string | null;
}


export function toTagBinding(r: z.output<typeof tagBindingResource>): TagBinding {
  return { id: r.id, key: r.attributes.key, value: r.attributes.value ?? "", createdAt: r.attributes["created-at"] ?? null };
}

export function toEffectiveTagBinding(r: z.output<typeof effectiveTagBindingResource>): EffectiveTagBinding {
  const fromLinks = r.links?.["inherited-from"];
  const rel = r.relationships?.["inherited-from"];
  const link = (typeof fromLinks === "string" ? fromLinks : fromLinks?.href) ?? rel?.links?.related ?? null;
  const id = rel?.data?.id ?? lastSegment(link);
  return {
    id: r.id,
    key: r.attributes.key,
    value: r.attributes.value ?? "",
    inheritedFrom: link !== null || id !== null ? { id, link: link ?? "" } : null,
  };
}

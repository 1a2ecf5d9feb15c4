/**
 * Key-value tags (spec C8–C10): tag bindings bound directly to a workspace, and effective tag bindings
 * (direct plus inherited from the project).
 *
 * Inheritance is reported as `links.inherited-from` by the service and as
 * `relationships.inherited-from.links.related` by the spec (research/api.md §8): both are read.
 */
import { z } from "zod";
import { MAX_DIRECT_TAG_BINDINGS, RULES, brokenCheck, text } from "../../../schemas/rules";
import { InvalidOptionsError } from "../errors";
import { lastSegment, requestDocument, type RequestDocument } from "./common";

/** A key-value tag as a workspace sees it (C9): bound directly, or inherited from its project. */
export interface EffectiveTagBinding {
  id: string;
  key: string;
  /** "" for a key-only tag. */
  value: string;
  /** Where an inherited binding comes from (a project); null for a binding set on the workspace. */
  inheritedFrom: { id: string | null; link: string } | null;
}

/** A key-value tag to bind (spec Limits: at most 10, key ≤128, value ≤256 characters). */
export interface TagBindingInput {
  key: string;
  /** Optional: a key-only tag when omitted. */
  value?: string;
}

/** Checks the key-value tag rules of the spec's Limits table (rules.ts), naming the binding that breaks one. */
export function validateTagBindings(operation: string, property: string, bindings: readonly TagBindingInput[]): void {
  if (bindings.length > MAX_DIRECT_TAG_BINDINGS) {
    throw new InvalidOptionsError(operation, property, `at most ${MAX_DIRECT_TAG_BINDINGS} tags may be bound directly, got ${bindings.length}`);
  }
  bindings.forEach((b, i) => {
    const at = `${property}[${i}]`;
    if (typeof b.key !== "string" || b.key === "") throw new InvalidOptionsError(operation, `${at}.key`, "is required");
    const key = brokenCheck(RULES.tagKey, b.key);
    if (key !== undefined) throw new InvalidOptionsError(operation, `${at}.key`, key.message);
    const value = b.value === undefined ? undefined : brokenCheck(RULES.tagValue, b.value);
    if (value !== undefined) throw new InvalidOptionsError(operation, `${at}.value`, value.message);
  });
}

/** `{ type: "tag-bindings", attributes: { key, value? } }`, in a workspace's request (A1, A5) or C10's. */
export const tagBindingRequestResource = z.strictObject({
  type: z.literal("tag-bindings"),
  attributes: z.strictObject({ key: text(RULES.tagKey), value: text(RULES.tagValue).optional() }),
});

export function tagBindingRequestItem(b: TagBindingInput): z.input<typeof tagBindingRequestResource> {
  return { type: "tag-bindings", attributes: { key: b.key, value: b.value } };
}

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
export const tagBindingsRequest = z.strictObject({ data: z.array(tagBindingRequestResource).max(MAX_DIRECT_TAG_BINDINGS) });

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

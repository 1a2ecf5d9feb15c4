/**
 * JSON:API building blocks shared by every document: resource identifiers, relationships, collection
 * links and pagination meta. Unknown members are stripped (zod's default), so new server fields never
 * break the client; a documented field of the wrong type does.
 */
import { z } from "zod";

/** `{ id, type }` */
export const resourceIdentifier = z.object({ id: z.string(), type: z.string() });
export type ResourceIdentifier = z.output<typeof resourceIdentifier>;

/** A to-one relationship: `{ data: {id,type} | null, links?: { related } }`; `data` may be absent. */
export const toOneRelationship = z.object({
  data: resourceIdentifier.nullable().optional(),
  links: z.object({ related: z.string().nullable().optional() }).optional(),
});

/** A to-many relationship or a link-only one. */
export const toManyRelationship = z.object({
  data: z.array(resourceIdentifier).nullable().optional(),
  links: z.object({ related: z.string().nullable().optional() }).optional(),
});

/** `links` of a collection: absolute URLs, `next`/`prev` null at the ends. */
export const collectionLinks = z.object({
  self: z.string().nullable().optional(),
  first: z.string().nullable().optional(),
  prev: z.string().nullable().optional(),
  next: z.string().nullable().optional(),
  last: z.string().nullable().optional(),
});

/** `meta.pagination`; `page-size` is missing from older servers. */
export const paginationMeta = z.object({
  "current-page": z.number(),
  "next-page": z.number().nullable().optional(),
  "prev-page": z.number().nullable().optional(),
  "page-size": z.number().optional(),
  "total-count": z.number().optional(),
  "total-pages": z.number().optional(),
});

/** A paginated collection document with items of the given resource schema. */
export function paginatedDocument<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    links: collectionLinks.optional(),
    meta: z.object({ pagination: paginationMeta.optional() }).optional(),
  });
}

export type PaginatedDocument<T> = {
  data: T[];
  links?: z.output<typeof collectionLinks> | undefined;
  meta?: { pagination?: z.output<typeof paginationMeta> | undefined } | undefined;
};

/** A resource from `included`, kept generic (its attributes are whatever the server sent). */
export const includedResource = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  // Kept for the types that carry meaning there (an effective tag binding's `inherited-from`).
  links: z.record(z.string(), z.unknown()).nullable().optional(),
  relationships: z.record(z.string(), z.unknown()).optional(),
});

export interface IncludedResource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  links?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

export function toIncluded(items: z.output<typeof includedResource>[] | undefined): IncludedResource[] | undefined {
  return items?.map((i) => ({
    id: i.id, type: i.type, attributes: i.attributes ?? {},
    ...(i.links ? { links: i.links } : {}), ...(i.relationships ? { relationships: i.relationships } : {}),
  }));
}

/** Dotted path of a zod issue: `data.attributes.locked`, `data[3].id`. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

const camelCache = new Map<string, string>();

/** `can-queue-run` → `canQueueRun` (memoized: the same few dozen keys arrive in every response). */
export function camelCase(kebab: string): string {
  let out = camelCache.get(kebab);
  if (out === undefined) {
    out = kebab.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camelCache.size < 1000) camelCache.set(kebab, out);
  }
  return out;
}

/** Last path segment of a link such as `/api/v2/projects/prj-123` (→ `prj-123`). */
export function lastSegment(link: string | null | undefined): string | null {
  if (!link) return null;
  const bare = link.split("?")[0] ?? "";
  const segment = bare.split("/").filter((s) => s !== "").pop();
  return segment ? decodeURIComponent(segment) : null;
}


// ---------------------------------------------------------------------------------------------------
// Request documents

/** A request body together with the schema it must satisfy. The Requester validates it before sending,
 * so a malformed body is an error (RequestShapeError) that never reaches the server. */
export interface RequestDocument {
  readonly schema: z.ZodType;
  readonly value: unknown;
}

/** Pairs a body with its schema; the value is also checked against the schema's type at compile time.
 * Keys whose value is undefined are dropped by JSON.stringify (undefined = omit from the request). */
export function requestDocument<S extends z.ZodType>(schema: S, value: z.input<S>): RequestDocument {
  return { schema, value };
}

/** Non-empty, no slash, no whitespace: what an id or name inside a body must look like. */
export const bodyId = z.string().regex(/^[^/\s]+$/, "must be a non-empty id without \"/\" or whitespace");

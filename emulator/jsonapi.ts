/**
 * Reading JSON:API request documents and writing collection documents. Every validation failure
 * becomes a 422 naming the offending member with a JSON pointer.
 */
import { ApiError, errors } from "./errors";
import { encodeQueryComponent, type Query } from "./query";

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export interface DataObject {
  type: string | undefined;
  id: string | undefined;
  attributes: Json;
  relationships: Json;
  /** Which attribute keys were present (explicit null counts). */
  has(key: string): boolean;
}

/**
 * `{data:{type, attributes, relationships}}`. With `expectedType` set, `data.type` must equal it;
 * pass null to accept any type (go-tfe sends `"type":""` on lock).
 */
export function readDataObject(body: unknown, expectedType: string | null): DataObject {
  if (!isObject(body)) throw errors.unprocessable("Request body must be a JSON object", "");
  const data = body["data"];
  if (!isObject(data)) throw errors.unprocessable("data must be an object", "/data");
  const type = data["type"];
  if (type !== undefined && typeof type !== "string") throw errors.invalidAttribute("type must be a string", "/data/type");
  if (expectedType !== null && type !== expectedType) {
    throw errors.invalidAttribute(`data.type must be "${expectedType}"`, "/data/type");
  }
  const attributes = data["attributes"] ?? {};
  if (!isObject(attributes)) throw errors.invalidAttribute("attributes must be an object", "/data/attributes");
  const relationships = data["relationships"] ?? {};
  if (!isObject(relationships)) throw errors.invalidAttribute("relationships must be an object", "/data/relationships");
  const id = data["id"];
  return {
    type: type as string | undefined,
    id: typeof id === "string" ? id : undefined,
    attributes,
    relationships,
    has: (key) => Object.prototype.hasOwnProperty.call(attributes, key),
  };
}

/** `{data:[...]}` with objects as members. */
export function readDataArray(body: unknown): Json[] {
  if (!isObject(body)) throw errors.unprocessable("Request body must be a JSON object", "");
  const data = body["data"];
  if (!Array.isArray(data)) throw errors.unprocessable("data must be an array", "/data");
  data.forEach((m, i) => {
    if (!isObject(m)) throw errors.unprocessable("each member of data must be an object", `/data/${i}`);
  });
  return data as Json[];
}

/** Typed attribute readers: undefined when absent, 422 on a wrong type. */
export const attr = {
  bool(a: Json, key: string, base = "/data/attributes"): boolean | undefined {
    const v = a[key];
    if (v === undefined) return undefined;
    if (typeof v !== "boolean") throw errors.invalidAttribute(`${key} must be a boolean`, `${base}/${key}`);
    return v;
  },
  string(a: Json, key: string, base = "/data/attributes"): string | undefined {
    const v = a[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string") throw errors.invalidAttribute(`${key} must be a string`, `${base}/${key}`);
    return v;
  },
  /** A string or explicit null (which clears the value). */
  nullableString(a: Json, key: string, base = "/data/attributes"): string | null | undefined {
    const v = a[key];
    if (v === undefined || v === null) return v as null | undefined;
    if (typeof v !== "string") throw errors.invalidAttribute(`${key} must be a string or null`, `${base}/${key}`);
    return v;
  },
  stringArray(a: Json, key: string, base = "/data/attributes"): string[] | undefined {
    const v = a[key];
    if (v === undefined) return undefined;
    if (v === null) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) {
      throw errors.invalidAttribute(`${key} must be an array of strings`, `${base}/${key}`);
    }
    return v as string[];
  },
  integer(a: Json, key: string, base = "/data/attributes"): number | undefined {
    const v = a[key];
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v)) {
      throw errors.invalidAttribute(`${key} must be an integer`, `${base}/${key}`);
    }
    return v;
  },
};

/**
 * `include=a,b` against the values an endpoint serves; 400 for any other (go-tfe matches the words
 * "include parameter"), rather than an answer silently missing what was asked.
 */
export function readInclude(raw: string | undefined, allowed: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const v of (raw ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    if (!allowed.has(v)) throw errors.badRequest(`Invalid include parameter: ${v}`);
    out.add(v);
  }
  return out;
}

export interface Page {
  number: number;
  size: number;
}

/**
 * What paging needs of a request; a route passes its `RequestContext`. Naming no more keeps this
 * module below the route context: the domain reads documents with it.
 */
export interface CollectionRequest {
  readonly query: Query;
  /** Absolute base URL as the client addressed the server. */
  readonly baseUrl: string;
  /** Path without query string. */
  readonly path: string;
}

const MAX_PAGE_SIZE = 100;

export function readPage(ctx: CollectionRequest, defaultSize = 20): Page {
  const rawNumber = ctx.query.get("page[number]");
  const rawSize = ctx.query.get("page[size]");
  let number = 1;
  let size = defaultSize;
  if (rawNumber !== undefined && rawNumber !== "") {
    if (!/^\d+$/.test(rawNumber) || Number(rawNumber) < 1) {
      throw new ApiError(422, "invalid attribute", "page[number] must be a positive integer");
    }
    number = Number(rawNumber);
  }
  if (rawSize !== undefined && rawSize !== "") {
    if (!/^\d+$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > MAX_PAGE_SIZE) {
      throw new ApiError(422, "invalid attribute", `page[size] must be between 1 and ${MAX_PAGE_SIZE}`);
    }
    size = Number(rawSize);
  }
  return { number, size };
}

function pageLink(ctx: CollectionRequest, page: Page, n: number): string {
  let qs = `page%5Bnumber%5D=${n}&page%5Bsize%5D=${page.size}`;
  for (const [k, v] of ctx.query.pairs) {
    if (k === "page[number]" || k === "page[size]") continue;
    qs += `&${encodeQueryComponent(k)}=${encodeQueryComponent(v)}`;
  }
  return `${ctx.baseUrl}${ctx.path}?${qs}`;
}

/** A paginated collection document: absolute links with encoded brackets and `meta.pagination`. */
export function paginate<T>(
  ctx: CollectionRequest,
  items: readonly T[],
  page: Page,
  serialize: (item: T) => unknown,
  extra: Json = {},
): Json {
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const start = (page.number - 1) * page.size;
  const slice = items.slice(start, start + page.size);
  const prev = page.number > 1 ? Math.min(page.number - 1, totalPages) : null;
  const next = page.number < totalPages ? page.number + 1 : null;
  return {
    data: slice.map(serialize),
    ...extra,
    links: {
      self: pageLink(ctx, page, page.number),
      first: pageLink(ctx, page, 1),
      prev: prev === null ? null : pageLink(ctx, page, prev),
      next: next === null ? null : pageLink(ctx, page, next),
      last: pageLink(ctx, page, totalPages),
    },
    meta: {
      pagination: {
        "current-page": page.number,
        "page-size": page.size,
        "prev-page": prev,
        "next-page": next,
        "total-pages": totalPages,
        "total-count": total,
      },
    },
  };
}

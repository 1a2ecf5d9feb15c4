/**
 * Query string parsing. Keys keep their bracket syntax (`page[number]`, `filter[tagged][0][key]`)
 * after percent-decoding, so `page%5Bnumber%5D` and `page[number]` are the same key.
 */
import { errors } from "./errors";

export class Query {
  private readonly map = new Map<string, string>();
  constructor(readonly pairs: ReadonlyArray<readonly [string, string]>) {
    for (const [k, v] of pairs) this.map.set(k, v);
  }
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
}

export const EMPTY_QUERY = new Query([]);

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    throw errors.badRequest("Malformed query string");
  }
}

export function parseQuery(raw: string): Query {
  if (raw === "") return EMPTY_QUERY;
  const pairs: Array<[string, string]> = [];
  for (const part of raw.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    const v = eq < 0 ? "" : decode(part.slice(eq + 1));
    if (!/^[A-Za-z0-9_.\-]+(\[[^\[\]]*\])*$/.test(k)) {
      throw errors.badRequest(`Malformed query parameter "${k}"`);
    }
    pairs.push([k, v]);
  }
  return new Query(pairs);
}

/** Percent-encodes a query key or value the way the service writes its links (brackets as %5B/%5D). */
export function encodeQueryComponent(s: string): string {
  return encodeURIComponent(s);
}

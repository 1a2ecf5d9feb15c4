/**
 * Pagination: an async iterator that reads every page of a list endpoint, so a list never silently
 * stops at page one. Pages are fetched lazily, one at a time, as the caller consumes items.
 */
import type { PaginatedDocument } from "./documents/common";

/** The largest page the service accepts; fewer round trips for long lists. */
export const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  items: T[];
  /** The next page number, or null after the last page. */
  nextPage: number | null;
}

/** Yields every item of every page, starting at page 1. */
export async function* paginate<T>(fetchPage: (pageNumber: number) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let pageNumber = 1;
  for (;;) {
    const page = await fetchPage(pageNumber);
    yield* page.items;
    // A next page that does not move forward would loop forever; an empty page means we ran past the end.
    if (page.nextPage === null || page.nextPage <= pageNumber || page.items.length === 0) return;
    pageNumber = page.nextPage;
  }
}

/** The next page of a collection document: `meta.pagination.next-page`, else the `links.next` URL. */
export function nextPageOf(doc: PaginatedDocument<unknown>): number | null {
  const pagination = doc.meta?.pagination;
  if (pagination) return pagination["next-page"] ?? null;
  const next = doc.links?.next;
  if (!next) return null;
  const value = new URL(next, "http://placeholder").searchParams.get("page[number]");
  const n = value === null ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Checks and defaults a page size option. */
export function pageSize(requested: number | undefined): number {
  if (requested === undefined) return MAX_PAGE_SIZE;
  if (!Number.isInteger(requested) || requested < 1 || requested > MAX_PAGE_SIZE) {
    throw new RangeError(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${requested}`);
  }
  return requested;
}

/** Reads an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

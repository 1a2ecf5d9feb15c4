// Work over many items with a bound on how many run at once: discovery's reads (which the rate limit
// paces) and a split's stack reads (two `pulumi` processes each).

/** `work` on every item, at most `limit` at once, results in the items' order; the first failure fails all. */
export async function eachAtMost<T, R>(limit: number, items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

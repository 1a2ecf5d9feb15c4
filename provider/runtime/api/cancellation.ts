/**
 * Cancellation of the process's API calls, for the provider protocol's `Cancel` (the engine sends it
 * when the user presses Ctrl-C once): from then on no request is sent and no retry waits; a request
 * already on the wire is left to finish, so its outcome is known and recorded (aborting a create in
 * flight would leave an object the state never hears of). Process-wide, like the rate limiter: one
 * plugin process serves one provider, and the engine cancels the whole deployment at once.
 */

let cancelled = false;
/** Waits (retry backoff, a 429's reset) that end early when the calls are cancelled. */
const wakers = new Set<() => void>();
/** What else must let its waiting requests go (the rate limiter's queues). */
const releasers = new Set<() => void>();

/** Cancels every call of this process: waiting ones end now, new ones are refused before they are sent. */
export function cancelRequests(): void {
  cancelled = true;
  for (const wake of wakers) wake();
  wakers.clear();
  for (const release of releasers) release();
}

/** Whether {@link cancelRequests} was called. */
export function requestsCancelled(): boolean {
  return cancelled;
}

/** Runs `release` when the calls are cancelled (the rate limiter lets its queue go). */
export function onCancel(release: () => void): void {
  releasers.add(release);
}

/** Sleeps `ms`, or less when the calls are cancelled meanwhile. */
export function sleepUnlessCancelled(ms: number): Promise<void> {
  if (ms <= 0 || cancelled) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      wakers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    wakers.add(wake);
  });
}

/** Forgets a cancellation (tests: one process runs many scenarios). */
export function resetCancellation(): void {
  cancelled = false;
}

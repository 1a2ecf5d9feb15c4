/**
 * The retry policy: a pure function from "what happened" to "wait this long and try again, or stop".
 * No I/O and no clock of its own, so it is tested without a server and swapped without touching the
 * transport (the shape follows undici's RetryHandler: defaults in one block, idempotent-only, Retry-After).
 */

/** Tunables. Every duration is in milliseconds. */
export interface RetryOptions {
  /** Attempts (first one included) for 5xx answers and lost connections of idempotent requests. */
  maxAttempts: number;
  /** First backoff step; doubles per attempt, with jitter, up to `maxDelayMs`. */
  minDelayMs: number;
  /** Largest backoff step. */
  maxDelayMs: number;
  /** How many 429 answers one call may wait out before giving up. */
  maxRateLimitRetries: number;
  /** The longest single wait a 429 may ask for; a longer request fails at once with RateLimitedError. */
  rateLimitMaxWaitMs: number;
  /** Wall-clock budget of one call, retries included: no new attempt starts after it. */
  budgetMs: number;
  /** How long unlock's 503 ("intermediate state not finalized yet") is retried. */
  unlockRetryPeriodMs: number;
}

/** Defaults: one place, units in comments. */
export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 5, //             1 try + 4 retries
  minDelayMs: 250, //            0.25 s, then 0.5 s, 1 s, 2 s …
  maxDelayMs: 8_000, //          8 s per step at most
  maxRateLimitRetries: 10, //    10 waits of ~1 s against a 30 req/s limit
  rateLimitMaxWaitMs: 60_000, // 60 s: the service's windows are ~1 s; anything longer is an outage
  budgetMs: 120_000, //          2 min per call, all attempts included
  unlockRetryPeriodMs: 30_000, // 30 s: "retry for a short period" (spec B2)
});

/** Merges user overrides over the defaults, rejecting nonsense so a typo cannot disable the budget. */
export function resolveRetryOptions(overrides: Partial<RetryOptions> | undefined): RetryOptions {
  const merged: RetryOptions = { ...DEFAULT_RETRY_OPTIONS };
  if (overrides) {
    for (const key of Object.keys(DEFAULT_RETRY_OPTIONS) as (keyof RetryOptions)[]) {
      const value = overrides[key];
      if (value === undefined) continue;
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new RangeError(`retry.${key} must be a finite number >= 0, got ${String(value)}`);
      }
      merged[key] = value;
    }
  }
  merged.maxAttempts = Math.max(1, Math.floor(merged.maxAttempts));
  return merged;
}

/** What one attempt ended with. */
export type AttemptOutcome =
  | { kind: "response"; status: number; /** server-requested wait, from the headers */ retryAfterMs?: number }
  /** No response. `sent` is false only when the request certainly never left (connection refused). */
  | { kind: "transport"; sent: boolean };

/** What the policy knows about the call so far. */
export interface RetryState {
  /** Attempts made so far, the failed one included (1 after the first failure). */
  attempts: number;
  /** 429 answers waited out so far. */
  rateLimitRetries: number;
  /** Time since the first attempt started. */
  elapsedMs: number;
}

/** What the operation says about itself. */
export interface RequestTraits {
  /** Repeating the request cannot apply it twice (GET, DELETE, PATCH that sets values…). */
  idempotent: boolean;
  /** For unlock: keep retrying 503 for this long, even though the request is not idempotent
   * (the server answers 503 *instead of* unlocking). */
  retry503ForMs?: number;
}

export type GiveUpReason =
  | "not-retryable" //         a status that retrying cannot fix (4xx), or a 2xx
  | "not-idempotent" //        5xx or lost connection of a request that is unsafe to repeat
  | "attempts" //              maxAttempts used up
  | "rate-limit-retries" //    maxRateLimitRetries used up
  | "rate-limit-wait" //       the server asked for a wait longer than rateLimitMaxWaitMs
  | "budget"; //               the wait would end after budgetMs (or the unlock period)

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: GiveUpReason };

/** Exponential backoff with "equal jitter": half fixed, half random, so callers spread out. */
export function backoffMs(attempt: number, options: RetryOptions, random: () => number): number {
  const step = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Decides whether to try again and after how long. */
export function decideRetry(
  outcome: AttemptOutcome,
  state: RetryState,
  traits: RequestTraits,
  options: RetryOptions,
  random: () => number = Math.random,
): RetryDecision {
  const withinBudget = (delayMs: number, limitMs: number): RetryDecision =>
    state.elapsedMs + delayMs <= limitMs ? { retry: true, delayMs } : { retry: false, reason: "budget" };

  if (outcome.kind === "transport") {
    // A request that never left is safe to send again whatever its method.
    if (outcome.sent && !traits.idempotent) return { retry: false, reason: "not-idempotent" };
    if (state.attempts >= options.maxAttempts) return { retry: false, reason: "attempts" };
    return withinBudget(backoffMs(state.attempts, options, random), options.budgetMs);
  }

  const { status } = outcome;
  if (status === 429) {
    // A 429 is refused before any processing, so it is safe to repeat for every method.
    if (state.rateLimitRetries >= options.maxRateLimitRetries) return { retry: false, reason: "rate-limit-retries" };
    const asked = outcome.retryAfterMs;
    if (asked !== undefined && asked > options.rateLimitMaxWaitMs) return { retry: false, reason: "rate-limit-wait" };
    // Small jitter so that concurrent callers released by the same reset do not collide again.
    const delayMs = asked !== undefined ? asked + Math.round(random() * 50) : backoffMs(state.rateLimitRetries + 1, options, random);
    return withinBudget(delayMs, options.budgetMs);
  }

  if (status === 503 && traits.retry503ForMs !== undefined) {
    const delayMs = outcome.retryAfterMs ?? backoffMs(state.attempts, options, random);
    return withinBudget(delayMs, Math.min(traits.retry503ForMs, options.budgetMs));
  }

  if (status >= 500) {
    if (!traits.idempotent) return { retry: false, reason: "not-idempotent" };
    if (state.attempts >= options.maxAttempts) return { retry: false, reason: "attempts" };
    const delayMs = outcome.retryAfterMs !== undefined
      ? Math.min(outcome.retryAfterMs, options.maxDelayMs)
      : backoffMs(state.attempts, options, random);
    return withinBudget(delayMs, options.budgetMs);
  }

  return { retry: false, reason: "not-retryable" };
}

/**
 * The wait a 429/503 asks for. `X-RateLimit-Reset` (float seconds, what the service sends) is the more
 * precise; `Retry-After` (integer seconds or an HTTP date) is the standard fallback.
 */
export function retryAfterFromHeaders(
  header: (name: string) => string | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  const reset = header("x-ratelimit-reset");
  if (reset !== undefined && reset.trim() !== "") {
    const seconds = Number(reset);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  }
  const retryAfter = header("retry-after");
  if (retryAfter !== undefined && retryAfter.trim() !== "") {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  return undefined;
}

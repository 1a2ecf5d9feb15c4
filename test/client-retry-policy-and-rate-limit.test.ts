/**
 * The pure retry policy and the token bucket, without a server.
 */
import { observeLimit, reserve, advertisedLimit, resetRateLimits } from "../provider/runtime/api/rate-limiter";
import {
  DEFAULT_RETRY_OPTIONS, backoffMs, decideRetry, resolveRetryOptions, retryAfterFromHeaders, type RetryOptions,
} from "../provider/runtime/api/retry";

const opts: RetryOptions = { ...DEFAULT_RETRY_OPTIONS };
const state = (attempts: number, rateLimitRetries = 0, elapsedMs = 0) => ({ attempts, rateLimitRetries, elapsedMs });
const half = () => 0.5;

describe("decideRetry", () => {
  test("idempotent requests retry 5xx with growing backoff until maxAttempts", () => {
    const idem = { idempotent: true };
    expect(decideRetry({ kind: "response", status: 502 }, state(1), idem, opts, half)).toEqual({ retry: true, delayMs: 188 });
    expect(decideRetry({ kind: "response", status: 502 }, state(2), idem, opts, half)).toEqual({ retry: true, delayMs: 375 });
    expect(decideRetry({ kind: "response", status: 502 }, state(5), idem, opts, half)).toEqual({ retry: false, reason: "attempts" });
  });

  test("non-idempotent requests never retry 5xx or a lost connection after sending", () => {
    const post = { idempotent: false };
    expect(decideRetry({ kind: "response", status: 500 }, state(1), post, opts)).toEqual({ retry: false, reason: "not-idempotent" });
    expect(decideRetry({ kind: "transport", sent: true }, state(1), post, opts)).toEqual({ retry: false, reason: "not-idempotent" });
  });

  test("a request that was never sent is retried whatever its method", () => {
    expect(decideRetry({ kind: "transport", sent: false }, state(1), { idempotent: false }, opts, half).retry).toBe(true);
  });

  test("a 429 honours the server's wait for every method, within the limits", () => {
    const post = { idempotent: false };
    expect(decideRetry({ kind: "response", status: 429, retryAfterMs: 1500 }, state(0), post, opts, () => 0)).toEqual({ retry: true, delayMs: 1500 });
    expect(decideRetry({ kind: "response", status: 429, retryAfterMs: 61_000 }, state(0), post, opts)).toEqual({ retry: false, reason: "rate-limit-wait" });
    expect(decideRetry({ kind: "response", status: 429 }, state(0, 10), post, opts)).toEqual({ retry: false, reason: "rate-limit-retries" });
  });

  test("no wait may end after the budget", () => {
    expect(decideRetry({ kind: "response", status: 429, retryAfterMs: 5000 }, state(0, 0, 118_000), { idempotent: true }, opts, () => 0))
      .toEqual({ retry: false, reason: "budget" });
  });

  test("503 with retry503ForMs is retried for that period regardless of attempts, then stops", () => {
    const unlock = { idempotent: false, retry503ForMs: 30_000 };
    expect(decideRetry({ kind: "response", status: 503 }, state(20, 0, 1_000), unlock, opts, half).retry).toBe(true);
    expect(decideRetry({ kind: "response", status: 503 }, state(20, 0, 29_999), unlock, opts, half)).toEqual({ retry: false, reason: "budget" });
    expect(decideRetry({ kind: "response", status: 500 }, state(1), unlock, opts)).toEqual({ retry: false, reason: "not-idempotent" });
  });

  test("4xx other than 429 is never retried", () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(decideRetry({ kind: "response", status }, state(1), { idempotent: true }, opts)).toEqual({ retry: false, reason: "not-retryable" });
    }
  });
});

describe("backoff and headers", () => {
  test("backoff doubles per attempt and is capped at maxDelayMs, jitter within [half, full]", () => {
    expect(backoffMs(1, opts, () => 0)).toBe(125);
    expect(backoffMs(1, opts, () => 1)).toBe(250);
    expect(backoffMs(3, opts, () => 1)).toBe(1000);
    expect(backoffMs(20, opts, () => 1)).toBe(8000);
  });

  test("X-RateLimit-Reset (float seconds) wins over Retry-After; Retry-After may be an HTTP date", () => {
    const h = (m: Record<string, string>) => (name: string) => m[name];
    expect(retryAfterFromHeaders(h({ "x-ratelimit-reset": "0.25", "retry-after": "1" }))).toBe(250);
    expect(retryAfterFromHeaders(h({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterFromHeaders(h({ "retry-after": new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterFromHeaders(h({ "retry-after": "soon" }))).toBeUndefined();
  });

  test("overrides merge over the defaults and nonsense is refused", () => {
    expect(resolveRetryOptions({ maxAttempts: 2 })).toEqual({ ...DEFAULT_RETRY_OPTIONS, maxAttempts: 2 });
    expect(() => resolveRetryOptions({ budgetMs: -1 })).toThrow(RangeError);
    expect(() => resolveRetryOptions({ minDelayMs: Number.NaN })).toThrow(RangeError);
  });
});

describe("client-side rate limit", () => {
  afterEach(() => resetRateLimits());

  test("an origin that advertised nothing is not limited", () => {
    for (let i = 0; i < 100; i++) expect(reserve("http://a")).toBe(0);
  });

  test("after X-RateLimit-Limit 30, a burst of 9 goes at once and the next request waits", () => {
    observeLimit("http://b", "30");
    expect(advertisedLimit("http://b")).toBe(30);
    const waits = Array.from({ length: 11 }, () => reserve("http://b"));
    expect(waits.slice(0, 9).every((w) => w === 0)).toBe(true);
    expect(waits[9]).toBeGreaterThan(0);
    expect(waits[10]!).toBeGreaterThan(waits[9]!);
  });

  test("the limit is shared by origin and can be turned off per client", () => {
    observeLimit("http://c", "3");
    expect(reserve("http://c")).toBe(0);
    expect(reserve("http://c")).toBeGreaterThan(0);
    expect(reserve("http://c", { enabled: false })).toBe(0);
    expect(reserve("http://other")).toBe(0);
  });

  test("junk or zero limits are ignored", () => {
    observeLimit("http://d", "0");
    observeLimit("http://d", "lots");
    expect(advertisedLimit("http://d")).toBeUndefined();
  });
});

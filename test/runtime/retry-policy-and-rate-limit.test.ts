/**
 * The pure retry policy and the client-side pace (its schedule with a virtual clock, its queue with fake
 * timers), then the pace against the emulator's fixed-window limit.
 */
import { startEmulator } from "../../emulator";
import { ApiError, WsbridgeClient, closeAllPools } from "../../provider/runtime/api";
import {
  PaceSchedule, acquire, advertisedLimit, observeNoResponse, observeResponse, pauseOrigin, resetRateLimits, type RateLimitOptions,
} from "../../provider/runtime/api/rate-limiter";
import {
  DEFAULT_RETRY_OPTIONS, backoffMs, decideRetry, resolveRetryOptions, retryAfterFromHeaders, type RetryOptions,
} from "../../provider/runtime/api/retry";

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

/** Sends `count` requests as early as the schedule allows, from `start`; returns the send times. */
function greedySends(schedule: PaceSchedule, count: number, start = 0): number[] {
  const sends: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = Math.max(start, schedule.nextSlot());
    schedule.consume(at);
    sends.push(at);
  }
  return sends;
}

/** The most sends in any one-second window [t, t + 1000), wherever it starts. */
function busiestSecond(sends: number[]): number {
  return Math.max(...sends.map((t) => sends.filter((u) => u >= t && u < t + 1000).length));
}

describe("the pace schedule (virtual clock)", () => {
  test("at an advertised 30, 100 requests keep every second under 30 and end at 99/29 s, near the 3.33 s floor", () => {
    const schedule = new PaceSchedule();
    schedule.setLimit(30, undefined);
    const sends = greedySends(schedule, 100);
    // 29 in any [t, t + 1 s), the 30th exactly one second after the first: one request of slack for jitter.
    expect(busiestSecond(sends)).toBe(29);
    expect(sends[29]).toBeCloseTo(1000, 6);
    expect(sends[99]).toBeCloseTo((99 * 1000) / 29, 6);
    // go-tfe's shares, still available as options, took 9 + 91/19.8 s.
    const goTfe = new PaceSchedule();
    goTfe.setLimit(30, { rateShare: 0.66, burstShare: 0.33 });
    const goTfeSends = greedySends(goTfe, 100);
    expect(goTfeSends.slice(0, 9).every((t) => t === 0)).toBe(true);
    expect(goTfeSends[9]).toBeGreaterThan(0);
    expect(goTfeSends[99]).toBeCloseTo((91 * 1000) / 19.8, 2);
  });

  test("a burst share lets that many go at once and lowers the rate so that no second holds more than the limit", () => {
    const schedule = new PaceSchedule();
    schedule.setLimit(30, { burstShare: 0.2 });
    const sends = greedySends(schedule, 60);
    expect(sends.filter((t) => t === 0)).toHaveLength(6);
    expect(busiestSecond(sends)).toBeLessThanOrEqual(30);
  });

  test("maxLimit paces under a share of the advertised limit, so processes on one token can split it", () => {
    const schedule = new PaceSchedule();
    schedule.setLimit(30, { maxLimit: 10 });
    expect(busiestSecond(greedySends(schedule, 40))).toBe(10);
    expect(schedule.limit).toBe(30);
  });

  test("after a pause nothing leaves before its end, and then one at a time: a refused burst does not return as one", () => {
    const schedule = new PaceSchedule();
    schedule.setLimit(30, { rateShare: 0.66, burstShare: 0.33 });
    greedySends(schedule, 12);
    schedule.pause(2_000);
    const after = greedySends(schedule, 5, 1_000);
    expect(after[0]).toBe(2_000);
    for (let i = 1; i < after.length; i++) expect(after[i]! - after[i - 1]!).toBeCloseTo(1000 / 19.8, 6);
  });

  test("unpaced, requests go at once, but a pause still holds them", () => {
    const schedule = new PaceSchedule();
    expect(greedySends(schedule, 50, 7)).toEqual(Array(50).fill(7));
    schedule.pause(500);
    expect(greedySends(schedule, 3, 100)).toEqual([500, 500, 500]);
  });
});

describe("the per-origin queue (fake timers)", () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => {
    resetRateLimits();
    jest.useRealTimers();
  });

  /** Starts `count` acquisitions and returns the order in which they are let through. */
  function start(origin: string, count: number, options?: RateLimitOptions): number[] {
    const done: number[] = [];
    for (let i = 0; i < count; i++) void acquire(origin, options).then(() => done.push(i));
    return done;
  }

  test("until the first response, one request at a time; then the pace it advertised starts from that answer", async () => {
    const done = start("http://first-wave", 40);
    await jest.advanceTimersByTimeAsync(500);
    expect(done).toEqual([0]);
    observeResponse("http://first-wave", "30");
    // The first request counts as sent at its answer: the next one leaves 1000/29 ms later, and so on.
    await jest.advanceTimersByTimeAsync(34);
    expect(done).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(done).toEqual([0, 1]);
    await jest.advanceTimersByTimeAsync(955);
    expect(done).toHaveLength(29);
    expect(advertisedLimit("http://first-wave")).toBe(30);
  });

  test("a first request lost without an answer lets the next one go alone", async () => {
    const done = start("http://lost", 5);
    await jest.advanceTimersByTimeAsync(0);
    observeNoResponse("http://lost");
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toEqual([0, 1]);
  });

  test("with waitForFirstResponse false the first wave goes unpaced, as before this setting existed", async () => {
    const done = start("http://unpaced", 40, { waitForFirstResponse: false });
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toHaveLength(40);
  });

  test("a server that advertises no limit is not paced after its first answer", async () => {
    const done = start("http://silent", 20);
    await jest.advanceTimersByTimeAsync(0);
    observeResponse("http://silent", undefined);
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toHaveLength(20);
    expect(advertisedLimit("http://silent")).toBeUndefined();
  });

  test("a new advertised limit re-paces requests already waiting", async () => {
    const done = start("http://learns", 41);
    observeResponse("http://learns", "30");
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toHaveLength(1);
    observeResponse("http://learns", "1000");
    // At 30 the last of them would leave after 39 × 34.5 ms = 1.3 s; at 1000, within 80 ms.
    await jest.advanceTimersByTimeAsync(80);
    expect(done).toHaveLength(41);
    expect(advertisedLimit("http://learns")).toBe(1000);
  });

  test("junk or zero limits are ignored and leave the pace as it was", async () => {
    observeResponse("http://junk", "30");
    observeResponse("http://junk", "0");
    observeResponse("http://junk", "lots");
    expect(advertisedLimit("http://junk")).toBe(30);
  });

  test("a 429 pauses every request of the origin until the reset; the refused one goes first, the rest one at a time", async () => {
    const origin = "http://refused";
    observeResponse(origin, "30");
    await jest.advanceTimersByTimeAsync(100);
    const done = start(origin, 10);
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toEqual([0]);
    expect(pauseOrigin(origin, 500)).toBe(true);
    const retried: string[] = [];
    void acquire(origin, undefined, true).then(() => retried.push("retried"));
    await jest.advanceTimersByTimeAsync(499);
    expect(done).toEqual([0]);
    expect(retried).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(retried).toEqual(["retried"]);
    expect(done).toEqual([0]);
    await jest.advanceTimersByTimeAsync(35);
    expect(done).toEqual([0, 1]);
  });

  test("the queue is one per origin, and a client with the limit off neither waits nor pauses", async () => {
    observeResponse("http://c", "3");
    await jest.advanceTimersByTimeAsync(1000);
    const done = start("http://c", 3);
    const other = start("http://other", 1);
    const off = start("http://c", 5, { enabled: false });
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toHaveLength(1);
    expect(other).toHaveLength(1);
    expect(off).toHaveLength(5);
    expect(pauseOrigin("http://c", 1000, { enabled: false })).toBe(false);
  });
});

describe("against the emulator's fixed one-second window at 30 req/s", () => {
  afterEach(async () => {
    resetRateLimits();
    await closeAllPools();
  });

  // Whether a request of this test is refused depends on the machine's load, not on the client: the
  // emulator runs on this process's event loop, and a stall of more than the schedule's 34 ms of spare at
  // a window's edge moves requests sent in one second into the next (CI saw one 429 in 45 on a loaded
  // machine). That the schedule never sends more than the limit in any second is proven above on a
  // virtual clock; here, what must hold whatever the load: every call gets the server's own answer, and
  // the server sees each request once, plus one retry for each request it refused.
  test("one client sending 45 requests at once gets every answer, and the server sees each once plus a retry per 429", async () => {
    const emulator = await startEmulator({ port: 0, faults: { rateLimit: { limit: 30, windowMs: 1000 } } });
    try {
      const client = new WsbridgeClient({ address: emulator.url, token: emulator.token });
      const outcomes = await Promise.all(
        Array.from({ length: 45 }, () => client.readWorkspaceByName(emulator.organization, "absent").then(() => 200, (e: unknown) => (e instanceof ApiError ? e.status : e))),
      );
      // 404 (no such workspace) is the answer: no call gives up on a 429 or fails another way.
      expect(outcomes).toEqual(Array.from({ length: 45 }, () => 404));
      const log = emulator.requests();
      const refused = log.filter((r) => r.status === 429);
      expect(log.filter((r) => r.status === 404)).toHaveLength(45);
      expect(log).toHaveLength(45 + refused.length);
      // The first request went alone (it tells the limit), so it cannot have been refused.
      expect(log[0]!.status).toBe(404);
    } finally {
      await emulator.close();
    }
  });
});

/**
 * Client-side rate limit: one queue per origin at module scope, shared by every call of the process (the
 * dynamic-provider host serves all resources of a deployment in one process), so a deployment of many
 * resources paces itself instead of collecting 429s.
 *
 * Pace: `limit − 1` requests per second with a burst of 1 (one request every 34.5 ms at 30). A schedule
 * keeps every one-second window at ≤ limit requests, wherever the server's window starts (a fixed window
 * opened by the first request, as the emulator does, or a sliding one), exactly when
 * `burst + rate × 1 s ≤ limit`; burst 1 spends all of the rest on the steady rate, so N requests take
 * `1 + (N − 1) / (limit − 1)` seconds: 3.41 s for 100 at 30, against the floor of 3.33 s and the 4.6 s of
 * go-tfe's 0.66 × limit with a burst of 0.33 × limit. Pacing exactly at the limit would save one request
 * per second but put the 31st request of a window at its very edge, where a millisecond of network
 * jitter makes it a 429; the spare 34 ms absorb that. A bigger burst would make small batches instant
 * but costs rate (`limit − burst`), and when a window is misjudged (another process on the same token)
 * a burst is refused as a batch where spaced requests are refused one at a time.
 *
 * Until the first response arrives, one request at a time: it tells the limit (`X-RateLimit-Limit`), and
 * the pace starts from its answer. Pacing the first wave at an assumed 30 instead was measured to fail:
 * the first request is the slowest (the connection, in the emulator's test the pool's loading too), so
 * the server's window opened up to 50 ms after the client's schedule did and the 31st request of the
 * schedule fell into it (a 429 in 2 of 5 runs of 100 creates). It costs one round trip per process.
 * A response without the header leaves the origin unpaced: that server does not advertise a limit,
 * and its 429s still pause the queue.
 *
 * A 429 pauses the whole origin until the reset the server named, and the refused request waits at the
 * head of the queue; afterwards everything leaves at the pace again, so a burst of 429s does not come
 * back as a burst. Several processes on one token (each with its own queue) then share the limit
 * through those pauses: each sends until refused, waits for the next window, and all succeed.
 */

import { onCancel } from "./cancellation";

export interface RateLimitOptions {
  /** False turns the client-side limit off (the server's 429 handling still applies). Default true. */
  enabled?: boolean;
  /** Share of the advertised limit used as the steady rate (go-tfe: 0.66). Default: what the burst
   * leaves of the limit, `limit − burst` per second (29 at 30). */
  rateShare?: number;
  /** Share of the advertised limit that may go at once (go-tfe: 0.33), at least one request. Default 0:
   * a burst of 1. */
  burstShare?: number;
  /** Until the first response (which tells the limit), send one request at a time. Default true; false
   * sends the first wave unpaced. */
  waitForFirstResponse?: boolean;
  /** Paces as if the limit were at most this many requests per second, whatever is advertised: processes
   * that share a token (the service counts per user) can split the limit between them and avoid 429s.
   * Default: none. */
  maxLimit?: number;
}

const DEFAULT_BURST_SHARE = 0;

/**
 * When requests may be sent (milliseconds on any clock): the virtual-scheduling form of a token bucket
 * (GCRA) plus a pause. Pure, so that its guarantees are tested without timers.
 */
export class PaceSchedule {
  /** The advertised limit in force (undefined: unpaced). */
  limit: number | undefined;
  private intervalMs = 0; //       between requests at the steady rate; 0 = unpaced
  private toleranceMs = 0; //      how far ahead of its schedule a request may go: (burst − 1) × interval
  private scheduledAt = -Infinity; // when the next request is due at the steady rate
  private pausedUntil = -Infinity;

  /** Paces at `limit` per second, shaped by the options' shares. */
  setLimit(limit: number, options: RateLimitOptions | undefined): void {
    const cap = options?.maxLimit;
    const paceAt = cap !== undefined && cap > 0 && cap < limit ? cap : limit;
    const burst = Math.max(1, Math.floor(paceAt * (options?.burstShare ?? DEFAULT_BURST_SHARE)));
    const perSecond = options?.rateShare !== undefined ? paceAt * options.rateShare : paceAt - burst;
    this.limit = limit;
    // A limit of 1 leaves no rate after the burst: one request per second then.
    this.intervalMs = 1000 / (perSecond > 0 ? perSecond : paceAt);
    // (+1 µs: the schedule adds intervals up one at a time, and rounding must not cut the burst short.)
    this.toleranceMs = (burst - 1) * this.intervalMs + (burst > 1 ? 0.001 : 0);
  }

  /** Stops pacing (a pause still applies). */
  unpace(): void {
    this.limit = undefined;
    this.intervalMs = 0;
    this.toleranceMs = 0;
  }

  /** The earliest time the next request may be sent. */
  nextSlot(): number {
    const paced = this.intervalMs === 0 ? -Infinity : this.scheduledAt - this.toleranceMs;
    return Math.max(paced, this.pausedUntil);
  }

  /**
   * How late a request released by a timer may leave and still be booked at its slot. Timers fire a few
   * milliseconds late on a busy event loop, and booking that lateness every time paced 100 requests in
   * 3.7 s instead of 3.4. Well under an interval, so a second still holds at most `limit` requests with
   * room for network jitter, and at most 5 ms, so a stalled loop releases no catch-up burst.
   */
  lateSlackMs(): number {
    return Math.min(5, this.intervalMs / 8);
  }

  /** Records a request sent at `at` (no earlier than nextSlot()). */
  consume(at: number): void {
    if (this.intervalMs !== 0) this.scheduledAt = Math.max(this.scheduledAt, at) + this.intervalMs;
  }

  /** Books one request at `at` and lets nothing go before it (the first request, once answered). */
  startAt(at: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, at);
    this.consume(at);
  }

  /** Nothing leaves before `until`; the first request after it goes at `until`, the next one a full
   * interval later (no burst out of a pause: the server just said the window is full). */
  pause(until: number): void {
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.scheduledAt = Math.max(this.scheduledAt, until + this.toleranceMs);
  }
}

/** The waiting requests of one origin, released in order as the schedule allows. */
class OriginQueue {
  readonly schedule = new PaceSchedule();
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  /** Before the first response: whether the one request allowed is out. */
  private firstOut = false;

  constructor(private awaitingFirstResponse: boolean) {}

  /** Whether the next request must wait for the first response. */
  private gated(): boolean {
    return this.awaitingFirstResponse && this.firstOut;
  }

  /** The first response arrived (or the first request failed without one): pace from now on. */
  heard(answered: boolean): void {
    if (!this.awaitingFirstResponse) return;
    this.firstOut = false;
    if (answered) {
      this.awaitingFirstResponse = false;
      // The first request is booked at its answer, as its arrival is no later than that: the pace starts
      // from there.
      this.schedule.startAt(Date.now());
    }
    this.release();
  }

  acquire(atFront: boolean): Promise<void> {
    const now = Date.now();
    if (this.waiting.length === 0 && !this.gated() && this.schedule.nextSlot() <= now) {
      if (this.awaitingFirstResponse) this.firstOut = true;
      this.schedule.consume(now);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      if (atFront) this.waiting.unshift(resolve);
      else this.waiting.push(resolve);
      this.release();
    });
  }

  /** Sends every request whose slot has come and sets one timer for the next; called again whenever the
   * schedule changes (a new limit, a pause). */
  release(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.waiting.length > 0 && !this.gated()) {
      const now = Date.now();
      const slot = this.schedule.nextSlot();
      if (slot > now) {
        // Not unref'd: a request waiting here must keep the process alive.
        this.timer = setTimeout(() => this.release(), Math.ceil(slot - now));
        return;
      }
      this.schedule.consume(Math.max(slot, now - this.schedule.lateSlackMs()));
      if (this.awaitingFirstResponse) this.firstOut = true;
      this.waiting.shift()!();
    }
  }

  /** Lets every waiting request go and stops the timer. */
  drain(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

const queues = new Map<string, OriginQueue>();

// A cancelled deployment's waiting requests leave the queue at once (the requester then refuses them).
onCancel(() => {
  for (const queue of queues.values()) queue.drain();
});

function queueFor(origin: string, options: RateLimitOptions | undefined): OriginQueue {
  let queue = queues.get(origin);
  if (!queue) {
    queue = new OriginQueue(options?.waitForFirstResponse !== false);
    queues.set(origin, queue);
  }
  return queue;
}

/**
 * Resolves when the next request to `origin` may be sent. `retry` puts a request refused with 429 at the
 * head of the queue: it has waited longest.
 */
export function acquire(origin: string, options?: RateLimitOptions, retry = false): Promise<void> {
  if (options?.enabled === false) return Promise.resolve();
  return queueFor(origin, options).acquire(retry);
}

/**
 * Learns from a response: its `X-RateLimit-Limit` (requests per second) replaces the limit in force;
 * absent, zero or junk values are ignored.
 */
export function observeResponse(origin: string, limitHeader: string | undefined, options?: RateLimitOptions): void {
  if (options?.enabled === false) return;
  const queue = queueFor(origin, options);
  const limit = limitHeader === undefined ? NaN : Number(limitHeader);
  const changed = Number.isFinite(limit) && limit > 0 && queue.schedule.limit !== limit;
  if (changed) queue.schedule.setLimit(limit, options);
  queue.heard(true);
  // Requests already waiting leave at the new pace.
  if (changed) queue.release();
}

/** A request got no response (a lost connection): before the first response, the next one may go. */
export function observeNoResponse(origin: string, options?: RateLimitOptions): void {
  if (options?.enabled === false) return;
  queues.get(origin)?.heard(false);
}

/**
 * Holds every request to `origin` for `waitMs` after a 429. Returns false when the client-side limit is
 * off: the caller then waits on its own.
 */
export function pauseOrigin(origin: string, waitMs: number, options?: RateLimitOptions): boolean {
  if (options?.enabled === false) return false;
  const queue = queueFor(origin, options);
  queue.schedule.pause(Date.now() + waitMs);
  queue.release();
  return true;
}

/** The limit `origin` advertised, if any. */
export function advertisedLimit(origin: string): number | undefined {
  return queues.get(origin)?.schedule.limit;
}

/** Forgets every learned limit and pause (tests). Requests still waiting are released at once. */
export function resetRateLimits(): void {
  for (const queue of queues.values()) queue.drain();
  queues.clear();
}

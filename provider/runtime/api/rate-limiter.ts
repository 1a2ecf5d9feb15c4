/**
 * Client-side rate limit: one token bucket per origin at module scope, shared by every call of the
 * process. It starts unlimited and adopts the server's advertised `X-RateLimit-Limit` (requests per
 * second) as soon as any response carries it, so a deployment of many resources slows itself down
 * instead of collecting 429s.
 *
 * Like go-tfe, the bucket refills at 2/3 of the limit with a burst of 1/3: burst + one second of refill
 * stays under the limit in any one-second window.
 */

export interface RateLimitOptions {
  /** False turns the client-side limit off (the server's 429 handling still applies). Default true. */
  enabled?: boolean;
  /** Share of the advertised limit used as the steady rate. Default 0.66. */
  rateShare?: number;
  /** Share of the advertised limit allowed as a burst. Default 0.33. */
  burstShare?: number;
}

const DEFAULT_RATE_SHARE = 0.66;
const DEFAULT_BURST_SHARE = 0.33;

class TokenBucket {
  private ratePerMs = Infinity;
  private burst = Infinity;
  private tokens = Infinity;
  private last = 0;
  limit: number | undefined;

  configure(limit: number, rateShare: number, burstShare: number): void {
    this.limit = limit;
    this.ratePerMs = (limit * rateShare) / 1000;
    this.burst = Math.max(1, Math.floor(limit * burstShare));
    this.tokens = Math.min(this.tokens, this.burst);
    this.last = Date.now();
  }

  /** Takes one token; returns how long the caller must wait first (0 = go). Reserving in advance
   * (tokens may go negative) keeps concurrent callers in order without a queue. */
  take(now: number): number {
    if (this.ratePerMs === Infinity) return 0;
    this.tokens = Math.min(this.burst, this.tokens + (now - this.last) * this.ratePerMs);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil(-this.tokens / this.ratePerMs);
  }
}

const buckets = new Map<string, TokenBucket>();

function bucketFor(origin: string): TokenBucket {
  let bucket = buckets.get(origin);
  if (!bucket) {
    bucket = new TokenBucket();
    buckets.set(origin, bucket);
  }
  return bucket;
}

/** Milliseconds to wait before sending the next request to `origin` (0 = send now). */
export function reserve(origin: string, options?: RateLimitOptions): number {
  if (options?.enabled === false) return 0;
  const bucket = buckets.get(origin);
  return bucket ? bucket.take(Date.now()) : 0;
}

/** Records the limit a response advertised (`X-RateLimit-Limit`); ignores absent, zero or junk values. */
export function observeLimit(origin: string, headerValue: string | undefined, options?: RateLimitOptions): void {
  if (headerValue === undefined || options?.enabled === false) return;
  const limit = Number(headerValue);
  if (!Number.isFinite(limit) || limit <= 0) return;
  const bucket = bucketFor(origin);
  if (bucket.limit === limit) return;
  bucket.configure(limit, options?.rateShare ?? DEFAULT_RATE_SHARE, options?.burstShare ?? DEFAULT_BURST_SHARE);
}

/** The limit last advertised by `origin`, if any. */
export function advertisedLimit(origin: string): number | undefined {
  return buckets.get(origin)?.limit;
}

/** Forgets every learned limit (tests). */
export function resetRateLimits(): void {
  buckets.clear();
}

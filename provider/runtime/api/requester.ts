/**
 * One API call from start to end: token check, client-side rate limit, transport, retry policy, error
 * mapping and response parsing. Operations (operations/*.ts) only describe requests and map results.
 */
import { z } from "zod";
import { issuePath, type RequestDocument } from "./documents/common";
import { requestsCancelled, sleepUnlessCancelled } from "./cancellation";
import {
  CancelledError, InvalidConfigError, MissingTokenError, OutcomeUnknownError, RequestShapeError, ResponseShapeError, TransportError, errorForResponse,
  parseErrorDocument, registerSecret, type RequestContext,
} from "./errors";
import { acquire, observeNoResponse, observeResponse, pauseOrigin, type RateLimitOptions } from "./rate-limiter";
import { decideRetry, resolveRetryOptions, retryAfterFromHeaders, type RequestTraits, type RetryOptions } from "./retry";
import {
  BodyTooLargeError, DEFAULT_TIMEOUT_MS, classifyTransportError, defaultUserAgent, headerValue, send, type HttpMethod, type TransportResponse,
} from "./transport";

export type Edition = "hosted" | "self-managed";

/** How to reach the API. Holding the token here is fine: this object lives only in process memory and
 * is never serialized or logged. */
export interface ClientSettings {
  /** Base address, e.g. `https://app.terraform.io` (the API lives under `/api/v2`). */
  address: string;
  /** API token; when missing, the first request throws MissingTokenError. */
  token?: string;
  /** Skips edition detection when set. */
  edition?: Edition;
  /** Per attempt: time allowed for the response headers, and again for the body. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retry budgets; see DEFAULT_RETRY_OPTIONS. */
  retry?: Partial<RetryOptions>;
  /** Default `pulumi-wsbridge/<version> (node <version>)`. */
  userAgent?: string;
  /** Client-side rate limit derived from `X-RateLimit-Limit`; on by default. */
  rateLimit?: RateLimitOptions;
  /** Settings (stack config, environment) whose value could not be used, named as the user wrote them.
   * The first request throws InvalidConfigError for the first one: a bad value, like a missing token,
   * must not break `configure` or a preview's `check`. */
  invalidSettings?: readonly { key: string; reason: string }[];
}

/** Describes one request; the path is already escaped. */
export interface RequestSpec {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  /** The body and its schema (documents/*): validated before anything is sent. */
  body?: RequestDocument;
  /** Default: true for GET and DELETE, false for POST and PATCH. */
  idempotent?: boolean;
  /** Unlock only: retry 503 for `retry.unlockRetryPeriodMs`. */
  retryUnavailable?: boolean;
  /** Registry endpoints speak plain JSON. */
  plainJson?: boolean;
  /** Works without a token (ping): sent without Authorization when none is configured. */
  tokenOptional?: boolean;
}

/** A 2xx answer, body parsed as JSON (undefined when empty). */
export interface ApiResponse {
  status: number;
  body: unknown;
  context: RequestContext & { status: number; requestId?: string };
  headers: TransportResponse["headers"];
}

/** A GET of a URL the API handed out (see `Requester.download`). */
export interface DownloadSpec {
  /** Absolute, as the API gave it. */
  url: string;
  /** What errors call the request instead of the URL, which may be a capability: `(the download URL of state version sv-…)`. */
  describe: string;
  /** The longest body read; a longer one fails with ResponseShapeError. */
  maxBytes: number;
}

/** One request as `exchange` sends it, with everything already decided. */
interface Exchange {
  ctx: RequestContext;
  origin: string;
  method: HttpMethod;
  /** Path and query on `origin`. */
  path: string;
  headers: Record<string, string>;
  traits: RequestTraits;
  body?: string;
  maxBodyBytes?: number;
  /** Downloads only: a redirect is returned to the caller (which decides the token for its target). */
  followRedirects?: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Hops a download follows (Go's HTTP client, under go-tfe's Download, follows up to 10). */
export const MAX_DOWNLOAD_REDIRECTS = 5;

/** An absolute http(s) URL (relative ones resolve against `base`, for a redirect's Location); a download
 * URL that is not one is a response this client does not understand. The URL is not named: it may be a
 * capability. */
function downloadUrl(ctx: RequestContext, raw: string, base?: URL): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw, base);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ResponseShapeError(ctx, [{ path: "", message: base === undefined ? "the download URL is not an absolute http(s) URL" : "a redirect's Location is not an http(s) URL" }]);
  }
  return url;
}

const IDEMPOTENT_METHODS: Record<HttpMethod, boolean> = { GET: true, DELETE: true, POST: false, PATCH: false };
const JSON_API = "application/vnd.api+json";

/** Builds `path?query` with `[`/`]` percent-encoded, skipping undefined values. */
export function withQuery(path: string, query: RequestSpec["query"]): string {
  if (!query) return path;
  let params: URLSearchParams | undefined;
  for (const key in query) {
    const value = query[key];
    if (value !== undefined) (params ??= new URLSearchParams()).append(key, String(value));
  }
  return params === undefined ? path : `${path}?${params.toString()}`;
}

/** Normalizes an address to `scheme://host[:port]` plus an optional base path, without a trailing slash;
 * returns a reason instead of throwing so that a bad address, like a missing token, fails at the first call. */
function parseAddress(address: string): { origin: string; basePath: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { problem: `must be an absolute http(s) URL such as https://app.terraform.io, got "${address}"` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { problem: `must use http or https, got "${url.protocol}"` };
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, "") };
}

/** Why an address cannot be used, or undefined when it can (settings report it before any call). */
export function addressProblem(address: string): string | undefined {
  const parsed = parseAddress(address);
  return "problem" in parsed ? parsed.problem : undefined;
}

/** Tokens live outside the object so that logging, inspecting or JSON-serializing a client can never
 * print one. */
const tokens = new WeakMap<Requester, string>();
/** Request headers per client and media type, built once (undici never mutates them); kept with the
 * tokens for the same reason. */
const headerCaches = new WeakMap<Requester, Map<string, Record<string, string>>>();

export class Requester {
  readonly address: string;
  readonly origin: string;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  readonly retry: RetryOptions;
  private readonly rateLimit: RateLimitOptions | undefined;
  private readonly userAgent: string;

  private readonly addressProblem: string | undefined;
  private readonly invalidSetting: { key: string; reason: string } | undefined;

  constructor(settings: ClientSettings) {
    const parsed = parseAddress(settings.address);
    if ("problem" in parsed) {
      this.origin = "";
      this.basePath = "";
      this.address = settings.address;
      this.addressProblem = parsed.problem;
    } else {
      this.origin = parsed.origin;
      this.basePath = parsed.basePath;
      this.address = parsed.origin + parsed.basePath;
    }
    if (settings.token !== undefined && settings.token !== "") {
      tokens.set(this, settings.token);
      registerSecret(settings.token);
    }
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = resolveRetryOptions(settings.retry);
    this.rateLimit = settings.rateLimit;
    this.userAgent = settings.userAgent ?? defaultUserAgent();
    this.invalidSetting = settings.invalidSettings?.[0];
  }

  /** Sends the request with retries; resolves with a 2xx answer or throws an ApiError subclass. */
  async request(spec: RequestSpec): Promise<ApiResponse> {
    if (this.addressProblem !== undefined) throw new InvalidConfigError("address", this.addressProblem);
    if (this.invalidSetting !== undefined) throw new InvalidConfigError(this.invalidSetting.key, this.invalidSetting.reason);
    const token = tokens.get(this);
    if (token === undefined && !spec.tokenOptional) throw new MissingTokenError(this.address);
    const path = this.basePath + withQuery(spec.path, spec.query);
    const ctx: RequestContext = { method: spec.method, path };
    const body = spec.body === undefined ? undefined : serializeBody(ctx, spec.body);
    const headers = this.headersFor(spec.plainJson === true, token);
    const traits: RequestTraits = { idempotent: spec.idempotent ?? IDEMPOTENT_METHODS[spec.method] };
    if (spec.retryUnavailable) traits.retry503ForMs = this.retry.unlockRetryPeriodMs;

    const { res, requestId } = await this.exchange({ ctx, origin: this.origin, method: spec.method, path, headers, traits, ...(body === undefined ? {} : { body }) });
    return this.success(ctx, res, requestId);
  }

  /**
   * GETs the text at a URL the API handed out (a state version's `hosted-state-download-url`), with the
   * rate limit, retries and error mapping of every other read; redirects are followed, up to
   * MAX_DOWNLOAD_REDIRECTS.
   *
   * The token goes only to the configured address's origin (scheme, host and port): a URL, or a redirect,
   * on any other origin is fetched without the Authorization header. The service's download URLs are
   * signed URLs on another host (HCP Terraform's `https://archivist.terraform.io/v1/object/…`) that need
   * no token, so refusing other hosts would break the real service; sending the token there would hand
   * the credential to whatever host a response names. go-tfe's `StateVersions.Download` (v1) sends the
   * token to any URL it is given; this client does not. The URL itself may be a capability (whoever
   * holds a signed URL can read the state), so errors name `spec.describe`, never the URL.
   */
  async download(spec: DownloadSpec): Promise<string> {
    if (this.addressProblem !== undefined) throw new InvalidConfigError("address", this.addressProblem);
    if (this.invalidSetting !== undefined) throw new InvalidConfigError(this.invalidSetting.key, this.invalidSetting.reason);
    const token = tokens.get(this);
    const ctx: RequestContext = { method: "GET", path: spec.describe };
    let url = downloadUrl(ctx, spec.url);
    for (let redirects = 0; ; redirects++) {
      // Decided for every hop: a redirect from the configured origin to another loses the token.
      const headers = this.downloadHeaders(url.origin === this.origin ? token : undefined);
      const { res, requestId } = await this.exchange({
        ctx, origin: url.origin, method: "GET", path: url.pathname + url.search, headers, traits: { idempotent: true },
        maxBodyBytes: spec.maxBytes, followRedirects: true,
      });
      if (res.status >= 200 && res.status < 300) return res.body;
      const location = headerValue(res.headers, "location");
      if (redirects >= MAX_DOWNLOAD_REDIRECTS || location === undefined) {
        throw errorForResponse(ctx, res.status, [{
          title: location === undefined ? "a redirect without a Location" : `more than ${MAX_DOWNLOAD_REDIRECTS} redirects`,
        }], requestId);
      }
      url = downloadUrl(ctx, location, url);
    }
  }

  /** One request's attempts: rate limit, transport, retry policy. Resolves with the 2xx answer (or, with
   * `followRedirects`, a 3xx redirect); throws the mapped error otherwise. */
  private async exchange(x: Exchange): Promise<{ res: TransportResponse; requestId: string | undefined }> {
    const { ctx, origin, traits } = x;
    const started = Date.now();
    let failures = 0;
    let rateLimitRetries = 0;
    let refusedLast = false;
    for (;;) {
      // Before the queue and after it: a cancellation lets every waiting request go at once.
      if (requestsCancelled()) throw new CancelledError(ctx, failures + rateLimitRetries);
      await acquire(origin, this.rateLimit, refusedLast);
      refusedLast = false;
      if (requestsCancelled()) throw new CancelledError(ctx, failures + rateLimitRetries);

      let res: TransportResponse;
      try {
        res = await send({
          origin, method: x.method, path: x.path, headers: x.headers, timeoutMs: this.timeoutMs,
          ...(x.body === undefined ? {} : { body: x.body }), ...(x.maxBodyBytes === undefined ? {} : { maxBodyBytes: x.maxBodyBytes }),
        });
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          // An answer, not a failure to get one: repeating the request would read the same body.
          throw new ResponseShapeError({ ...ctx, status: err.status }, [{ path: "", message: `${err.message}, the most this client reads here` }]);
        }
        observeNoResponse(origin, this.rateLimit);
        failures++;
        const failure = classifyTransportError(err);
        const state = { attempts: failures, rateLimitRetries, elapsedMs: Date.now() - started };
        const decision = decideRetry({ kind: "transport", sent: failure.sent }, state, traits, this.retry);
        if (decision.retry) { await sleepUnlessCancelled(decision.delayMs); continue; }
        if (decision.reason === "not-idempotent") throw new OutcomeUnknownError(ctx, failure.code, failure.reason, err);
        throw new TransportError(ctx, failure.code, failure.reason, failure.sent, failures + rateLimitRetries, err, origin);
      }

      observeResponse(origin, headerValue(res.headers, "x-ratelimit-limit"), this.rateLimit);
      const requestId = headerValue(res.headers, "x-request-id");
      if (res.status >= 200 && res.status < 300) return { res, requestId };
      if (x.followRedirects && REDIRECT_STATUSES.has(res.status)) return { res, requestId };
      const retryAfterMs = res.status === 429 || res.status === 503
        ? retryAfterFromHeaders((name) => headerValue(res.headers, name))
        : undefined;
      if (res.status !== 429) failures++;
      const state = { attempts: failures, rateLimitRetries, elapsedMs: Date.now() - started };
      const decision = decideRetry({ kind: "response", status: res.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }, state, traits, this.retry);
      if (decision.retry) {
        if (res.status === 429) {
          rateLimitRetries++;
          // The whole origin waits out the reset, not just this request, and this one goes back through
          // the queue (at its head): the requests refused together then leave paced, not as a burst.
          refusedLast = pauseOrigin(origin, decision.delayMs, this.rateLimit);
          if (!refusedLast) await sleepUnlessCancelled(decision.delayMs);
        } else {
          await sleepUnlessCancelled(decision.delayMs);
        }
        continue;
      }
      if (decision.reason === "not-idempotent" && res.status >= 500) {
        // "Not applied" cannot be concluded from a 5xx: a gateway answers 502/504 after a slow apply.
        const detail = parseErrorDocument(safeJson(res.body))[0];
        throw new OutcomeUnknownError(ctx, undefined, detail?.title ?? "server error", undefined, res.status);
      }
      throw errorForResponse(ctx, res.status, parseErrorDocument(safeJson(res.body)), requestId, {
        attempts: failures + rateLimitRetries + (res.status === 429 ? 1 : 0),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
  }

  /** The request headers; built once per media type and reused (undici never mutates them). */
  private headersFor(plainJson: boolean, token: string | undefined): Record<string, string> {
    const key = `${plainJson}:${token !== undefined}`;
    let cache = headerCaches.get(this);
    if (!cache) headerCaches.set(this, (cache = new Map()));
    let headers = cache.get(key);
    if (!headers) {
      const mediaType = plainJson ? "application/json" : JSON_API;
      headers = { accept: mediaType, "content-type": mediaType, "user-agent": this.userAgent };
      if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
      cache.set(key, headers);
    }
    return headers;
  }

  /** A download's headers: the state is JSON or plain bytes, never JSON:API (go-tfe's Download asks for
   * `application/json` too). `token` only for the configured origin (see `download`). */
  private downloadHeaders(token: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": this.userAgent };
    if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
    return headers;
  }

  /** Whether a token was given (the value itself is never exposed). */
  get hasToken(): boolean {
    return tokens.has(this);
  }

  /** Validates a 2xx body against a document schema; a mismatch names the field and the endpoint. */
  parse<S extends z.ZodType>(schema: S, res: ApiResponse): z.output<S> {
    const result = compiled(schema).safeParse(res.body);
    if (result.success) return result.data;
    throw new ResponseShapeError(res.context, result.error.issues.map((i) => ({ path: issuePath(i.path), message: i.message })));
  }

  private success(ctx: RequestContext, res: TransportResponse, requestId: string | undefined): ApiResponse {
    const context = { ...ctx, status: res.status, ...(requestId === undefined ? {} : { requestId }) };
    let body: unknown;
    if (res.body.length > 0) {
      try {
        body = JSON.parse(res.body);
      } catch {
        if (res.body.trim() !== "") {
          throw new ResponseShapeError(context, [{ path: "", message: `the body is not JSON (status ${res.status})` }]);
        }
      }
    }
    return { status: res.status, body, context, headers: res.headers };
  }
}

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** The schema with zod's generated fast path (`z.compile`), made once per schema. Same results and
 * same issues (a failing input is re-parsed by the original), at about two thirds of the CPU on every
 * response (bench/client.js). */
function compiled<S extends z.ZodType>(schema: S): S {
  let fast = compiledSchemas.get(schema) as S | undefined;
  if (fast === undefined) {
    fast = z.compile(schema);
    compiledSchemas.set(schema, fast);
  }
  return fast;
}

/** Validates a request document against its schema and serializes it; a mismatch is a RequestShapeError
 * naming the fields, and nothing is sent. */
function serializeBody(ctx: RequestContext, doc: RequestDocument): string {
  const result = doc.schema.safeParse(doc.value);
  if (!result.success) {
    throw new RequestShapeError(ctx, result.error.issues.map((i) => ({ path: issuePath(i.path), message: i.message })));
  }
  return JSON.stringify(doc.value);
}

function safeJson(text: string): unknown {
  try {
    return text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Escapes one path segment (ids, names, versions). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

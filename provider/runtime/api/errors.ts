/**
 * Every error the client throws, grouped in one file (go-tfe style), and the ONE function that maps an
 * HTTP status to an error class (`errorForResponse`).
 *
 * Messages are written to be read inside a Pulumi error ("… failed with 409 conflict: …"), carry the
 * server's request id, and pass through `scrub()` so a token can never appear in them, even if a server
 * echoes it back in a detail.
 */

/** Stable, documented codes; never rename one (callers and users match on them). */
export const ErrorCodes = {
  http: "WSB_HTTP_ERROR",
  badRequest: "WSB_BAD_REQUEST",
  unauthorized: "WSB_UNAUTHORIZED",
  forbidden: "WSB_FORBIDDEN",
  notFound: "WSB_NOT_FOUND",
  conflict: "WSB_CONFLICT",
  validation: "WSB_VALIDATION",
  rateLimited: "WSB_RATE_LIMITED",
  server: "WSB_SERVER_ERROR",
  transport: "WSB_TRANSPORT",
  outcomeUnknown: "WSB_OUTCOME_UNKNOWN",
  responseShape: "WSB_RESPONSE_SHAPE",
  requestShape: "WSB_REQUEST_SHAPE",
  missingToken: "WSB_MISSING_TOKEN",
  invalidOptions: "WSB_INVALID_OPTIONS",
  invalidConfig: "WSB_INVALID_CONFIG",
  unsupportedEdition: "WSB_UNSUPPORTED_EDITION",
  cancelled: "WSB_CANCELLED",
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

// ---------------------------------------------------------------------------------------------------
// Secret scrubbing. Tokens are registered by the client that uses them (process memory only).

const secrets = new Set<string>();

/** Remembers a value that must never appear in an error message (tokens shorter than 6 chars are
 * still registered: a false positive costs a "[redacted]" in a message, a miss leaks a credential). */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length > 0) secrets.add(value);
}

/** Replaces every registered secret (and anything that looks like a bearer credential) in `text`. */
export function scrub(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join("[redacted]");
  }
  return out.replace(/(Bearer\s+)[^\s"',]+/gi, "$1[redacted]");
}

// ---------------------------------------------------------------------------------------------------
// Base classes

/** What the client knows about the failed request; all fields are safe to show. */
export interface RequestContext {
  method: string;
  /** Path and query, relative to the address (never the host, never credentials). */
  path: string;
}

/** One entry of a JSON:API `errors` array (or of the registry's string array). */
export interface ErrorDetail {
  status?: string;
  title?: string;
  detail?: string;
  pointer?: string;
}

/** Base of every error this client throws. `code` is stable; `message` is scrubbed of secrets. */
export class WsbridgeError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(scrub(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}

/** A failed API call: anything that reached (or tried to reach) the server. */
export class ApiError extends WsbridgeError {
  readonly method: string;
  readonly path: string;
  /** HTTP status, or undefined when no response arrived. */
  readonly status: number | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** JSON pointer into the request body (`/data/attributes/name`) when the server gave one. */
  readonly pointer: string | undefined;
  readonly requestId: string | undefined;
  /** Every error object of the response (the first one is also spread into the fields above). */
  readonly errorDetails: readonly ErrorDetail[];
  /** Attempts made, retries included. */
  readonly attempts: number;

  constructor(
    code: ErrorCode,
    init: RequestContext & {
      status?: number; errors?: ErrorDetail[]; requestId?: string; message?: string; hint?: string; attempts?: number;
    },
    options?: { cause?: unknown },
  ) {
    const errors = init.errors ?? [];
    const first = errors[0];
    super(code, init.message ?? describe(init, errors, init.hint), options);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.title = first?.title;
    this.detail = first?.detail;
    this.pointer = first?.pointer;
    this.requestId = init.requestId;
    this.errorDetails = errors;
    this.attempts = init.attempts ?? 1;
  }
}

/** `PATCH /api/v2/workspaces/ws-abc failed with 422 invalid attribute: Name has already been taken
 *  (at /data/attributes/name) [request id req-123]` */
function describe(
  init: RequestContext & { status?: number; requestId?: string; attempts?: number }, errors: ErrorDetail[], hint?: string,
): string {
  const parts = errors.map((e) => {
    let text = [e.title, e.detail].filter((s) => s !== undefined && s !== "").join(": ");
    if (e.pointer) text += ` (at ${e.pointer})`;
    return text;
  }).filter((t) => t !== "");
  let message = `${init.method} ${init.path} failed with ${init.status ?? "no response"}`;
  if (parts.length > 0) message += ` ${parts.join("; ")}`;
  if (init.requestId) message += ` [request id ${init.requestId}]`;
  if (init.attempts !== undefined && init.attempts > 1) message += ` after ${init.attempts} attempts`;
  if (hint) message += `. ${hint}`;
  return message;
}

// ---------------------------------------------------------------------------------------------------
// Status classes (mapped in `errorForResponse`)

type StatusInit = ConstructorParameters<typeof ApiError>[1];

/** 400: the server could not understand the request (e.g. an invalid `include` value). */
export class BadRequestError extends ApiError {
  constructor(init: StatusInit) { super(ErrorCodes.badRequest, init); }
}

/** 401: the token is missing, expired or invalid (the service answers the same for all three). */
export class UnauthorizedError extends ApiError {
  constructor(init: StatusInit) {
    super(ErrorCodes.unauthorized, {
      ...init,
      hint: "The API token was rejected; check wsbridge:token (or TFE_TOKEN) and that it has not expired",
    });
  }
}

/** 403: authenticated but not allowed (force delete without owner rights, for example). */
export class ForbiddenError extends ApiError {
  constructor(init: StatusInit) { super(ErrorCodes.forbidden, init); }
}

/** 404: the object does not exist OR the token may not see it; the service does not say which. */
export class NotFoundError extends ApiError {
  constructor(init: StatusInit) {
    super(ErrorCodes.notFound, {
      ...init,
      hint: init.hint ?? "The object does not exist, or the token is not allowed to see it",
    });
  }
}

/** Why a 409 happened, derived from the endpoint (the service has no machine-readable codes). */
export type ConflictReason =
  | "already-locked"
  | "not-locked"
  | "locked-by-other"
  | "not-safe-to-delete"
  | "locked-cannot-delete"
  | "other";

/** 409: the object's state refuses the operation (locked, unlocked, still manages resources…). */
export class ConflictError extends ApiError {
  readonly reason: ConflictReason;
  constructor(init: StatusInit, reason: ConflictReason) {
    super(ErrorCodes.conflict, { ...init, hint: init.hint ?? conflictHint(reason) });
    this.reason = reason;
  }
}

function conflictHint(reason: ConflictReason): string | undefined {
  switch (reason) {
    case "already-locked": return "The workspace is already locked";
    case "not-locked": return "The workspace is not locked";
    case "locked-by-other": return "The lock is held by someone else; only they (or a force-unlock) can release it";
    case "not-safe-to-delete":
      return "The workspace still manages resources (or is busy); destroy its resources first, or use a force delete";
    case "locked-cannot-delete":
      return "The workspace is locked; unlock it (or wait for the run holding the lock) before a safe delete";
    default: return undefined;
  }
}

/** 422: the request body was rejected; `pointer` names the attribute. */
export class ValidationError extends ApiError {
  constructor(init: StatusInit) { super(ErrorCodes.validation, init); }
}

/** 429 that outlasted the retry budget. `retryAfterMs` is what the server asked for last. */
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(init: StatusInit, retryAfterMs: number | undefined) {
    super(ErrorCodes.rateLimited, {
      ...init,
      hint: init.hint ?? "The server kept rate limiting the request after the client's retry budget (retry.rateLimitMaxWaitMs / retry.maxRateLimitRetries)",
    });
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx after the retries allowed for the request. */
export class ServerError extends ApiError {
  constructor(init: StatusInit) { super(ErrorCodes.server, init); }
}

/** The request got no usable response: timeout, refused or reset connection. Safe to say the request
 * was NOT applied only when `sent` is false. */
export class TransportError extends ApiError {
  /** Undici / Node error code (`UND_ERR_HEADERS_TIMEOUT`, `ECONNRESET`, …). */
  readonly causeCode: string | undefined;
  readonly sent: boolean;
  constructor(
    ctx: RequestContext, causeCode: string | undefined, reason: string, sent: boolean, attempts: number, cause?: unknown, origin?: string,
  ) {
    super(ErrorCodes.transport, {
      ...ctx,
      attempts,
      // The host is named: an unreachable address is most often a wrong or stale one.
      message: `${ctx.method} ${ctx.path} failed without a response${origin ? ` from ${origin}` : ""}: ${reason}${causeCode ? ` (${causeCode})` : ""}` +
        (attempts > 1 ? ` after ${attempts} attempts` : ""),
    }, { cause });
    this.causeCode = causeCode;
    this.sent = sent;
  }
}

/** A request that is not safe to repeat (a create, a lock…) may or may not have been applied: its
 * connection failed after it was sent, or it was answered with a 5xx, which a gateway in front of the
 * service can send after the service applied it. The caller must read the object to find out; the
 * client never repeats it. `status` is set when a 5xx was the answer. */
export class OutcomeUnknownError extends ApiError {
  readonly causeCode: string | undefined;
  constructor(ctx: RequestContext, causeCode: string | undefined, reason: string, cause?: unknown, status?: number) {
    const what = status === undefined
      ? `the connection failed after the request was sent (${reason}${causeCode ? `, ${causeCode}` : ""})`
      : `the server answered ${status} (${reason})`;
    super(ErrorCodes.outcomeUnknown, {
      ...ctx,
      ...(status === undefined ? {} : { status }),
      message: `${ctx.method} ${ctx.path} may or may not have been applied: ${what}. ` +
        "It was not repeated because repeating it is not safe; read the object to find out",
    }, { cause });
    this.causeCode = causeCode;
  }
}

/** The deployment was cancelled (Ctrl-C) before this attempt: it was not sent. `attempts` were sent before. */
export class CancelledError extends ApiError {
  constructor(ctx: RequestContext, attempts: number) {
    super(ErrorCodes.cancelled, {
      ...ctx,
      attempts,
      message: `${ctx.method} ${ctx.path} was not sent${attempts > 0 ? " again" : ""}: the deployment was cancelled` +
        (attempts > 0 ? ` (after ${attempts} attempt${attempts > 1 ? "s" : ""} that did not succeed)` : ""),
    });
  }
}

/** A response that does not match the documented shape; names the field and the endpoint. */
export class ResponseShapeError extends ApiError {
  /** Dotted paths of the offending fields, e.g. `data.attributes.locked`. */
  readonly fields: readonly string[];
  constructor(ctx: RequestContext & { status?: number; requestId?: string }, issues: { path: string; message: string }[]) {
    const list = issues.slice(0, 5).map((i) => `${i.path || "(document)"}: ${i.message}`).join("; ");
    super(ErrorCodes.responseShape, {
      ...ctx,
      message: `${ctx.method} ${ctx.path} returned a response this client does not understand: ${list}` +
        (issues.length > 5 ? ` (and ${issues.length - 5} more)` : "") +
        (ctx.requestId ? ` [request id ${ctx.requestId}]` : ""),
    });
    this.fields = issues.map((i) => i.path);
  }
}

// ---------------------------------------------------------------------------------------------------
// Errors raised before any request

/** A request document that does not match its schema; it was NOT sent. Names the endpoint and the
 * offending fields of the body (e.g. `data.attributes.auto-apply`). The option validators catch the
 * documented rules with friendlier words first; this is the last check, for what slips past them
 * (wrong types from untyped callers, a builder bug). */
export class RequestShapeError extends WsbridgeError {
  readonly method: string;
  readonly path: string;
  /** Dotted paths of the offending fields of the request document. */
  readonly fields: readonly string[];
  constructor(ctx: RequestContext, issues: { path: string; message: string }[]) {
    const list = issues.slice(0, 5).map((i) => `${i.path || "(document)"}: ${i.message}`).join("; ");
    super(
      ErrorCodes.requestShape,
      `${ctx.method} ${ctx.path} was not sent: its request document is invalid: ${list}` +
        (issues.length > 5 ? ` (and ${issues.length - 5} more)` : ""),
    );
    this.method = ctx.method;
    this.path = ctx.path;
    this.fields = issues.map((i) => i.path);
  }
}

/** No token was found anywhere; thrown by the first request, never by `configure`. */
export class MissingTokenError extends WsbridgeError {
  readonly address: string;
  constructor(address: string) {
    let host = address;
    try { host = new URL(address).host; } catch { /* keep the raw address */ }
    super(
      ErrorCodes.missingToken,
      `No API token for ${address}. Set one with \`pulumi config set --secret wsbridge:token <token>\`, ` +
        `or export WSBRIDGE_TOKEN or TFE_TOKEN, or run \`terraform login ${host}\` to store it in ~/.terraform.d/credentials.tfrc.json`,
    );
    this.address = address;
  }
}

/** A call's options broke a documented rule; `property` is the option's path (e.g. `vcsRepo.identifier`). */
export class InvalidOptionsError extends WsbridgeError {
  readonly property: string;
  readonly operation: string;
  constructor(operation: string, property: string, reason: string) {
    super(ErrorCodes.invalidOptions, `${operation}: invalid ${property}: ${reason}`);
    this.property = property;
    this.operation = operation;
  }
}

/** A setting (stack config, environment, credentials file) has a value that cannot be used. */
export class InvalidConfigError extends WsbridgeError {
  readonly key: string;
  constructor(key: string, reason: string) {
    super(ErrorCodes.invalidConfig, `Invalid setting ${key}: ${reason}`);
    this.key = key;
  }
}

/** The endpoint exists only in the other edition (data retention policies are self-managed only). */
export class UnsupportedEditionError extends WsbridgeError {
  readonly edition: string;
  constructor(feature: string, edition: string, required: string) {
    super(ErrorCodes.unsupportedEdition, `${feature} is only available in the ${required} edition; this server is the ${edition} edition`);
    this.edition = edition;
  }
}

// ---------------------------------------------------------------------------------------------------
// The one status → error mapping

/** Classifies a 409 from the endpoint it came from (go-tfe does the same by path). */
function conflictReason(path: string, detail: string | undefined): ConflictReason {
  const bare = path.split("?")[0] ?? path;
  if (bare.endsWith("/actions/lock")) return "already-locked";
  if (bare.endsWith("/actions/force-unlock")) return "not-locked";
  if (bare.endsWith("/actions/unlock")) return /locked by/i.test(detail ?? "") ? "locked-by-other" : "not-locked";
  // The service says "Workspace is currently locked…" for a lock, other texts for managed resources.
  if (bare.endsWith("/actions/safe-delete")) return /\blocked\b/i.test(detail ?? "") ? "locked-cannot-delete" : "not-safe-to-delete";
  return "other";
}

/** Builds the error for a non-2xx response. `retryAfterMs` is the wait the server last asked for. */
export function errorForResponse(
  ctx: RequestContext,
  status: number,
  errors: ErrorDetail[],
  requestId: string | undefined,
  extra: { attempts?: number; retryAfterMs?: number } = {},
): ApiError {
  const init = {
    ...ctx, status, errors,
    ...(requestId === undefined ? {} : { requestId }),
    ...(extra.attempts === undefined ? {} : { attempts: extra.attempts }),
  };
  switch (status) {
    case 400: return new BadRequestError(init);
    case 401: return new UnauthorizedError(init);
    case 403: return new ForbiddenError(init);
    case 404: return new NotFoundError(init);
    case 409: return new ConflictError(init, conflictReason(ctx.path, errors[0]?.detail));
    case 422: return new ValidationError(init);
    case 429: return new RateLimitedError(init, extra.retryAfterMs);
    default:
      if (status >= 500) return new ServerError(init);
      return new ApiError(ErrorCodes.http, init);
  }
}

/** Reads the `errors` member of an error body: JSON:API objects, or the registry's plain strings. */
export function parseErrorDocument(body: unknown): ErrorDetail[] {
  if (typeof body !== "object" || body === null) return [];
  const list = (body as { errors?: unknown }).errors;
  if (!Array.isArray(list)) return [];
  const out: ErrorDetail[] = [];
  for (const item of list) {
    if (typeof item === "string") { out.push({ title: item }); continue; }
    if (typeof item !== "object" || item === null) continue;
    const e = item as Record<string, unknown>;
    const source = e["source"] as Record<string, unknown> | undefined;
    const detail: ErrorDetail = {};
    if (e["status"] !== undefined) detail.status = String(e["status"]);
    if (typeof e["title"] === "string") detail.title = e["title"];
    if (typeof e["detail"] === "string") detail.detail = e["detail"];
    if (source && typeof source["pointer"] === "string") detail.pointer = source["pointer"];
    out.push(detail);
  }
  return out;
}

/** True for errors that mean "the object is not there" — what delete and read treat as gone. */
export function isNotFound(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError;
}

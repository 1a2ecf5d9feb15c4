/**
 * The one error factory of the emulator. Handlers throw {@link ApiError}; the server renders it as
 * a JSON:API error document (`status` as a string, lower-case title) or, on the registry read API,
 * as the registry's `{"errors":["Not Found"]}` shape.
 */

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly pointer?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = "ApiError";
  }

  toErrorObject(): ErrorObject {
    const o: ErrorObject = { status: String(this.status), title: this.title };
    if (this.detail !== undefined) o.detail = this.detail;
    if (this.pointer !== undefined) o.source = { pointer: this.pointer };
    return o;
  }

  toDocument(): { errors: ErrorObject[] } {
    return { errors: [this.toErrorObject()] };
  }

  /** The registry API's plain-JSON error shape. */
  toRegistryDocument(): { errors: string[] } {
    return { errors: [REGISTRY_MESSAGES[this.status] ?? this.title] };
  }
}

const REGISTRY_MESSAGES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** Lower-case status phrases used as titles. */
const TITLES: Record<number, string> = {
  400: "bad request",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  405: "method not allowed",
  409: "conflict",
  413: "payload too large",
  415: "unsupported media type",
  422: "unprocessable entity",
  429: "too many requests",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout",
};

export const errors = {
  /** 404 for what does not exist and for what the caller may not see (the service does not tell them apart). */
  notFound: (): ApiError => new ApiError(404, "not found"),
  unauthorized: (): ApiError => new ApiError(401, "unauthorized"),
  forbidden: (detail: string): ApiError => new ApiError(403, "forbidden", detail),
  conflict: (detail: string): ApiError => new ApiError(409, "conflict", detail),
  badRequest: (detail: string): ApiError => new ApiError(400, "bad request", detail),
  /** 422 naming the offending member of the request document. */
  invalidAttribute: (detail: string, pointer: string): ApiError =>
    new ApiError(422, "invalid attribute", detail, pointer),
  unprocessable: (detail: string, pointer?: string): ApiError =>
    new ApiError(422, "unprocessable entity", detail, pointer),
  payloadTooLarge: (limit: number): ApiError =>
    new ApiError(413, "payload too large", `Request body exceeds ${limit} bytes`),
  unsupportedMediaType: (got: string): ApiError =>
    new ApiError(415, "unsupported media type", `Content-Type must be application/vnd.api+json, got "${got}"`),
  serviceUnavailable: (detail: string): ApiError => new ApiError(503, "service unavailable", detail),
  tooManyRequests: (limit: number, resetSeconds: number): ApiError =>
    new ApiError(429, "too many requests", "You have exceeded the API's rate limit.", undefined, {
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Reset": resetSeconds.toFixed(3),
      "Retry-After": String(Math.max(1, Math.ceil(resetSeconds))),
    }),
  /** An error document for an arbitrary status (scripted faults). */
  forStatus: (status: number, detail?: string): ApiError =>
    new ApiError(status, TITLES[status] ?? "error", detail),
  internal: (): ApiError => new ApiError(500, "internal server error"),
};

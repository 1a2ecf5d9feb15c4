/**
 * HTTP transport: one undici Pool per origin, kept at module scope so every client of the process (the
 * dynamic-provider host serves all resources of a deployment in one process) reuses the same
 * keep-alive connections. Knows nothing about JSON:API, retries or errors beyond classifying a failure.
 * A request can still go out on a pooled connection the server closed while idle (the close not yet
 * read): it fails as UND_ERR_SOCKET, counted as sent, so a read is retried and an unsafe request is
 * resolved by its caller, never repeated blindly (test/a-connection-the-server-closed-while-idle-…).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Dispatcher, Pool } from "undici";
import type { IncomingHttpHeaders } from "undici/types/header";
import { bundledVersion } from "../package-files";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** Pool tunables, milliseconds. */
const POOL_DEFAULTS = {
  connections: 32, //             per origin; well above what the 30 req/s service limit lets through
  keepAliveTimeout: 10_000, //    10 s idle before a socket is closed; a server's Keep-Alive hint replaces it (minus 2 s)
  keepAliveMaxTimeout: 60_000, // 60 s ceiling on a server's keep-alive hint
  connectTimeout: 10_000, //      10 s to establish TCP/TLS
} as const;

/** Default time for the response headers, and again for the body, of one attempt: 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const pools = new Map<string, Pool>();

let poolClass: typeof Pool | undefined;

/**
 * undici's Pool, loaded at the first request and alone: the package's entry point also loads fetch,
 * WebSocket, EventSource, caches and mocks (110 files against 22, about half of undici's load time), which
 * the plugin's first call would pay for although only the pool is used, and a preview that sends
 * nothing needs no HTTP at all. The entry point is the fallback should a later undici move the file.
 */
function loadPool(): typeof Pool {
  if (poolClass === undefined) {
    try {
      poolClass = require("undici/lib/dispatcher/pool") as typeof Pool;
    } catch {
      poolClass = (require("undici") as typeof import("undici")).Pool;
    }
  }
  return poolClass;
}

/** The process-wide pool for an origin (`https://host:port`). */
export function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) {
    const PoolClass = loadPool();
    pool = new PoolClass(origin, { ...POOL_DEFAULTS });
    pools.set(origin, pool);
  }
  return pool;
}

/** Closes every pool (tests and the benchmark; a provider process just exits — idle sockets are unref'd). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close().catch(() => undefined)));
}

export interface TransportRequest {
  origin: string;
  method: HttpMethod;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The most body bytes read. A 2xx answer longer than this fails with BodyTooLargeError (from its
   * Content-Length when it declares one, before any byte of the body is read); an error answer's body
   * is cut there, which only loses its error details. Unbounded when undefined. */
  maxBodyBytes?: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names, as undici delivers them. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one request and reads the whole (small JSON) body. Throws the undici/Node error as is.
 *
 * Uses the pool's `dispatch` with a handler that collects the chunks rather than `request`, which wraps
 * every body in a Node Readable stream: for the few-KB JSON documents of this API the stream machinery
 * costs more CPU than the validation of the document (see bench/client.js).
 */
export function send(req: TransportRequest): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    poolFor(req.origin).dispatch(
      {
        method: req.method,
        path: req.path,
        headers: req.headers,
        body: req.body ?? null,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      },
      new CollectBody(resolve, reject, req.maxBodyBytes),
    );
  });
}

/** A 2xx body longer than the request's `maxBodyBytes`; the request was abandoned there. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    /** The Content-Length the server declared, when it declared one. */
    readonly declared: number | undefined,
    readonly status: number,
  ) {
    super(declared === undefined ? `the body is longer than ${limit} bytes` : `the body is ${declared} bytes, more than ${limit}`);
    this.name = "BodyTooLargeError";
  }
}

/** A dispatch handler that buffers the response and settles a promise once, at the end or on error. */
class CollectBody implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: TransportResponse["headers"] = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;
  /** Set once the body passed `maxBodyBytes`: the rest is not kept. */
  private cut = false;
  private failed = false;

  constructor(
    private readonly resolve: (res: TransportResponse) => void,
    private readonly reject: (err: Error) => void,
    private readonly maxBodyBytes?: number,
  ) {}

  /** Present so that undici treats this as a handler of its v7 API (it tests for this method). */
  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx answers are interim; the final one follows on the same request.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
    const declared = Number(headerValue(headers, "content-length"));
    if (this.maxBodyBytes !== undefined && Number.isFinite(declared) && declared > this.maxBodyBytes && this.isSuccess()) {
      this.fail(controller, new BodyTooLargeError(this.maxBodyBytes, declared, statusCode));
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.failed || this.cut) return;
    this.length += chunk.length;
    if (this.maxBodyBytes !== undefined && this.length > this.maxBodyBytes) {
      if (this.isSuccess()) { this.fail(controller, new BodyTooLargeError(this.maxBodyBytes, undefined, this.status)); return; }
      // An error answer: what fits is enough for its status (its details may be lost).
      this.cut = true;
      const room = this.maxBodyBytes - (this.length - chunk.length);
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      return;
    }
    this.chunks.push(chunk);
  }

  private isSuccess(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** Abandons the request (undici closes its connection) and settles with `err`. */
  private fail(controller: Dispatcher.DispatchController, err: Error): void {
    this.failed = true;
    this.chunks.length = 0;
    this.reject(err);
    controller.abort(err);
  }

  onResponseEnd(): void {
    if (this.failed) return;
    const text = this.chunks.length === 1 ? this.chunks[0]!.toString("utf8") : Buffer.concat(this.chunks).toString("utf8");
    // A byte-order mark is dropped, as undici's body.text() and fetch do (JSON parsers may ignore one).
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.reject(err);
  }
}

/** Reads one header as a single string (the first value if repeated). */
export function headerValue(headers: TransportResponse["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Node/undici codes that mean the request certainly never reached the server. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT",
]);

export interface TransportFailure {
  code: string | undefined;
  /** False only when the request cannot have reached the server. */
  sent: boolean;
  reason: string;
}

/** Turns a thrown network error into words and a "was it sent" verdict. */
export function classifyTransportError(err: unknown): TransportFailure {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === "string" ? e.code : typeof e?.cause?.code === "string" ? e.cause.code : undefined;
  const reasons: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    UND_ERR_CONNECT_TIMEOUT: "timed out connecting",
    UND_ERR_HEADERS_TIMEOUT: "timed out waiting for the response",
    UND_ERR_BODY_TIMEOUT: "timed out reading the response",
    ECONNRESET: "connection reset",
    UND_ERR_SOCKET: "connection closed by the server",
    EPIPE: "connection closed while sending",
  };
  const reason = (code && reasons[code]) ?? (typeof e?.message === "string" ? e.message : "network error");
  return { code, sent: !(code !== undefined && NOT_SENT_CODES.has(code)), reason };
}

let cachedVersion: string | undefined;

/**
 * This package's version: the one built into the plugin executable, which has no package.json beside
 * it, or found by walking up to its package.json (works from source and from dist).
 */
export function packageVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  cachedVersion = bundledVersion() ?? "0.0.0";
  if (bundledVersion() !== undefined) return cachedVersion;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
      const pkg = parsed as { name?: unknown; version?: unknown };
      if (pkg.name === "pulumi-wsbridge" && typeof pkg.version === "string") {
        cachedVersion = pkg.version;
        break;
      }
    } catch {
      // no package.json at this level; keep walking up
    }
    dir = path.dirname(dir);
  }
  return cachedVersion;
}

/** `pulumi-wsbridge/0.1.0 (node v20.20.2)` */
export function defaultUserAgent(): string {
  return `pulumi-wsbridge/${packageVersion()} (node ${process.version})`;
}

/**
 * What a route handler receives and returns, and the shape of a route table entry.
 */
import type { Principal } from "./auth";
import type { Store } from "./store/store";
import type { Edition, VersionAttribute } from "./types";
import type { Query } from "./query";

/** Server-wide settings handlers need. */
export interface App {
  store: Store;
  edition: Edition;
  versionAttribute: VersionAttribute;
}

export interface RequestContext {
  app: App;
  method: string;
  /** Path without query string, e.g. "/api/v2/workspaces/ws-...". */
  path: string;
  params: Record<string, string>;
  query: Query;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  rawBody: Buffer;
  /** The caller; null only on routes that do not require authentication. */
  principal: Principal | null;
  /** Absolute base URL as the client addressed the server, e.g. "http://127.0.0.1:41234". */
  baseUrl: string;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Bytes sent as they are instead of a JSON body (state downloads). */
  raw?: { bytes: Buffer; contentType: string };
}

export type Handler = (ctx: RequestContext) => HandlerResult;

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RouteDef {
  method: Method;
  /** find-my-way path, e.g. "/api/v2/workspaces/:workspace_id". */
  path: string;
  handler: Handler;
  /** Whether a valid token is required; default true. */
  auth?: boolean;
  /** Registry read API: plain JSON bodies and `{"errors":["..."]}` errors. */
  registry?: boolean;
  /** Accept any content type and do not parse the body as JSON (state uploads). */
  rawBody?: boolean;
  /**
   * Editions that have the route; default both. Elsewhere the route does not exist at all, so it
   * answers like any unknown route (404, even before authentication), as the hosted service does
   * for the self-managed-only endpoints.
   */
  editions?: readonly Edition[];
}

/** The caller of an authenticated route (the server guarantees it is set there). */
export function caller(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new Error("route requires authentication but no principal was resolved");
  return ctx.principal;
}

export function param(ctx: RequestContext, name: string): string {
  return ctx.params[name] ?? "";
}

/**
 * The HTTP server: one pipeline for every API request (log, latency, faults, route, auth, body,
 * handler, persistence, response) and the `/_emulator/*` controls beside it. With `tls` the same
 * pipeline runs behind HTTPS.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import Router from "find-my-way";
import { bearerToken, rateLimitKey, resolvePrincipal, type Principal } from "./auth";
import type { App, HandlerResult, RequestContext, RouteDef } from "./context";
import { issueToken as issueTokenInStore } from "./domain/organizations";
import { ApiError, errors } from "./errors";
import { FaultController, type FaultDecision } from "./faults";
import { loadFixtures, seedStore } from "./fixtures";
import { readBody, sleep, writeJson, writeRaw } from "./http-io";
import { newRequestId, nowIso } from "./ids";
import { parseQuery } from "./query";
import { RequestLog } from "./request-log";
import { allRoutes } from "./routes";
import { handleAdmin } from "./routes/admin";
import { loadState, saveState } from "./persistence/persist";
import { MemoryStore, type Store } from "./store/store";
import type { Edition, EmulatorOptions, FaultSettings, RequestLogEntry, RunningEmulator, TokenSpec } from "./types";

const JSONAPI = "application/vnd.api+json";
const MUTATING = new Set(["POST", "PATCH", "PUT", "DELETE"]);

interface Routed {
  route: RouteDef;
  params: Record<string, string>;
}

function buildRouter(routes: RouteDef[], edition: Edition): Router.Instance<Router.HTTPVersion.V1> {
  const router = Router({ ignoreTrailingSlash: true, maxParamLength: 500 });
  const noop = (): void => undefined;
  for (const r of routes) if (!r.editions || r.editions.includes(edition)) router.on(r.method, r.path, noop, r);
  return router;
}

function acceptsJsonContentType(header: string | undefined): boolean {
  const type = (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === JSONAPI || type === "application/json";
}

export async function startServer(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const edition = options.edition ?? "hosted";
  const versionAttribute = options.versionAttribute ?? "engine-version";
  if (edition !== "hosted" && edition !== "self-managed") throw new Error(`unknown edition "${String(edition)}"`);
  const keepAlive = options.keepAliveTimeoutMs;
  if (keepAlive !== undefined && !(Number.isInteger(keepAlive) && keepAlive > 0)) {
    throw new Error(`keepAliveTimeoutMs must be a whole number of milliseconds above 0, got ${String(keepAlive)}`);
  }
  const env = { edition, versionAttribute } as const;

  let store: Store;
  const loaded = options.stateFile ? loadState(options.stateFile) : null;
  if (loaded) store = new MemoryStore(loaded);
  else store = seedStore(loadFixtures(options.fixtures), env);
  const persist = (): void => {
    if (options.stateFile) saveState(options.stateFile, store.snapshot());
  };
  persist();

  const app: App = { store, edition, versionAttribute };
  const faults = new FaultController(options.faults);
  const log = new RequestLog();
  const router = buildRouter(allRoutes, edition);
  const scheme = options.tls ? "https" : "http";
  let baseUrl = "";

  const issueToken = (spec: TokenSpec): string => {
    const token = issueTokenInStore(store, spec);
    persist();
    return token;
  };

  function find(method: string, path: string): Routed | null {
    let found: Router.FindResult<Router.HTTPVersion.V1> | null;
    try {
      found = router.find(method as Router.HTTPMethod, path);
    } catch {
      throw errors.badRequest("Malformed path");
    }
    if (!found) return null;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(found.params)) if (v !== undefined) params[k] = v;
    return { route: found.store as RouteDef, params };
  }

  function dispatch(
    req: http.IncomingMessage,
    method: string,
    path: string,
    rawQuery: string,
    body: Buffer,
    principal: Principal | null,
    routed: Routed | null,
  ): HandlerResult {
    if (!routed) throw errors.notFound();
    const { route, params } = routed;
    if (route.auth !== false && !principal) throw errors.unauthorized();
    let parsed: unknown;
    if (!route.rawBody && body.length > 0 && method !== "GET") {
      const ct = req.headers["content-type"];
      if (!acceptsJsonContentType(ct)) throw errors.unsupportedMediaType(ct ?? "");
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        throw errors.badRequest("Malformed request body: not valid JSON");
      }
    }
    const ctx: RequestContext = {
      app,
      method,
      path,
      params,
      query: parseQuery(rawQuery),
      body: parsed,
      rawBody: body,
      principal,
      baseUrl: req.headers.host ? `${scheme}://${req.headers.host}` : baseUrl,
    };
    return route.handler(ctx);
  }

  function errorResult(e: unknown): HandlerResult & { error: ApiError } {
    const err = e instanceof ApiError ? e : errors.internal();
    if (!(e instanceof ApiError) && !options.quiet) console.error("wsbridge-emulator: unexpected error", e);
    return { status: err.status, headers: err.headers, error: err };
  }

  function respond(res: http.ServerResponse, result: HandlerResult, error: ApiError | undefined, plain: boolean): void {
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(faults.advertisedLimit()),
      "X-Wsbridge-Edition": edition,
      ...(result.headers ?? {}),
    };
    if (!error && result.raw) {
      writeRaw(res, result.status, result.raw.bytes, result.raw.contentType, headers);
      return;
    }
    const body = error ? (plain ? error.toRegistryDocument() : error.toDocument()) : result.body;
    writeJson(res, result.status, body, plain ? "application/json" : JSONAPI, headers);
  }

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, path: string, rawQuery: string): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const token = bearerToken(req.headers.authorization);
    const principal = token ? resolvePrincipal(store, token) : null;
    const entry: RequestLogEntry = log.add({
      method,
      path,
      query: rawQuery,
      status: null,
      ...(token ? { tokenKind: principal ? principal.kind : "invalid" } : {}),
      at: nowIso(),
    });
    const read = await readBody(req);
    let routed: Routed | null = null;
    let routeError: unknown;
    try {
      // HEAD is GET without a body (Node leaves the body out of a HEAD response by itself).
      routed = find(method === "HEAD" ? "GET" : method, path);
    } catch (e) {
      routeError = e;
    }
    const plain = routed?.route.registry ?? path.startsWith("/api/registry/");
    if (!read.ok) {
      res.setHeader("Connection", "close");
      const err = errors.payloadTooLarge(8 * 1024 * 1024);
      respond(res, { status: 413 }, err, plain);
      entry.status = 413;
      return;
    }
    const latency = faults.latencyMs();
    if (latency > 0) await sleep(latency);
    const decision = faults.decide(method, path, rateLimitKey(principal, req.socket.remoteAddress ?? ""), Date.now());
    const injectFault = (fault: Exclude<FaultDecision, { kind: "none" }>): void => {
      entry.fault = fault.fault;
      if (!("error" in fault)) {
        req.socket.destroy();
        return;
      }
      entry.status = fault.error.status;
      respond(res, { status: fault.error.status, headers: fault.error.headers }, fault.error, plain);
    };
    // A fault before the request is applied: the connection dropped, or an error answered instead.
    if (decision.kind === "drop-before" || decision.kind === "error") return injectFault(decision);
    let result: HandlerResult;
    let error: ApiError | undefined;
    try {
      if (routeError) throw routeError;
      result = dispatch(req, method, path, rawQuery, read.body, principal, routed);
    } catch (e) {
      const r = errorResult(e);
      result = r;
      error = r.error;
    }
    if (MUTATING.has(method) && result.status < 400) {
      try {
        persist();
      } catch (e) {
        if (!options.quiet) console.error("wsbridge-emulator: cannot persist state", e);
      }
    }
    // A fault after it was applied: the answer lost, or an error answered in its place.
    if (decision.kind === "drop-after" || decision.kind === "error-after-apply") return injectFault(decision);
    entry.status = result.status;
    respond(res, result, error, plain);
  }

  const adminDeps = {
    faults,
    log,
    issueToken,
    info: () => ({
      url: baseUrl,
      organization: store.settings.defaultOrganization,
      token: store.settings.defaultToken,
      edition,
      versionAttribute,
    }),
  };

  async function handleAdminRequest(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const read = await readBody(req);
    try {
      if (!read.ok) throw errors.payloadTooLarge(8 * 1024 * 1024);
      const r = handleAdmin(adminDeps, (req.method ?? "GET").toUpperCase(), path, read.body);
      writeJson(res, r.status, r.body, "application/json", {});
    } catch (e) {
      const err = e instanceof ApiError ? e : errors.internal();
      writeJson(res, err.status, err.toDocument(), JSONAPI, {});
    }
  }

  const listener: http.RequestListener = (req, res) => {
    res.setHeader("X-Request-Id", newRequestId());
    const url = req.url ?? "/";
    const qi = url.indexOf("?");
    const path = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? "" : url.slice(qi + 1);
    const work = path === "/_emulator" || path.startsWith("/_emulator/") ? handleAdminRequest(req, res, path) : handleApi(req, res, path, rawQuery);
    work.catch((e: unknown) => {
      // The client went away: nothing to answer and nothing worth reporting.
      if (req.socket.destroyed) return;
      if (!options.quiet) console.error("wsbridge-emulator: request failed", e);
      if (!res.headersSent) writeJson(res, 500, errors.internal().toDocument(), JSONAPI, {});
      else res.destroy();
    });
  };
  const server = options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, listener) : http.createServer(listener);
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  baseUrl = `${scheme}://${host}:${addr.port}`;

  let closed: Promise<void> | null = null;
  return {
    url: baseUrl,
    token: store.settings.defaultToken,
    organization: store.settings.defaultOrganization,
    edition,
    setFaults: (f: FaultSettings) => faults.set(f),
    clearFaults: () => faults.clear(),
    requests: () => log.list(),
    clearRequests: () => log.clear(),
    issueToken,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(persist);
      return closed;
    },
  };
}

/**
 * `/_emulator/*`: the controls of a running emulator over HTTP (faults, request log, tokens).
 * No authentication: the emulator listens on loopback by default. These requests are neither
 * logged nor subject to faults.
 */
import { ApiError, errors } from "../errors";
import type { FaultController } from "../faults";
import type { RequestLog } from "../request-log";
import type { FaultSettings, TokenSpec } from "../types";

export interface AdminDeps {
  faults: FaultController;
  log: RequestLog;
  issueToken(spec: TokenSpec): string;
  info(): Record<string, unknown>;
}

export interface AdminResult {
  status: number;
  body?: unknown;
}

function parse(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw errors.badRequest("Malformed request body");
  }
}

export function handleAdmin(deps: AdminDeps, method: string, path: string, body: Buffer): AdminResult {
  const route = `${method} ${path.replace(/\/+$/, "")}`;
  switch (route) {
    case "GET /_emulator/faults":
      return { status: 200, body: deps.faults.get() };
    case "PUT /_emulator/faults": {
      const f = parse(body);
      if (typeof f !== "object" || f === null || Array.isArray(f)) throw errors.unprocessable("faults must be a JSON object");
      try {
        deps.faults.set(f as FaultSettings);
      } catch (e) {
        throw errors.unprocessable((e as Error).message);
      }
      return { status: 200, body: deps.faults.get() };
    }
    case "DELETE /_emulator/faults":
      deps.faults.clear();
      return { status: 204 };
    case "GET /_emulator/requests":
      return { status: 200, body: deps.log.list() };
    case "DELETE /_emulator/requests":
      deps.log.clear();
      return { status: 204 };
    case "POST /_emulator/tokens": {
      const raw = parse(body);
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        throw errors.unprocessable('the token spec must be a JSON object such as {"kind":"team","access":"read"}');
      }
      const spec = raw as TokenSpec;
      try {
        const token = deps.issueToken(spec);
        return { status: 201, body: { token, kind: spec.kind, organization: spec.organization ?? deps.info()["organization"] } };
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw errors.unprocessable((e as Error).message);
      }
    }
    case "GET /_emulator/info":
      return { status: 200, body: deps.info() };
    default:
      throw errors.notFound();
  }
}

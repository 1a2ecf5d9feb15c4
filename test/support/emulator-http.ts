/**
 * Test helpers for the emulator's own tests: an in-process emulator on port 0 and a small undici
 * client that returns status, headers and the parsed body.
 */
import { Pool } from "undici";
import { startEmulator, type Edition, type EmulatorOptions, type RunningEmulator, type TokenSpec } from "../../emulator";

/** Response documents are asserted structurally in tests, so they are loosely typed here on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any;

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Doc;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON and oversize tests). */
  raw?: string | Buffer;
  /** Token to present; null sends no Authorization header. Default the client's token. */
  token?: string | null;
  contentType?: string | null;
  headers?: Record<string, string>;
}

export class Client {
  constructor(
    private readonly pool: Pool,
    readonly token: string,
  ) {}

  /** The same connection pool with another token. */
  as(token: string): Client {
    return new Client(this.pool, token);
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token !== null) headers["authorization"] = `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    const ct = opts.contentType === undefined ? "application/vnd.api+json" : opts.contentType;
    if (body !== undefined && ct !== null) headers["content-type"] = ct;
    const res = await this.pool.request({ method: method as "GET", path, headers, body });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
    let parsed: Doc = null;
    if (text !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: res.statusCode, headers: flat, body: parsed, text };
  }

  get(path: string, opts?: RequestOptions): Promise<Reply> {
    return this.request("GET", path, opts);
  }
  post(path: string, body?: unknown, opts: RequestOptions = {}): Promise<Reply> {
    return this.request("POST", path, { ...opts, body });
  }
  patch(path: string, body?: unknown, opts: RequestOptions = {}): Promise<Reply> {
    return this.request("PATCH", path, { ...opts, body });
  }
  delete(path: string, body?: unknown, opts: RequestOptions = {}): Promise<Reply> {
    return this.request("DELETE", path, { ...opts, body });
  }
}

/** Both editions: contract tests run every endpoint group in each. */
export const EDITIONS: Edition[] = ["hosted", "self-managed"];

export interface TestEmulator {
  emu: RunningEmulator;
  /** Client with the default organization's owner token. */
  api: Client;
  org: string;
  /** A client with a freshly issued token. */
  clientFor(spec: TokenSpec): Client;
  close(): Promise<void>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({ quiet: true, ...options });
  // A connection per request (see fresh-connection-per-request.ts): none can go stale while a test blocks.
  const pool = new Pool(emu.url, { connections: 4, pipelining: 0 });
  const api = new Client(pool, emu.token);
  return {
    emu,
    api,
    org: emu.organization,
    clientFor: (spec) => api.as(emu.issueToken(spec)),
    close: async () => {
      await pool.close();
      await emu.close();
    },
  };
}

/** A create body for a workspace. */
export function workspaceBody(name: string, attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>): Doc {
  const data: Doc = { type: "workspaces", attributes: { name, ...attributes } };
  if (relationships) data.relationships = relationships;
  return { data };
}

/** Creates a workspace in `org` and returns its resource object; fails the test unless 201. */
export async function createWorkspace(
  api: Client,
  org: string,
  name: string,
  attributes: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
): Promise<Doc> {
  const r = await api.post(`/api/v2/organizations/${org}/workspaces`, workspaceBody(name, attributes, relationships));
  if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
  return r.body.data;
}

let counter = 0;
/** A unique workspace name per call, so tests in one emulator do not collide. */
export function uniqueName(prefix = "ws"): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const WORKSPACE_ID = /^ws-[A-Za-z0-9]{16}$/;

/**
 * A scripted HTTP server on 127.0.0.1 port 0 for the client's transport/retry/error tests, in the style of
 * undici's own tests: each request is answered by a function of its number, and every request is logged
 * so tests count attempts instead of measuring time.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoggedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What to answer: a response; a 200 whose body is written as byte pieces 10 ms apart (so that each
 * reaches the client as a chunk of its own; pacing only), optionally cut off by dropping the socket
 * before the declared length is sent; "drop" to destroy the socket without answering; or "hang". */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { pieces: Buffer[]; thenDrop?: boolean }
  | "drop"
  | "hang";

export interface ScriptedServer {
  url: string;
  requests: LoggedRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number;
  close(): Promise<void>;
}

function writePieces(res: http.ServerResponse, pieces: Buffer[], thenDrop: boolean): void {
  const length = pieces.reduce((n, b) => n + b.length, 0);
  res.writeHead(200, { "content-type": "application/vnd.api+json", "content-length": String(length) });
  const sent = thenDrop ? pieces.slice(0, 1) : pieces;
  let k = 0;
  const next = (): void => {
    const b = sent[k++];
    if (b === undefined) {
      if (thenDrop) res.socket?.destroy();
      else res.end();
      return;
    }
    res.write(b);
    setTimeout(next, 10);
  };
  next();
}

export async function startScriptedServer(
  answer: (req: LoggedRequest, index: number) => Reply,
): Promise<ScriptedServer> {
  const requests: LoggedRequest[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const logged: LoggedRequest = {
        method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(logged);
      const reply = answer(logged, requests.length - 1);
      if (reply === "drop") { req.socket.destroy(); return; }
      if (reply === "hang") { hanging.push(res); return; }
      if ("pieces" in reply) { writePieces(res, reply.pieces, reply.thenDrop === true); return; }
      const body = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { "content-type": "application/vnd.api+json", ...(reply.headers ?? {}) });
      res.end(body);
    });
  });
  let connections = 0;
  server.on("connection", () => { connections += 1; });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A minimal valid workspace resource in the spec's shape. */
export function workspaceResource(id: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    type: "workspaces",
    attributes: {
      name, locked: false, "execution-mode": "remote", "auto-apply": false, "allow-destroy-plan": true,
      "file-triggers-enabled": true, "global-remote-state": false, "queue-all-runs": false, "speculative-enabled": true,
      "trigger-prefixes": [], "trigger-patterns": [], "tag-names": [], "created-at": "2024-01-01T00:00:00.000Z",
      "updated-at": "2024-01-01T00:00:00.000Z", "resource-count": 0, "engine-version": "1.9.0", description: null,
      permissions: { "can-update": true, "can-force-unlock": false },
      ...extra,
    },
    relationships: {
      organization: { data: { id: "example-org", type: "organizations" } },
      project: { data: { id: "prj-1", type: "projects" } },
      "ssh-key": { data: null },
    },
    links: { self: `/api/v2/organizations/example-org/workspaces/${name}`, "self-html": `/app/example-org/workspaces/${name}` },
  };
}

/** Retry settings that keep scripted tests fast. */
export const FAST_RETRY = {
  minDelayMs: 1, maxDelayMs: 5, maxAttempts: 4, maxRateLimitRetries: 3, rateLimitMaxWaitMs: 2_000, budgetMs: 10_000,
  unlockRetryPeriodMs: 2_000,
} as const;

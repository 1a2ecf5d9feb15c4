/**
 * Low-level request/response helpers: bounded body reading and JSON writing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export type BodyRead = { ok: true; body: Buffer } | { ok: false; tooLarge: true };

/** Reads the whole body; past the limit it keeps draining (so the client can read our 413) but stores nothing. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(c);
    });
    let ended = false;
    req.on("end", () => {
      ended = true;
      resolve(tooLarge ? { ok: false, tooLarge: true } : { ok: true, body: Buffer.concat(chunks) });
    });
    req.on("error", reject);
    // A client that goes away mid-body never sends "end": settle instead of leaking the request.
    req.on("close", () => {
      if (!ended) reject(new Error("client closed the connection before the body was complete"));
    });
  });
}

export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType: string,
  headers: Record<string, string>,
): void {
  if (body === undefined || status === 204) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": contentType,
    "Content-Length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** A body sent byte for byte, e.g. a state file as it was uploaded. */
export function writeRaw(res: ServerResponse, status: number, bytes: Buffer, contentType: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, "Content-Type": contentType, "Content-Length": String(bytes.length) });
  res.end(bytes);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

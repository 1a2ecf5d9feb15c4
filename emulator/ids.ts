import { createHash, randomBytes } from "node:crypto";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `prefix-` followed by 16 random alphanumerics, like the service's ids (`ws-Zb4RyQ1AfDtA9kLm`). */
export function newId(prefix: string): string {
  const bytes = randomBytes(16);
  let s = "";
  for (const b of bytes) s += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return `${prefix}-${s}`;
}

/** A random secret for bearer tokens, shaped like the service's (`<14 chars>.atlasv1.<64 chars>`). */
export function newToken(): string {
  return `${randomBytes(7).toString("hex")}.atlasv1.${randomBytes(32).toString("hex")}`;
}

/** 16 hex characters derived from the inputs; stable so effective tag binding ids do not change between reads. */
export function stableHexId(...parts: string[]): string {
  return createHash("sha1").update(parts.join("\u0000")).digest("hex").slice(0, 16);
}

export function newRequestId(): string {
  return randomBytes(16).toString("hex");
}

/** Current time as the service writes it: UTC, milliseconds, `Z`. */
export function nowIso(): string {
  return new Date().toISOString();
}

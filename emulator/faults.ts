/**
 * Fault injection: scripted faults first (deterministic, for tests), then the per-token rate limit,
 * then the random shares of server errors and dropped connections.
 */
import { ApiError, errors } from "./errors";
import type { FaultSettings, ScriptedFault } from "./types";

export type FaultDecision =
  | { kind: "none" }
  | { kind: "error"; error: ApiError; fault: "status" | "rate-limit" | "server-error" }
  | { kind: "drop-before"; fault: "drop-before" }
  | { kind: "drop-after"; fault: "drop-after" }
  | { kind: "error-after-apply"; error: ApiError; fault: "status-after-apply" };

/** The service's advertised limit when no rate-limit fault is set. */
export const DEFAULT_RATE_LIMIT = 30;

/** Deterministic PRNG (mulberry32) so seeded shares repeat exactly. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

function matches(f: ScriptedFault, method: string, path: string): boolean {
  const m = f.match;
  if (!m) return true;
  if (m.method && m.method.toUpperCase() !== method) return false;
  if (m.path === undefined) return true;
  if (m.path instanceof RegExp) return m.path.test(path);
  return m.path.includes("*") ? globToRegExp(m.path).test(path) : m.path === path;
}

function checkShare(name: string, v: number | undefined): void {
  if (v !== undefined && (typeof v !== "number" || !(v >= 0 && v <= 1))) {
    throw new Error(`${name} must be a number between 0 and 1`);
  }
}

const SCRIPT_KEYS = new Set(["match", "status", "drop", "afterApply", "retryAfterSeconds", "times"]);

/** Validates settings that may come from JSON (the admin endpoint); throws with a readable message. */
export function validateFaults(f: FaultSettings): void {
  if (typeof f !== "object" || f === null) throw new Error("faults must be an object");
  checkShare("serverErrorRate", f.serverErrorRate);
  checkShare("dropRate", f.dropRate);
  if (f.latencyMs !== undefined && !(typeof f.latencyMs === "number" && f.latencyMs >= 0)) {
    throw new Error("latencyMs must be a non-negative number");
  }
  if (f.rateLimit) {
    if (!(Number.isInteger(f.rateLimit.limit) && f.rateLimit.limit >= 1)) throw new Error("rateLimit.limit must be a positive integer");
    if (f.rateLimit.windowMs !== undefined && !(f.rateLimit.windowMs > 0)) throw new Error("rateLimit.windowMs must be positive");
  }
  if (f.script !== undefined && !Array.isArray(f.script)) throw new Error("script must be an array");
  for (const s of f.script ?? []) {
    // Settings arrive as JSON from the admin endpoint: only known keys with plain values, so nothing
    // odd is stored that could fail later (a nested object where a string belongs, say).
    if (typeof s !== "object" || s === null || Array.isArray(s)) throw new Error("each scripted fault must be an object");
    const unknown = Object.keys(s).filter((k) => !SCRIPT_KEYS.has(k));
    if (unknown.length > 0) throw new Error(`unknown scripted fault key(s): ${unknown.join(", ")}`);
    if (s.match !== undefined) {
      if (typeof s.match !== "object" || s.match === null || Array.isArray(s.match)) throw new Error("match must be an object");
      const extra = Object.keys(s.match).filter((k) => k !== "method" && k !== "path");
      if (extra.length > 0) throw new Error(`unknown match key(s): ${extra.join(", ")}`);
      if (s.match.method !== undefined && typeof s.match.method !== "string") throw new Error("match.method must be a string");
      if (s.match.path !== undefined && typeof s.match.path !== "string" && !(s.match.path instanceof RegExp)) {
        throw new Error("match.path must be a string");
      }
    }
    if (s.times !== undefined && !(Number.isInteger(s.times) && s.times >= 1)) throw new Error("times must be a positive integer");
    if (s.retryAfterSeconds !== undefined && !(typeof s.retryAfterSeconds === "number" && s.retryAfterSeconds >= 0)) {
      throw new Error("retryAfterSeconds must be a non-negative number");
    }
    if (s.status === undefined && s.drop === undefined) throw new Error("a scripted fault needs status or drop");
    if (s.status !== undefined && !(Number.isInteger(s.status) && s.status >= 400 && s.status <= 599)) {
      throw new Error("scripted status must be an integer 400..599");
    }
    if (s.drop !== undefined && s.drop !== "before" && s.drop !== "after") throw new Error('drop must be "before" or "after"');
    if (s.afterApply !== undefined && (typeof s.afterApply !== "boolean" || (s.afterApply && s.status === undefined))) {
      throw new Error("afterApply must be a boolean, and needs a status");
    }
  }
}

export class FaultController {
  private settings: FaultSettings = {};
  private script: Array<{ fault: ScriptedFault; remaining: number }> = [];
  private random: () => number = Math.random;
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(initial?: FaultSettings) {
    if (initial) this.set(initial);
  }

  set(f: FaultSettings): void {
    validateFaults(f);
    this.settings = { ...f };
    this.script = (f.script ?? []).map((fault) => ({ fault, remaining: fault.times ?? 1 }));
    this.random = f.seed === undefined ? Math.random : mulberry32(f.seed);
    this.windows.clear();
  }

  clear(): void {
    this.set({});
  }

  /** Current settings, with the scripted faults that are still pending. */
  get(): FaultSettings {
    const out: FaultSettings = { ...this.settings };
    out.script = this.script.map(({ fault, remaining }) => ({
      ...fault,
      match: fault.match
        ? { ...fault.match, path: fault.match.path instanceof RegExp ? String(fault.match.path) : fault.match.path }
        : undefined,
      times: remaining,
    }));
    return out;
  }

  latencyMs(): number {
    return this.settings.latencyMs ?? 0;
  }

  advertisedLimit(): number {
    return this.settings.rateLimit?.limit ?? DEFAULT_RATE_LIMIT;
  }

  decide(method: string, path: string, rateKey: string, now: number): FaultDecision {
    const idx = this.script.findIndex((s) => s.remaining > 0 && matches(s.fault, method, path));
    const scripted = idx >= 0 ? this.script[idx] : undefined;
    if (scripted) {
      scripted.remaining--;
      if (scripted.remaining <= 0) this.script.splice(idx, 1);
      const f = scripted.fault;
      if (f.drop === "before") return { kind: "drop-before", fault: "drop-before" };
      if (f.drop === "after") return { kind: "drop-after", fault: "drop-after" };
      const status = f.status ?? 503;
      const error =
        status === 429
          ? errors.tooManyRequests(this.advertisedLimit(), f.retryAfterSeconds ?? 1)
          : errors.forStatus(status, "Injected fault");
      if (f.afterApply === true) return { kind: "error-after-apply", error, fault: "status-after-apply" };
      return { kind: "error", error, fault: "status" };
    }
    const rl = this.settings.rateLimit;
    if (rl) {
      const windowMs = rl.windowMs ?? 1000;
      let w = this.windows.get(rateKey);
      if (!w || now - w.start >= windowMs) {
        w = { start: now, count: 0 };
        this.windows.set(rateKey, w);
      }
      w.count++;
      if (w.count > rl.limit) {
        const reset = Math.max(0.001, (w.start + windowMs - now) / 1000);
        return { kind: "error", error: errors.tooManyRequests(rl.limit, reset), fault: "rate-limit" };
      }
    }
    const errRate = this.settings.serverErrorRate ?? 0;
    if (errRate > 0 && this.random() < errRate) {
      return {
        kind: "error",
        error: errors.forStatus(this.settings.serverErrorStatus ?? 503, "Injected server error"),
        fault: "server-error",
      };
    }
    const dropRate = this.settings.dropRate ?? 0;
    if (dropRate > 0 && this.random() < dropRate) return { kind: "drop-before", fault: "drop-before" };
    return { kind: "none" };
  }
}

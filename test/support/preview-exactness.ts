// What "a preview is exact" means for the plugin route: every output a preview gave as known is what
// the apply then really produced; only the parts it gave as unknown may be anything.
import { UNKNOWN } from "../../provider/runtime/lifecycle";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * `real` with every part the preview gave as unknown replaced by the sentinel: a preview is exact when
 * it strictly equals this (same keys, same values wherever it claimed to know them).
 */
export function realMaskedLike(preview: unknown, real: unknown): unknown {
  if (preview === UNKNOWN) return UNKNOWN;
  if (Array.isArray(preview) && Array.isArray(real)) return real.map((value, i) => realMaskedLike(preview[i], value));
  if (isRecord(preview) && isRecord(real)) {
    return Object.fromEntries(Object.entries(real).map(([key, value]) => [key, realMaskedLike(preview[key], value)]));
  }
  return real;
}

/** The top-level outputs a preview left unknown, sorted. */
export function unknownOutputs(preview: Record<string, unknown>): string[] {
  return Object.keys(preview).filter((key) => preview[key] === UNKNOWN).sort();
}

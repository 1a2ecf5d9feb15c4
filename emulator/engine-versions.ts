import { isExactVersion, newestSatisfying, newestVersion } from "./semver";

/** Last patch release of each minor line the emulator knows by default (every patch from .0 up to it exists). */
const LINES: Array<[string, number]> = [
  ["0.10", 8],
  ["0.11", 15],
  ["0.12", 31],
  ["0.13", 7],
  ["0.14", 11],
  ["0.15", 5],
  ["1.0", 11],
  ["1.1", 9],
  ["1.2", 9],
  ["1.3", 10],
  ["1.4", 7],
  ["1.5", 7],
  ["1.6", 6],
  ["1.7", 5],
  ["1.8", 5],
  ["1.9", 8],
  ["1.10", 5],
  ["1.11", 4],
  ["1.12", 2],
  ["1.13", 4],
  ["1.14", 1],
];

export const DEFAULT_ENGINE_VERSIONS: readonly string[] = LINES.flatMap(([line, last]) =>
  Array.from({ length: last + 1 }, (_, i) => `${line}.${i}`),
);

export type VersionCheck = { ok: true; resolved: string } | { ok: false; reason: string };

/**
 * Validates an engine version as the service does: "latest", an exact known version, or a constraint
 * that some known version satisfies. `resolved` is the version it selects.
 */
export function checkEngineVersion(value: string, known: readonly string[]): VersionCheck {
  const latest = newestVersion(known) ?? "0.0.0";
  if (value === "latest") return { ok: true, resolved: latest };
  if (isExactVersion(value)) {
    return known.includes(value) ? { ok: true, resolved: value } : { ok: false, reason: "not a valid version" };
  }
  const resolved = newestSatisfying(value, known);
  if (resolved === null) return { ok: false, reason: "not a valid version or no release satisfies the constraint" };
  return { ok: true, resolved };
}

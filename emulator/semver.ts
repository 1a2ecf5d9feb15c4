/**
 * A tiny version-constraint matcher for engine versions: operators `=`, `!=`, `>`, `>=`, `<`, `<=`
 * and `~>` (pessimistic), comma-separated (all must hold). Enough to resolve `~> 1.5.0` to the newest
 * known 1.5.x the way the service does.
 */

export interface Version {
  parts: [number, number, number];
  pre: string;
}

const VERSION_RE = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?$/;
const EXACT_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** True for a full `x.y.z[-pre]` version (as opposed to a constraint). */
export function isExactVersion(s: string): boolean {
  return EXACT_RE.test(s);
}

export function parseVersion(s: string): (Version & { segments: number }) | null {
  const m = VERSION_RE.exec(s.trim());
  if (!m) return null;
  const segments = m[3] !== undefined ? 3 : m[2] !== undefined ? 2 : 1;
  return { parts: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] ?? "", segments };
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    const d = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  // A pre-release sorts before its release.
  if (a.pre === b.pre) return 0;
  if (a.pre === "") return 1;
  if (b.pre === "") return -1;
  return a.pre < b.pre ? -1 : 1;
}

type Predicate = (v: Version) => boolean;

function parseClause(clause: string): Predicate | null {
  const m = /^\s*(=|!=|>=|<=|>|<|~>)?\s*(\S+)\s*$/.exec(clause);
  if (!m || m[2] === undefined) return null;
  const op = m[1] ?? "=";
  const target = parseVersion(m[2]);
  if (!target) return null;
  switch (op) {
    case "=":
      return (v) => compareVersions(v, target) === 0;
    case "!=":
      return (v) => compareVersions(v, target) !== 0;
    case ">":
      return (v) => compareVersions(v, target) > 0;
    case ">=":
      return (v) => compareVersions(v, target) >= 0;
    case "<":
      return (v) => compareVersions(v, target) < 0;
    case "<=":
      return (v) => compareVersions(v, target) <= 0;
    default: {
      // ~> 1.5.0 allows >= 1.5.0 and < 1.6.0; ~> 1.5 allows >= 1.5 and < 2.0; ~> 1 allows >= 1 < 2.
      const upper: Version = { parts: [...target.parts], pre: "" };
      if (target.segments <= 2) {
        upper.parts = [target.parts[0] + 1, 0, 0];
      } else {
        upper.parts = [target.parts[0], target.parts[1] + 1, 0];
      }
      return (v) => compareVersions(v, target) >= 0 && compareVersions(v, upper) < 0;
    }
  }
}

/** Parses a comma-separated constraint; null when it is not valid syntax. */
export function parseConstraint(constraint: string): Predicate | null {
  const clauses = constraint.split(",");
  const preds: Predicate[] = [];
  for (const c of clauses) {
    const p = parseClause(c);
    if (!p) return null;
    preds.push(p);
  }
  return (v) => preds.every((p) => p(v));
}

/** The newest of `known` that satisfies the constraint, or null (also for bad syntax). Pre-releases only match exactly. */
export function newestSatisfying(constraint: string, known: readonly string[]): string | null {
  const pred = parseConstraint(constraint);
  if (!pred) return null;
  let best: Version | null = null;
  let bestRaw: string | null = null;
  for (const raw of known) {
    const v = parseVersion(raw);
    if (!v || v.pre !== "") continue;
    if (pred(v) && (best === null || compareVersions(v, best) > 0)) {
      best = v;
      bestRaw = raw;
    }
  }
  return bestRaw;
}

/** The newest release of `known`. */
export function newestVersion(known: readonly string[]): string | null {
  return newestSatisfying(">= 0.0.0", known);
}

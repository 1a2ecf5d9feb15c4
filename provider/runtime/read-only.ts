// The read-only switch (`wsbridge:readOnly`, `WSBRIDGE_READ_ONLY`): every lifecycle call that could
// change the server passes through here first, in the lifecycle both doors call (runtime/index.ts), so
// a read-only run sends reads and nothing else. Its purpose is the adoption step: Pulumi 3.246 imports
// an object whose inputs differ from the program and then updates it in the same `up`
// (pkg/resource/deploy/step_generator.go, continueStepsFromImport), so only the provider can stop that
// update; it does so in `diff`, which the engine calls in the preview too, before any update is planned.
import { resolveSettings } from "./config";
import { userInputs, type DiffOutcome, type PropertyChange, type Props } from "./lifecycle";

export type RefusedOperation = "create" | "update" | "delete";

/** One property the program would change, with both values where they can be shown. */
export interface RefusedChange {
  readonly path: string;
  readonly declared?: unknown;
  readonly held?: unknown;
  /** The program stopped declaring it: a change of the stack's inputs only. */
  readonly undeclared?: true;
}

/** What a read-only provider refused, with everything a reader needs to act on it. */
export interface ReadOnlyRefusalDetails {
  /** The kind (`Workspace`). */
  readonly kind: string;
  readonly operation: RefusedOperation;
  /** The object's id (not known for a create). */
  readonly id?: string;
  /** The setting that made the provider read-only, as the user set it. */
  readonly source: string;
  /** For an update: the properties that differ. */
  readonly changes: readonly RefusedChange[];
  /** The change replaces the object (delete and create). */
  readonly replaces: boolean;
}

/** A change refused because the provider is read-only; nothing was sent. */
export class ReadOnlyRefusal extends Error {
  readonly code = "WSB_READ_ONLY";

  constructor(readonly details: ReadOnlyRefusalDetails) {
    super(refusalMessage(details));
    this.name = "ReadOnlyRefusal";
  }
}

/** The setting that makes this run read-only, or undefined when it may change the server. */
export function readOnlySource(): string | undefined {
  return resolveSettings().readOnly?.source;
}

/** Throws a {@link ReadOnlyRefusal} for a create, update or delete when the provider is read-only. */
export function assertMayChange(kind: string, operation: RefusedOperation, id?: string): void {
  const source = readOnlySource();
  if (source === undefined) return;
  throw new ReadOnlyRefusal({ kind, operation, ...(id !== undefined && { id }), source, changes: [], replaces: false });
}

/**
 * A diff's outcome, or, when the provider is read-only and the outcome has changes, a refusal naming
 * each property with what the program declares and what the server held at its last read (for an
 * import: the read that import just made).
 */
export function refuseChangesIfReadOnly(kind: string, id: string, olds: Props, news: Props, outcome: DiffOutcome): DiffOutcome {
  if (!outcome.changes) return outcome;
  const source = readOnlySource();
  if (source === undefined) return outcome;
  const declared = userInputs(news);
  const held = heldValues(olds);
  const paths: PropertyChange[] = outcome.detailedDiff.length > 0
    ? outcome.detailedDiff
    : [...outcome.replaces.map((path): PropertyChange => ({ path, kind: "update", replace: true }))];
  const changes = paths.map((change): RefusedChange => {
    const mine = valueAt(declared, change.path);
    const theirs = valueAt(held, change.path);
    return {
      path: change.path, ...(mine !== undefined && { declared: mine }), ...(theirs !== undefined && { held: theirs }),
      ...(change.inputDiff === true && { undeclared: true }),
    };
  });
  throw new ReadOnlyRefusal({ kind, operation: "update", id, source, changes, replaces: outcome.replaces.length > 0 });
}

/** The server's values as a state holds them: flat (plugin route) or under `__outputs` (dynamic route). */
function heldValues(olds: Props): Props {
  const aggregate = olds.__outputs;
  return aggregate !== null && typeof aggregate === "object" && !Array.isArray(aggregate) ? { ...olds, ...(aggregate as Props) } : olds;
}

/** The value at a property path (`a.b`, `a["k"]`, `a[0]`), or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  let current: unknown = root;
  const steps = /([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(steps)) {
    if (current === null || typeof current !== "object") return undefined;
    const key: string | number = match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3] ?? '""') as string));
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

function shown(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

function refusalMessage(details: ReadOnlyRefusalDetails): string {
  const object = `${details.kind}${details.id === undefined ? "" : ` ${details.id}`}`;
  const why = `the provider is read-only (${details.source}), so nothing was sent to the server`;
  if (details.operation === "create") {
    return `${object}: creating it would change the server, and ${why}. In an adoption step every resource carries an ` +
      "`import` option; one without it would be created, not adopted. Turn read-only off to create it.";
  }
  if (details.operation === "delete" || details.changes.length === 0) {
    const verb = details.operation === "delete" ? "delete" : "update";
    return `${object}: ${verb.slice(0, -1)}ing it would change the server, and ${why}. Turn read-only off to ${verb} it.`;
  }
  const differences = details.changes.map((c) => (c.undeclared === true
    ? `${c.path}: the program no longer declares it (the stack holds ${shown(c.held)})`
    : `${c.path}: the program declares ${shown(c.declared)}, the server held ${shown(c.held)} at its last read`));
  return `${object} differs from the program${details.replaces ? " (a replacement)" : ""}: ${differences.join("; ")}. ` +
    `${why[0]?.toUpperCase()}${why.slice(1)}. If the object changed on the server after \`wsbridge adopt\` read it ` +
    "and the stack does not hold it yet, run `wsbridge adopt` again (it rewrites what it wrote); once the stack holds " +
    "it, write the server's value into the program. To make this change instead, turn read-only off.";
}

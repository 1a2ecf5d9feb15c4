// Property paths of a change, as Pulumi spells them (`vcsRepo.branch`, `tagBindings["team"]`,
// `triggerPrefixes[1]`): what the provider plugin's detailed diff reports, so that
// `pulumi preview --diff` names the tag key or the one trigger prefix that changes, not the whole input.
// Each kind decides *whether* a property changed (after its own normalization); this module only says
// *where*, by walking the two values.
import type { PropertyChange } from "./lifecycle";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `parent.key`, or `parent["key"]` when the key is not an identifier (Pulumi's property path syntax). */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  if (parent === "") return IDENTIFIER.test(key) ? key : `[${JSON.stringify(key)}]`;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export interface PathOptions {
  /** Lists are sets: a member added or removed is one change at its own index, order is no change. */
  readonly set?: boolean;
  /** The changes replace the resource. */
  readonly replace?: boolean;
  /** The change is between old and new inputs (see PropertyChange.inputDiff). */
  readonly inputDiff?: boolean;
}

type Plain = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Plain => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The changes from `before` (the server's last report, in the input's shape) to `after` (the declared
 * value) under `path`: into objects and maps by key, into lists by index (or by member, for sets). A
 * value that is not walked (a string, a number, an unknown) is one change at its own path.
 * `undefined` means absent: from absent is an add, to absent a delete.
 */
export function changedPaths(path: string, before: unknown, after: unknown, options: PathOptions = {}): PropertyChange[] {
  const out: PropertyChange[] = [];
  walk(path, before, after, options, out);
  return out;
}

function change(path: string, kind: PropertyChange["kind"], options: PathOptions): PropertyChange {
  return {
    path, kind, replace: options.replace === true, ...(options.inputDiff === true && { inputDiff: true }),
  };
}

function walk(path: string, before: unknown, after: unknown, options: PathOptions, out: PropertyChange[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) { out.push(change(path, "add", options)); return; }
  if (after === undefined) { out.push(change(path, "delete", options)); return; }
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) walk(childPath(path, key), before[key], after[key], options, out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (options.set === true) {
      const had = new Set(before.map((v) => JSON.stringify(v)));
      const has = new Set(after.map((v) => JSON.stringify(v)));
      const added = new Set<number>();
      after.forEach((v, i) => { if (!had.has(JSON.stringify(v))) added.add(i); });
      const removed = new Set<number>();
      before.forEach((v, i) => { if (!has.has(JSON.stringify(v))) removed.add(i); });
      // A member removed and another added at the same index is one path: shown as old → new.
      const indexes = [...new Set([...added, ...removed])].sort((a, b) => a - b);
      for (const i of indexes) {
        const kind = added.has(i) && removed.has(i) ? "update" : added.has(i) ? "add" : "delete";
        out.push(change(childPath(path, i), kind, options));
      }
      return;
    }
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) walk(childPath(path, i), i < before.length ? before[i] : undefined, i < after.length ? after[i] : undefined, options, out);
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push(change(path, "update", options));
}

/**
 * {@link changedPaths} for a property the kind has judged changed: when the walk finds no difference
 * (the kind normalized the two sides, e.g. `""` against null), the whole property is the change.
 */
export function pathsOfChange(path: string, before: unknown, after: unknown, options: PathOptions = {}): PropertyChange[] {
  const paths = changedPaths(path, before, after, options);
  return paths.length > 0 ? paths : [change(path, before === undefined ? "add" : after === undefined ? "delete" : "update", options)];
}

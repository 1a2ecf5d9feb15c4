// What an optional input means when the program leaves it out: one table per kind (beside its inputs,
// in schemas/<kind>.ts), read by check (which fills the fixed values in), by diff/update/read (which
// restore the rest), by `wsbridge adopt` and import (which write only what differs from it), and by
// the resource pages (docs/resources/*.md hold the table as `omissionTable` renders it; a test
// compares them). So a program means one server state, whatever the stack's history.

/** A plain input value a table can hold. */
export type OmittedValue = boolean | string | readonly string[];

export type Omission =
  /** A create without the input gives this value: check fills it in, so a removal restores it. */
  | { readonly means: "value"; readonly value: OmittedValue; readonly basis: string }
  /** Filled in by check from the other inputs (the rule says how; the kind's code computes it). */
  | { readonly means: "derived"; readonly rule: string; readonly basis: string }
  /** The workspace inherits it again (from its project or organization); restored by the update. */
  | { readonly means: "inherited"; readonly rule: string; readonly basis: string }
  /** Nothing: the server holds none, and an update removes what it holds. */
  | { readonly means: "none"; readonly rule: string; readonly basis: string }
  /** The provider's setting of that name (check fills it in). */
  | { readonly means: "setting"; readonly rule: string }
  /** One input of a pair, exactly one of which is declared: leaving this one out means the other form. */
  | { readonly means: "other-form"; readonly rule: string }
  /** No fixed value: left out, it is not managed. No change is shown and none is made. */
  | { readonly means: "unmanaged"; readonly why: string };

/** The optional keys of an inputs type. */
export type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T] & string;

/** A kind's table: every optional input (and, as `parent.key`, every optional key of an object input). */
export type OmissionTable<Keys extends string> = Readonly<Record<Keys, Omission>>;

/** The table's fixed values, each at its place: a top-level input, or a key of an object input. */
function fixedValues(table: Readonly<Record<string, Omission>>): { parent: string; key: string | undefined; value: OmittedValue }[] {
  return Object.entries(table).flatMap(([path, omission]) => {
    if (omission.means !== "value") return [];
    const [parent, key] = path.split(".") as [string, string | undefined];
    return [{ parent, key, value: omission.value }];
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The inputs with the fixed values of `table` filled in where `inputs` has none (nested keys too). */
export function withFixedValues(table: Readonly<Record<string, Omission>>, inputs: Record<string, unknown>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...inputs };
  for (const { parent, key, value } of fixedValues(table)) {
    if (key === undefined) {
      if (filled[parent] === undefined) filled[parent] = copy(value);
      continue;
    }
    // A nested key is filled only inside an object the program declares (not an unknown or a wrong type).
    const object = filled[parent];
    if (isObject(object) && object[key] === undefined) filled[parent] = { ...object, [key]: copy(value) };
  }
  return filled;
}

/** `inputs` without the values `table` would fill in anyway (what adopt and import write). */
export function withoutFixedValues(table: Readonly<Record<string, Omission>>, inputs: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...inputs };
  for (const { parent, key, value } of fixedValues(table)) {
    if (key === undefined) {
      if (kept[parent] !== undefined && same(kept[parent], value)) delete kept[parent];
      continue;
    }
    const object = kept[parent];
    if (!isObject(object)) continue;
    const rest = { ...object };
    if (rest[key] !== undefined && same(rest[key], value)) delete rest[key];
    kept[parent] = rest;
  }
  return kept;
}

function copy(value: OmittedValue): unknown {
  return Array.isArray(value) ? [...(value as readonly string[])] : value;
}

function same(a: unknown, b: OmittedValue): boolean {
  if (Array.isArray(b)) return Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

/** What the table says about one input, as the resource page's table cell says it. */
export function omissionText(omission: Omission): string {
  switch (omission.means) {
    case "value": return `\`${JSON.stringify(omission.value)}\``;
    case "derived": return omission.rule;
    case "inherited": return `inherited: ${omission.rule}`;
    case "none": return `none: ${omission.rule}`;
    case "setting": return omission.rule;
    case "other-form": return omission.rule;
    case "unmanaged": return "not managed";
  }
}

function basisText(omission: Omission): string {
  switch (omission.means) {
    case "value": case "derived": case "inherited": case "none": return omission.basis;
    case "setting": return "filled in by check";
    case "other-form": return "exactly one form is declared";
    case "unmanaged": return omission.why;
  }
}

/**
 * The resource page's table: each optional input, what leaving it out means, and why. The page holds
 * it between `<!-- omitted-inputs -->` markers; test/unit/omission-docs.test.ts compares them.
 */
export function omissionTable(table: Readonly<Record<string, Omission>>): string {
  const escape = (text: string): string => text.replace(/\|/g, "\\|");
  if (Object.keys(table).length === 0) return "Every input is required: there is no optional input.";
  const rows = Object.entries(table).map(([path, omission]) => `| \`${path}\` | ${escape(omissionText(omission))} | ${escape(basisText(omission))} |`);
  return ["| Input | Left out of the program | Why |", "|---|---|---|", ...rows].join("\n");
}

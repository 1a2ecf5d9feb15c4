// The program as Python with the plugin's Python SDK (`pulumi_wsbridge`). Property names are the SDK's
// (snake_case), taken with the object types from the package schema, the one source of the SDKs, so the
// program type-checks against the SDK generated from the same schema; a map's keys (tags) stay as found.
import { isCommentedLiteral, isRef, referencedResources, type AdoptionPlan, type InputValue, type PlannedResource } from "../model";
import { variableNames } from "../names";
import type { PackageSchema, SchemaProperty } from "./go";
import { batchHeaderLines, headerLines, typeToken } from "./header";

/** Python's keywords and soft keywords, and the names the program's files bind. */
const RESERVED = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
  "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
  "return", "try", "while", "with", "yield", "match", "case", "type", "pulumi", "wsbridge", "adopted", "declare",
]);

const IMPORTS = ["import pulumi", "import pulumi_wsbridge as wsbridge", ""];

export function pythonProgram(plan: AdoptionPlan, selection: string, schema: PackageSchema): string {
  const out = headerLines(plan, selection).map((line) => `# ${line}`);
  out.push(...IMPORTS, "import adopted", "", ...declarations(plan, schema, ""), "",
    "# What later runs of `wsbridge adopt` add (adopted/__init__.py).", "adopted.declare()");
  return `${out.join("\n")}\n`;
}

/** The module of a later run's batch (adopted/batch_<n>.py): one function, which adopted/__init__.py calls. */
export function pythonBatch(plan: AdoptionPlan, selection: string, schema: PackageSchema, batch: number): string {
  const out = batchHeaderLines(plan, selection, batch).map((line) => `# ${line}`);
  out.push(...IMPORTS, "", "def declare() -> None:", `    """What batch ${batch} of \`wsbridge adopt\` added."""`);
  out.push(...declarations(plan, schema, "    "));
  return `${out.join("\n")}\n`;
}

/** The module of a later run's batch, as the index imports it. */
export function pythonBatchModule(batch: number): string {
  return `batch_${batch}`;
}

/**
 * adopted/__init__.py, which adopt owns: `declare` runs each batch's function, in order. Functions, not
 * module bodies: a process that runs the program twice (the Automation API) imports a module once.
 */
export function pythonBatchIndex(batches: readonly number[]): string {
  const out = [
    '"""The objects later runs of `wsbridge adopt` added, one module per run (adopted/batch_<n>.py); __main__.py',
    "calls `declare`. Adopt rewrites this file whenever it adds a batch: keep your changes in the batches, not here.",
    '"""',
    "",
    ...batches.map((n) => `from . import ${pythonBatchModule(n)}`),
    ...(batches.length > 0 ? [""] : []),
    "",
    "def declare() -> None:",
    '    """Declares what later runs of `wsbridge adopt` added."""',
    ...(batches.length === 0 ? ["    return None"] : batches.map((n) => `    ${pythonBatchModule(n)}.declare()`)),
  ];
  return `${out.join("\n")}\n`;
}

/** `autoApplyRunTrigger` → `auto_apply_run_trigger`: the name Pulumi's Python SDK generator gives a property. */
export function pythonName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

/** The statements declaring the plan's resources, each line after `indent`. */
function declarations(plan: AdoptionPlan, schema: PackageSchema, indent: string): string[] {
  const variables = pythonVariables(plan);
  return plan.resources.flatMap((resource) => resourceLines(resource, schema, variables).map((line) => `${indent}${line}`));
}

/**
 * snake_case variables for the referenced resources, as Python names them: from the camel-case ones
 * (a digit or a keyword avoided), numbered where two would meet (`a-b-c` and `a-bc` are both `a_bc`).
 */
function pythonVariables(plan: AdoptionPlan): Map<string, string> {
  const camel = [...variableNames([...referencedResources(plan.resources)], RESERVED, "ws")].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
  const used = new Set(RESERVED);
  const out = new Map<string, string>();
  for (const [name, variable] of camel) {
    const base = pythonName(variable);
    let snake = RESERVED.has(base) ? `${base}_resource` : base;
    for (let n = 2; used.has(snake); n++) snake = `${base}_${n}`;
    used.add(snake);
    out.set(name, snake);
  }
  return out;
}

function resourceLines(resource: PlannedResource, schema: PackageSchema, variables: ReadonlyMap<string, string>): string[] {
  const properties = schema.resources[typeToken(resource.kind)]?.inputProperties ?? {};
  const variable = variables.get(resource.name);
  const out = [`${variable === undefined ? "" : `${variable} = `}wsbridge.${resource.kind}(`, `    ${JSON.stringify(resource.name)},`];
  for (const [name, value] of Object.entries(resource.inputs)) {
    out.push(...argument(pythonName(name), value, properties[name] ?? {}, schema, variables, 1, "="));
  }
  out.push(`    opts=pulumi.ResourceOptions(import_=${JSON.stringify(resource.importId)}, protect=True),`, ")");
  return out;
}

/** `key=value,` (a keyword argument) or `"key": value,` (a dict entry), with the comment a literal id carries. */
export function argument(
  key: string, value: InputValue, type: SchemaProperty, schema: PackageSchema, variables: ReadonlyMap<string, string>, depth: number, form: "=" | ":",
): string[] {
  const pad = "    ".repeat(depth);
  const label = form === "=" ? `${key}=` : `${JSON.stringify(key)}: `;
  const [first = "", ...rest] = expression(value, type, schema, variables, depth);
  const comment = isCommentedLiteral(value) ? [`${pad}# ${value.comment}`] : [];
  const lines = [`${pad}${label}${first}`, ...rest];
  lines[lines.length - 1] += ",";
  return [...comment, ...lines];
}

/** The Python expression of a value of that schema type; a multi-line one as its lines (the first unindented). */
function expression(value: InputValue, type: SchemaProperty, schema: PackageSchema, variables: ReadonlyMap<string, string>, depth: number): string[] {
  const pad = "    ".repeat(depth);
  if (isRef(value)) return [`${variables.get(value.resource) ?? value.resource}.id`];
  if (isCommentedLiteral(value)) return [JSON.stringify(value.value)];
  if (type.$ref !== undefined) {
    // An object of the schema: a dict with the SDK's keys (the `…ArgsDict` the SDK types it with).
    const object = schema.types[type.$ref.replace(/^#\/types\//, "")];
    const entries = Object.entries(value as Record<string, InputValue>)
      .flatMap(([k, v]) => argument(pythonName(k), v, object?.properties[k] ?? {}, schema, variables, depth + 1, ":"));
    return entries.length === 0 ? ["{}"] : ["{", ...entries, `${pad}}`];
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return ["[]"];
    const items = (value as readonly InputValue[]).flatMap((item) => {
      const comment = isCommentedLiteral(item) ? [`${pad}    # ${item.comment}`] : [];
      return [...comment, `${pad}    ${expression(item, type.items ?? {}, schema, variables, depth + 1).join("\n")},`];
    });
    return ["[", ...items, `${pad}]`];
  }
  if (typeof value === "object" && value !== null) {
    // A map (tags): its keys as found.
    const entries = Object.entries(value as Record<string, InputValue>).map(([k, v]) => `${pad}    ${JSON.stringify(k)}: ${atom(v)},`);
    return entries.length === 0 ? ["{}"] : ["{", ...entries, `${pad}}`];
  }
  return [atom(value)];
}

/** A Python literal of a plain value. */
export function atom(value: InputValue): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  return JSON.stringify(value);
}

// The program as TypeScript with the plugin's Node.js SDK (`@pulumi-wsbridge/wsbridge`).
import { isCommentedLiteral, isRef, type AdoptionPlan, type InputValue } from "../model";
import { variableNames } from "../names";
import { batchHeaderLines, headerLines } from "./header";

/** Words a TypeScript variable cannot be (reserved words, and the names this file imports). */
const RESERVED = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export",
  "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
  "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "as", "implements", "interface",
  "let", "package", "private", "protected", "public", "static", "yield", "await", "async", "of", "type", "pulumi", "wsbridge",
]);

export function typescriptProgram(plan: AdoptionPlan, selection: string): string {
  const out = headerLines(plan, selection).map((line) => `// ${line}`);
  out.push('import * as wsbridge from "@pulumi-wsbridge/wsbridge";', "// What later runs of `wsbridge adopt` add (adopted/index.ts lists them).", 'import "./adopted";', "");
  return `${[...out, ...declarations(plan)].join("\n")}\n`;
}

/** A later run's batch: adopted/<batch>.ts, a module of its own that index.ts runs through adopted/index.ts. */
export function typescriptBatch(plan: AdoptionPlan, selection: string, batch: number): string {
  const out = batchHeaderLines(plan, selection, batch).map((line) => `// ${line}`);
  out.push('import * as wsbridge from "@pulumi-wsbridge/wsbridge";', "");
  return `${[...out, ...declarations(plan)].join("\n")}\n`;
}

/** adopted/index.ts, which adopt owns: it runs each batch's module, in order. */
export function typescriptBatchIndex(batches: readonly number[]): string {
  const out = [
    "// The objects later runs of `wsbridge adopt` added, one module per run (adopted/<n>.ts); index.ts runs",
    "// this file. Adopt rewrites it whenever it adds a batch: keep your changes in the batches, not here.",
  ];
  if (batches.length === 0) out.push("export {};");
  else out.push(...batches.map((n) => `import "./${n}";`));
  return `${out.join("\n")}\n`;
}

function declarations(plan: AdoptionPlan): string[] {
  const variables = variableNames(plan.resources.filter((r) => r.kind === "Workspace").map((r) => r.name), RESERVED, "ws");
  const out: string[] = [];
  for (const resource of plan.resources) {
    const variable = variables.get(resource.name);
    const head = variable === undefined ? "new" : `const ${variable} = new`;
    out.push(`${head} wsbridge.${resource.kind}(${JSON.stringify(resource.name)}, {`);
    for (const [name, value] of Object.entries(resource.inputs)) out.push(...property(name, value, 1, variables));
    out.push(`}, { import: ${JSON.stringify(resource.importId)}, protect: true });`);
  }
  return out;
}

export function property(name: string, value: InputValue, depth: number, variables: ReadonlyMap<string, string>): string[] {
  const pad = "    ".repeat(depth);
  const label = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
  if (isCommentedLiteral(value)) return [`${pad}// ${value.comment}`, `${pad}${label}: ${JSON.stringify(value.value)},`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}${label}: [],`];
    return [`${pad}${label}: [`, ...value.flatMap((item: InputValue) => element(item, depth + 1, variables)), `${pad}],`];
  }
  if (isObject(value)) {
    if (Object.keys(value).length === 0) return [`${pad}${label}: {},`];
    return [`${pad}${label}: {`, ...Object.entries(value).flatMap(([k, v]) => property(k, v, depth + 1, variables)), `${pad}},`];
  }
  return [`${pad}${label}: ${atom(value, variables)},`];
}

function element(value: InputValue, depth: number, variables: ReadonlyMap<string, string>): string[] {
  const pad = "    ".repeat(depth);
  if (isCommentedLiteral(value)) return [`${pad}// ${value.comment}`, `${pad}${JSON.stringify(value.value)},`];
  return [`${pad}${atom(value, variables)},`];
}

function isObject(value: InputValue): value is { readonly [key: string]: InputValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isRef(value) && !isCommentedLiteral(value);
}

function atom(value: InputValue, variables: ReadonlyMap<string, string>): string {
  if (isRef(value)) return `${variables.get(value.resource) ?? value.resource}.id`;
  return JSON.stringify(value);
}

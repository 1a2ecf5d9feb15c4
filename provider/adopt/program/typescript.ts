// The program as TypeScript with the plugin's Node.js SDK (`@pulumi-wsbridge/wsbridge`).
import { isCommentedLiteral, isRef, type AdoptionPlan, type InputValue } from "../model";
import { variableNames } from "../names";
import { headerLines } from "./header";

/** Words a TypeScript variable cannot be (reserved words, and the names this file imports). */
const RESERVED = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export",
  "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
  "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "as", "implements", "interface",
  "let", "package", "private", "protected", "public", "static", "yield", "await", "async", "of", "type", "pulumi", "wsbridge",
]);

export function typescriptProgram(plan: AdoptionPlan, selection: string): string {
  const variables = variableNames(plan.resources.filter((r) => r.kind === "Workspace").map((r) => r.name), RESERVED, "ws");
  const out = headerLines(plan, selection).map((line) => `// ${line}`);
  out.push('import * as wsbridge from "@pulumi-wsbridge/wsbridge";', "");
  for (const resource of plan.resources) {
    const variable = variables.get(resource.name);
    const head = variable === undefined ? "new" : `const ${variable} = new`;
    out.push(`${head} wsbridge.${resource.kind}(${JSON.stringify(resource.name)}, {`);
    for (const [name, value] of Object.entries(resource.inputs)) out.push(...property(name, value, 1, variables));
    out.push(`}, { import: ${JSON.stringify(resource.importId)}, protect: true });`);
  }
  return `${out.join("\n")}\n`;
}

function property(name: string, value: InputValue, depth: number, variables: ReadonlyMap<string, string>): string[] {
  const pad = "    ".repeat(depth);
  const label = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
  if (isCommentedLiteral(value)) return [`${pad}// ${value.comment}`, `${pad}${label}: ${JSON.stringify(value.value)},`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}${label}: [],`];
    return [`${pad}${label}: [`, ...value.flatMap((item: InputValue) => element(item, depth + 1, variables)), `${pad}],`];
  }
  if (isObject(value)) {
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

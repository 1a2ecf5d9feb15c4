// The program as Pulumi YAML: runs with the plugin and no SDK, and `pulumi convert --from yaml
// --language <typescript|python|go|csharp|java>` turns it into any language.
import { isCommentedLiteral, isRef, type AdoptionPlan, type InputValue, type PlannedResource } from "../model";
import { READ_ONLY_CONFIG, headerLines, typeToken } from "./header";

export function yamlProgram(plan: AdoptionPlan, projectName: string, selection: string): string {
  const out: string[] = headerLines(plan, selection).map((line) => `# ${line}`);
  out.push(`name: ${scalar(projectName)}`, "runtime: yaml", `description: ${scalar(`The estate of organization ${plan.organization}, adopted`)}`, ...READ_ONLY_CONFIG);
  out.push(plan.resources.length === 0 ? "resources: {}" : "resources:");
  out.push(...yamlEntryLines(plan.resources));
  return `${out.join("\n")}\n`;
}

/** The resources as entries of `resources:`, two spaces in: the first run's program, or a later run's block. */
export function yamlEntryLines(resources: readonly PlannedResource[]): string[] {
  return resources.flatMap(resourceLines);
}

function resourceLines(resource: PlannedResource): string[] {
  const lines = [`  ${key(resource.name)}:`, `    type: ${typeToken(resource.kind)}`, "    properties:"];
  for (const [name, value] of Object.entries(resource.inputs)) lines.push(...entry(name, value, 6));
  lines.push("    options:", `      import: ${scalar(resource.importId)}`, "      protect: true");
  return lines;
}

function entry(name: string, value: InputValue, indent: number): string[] {
  const pad = " ".repeat(indent);
  if (isCommentedLiteral(value)) return [`${pad}# ${value.comment}`, `${pad}${key(name)}: ${scalar(value.value)}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}${key(name)}: []`];
    return [`${pad}${key(name)}:`, ...value.flatMap((item: InputValue) => item_(item, indent + 2))];
  }
  if (isMap(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [`${pad}${key(name)}: {}`];
    return [`${pad}${key(name)}:`, ...entries.flatMap(([k, v]) => entry(k, v, indent + 2))];
  }
  return [`${pad}${key(name)}: ${atom(value)}`];
}

function item_(value: InputValue, indent: number): string[] {
  const pad = " ".repeat(indent);
  if (isCommentedLiteral(value)) return [`${pad}# ${value.comment}`, `${pad}- ${scalar(value.value)}`];
  if (isMap(value)) {
    const [first, ...rest] = Object.entries(value).flatMap(([k, v]) => entry(k, v, indent + 2));
    return [`${pad}- ${(first ?? "{}").trimStart()}`, ...rest];
  }
  return [`${pad}- ${atom(value)}`];
}

function isMap(value: InputValue): value is { readonly [key: string]: InputValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isRef(value) && !isCommentedLiteral(value);
}

function atom(value: InputValue): string {
  if (isRef(value)) return `\${${value.resource}.id}`;
  if (typeof value === "string") return scalar(value);
  return JSON.stringify(value);
}

/** YAML's words for true, false and null, which a plain string must not look like. */
const KEYWORDS = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

/**
 * A string as YAML: plain when it cannot be read as anything else, else double-quoted (JSON's escapes
 * are YAML's). Pulumi YAML reads `${…}` in any string as an interpolation; `$${` is a literal `${`.
 */
function scalar(text: string): string {
  const escaped = text.replace(/\$\{/g, () => "$${");
  if (/^[A-Za-z_][A-Za-z0-9_./-]*$/.test(escaped) && !KEYWORDS.test(escaped)) return escaped;
  return JSON.stringify(escaped);
}

function key(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(text) && !KEYWORDS.test(text) ? text : JSON.stringify(text);
}

// The program as Go with the plugin's Go SDK. Go is typed: each input is wrapped by its type in the
// package schema (schema/schema.json), the one source of the SDKs' types, so the program compiles
// against the SDK generated from the same schema.
import { isCommentedLiteral, isRef, referencedResources, type AdoptionPlan, type InputValue, type PlannedResource } from "../model";
import { variableNames } from "../names";
import { literalBody, type GoEntry } from "./go-layout";
import { batchHeaderLines, headerLines, typeToken } from "./header";

/** The part of the package schema the Go writer reads: each property's type. */
export interface SchemaProperty {
  readonly type?: string;
  readonly $ref?: string;
  readonly items?: SchemaProperty;
  readonly additionalProperties?: SchemaProperty;
}
export interface PackageSchema {
  readonly resources: Readonly<Record<string, { readonly inputProperties: Readonly<Record<string, SchemaProperty>> }>>;
  readonly types: Readonly<Record<string, { readonly properties: Readonly<Record<string, SchemaProperty>> }>>;
}

export const GO_SDK_MODULE = "github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go";

const RESERVED = new Set([
  "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if",
  "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var",
  "ctx", "err", "pulumi", "wsbridge", "main", "program",
]);

const IMPORTS = ["import (", '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"', "", `\t"${GO_SDK_MODULE}/wsbridge"`, ")", ""];

export function goProgram(plan: AdoptionPlan, selection: string, schema: PackageSchema): string {
  const out = headerLines(plan, selection).map((line) => `// ${line}`);
  out.push("package main", "", ...IMPORTS);
  out.push(
    "func main() {", "\tpulumi.Run(func(ctx *pulumi.Context) error {", "\t\tif err := Program(ctx); err != nil {", "\t\t\treturn err", "\t\t}",
    "\t\t// What later runs of wsbridge adopt add (adopted.go).", "\t\treturn Adopted(ctx)", "\t})", "}", "",
  );
  out.push(`// Program declares every object adopted from organization ${plan.organization}.`, "func Program(ctx *pulumi.Context) error {");
  out.push(...body(plan, schema), "\treturn nil", "}");
  return `${out.join("\n")}\n`;
}

/** The function of a later run's batch (adopted_<batch>.go), which Adopted (adopted.go) calls. */
export function goBatchFunction(batch: number): string {
  return `adoptedBatch${batch}`;
}

/** A later run's batch: adopted_<batch>.go, one function in package main. */
export function goBatch(plan: AdoptionPlan, selection: string, schema: PackageSchema, batch: number): string {
  const out = batchHeaderLines(plan, selection, batch).map((line) => `// ${line}`);
  out.push("package main", "", ...IMPORTS);
  out.push(`// ${goBatchFunction(batch)} declares what batch ${batch} of wsbridge adopt added.`, `func ${goBatchFunction(batch)}(ctx *pulumi.Context) error {`);
  out.push(...body(plan, schema), "\treturn nil", "}");
  return `${out.join("\n")}\n`;
}

/** adopted.go, which adopt owns: Adopted runs each batch's function, in order. */
export function goBatchIndex(batches: readonly number[]): string {
  const out = [
    "// The objects later runs of `wsbridge adopt` added, one function per run (adopted_<n>.go); main.go runs",
    "// Adopted. Adopt rewrites this file whenever it adds a batch: keep your changes in the batches, not here.",
    "package main", "", 'import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"', "",
    "// Adopted declares what later runs of wsbridge adopt added.", "func Adopted(ctx *pulumi.Context) error {",
  ];
  if (batches.length === 0) {
    out.push("\treturn nil", "}");
  } else {
    out.push(
      `\tfor _, batch := range []func(*pulumi.Context) error{${batches.map(goBatchFunction).join(", ")}} {`,
      "\t\tif err := batch(ctx); err != nil {", "\t\t\treturn err", "\t\t}", "\t}", "\treturn nil", "}",
    );
  }
  return `${out.join("\n")}\n`;
}

/** The statements declaring the plan's resources, one tab in. */
function body(plan: AdoptionPlan, schema: PackageSchema): string[] {
  const variables = variableNames([...referencedResources(plan.resources)], RESERVED, "ws");
  return plan.resources.flatMap((resource) => resourceLines(resource, schema, variables));
}

function resourceLines(resource: PlannedResource, schema: PackageSchema, variables: ReadonlyMap<string, string>): string[] {
  const properties = schema.resources[typeToken(resource.kind)]?.inputProperties ?? {};
  const fields = literalBody(Object.entries(resource.inputs).map(([name, value]) =>
    field(name, value, properties[name] ?? {}, schema, variables, 2)), 2);
  const options = `pulumi.Import(pulumi.ID(${JSON.stringify(resource.importId)})), pulumi.Protect(true)`;
  const call = `wsbridge.New${resource.kind}(ctx, ${JSON.stringify(resource.name)}, &wsbridge.${resource.kind}Args{`;
  const variable = variables.get(resource.name);
  if (variable === undefined) {
    return [`\tif _, err := ${call}`, ...fields, `\t}, ${options}); err != nil {`, "\t\treturn err", "\t}"];
  }
  return [`\t${variable}, err := ${call}`, ...fields, `\t}, ${options})`, "\tif err != nil {", "\t\treturn err", "\t}"];
}

/** A struct field: its Go name, the value's expression, and the comment a literal id carries. */
export function field(
  name: string, value: InputValue, type: SchemaProperty, schema: PackageSchema, variables: ReadonlyMap<string, string>, depth: number,
): GoEntry {
  const key = name.charAt(0).toUpperCase() + name.slice(1);
  const lines = expression(value, type, schema, variables, depth);
  return isCommentedLiteral(value) ? { comment: value.comment, key, value: lines } : { key, value: lines };
}

/** The Go expression of a value of that schema type; a multi-line one as its lines (the first unindented). */
function expression(value: InputValue, type: SchemaProperty, schema: PackageSchema, variables: ReadonlyMap<string, string>, depth: number): string[] {
  const pad = "\t".repeat(depth);
  if (isRef(value)) return [`${variables.get(value.resource) ?? value.resource}.ID()`];
  if (isCommentedLiteral(value)) return [`pulumi.String(${JSON.stringify(value.value)})`];
  if (type.$ref !== undefined) {
    const token = type.$ref.replace(/^#\/types\//, "");
    const object = schema.types[token];
    const goType = token.split(":").pop() ?? token;
    const entries = Object.entries(value as Record<string, InputValue>)
      .map(([k, v]) => field(k, v, object?.properties[k] ?? {}, schema, variables, depth + 1));
    return [`&wsbridge.${goType}Args{`, ...literalBody(entries, depth + 1), `${pad}}`];
  }
  if (type.type === "array") {
    const entries = (value as readonly InputValue[]).map((item): GoEntry => {
      const itemValue = expression(item, type.items ?? {}, schema, variables, depth + 1);
      return isCommentedLiteral(item) ? { comment: item.comment, value: itemValue } : { value: itemValue };
    });
    return [`${arrayType(type.items ?? {})}{`, ...literalBody(entries, depth + 1), `${pad}}`];
  }
  if (type.type === "object") {
    const entries = Object.entries(value as Record<string, InputValue>).sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]): GoEntry => ({ key: JSON.stringify(k), value: [`pulumi.String(${JSON.stringify(v)})`] }));
    return ["pulumi.StringMap{", ...literalBody(entries, depth + 1), `${pad}}`];
  }
  if (type.type === "boolean") return [`pulumi.Bool(${JSON.stringify(value)})`];
  if (type.type === "integer") return [`pulumi.Int(${JSON.stringify(value)})`];
  if (type.type === "number") return [`pulumi.Float64(${JSON.stringify(value)})`];
  return [`pulumi.String(${JSON.stringify(value)})`];
}

export function arrayType(items: SchemaProperty): string {
  if (items.type === "boolean") return "pulumi.BoolArray";
  if (items.type === "integer") return "pulumi.IntArray";
  if (items.type === "number") return "pulumi.Float64Array";
  return "pulumi.StringArray";
}

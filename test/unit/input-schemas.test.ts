// The public Args types, the runtime checks and the JSON Schemas come from one source per kind:
// the documented inputs interface in provider/schemas/. The interface and its zod schema are tied
// at compile time (WorkspaceInputsAgree); this test ties the zod rules to schema/*.json and the
// committed JSON Schemas to the interfaces.
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { generateSchemas, KINDS } from "../../scripts/generate-schema";
import { inputSchemasByKind } from "../support/input-schemas";

const zodSchemas = inputSchemasByKind;

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  items?: JsonSchema;
};

/** The rules both generators express, without prose (descriptions) or bookkeeping ($schema, $id). */
function rules(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const key of ["type", "minLength", "maxLength", "minimum", "maximum"] as const) {
    if (schema[key] !== undefined) (out as Record<string, unknown>)[key] = schema[key];
  }
  // Sets: their order carries no meaning.
  if (schema.required !== undefined) out.required = [...schema.required].sort();
  if (schema.enum !== undefined) out.enum = [...schema.enum].map(String).sort();
  // A RegExp's source escapes "/" (zod writes `\/`); both spell the same pattern.
  if (schema.pattern !== undefined) out.pattern = schema.pattern.replace(/\\\//g, "/");
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = typeof schema.additionalProperties === "boolean" ? schema.additionalProperties : rules(schema.additionalProperties);
  }
  if (schema.items) out.items = rules(schema.items);
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, rules(v)]));
  }
  return out;
}

function committedSchema(kind: string): JsonSchema {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "../..", "schema", `${kind}.json`), "utf8")) as JsonSchema;
}

test("every resource kind has a zod schema and a committed JSON Schema", () => {
  expect(KINDS.map((k) => k.kind).sort()).toEqual(Object.keys(zodSchemas).sort());
});

// Generating compiles the schema sources once with TypeScript (seconds): share it between the kinds.
let generatedOnce: Map<string, string> | undefined;

test.each(KINDS.map((k) => k.kind))("the committed schema/%s.json is what its inputs interface generates", (kind) => {
  generatedOnce ??= generateSchemas();
  const generated = generatedOnce.get(`schema/${kind}.json`);
  expect(generated).toBeDefined();
  expect(fs.readFileSync(path.join(__dirname, "../..", "schema", `${kind}.json`), "utf8")).toBe(generated);
});

test.each(KINDS.map((k) => k.kind))("the zod schema of %s states the same rules as its JSON Schema", (kind) => {
  const zodSchema = zodSchemas[kind];
  if (!zodSchema) throw new Error(`no zod schema for ${kind}`);
  const fromZod = z.toJSONSchema(zodSchema, { io: "input" }) as JsonSchema;
  expect(rules(fromZod)).toEqual(rules(committedSchema(kind)));
});

// Every example's resource inputs are valid for their kind's schema/<Kind>.json, the schemas published
// for editors and other tools. The examples run in-process under Pulumi's mocks (no CLI), so the inputs
// checked are exactly what each program registers, Outputs resolved; their one lookup reads an
// in-process emulator. The repository has no JSON Schema validator dependency (and none is installed
// transitively), so a minimal one for the keywords the schemas use is below; the test fails if a
// schema starts using another keyword, and a negative case per keyword shows the validator rejects.
// Imports `pulumi-wsbridge` from dist/: run `npx tsc -p tsconfig.json` first.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { KINDS } from "../../scripts/generate-schema";
import { inputSchemasByKind } from "../support/input-schemas";

/** The dynamic resources' type tokens: `pulumi-nodejs:dynamic/wsbridge:<Kind>`. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/wsbridge:";

const runtimeChecks = inputSchemasByKind;
const SHARED = "shared-dns";

// ---- a minimal JSON Schema (draft-07) validator ------------------------------------------------

type Schema = { [keyword: string]: unknown };

/** Keywords that constrain values; everything else the schema may hold must be an annotation. */
const ASSERTIONS = new Set([
  "type", "properties", "required", "additionalProperties", "propertyNames", "items",
  "pattern", "minLength", "maxLength", "enum", "const", "minimum", "maximum", "allOf",
]);
const ANNOTATIONS = new Set(["$schema", "$id", "title", "description"]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

/** Returns one message per violation, each with the JSON pointer of the offending value. */
function validate(schema: Schema, value: unknown, at = ""): string[] {
  const errors: string[] = [];
  const fail = (message: string) => errors.push(`${at || "/"}: ${message}`);
  const type = schema["type"];
  if (typeof type === "string" && !matchesType(value, type)) {
    fail(`must be of type ${type}, got ${typeOf(value)}`);
    return errors; // the other keywords assume the type
  }
  if (Array.isArray(schema["enum"]) && !schema["enum"].some((v) => v === value)) fail(`must be one of ${JSON.stringify(schema["enum"])}`);
  if ("const" in schema && schema["const"] !== value) fail(`must be ${JSON.stringify(schema["const"])}`);
  if (typeof value === "number") {
    if (typeof schema["minimum"] === "number" && value < schema["minimum"]) fail(`must be at least ${schema["minimum"]}`);
    if (typeof schema["maximum"] === "number" && value > schema["maximum"]) fail(`must be at most ${schema["maximum"]}`);
  }
  if (typeof value === "string") {
    // JSON Schema counts characters as code points, and its patterns are unanchored ECMA-262 regexes.
    const length = [...value].length;
    if (typeof schema["minLength"] === "number" && length < schema["minLength"]) fail(`must be at least ${schema["minLength"]} characters`);
    if (typeof schema["maxLength"] === "number" && length > schema["maxLength"]) fail(`must be at most ${schema["maxLength"]} characters`);
    if (typeof schema["pattern"] === "string" && !new RegExp(schema["pattern"], "u").test(value)) fail(`must match ${schema["pattern"]}`);
  }
  if (Array.isArray(schema["allOf"])) for (const sub of schema["allOf"] as Schema[]) errors.push(...validate(sub, value, at));
  if (Array.isArray(value) && isSchema(schema["items"])) {
    value.forEach((item, i) => errors.push(...validate(schema["items"] as Schema, item, `${at}/${i}`)));
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    const properties = (schema["properties"] ?? {}) as Record<string, Schema>;
    for (const key of (schema["required"] ?? []) as string[]) if (!(key in object)) fail(`must have property "${key}"`);
    for (const [key, item] of Object.entries(object)) {
      const where = `${at}/${key}`;
      if (isSchema(schema["propertyNames"])) {
        errors.push(...validate(schema["propertyNames"], key, where).map((e) => `${e} (property name)`));
      }
      if (Object.prototype.hasOwnProperty.call(properties, key)) errors.push(...validate(properties[key]!, item, where));
      else if (schema["additionalProperties"] === false) errors.push(`${where}: is not an allowed property`);
      else if (isSchema(schema["additionalProperties"])) errors.push(...validate(schema["additionalProperties"], item, where));
    }
  }
  return errors;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every keyword the schema uses, anywhere (to refuse silently ignoring one the validator lacks). */
function keywordsOf(schema: Schema, found = new Set<string>()): Set<string> {
  for (const [keyword, value] of Object.entries(schema)) {
    found.add(keyword);
    if (keyword === "properties") for (const sub of Object.values(value as Record<string, Schema>)) keywordsOf(sub, found);
    else if (keyword === "allOf") for (const sub of value as Schema[]) keywordsOf(sub, found);
    else if (["items", "additionalProperties", "propertyNames"].includes(keyword) && isSchema(value)) keywordsOf(value, found);
  }
  return found;
}

const schemas: Record<string, Schema> = Object.fromEntries(KINDS.map(({ kind }) =>
  [kind, JSON.parse(fs.readFileSync(path.join(__dirname, `../../schema/${kind}.json`), "utf8")) as Schema]));
const schema = schemas["Workspace"] as Schema;

// ---- the examples, run under Pulumi's mocks ------------------------------------------------------

interface Registered {
  example: string;
  kind: string;
  name: string;
  inputs: Record<string, unknown>;
}

let emulator: RunningEmulator;
const registered: Registered[] = [];
/** Which example is being loaded, to label what it registers. */
let currentExample = "";

/** The inputs a user declared: without the class's internal keys (`__provider`, `__owner`) and unset ones. */
function declaredInputs(inputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputs).filter(([key, value]) => !key.startsWith("__") && value !== undefined));
}

/** Resolves once every Output in `outputs` is, i.e. once the resources behind them are registered. */
function settled(outputs: object): Promise<unknown> {
  return new Promise((resolve) => pulumi.output(outputs).apply(resolve));
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, quiet: true });
  // The workspace examples/workspaces looks up: someone else's, so it exists before the program runs.
  const res = await request(`${emulator.url}/api/v2/organizations/${emulator.organization}/workspaces`, {
    method: "POST",
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "workspaces", attributes: { name: SHARED } } }),
  });
  await res.body.dump();
  expect(res.statusCode).toBe(201);

  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        if (args.type.startsWith(TYPE_PREFIX)) {
          const kind = args.type.slice(TYPE_PREFIX.length);
          registered.push({ example: currentExample, kind, name: args.name, inputs: declaredInputs(args.inputs as Record<string, unknown>) });
        }
        // Ids shaped like the server's (`ws-` and letters), so inputs that take a workspace id validate.
        return { id: `ws-mock${args.name.replace(/[^A-Za-z0-9]/g, "")}`, state: args.inputs };
      },
      call: () => ({}),
    },
    // The workspaces example's project name (Pulumi.yaml), so its `new pulumi.Config()` reads the keys below.
    "wsbridge-workspaces",
    "mocks",
    false,
  );
  // The lookup reads these as a stack's config; the examples' own settings are ids of setup objects.
  pulumi.runtime.setAllConfig(
    {
      "wsbridge:address": emulator.url,
      "wsbridge:token": emulator.token,
      "wsbridge:organization": emulator.organization,
      "wsbridge-workspaces:projectId": "prj-Platform1",
      "wsbridge-workspaces:agentPoolId": "apool-PrivateK8s1",
      "wsbridge-workspaces:oauthTokenId": "ot-GitHub1",
      "wsbridge-workspaces:sharedWorkspaceName": SHARED,
    },
    ["wsbridge:token"],
  );

  // Each example's entry point, as `pulumi up` runs it: loading the module runs the program.
  currentExample = "quickstart";
  await settled(await import("../../examples/quickstart/index"));
  currentExample = "workspaces";
  await settled(await import("../../examples/workspaces/index"));
  currentExample = "platform";
  await settled(await import("../../examples/platform/index"));
  currentExample = "ci";
  await settled(await import("../../examples/ci/index"));
});

afterAll(async () => {
  await emulator?.close();
});

test("the examples register the resources they declare, every kind among them", () => {
  expect(registered.map((r) => `${r.example}/${r.kind}/${r.name}`).sort()).toEqual([
    "ci/Workspace/service",
    "ci/WorkspaceTagBindings/service-tags",
    "platform/DataRetentionPolicy/network-retention",
    "platform/ModuleVersionDeprecation/vpc-deprecation",
    "platform/RemoteStateConsumers/network-state-readers",
    "platform/SshKeyAssignment/app-ssh-key",
    "platform/Workspace/app",
    "platform/Workspace/app-staging",
    "platform/Workspace/network",
    "platform/WorkspaceLock/app-staging-freeze",
    "platform/WorkspaceTagBindings/app-staging-tags",
    "platform/WorkspaceTagBindings/app-tags",
    "quickstart/Workspace/networking",
    "workspaces/Workspace/cluster",
    "workspaces/Workspace/network",
    "workspaces/Workspace/sandbox",
  ]);
  expect(new Set(registered.map((r) => r.kind))).toEqual(new Set(KINDS.map((k) => k.kind)));
  // Outputs in inputs were resolved (the description names the network workspace's id).
  const cluster = registered.find((r) => r.name === "cluster");
  expect(cluster?.inputs["description"]).toContain("ws-mocknetwork");
});

test("the validator knows every keyword the schemas use", () => {
  for (const [kind, kindSchema] of Object.entries(schemas)) {
    const unknown = [...keywordsOf(kindSchema)].filter((k) => !ASSERTIONS.has(k) && !ANNOTATIONS.has(k));
    expect({ kind, unknown }).toEqual({ kind, unknown: [] });
  }
});

test("every example's inputs validate against their kind's schema/<Kind>.json", () => {
  expect(registered.length).toBeGreaterThan(0);
  for (const r of registered) {
    const kindSchema = schemas[r.kind];
    if (!kindSchema) throw new Error(`no schema/${r.kind}.json`);
    const resource = `${r.example}/${r.kind}/${r.name}`;
    expect({ resource, errors: validate(kindSchema, r.inputs) }).toEqual({ resource, errors: [] });
  }
});

test("they also pass the provider's runtime check, which adds the rules JSON Schema cannot state", () => {
  for (const r of registered) {
    const check = runtimeChecks[r.kind];
    if (!check) throw new Error(`no runtime check for ${r.kind}`);
    const result = check.safeParse(r.inputs);
    const resource = `${r.example}/${r.kind}/${r.name}`;
    expect({ resource, issues: result.success ? [] : result.error.issues }).toEqual({ resource, issues: [] });
  }
});

// One broken rule per keyword, applied to a valid input, so a validator that accepted anything fails.
const broken: [string, (inputs: Record<string, unknown>) => Record<string, unknown>, string][] = [
  ["type", (i) => ({ ...i, globalRemoteState: "yes" }), "/globalRemoteState: must be of type boolean"],
  ["required", ({ name: _name, ...i }) => i, `/: must have property "name"`],
  ["pattern", (i) => ({ ...i, name: "platform network" }), "/name: must match"],
  ["maxLength", (i) => ({ ...i, name: "n".repeat(261) }), "/name: must be at most 260"],
  ["minLength", (i) => ({ ...i, agentPoolId: "" }), "/agentPoolId: must be at least 1"],
  ["enum", (i) => ({ ...i, executionMode: "cloud" }), "/executionMode: must be one of"],
  ["additionalProperties: false", (i) => ({ ...i, autoApplyEverything: true }), "/autoApplyEverything: is not an allowed property"],
  ["additionalProperties (schema)", (i) => ({ ...i, tagBindings: { env: "prod east" } }), "/tagBindings/env: must match"],
  ["propertyNames with allOf", (i) => ({ ...i, tagBindings: { "hc:owner": "me" } }), "/tagBindings/hc:owner: must match ^(?![Hh][Cc][Pp]?:)"],
  ["items", (i) => ({ ...i, tagNames: ["platform", "not a tag"] }), "/tagNames/1: must match"],
  ["nested required", (i) => ({ ...i, vcsRepo: { oauthTokenId: "ot-x" } }), `/vcsRepo: must have property "identifier"`],
];

test.each(broken)("the validator rejects an input that breaks %s", (_keyword, breakIt, expected) => {
  const valid = registered.find((r) => r.name === "cluster")?.inputs;
  if (!valid) throw new Error("the cluster workspace of examples/workspaces was not registered");
  expect(validate(schema, valid)).toEqual([]);
  const errors = validate(schema, breakIt(valid));
  expect(errors).toEqual([expect.stringContaining(expected)]);
});

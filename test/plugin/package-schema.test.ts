// schema/schema.json, the Pulumi package schema of the provider plugin, is written by
// scripts/generate-package-schema.js from the sources the dynamic package already has (the inputs
// interfaces, the dynamic classes' declared outputs, the lookups, ProviderConfig). These tests check it
// from the other side, without the generator: each resource's inputs are its inputs interface's (through
// the zod schema, tied to the interface at compile time, and the JSON Schema typescript-json-schema writes
// from it); its outputs are the properties a constructed dynamic class exposes; each lookup's inputs are
// its Args' (zod), and its outputs what the lookup returns from an emulator.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  DataRetentionPolicy, ModuleVersionDeprecation, RemoteStateConsumers, SshKeyAssignment, Workspace, WorkspaceLock, WorkspaceTagBindings,
} from "pulumi-wsbridge";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../emulator";
import { resolveSettingsFrom } from "../../provider/runtime/config";
import { LIMIT_NAMES, SETTING_NAMES } from "../../provider/runtime/settings";
import { getModuleVersion, listModuleVersions } from "../../provider/runtime/lookups/module-versions";
import { getWorkspace, getWorkspaceArgsSchema, listWorkspaces, listWorkspacesArgsSchema, type LookupContext } from "../../provider/runtime/lookups/workspaces";
import { getModuleVersionArgsSchema, listModuleVersionsArgsSchema } from "../../provider/schemas/module-version-lookups";
import { generatePackageSchema, PACKAGE_SCHEMA_FILE } from "../../scripts/generate-package-schema";
import { RESERVED_TYPE_NAME_SUFFIXES } from "../../scripts/package-schema/types";
import { inputSchemasByKind } from "../support/input-schemas";

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  secret?: boolean;
}
interface ObjectSpec {
  properties: Record<string, Property>;
  required?: string[];
}
interface Schema {
  name: string;
  version: string;
  publisher: string;
  repository: string;
  homepage: string;
  pluginDownloadURL: string;
  logoUrl: string;
  language: { nodejs: { packageName: string; respectSchemaVersion: boolean; dependencies: Record<string, string> }; go: { importBasePath: string } };
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  resources: Record<string, { inputProperties: Record<string, Property>; requiredInputs?: string[]; properties: Record<string, Property>; required?: string[] }>;
  functions: Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
}

const root = path.join(__dirname, "../..");
const schema = JSON.parse(fs.readFileSync(path.join(root, PACKAGE_SCHEMA_FILE), "utf8")) as Schema;
const packageJson = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string; homepage: string; repository: unknown };
const KINDS = Object.keys(inputSchemasByKind).sort();
const LOOKUPS = ["getModuleVersion", "getWorkspace", "listModuleVersions", "listWorkspaces"];
const sorted = (names: Iterable<string>): string[] => [...names].sort();

function resource(kind: string): Schema["resources"][string] {
  const spec = schema.resources[`wsbridge:index:${kind}`];
  if (spec === undefined) throw new Error(`the schema has no resource ${kind}`);
  return spec;
}

function lookup(name: string): Schema["functions"][string] {
  const spec = schema.functions[`wsbridge:index:${name}`];
  if (spec === undefined) throw new Error(`the schema has no function ${name}`);
  return spec;
}

/** The named type a property refers to (directly, or as an array's items). */
function referenced(property: Property | undefined): ObjectSpec {
  const ref = property?.$ref ?? property?.items?.$ref;
  const spec = ref?.startsWith("#/types/") ? schema.types[ref.slice("#/types/".length)] : undefined;
  if (spec === undefined) throw new Error(`no named type behind ${JSON.stringify(property)}`);
  return spec;
}

/** The property names and required ones a JSON Schema (a committed one, or zod's) states. */
function jsonSchemaNames(jsonSchema: unknown): { names: string[]; required: string[] } {
  const s = jsonSchema as { properties?: Record<string, unknown>; required?: string[] };
  return { names: sorted(Object.keys(s.properties ?? {})), required: sorted(s.required ?? []) };
}

/** Where a value breaks what the schema says of it (type, required, nested types): one line per problem. */
function conformance(value: unknown, spec: ObjectSpec, at: string): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at} is not an object`];
  const record = value as Record<string, unknown>;
  const problems = Object.keys(record).filter((k) => spec.properties[k] === undefined).map((k) => `${at}.${k} is not in the schema`);
  for (const [key, property] of Object.entries(spec.properties)) {
    const v = record[key];
    if (v === null || v === undefined) {
      if (spec.required?.includes(key)) problems.push(`${at}.${key} is required but ${String(v)}`);
      continue;
    }
    problems.push(...valueProblems(v, property, `${at}.${key}`));
  }
  return problems;
}

function valueProblems(value: unknown, property: Property, at: string): string[] {
  if (property.$ref === "pulumi.json#/Any") return [];
  if (property.$ref !== undefined) return conformance(value, referenced(property), at);
  switch (property.type) {
    case "string": case "boolean": return typeof value === property.type ? [] : [`${at} is not a ${property.type}`];
    case "number": return typeof value === "number" ? [] : [`${at} is not a number`];
    case "integer": return Number.isInteger(value) ? [] : [`${at} is not an integer`];
    case "array":
      if (!Array.isArray(value) || property.items === undefined) return [`${at} is not an array`];
      return value.flatMap((v: unknown, i) => valueProblems(v, property.items as Property, `${at}[${i}]`));
    case "object":
      if (typeof value !== "object" || value === null || property.additionalProperties === undefined) return [`${at} is not a map`];
      return Object.entries(value).flatMap(([k, v]) => valueProblems(v, property.additionalProperties as Property, `${at}["${k}"]`));
    default: return [`${at}: the schema gives no type`];
  }
}

test("schema/schema.json is what its sources generate (run `npm run schema` after changing one)", () => {
  expect(fs.readFileSync(path.join(root, PACKAGE_SCHEMA_FILE), "utf8")).toBe(generatePackageSchema());
});

test("the package is wsbridge at package.json's version, and its Node.js SDK takes that version too", () => {
  expect(schema.name).toBe("wsbridge");
  expect(schema.version).toBe(packageJson.version);
  expect(schema.language.nodejs).toMatchObject({ packageName: "@pulumi-wsbridge/wsbridge", respectSchemaVersion: true });
  expect(Object.keys(schema.language.nodejs.dependencies)).toEqual(["@pulumi/pulumi"]);
});

test("it names where the package lives and where the engine downloads the plugin, all from package.json's repository, and a logo that exists", () => {
  expect(packageJson.repository).toEqual({ type: "git", url: "git+https://github.com/pulumi-wsbridge/pulumi-wsbridge.git" });
  expect({ repository: schema.repository, homepage: schema.homepage, pluginDownloadURL: schema.pluginDownloadURL, logoUrl: schema.logoUrl, publisher: schema.publisher }).toEqual({
    repository: "https://github.com/pulumi-wsbridge/pulumi-wsbridge",
    homepage: packageJson.homepage,
    pluginDownloadURL: "github://api.github.com/pulumi-wsbridge/pulumi-wsbridge",
    logoUrl: "https://raw.githubusercontent.com/pulumi-wsbridge/pulumi-wsbridge/main/docs/logo.png",
    publisher: "pulumi-wsbridge",
  });
  // The Go module path is of the same repository (tagged sdk/go/vX.Y.Z by the release).
  expect(schema.language.go.importBasePath.startsWith("github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/")).toBe(true);
  expect(fs.readFileSync(path.join(root, "docs", "logo.png")).subarray(1, 4).toString()).toBe("PNG");
});

test("it declares the seven resource kinds and the four lookups, nothing else", () => {
  expect(sorted(Object.keys(schema.resources))).toEqual(KINDS.map((k) => `wsbridge:index:${k}`));
  expect(sorted(Object.keys(schema.functions))).toEqual(LOOKUPS.map((f) => `wsbridge:index:${f}`));
});

test("the provider's settings are those config.ts reads, in config and as provider inputs, with only the token secret", () => {
  const asked: string[] = [];
  resolveSettingsFrom({ get: (key) => void asked.push(key.replace(/^wsbridge:/, "")) }, {});
  const read = sorted(asked);
  expect(read).toEqual(sorted(SETTING_NAMES));
  expect(sorted(Object.keys(schema.config.variables))).toEqual(read);
  expect(schema.provider.inputProperties).toEqual(schema.config.variables);
  const secret = Object.entries(schema.config.variables).filter(([, p]) => p.secret === true).map(([k]) => k);
  expect(secret).toEqual(["token"]);
  for (const key of LIMIT_NAMES) expect(schema.config.variables[key]?.type).toBe("integer");
});

test("no type name ends with a suffix an SDK generator appends, and every required name is a property", () => {
  const names = Object.keys(schema.types).map((token) => token.replace(/^wsbridge:index:/, ""));
  expect(names.filter((name) => RESERVED_TYPE_NAME_SUFFIXES.some((suffix) => name.endsWith(suffix)))).toEqual([]);
  const objects: [string, ObjectSpec][] = [
    ...Object.entries(schema.types),
    ...Object.entries(schema.resources).flatMap(([k, r]): [string, ObjectSpec][] => [
      [`${k} inputs`, { properties: r.inputProperties, ...(r.requiredInputs && { required: r.requiredInputs }) }],
      [`${k} outputs`, { properties: r.properties, ...(r.required && { required: r.required }) }],
    ]),
    ...Object.entries(schema.functions).flatMap(([k, f]): [string, ObjectSpec][] => [[`${k} inputs`, f.inputs], [`${k} outputs`, f.outputs]]),
  ];
  const strays = objects.flatMap(([where, o]) => (o.required ?? []).filter((r) => o.properties[r] === undefined).map((r) => `${where}: ${r}`));
  expect(strays).toEqual([]);
});

test.each(KINDS)("the inputs of %s are its inputs interface's, with the same required ones", (kind) => {
  const zodSchema = inputSchemasByKind[kind];
  if (zodSchema === undefined) throw new Error(`no zod schema for ${kind}`);
  const fromZod = jsonSchemaNames(z.toJSONSchema(zodSchema, { io: "input" }));
  const fromInterface = jsonSchemaNames(JSON.parse(fs.readFileSync(path.join(root, "schema", `${kind}.json`), "utf8")));
  const spec = resource(kind);
  expect(sorted(Object.keys(spec.inputProperties))).toEqual(fromZod.names);
  expect(sorted(Object.keys(spec.inputProperties))).toEqual(fromInterface.names);
  expect(sorted(spec.requiredInputs ?? [])).toEqual(fromZod.required);
  expect(sorted(spec.requiredInputs ?? [])).toEqual(fromInterface.required);
});

describe("the outputs of each resource are the properties its dynamic class exposes", () => {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) },
      "package-schema", "dev", true,
    );
  });

  /** One instance per kind, each on its own workspace (the classes refuse two of a kind on one). */
  const construct: Record<string, () => pulumi.CustomResource> = {
    Workspace: () => new Workspace("schema-ws", { name: "schema-ws", organization: "schema-org" }),
    WorkspaceLock: () => new WorkspaceLock("schema-lock", { workspaceId: "ws-schemalock" }),
    SshKeyAssignment: () => new SshKeyAssignment("schema-key", { workspaceId: "ws-schemakey", sshKeyId: "sshkey-schema" }),
    DataRetentionPolicy: () => new DataRetentionPolicy("schema-drp", { workspaceId: "ws-schemadrp", deleteOlderThanNDays: 30 }),
    WorkspaceTagBindings: () => new WorkspaceTagBindings("schema-tags", { workspaceId: "ws-schematags", tags: { team: "a" } }),
    RemoteStateConsumers: () => new RemoteStateConsumers("schema-rsc", { workspaceId: "ws-schemarsc", consumerIds: ["ws-schemaother"] }),
    ModuleVersionDeprecation: () =>
      new ModuleVersionDeprecation("schema-mvd", { organization: "schema-org", moduleName: "vpc", provider: "aws", version: "1.0.0" }),
  };

  /**
   * An instance's outputs: its own properties that are Outputs (registered by the SDK, or set by the
   * constructor), and the accessors its class defines (`outputsReadFrom`); not `urn`, `id` or the
   * provider's internal `__…` properties.
   */
  function outputNames(instance: pulumi.CustomResource): string[] {
    const names = new Set<string>();
    const isOutputName = (key: string): boolean => key !== "urn" && key !== "id" && !key.startsWith("__");
    for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(instance))) {
      if (isOutputName(key) && pulumi.Output.isInstance(d.value)) names.add(key);
    }
    for (let proto: object = Object.getPrototypeOf(instance); proto !== pulumi.dynamic.Resource.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) if (isOutputName(key) && d.get !== undefined) names.add(key);
    }
    return sorted(names);
  }

  test("every kind is constructed here", () => {
    expect(sorted(Object.keys(construct))).toEqual(KINDS);
  });

  test.each(KINDS)("%s", (kind) => {
    const make = construct[kind];
    if (make === undefined) throw new Error(`no constructor for ${kind}`);
    expect(sorted(Object.keys(resource(kind).properties))).toEqual(outputNames(make()));
  });
});

test.each([
  ["getWorkspace", getWorkspaceArgsSchema],
  ["listWorkspaces", listWorkspacesArgsSchema],
  ["getModuleVersion", getModuleVersionArgsSchema],
  ["listModuleVersions", listModuleVersionsArgsSchema],
] as const)("the inputs of %s are its Args interface's, with the same required ones", (name, argsSchema) => {
  const fromZod = jsonSchemaNames(z.toJSONSchema(argsSchema, { io: "input" }));
  const { inputs } = lookup(name);
  expect(sorted(Object.keys(inputs.properties))).toEqual(fromZod.names);
  expect(sorted(inputs.required ?? [])).toEqual(fromZod.required);
});

describe("the outputs of each lookup are what it returns from the API (the plugin's Invoke answers with these objects)", () => {
  const OAUTH_TOKEN_ID = "ot-schema000001";
  const fixtures: Fixtures = {
    organizations: [{
      name: "example-org",
      oauthClients: [{ name: "github", oauthTokenId: OAUTH_TOKEN_ID }],
      workspaces: [
        { name: "web-prod", attributes: { "vcs-repo": { identifier: "acme/web", "oauth-token-id": OAUTH_TOKEN_ID, branch: "main" } }, tags: ["web"] },
        { name: "api-prod" },
      ],
      registryModules: [{
        name: "vpc", provider: "aws", description: "A VPC",
        versions: [{ version: "1.0.0", deprecation: { reason: "leaks subnets", link: "https://example.com/vpc/upgrade" } }, "1.1.0"],
      }],
    }],
  };
  let emulator: RunningEmulator;
  let context: LookupContext;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, fixtures, quiet: true });
    const settings: Record<string, string> = {
      "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": emulator.organization,
    };
    // An empty HOME, so no credentials file of the developer's answers for the token.
    context = { config: { get: (key) => settings[key] }, env: { HOME: fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-schema-home-")) } };
  });

  afterAll(async () => {
    await emulator?.close();
  });

  test("getWorkspace: the workspace, its repository included", async () => {
    const result = await getWorkspace({ name: "web-prod" }, context);
    expect(result.vcsRepo).not.toBeNull();
    const { outputs } = lookup("getWorkspace");
    expect(sorted(Object.keys(outputs.properties))).toEqual(sorted(Object.keys(result)));
    expect(sorted(Object.keys(referenced(outputs.properties["vcsRepo"]).properties))).toEqual(sorted(Object.keys(result.vcsRepo ?? {})));
    expect(conformance(result, outputs, "getWorkspace")).toEqual([]);
  });

  test("listWorkspaces: the list under `workspaces`, each item a workspace as getWorkspace returns it", async () => {
    const result = { workspaces: await listWorkspaces({}, context) };
    expect(result.workspaces.map((w) => w.name).sort()).toEqual(["api-prod", "web-prod"]);
    const { outputs } = lookup("listWorkspaces");
    expect(outputs).toMatchObject({ properties: { workspaces: { type: "array" } }, required: ["workspaces"] });
    expect(referenced(outputs.properties["workspaces"]).properties).toEqual(lookup("getWorkspace").outputs.properties);
    expect(conformance(result, outputs, "listWorkspaces")).toEqual([]);
  });

  test("getModuleVersion: the version, its deprecation included", async () => {
    const result = await getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.0.0" }, context);
    expect(result.deprecation).not.toBeNull();
    const { outputs } = lookup("getModuleVersion");
    expect(sorted(Object.keys(outputs.properties))).toEqual(sorted(Object.keys(result)));
    expect(sorted(Object.keys(referenced(outputs.properties["deprecation"]).properties))).toEqual(sorted(Object.keys(result.deprecation ?? {})));
    expect(conformance(result, outputs, "getModuleVersion")).toEqual([]);
  });

  test("listModuleVersions: an object already (the module's address and its versions), so not wrapped", async () => {
    const result = await listModuleVersions({ moduleName: "vpc", provider: "aws" }, context);
    const { outputs } = lookup("listModuleVersions");
    expect(sorted(Object.keys(outputs.properties))).toEqual(sorted(Object.keys(result)));
    const [deprecated] = result.versions;
    expect(deprecated?.deprecation).not.toBeNull();
    expect(sorted(Object.keys(referenced(outputs.properties["versions"]).properties))).toEqual(sorted(Object.keys(deprecated ?? {})));
    expect(conformance(result, outputs, "listModuleVersions")).toEqual([]);
  });
});

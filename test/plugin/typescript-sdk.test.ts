// sdk/nodejs is the provider plugin's Node.js SDK as Pulumi's own generator writes it from
// schema/schema.json (scripts/generate-sdks.sh runs scripts/sdkgen, a Go program on Pulumi's
// codegen packages). These tests regenerate it and compare, show that the binder's verdict stops a bad
// schema, and load the compiled SDK (scripts/build-nodejs-sdk.sh, run by scripts/test.sh) under
// Pulumi's mocks: every resource class registers the plugin's type with the plugin's version and the
// inputs it was given, and every function invokes the plugin's token.
//
// The first run builds the Go program (a minute or two with an empty Go build cache), hence the long
// timeouts; nothing here is timed.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";

const root = path.join(__dirname, "../..");
const GENERATION_TIMEOUT_MS = 15 * 60_000;

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
}
interface ObjectSpec {
  properties: Record<string, Property>;
}
interface Schema {
  version: string;
  repository: string;
  homepage: string;
  pluginDownloadURL: string;
  resources: Record<string, { inputProperties: Record<string, Property> }>;
  functions: Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
}

const schemaText = fs.readFileSync(path.join(root, "schema/schema.json"), "utf8");
const schema = JSON.parse(schemaText) as Schema;
const tokenName = (token: string): string => token.replace(/^wsbridge:index:/, "");
const KINDS = Object.keys(schema.resources).map(tokenName).sort();
const FUNCTIONS = Object.keys(schema.functions).map(tokenName).sort();

function run(command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: root, encoding: "utf8", timeout: GENERATION_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
}

/** Every file under `dir`, relative to it, except the compiled bin/ and installed node_modules/. */
function files(dir: string, under = ""): string[] {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(under, entry.name);
    if (entry.isDirectory()) return under === "" && ["bin", "node_modules"].includes(entry.name) ? [] : files(dir, relative);
    return [relative];
  }).sort();
}

/** A value of the schema's type, with every property of an object type set: what a program could pass. */
function sample(property: Property, depth = 0): unknown {
  if (depth > 5) throw new Error("the sample nests too deep");
  if (property.$ref === "pulumi.json#/Any") return "any";
  if (property.$ref !== undefined) {
    const type = schema.types[property.$ref.replace(/^#\/types\//, "")];
    if (type === undefined) throw new Error(`no type ${property.$ref}`);
    return sampleObject(type.properties, depth + 1);
  }
  switch (property.type) {
    case "string": return "text";
    case "boolean": return true;
    case "integer": case "number": return 7;
    case "array": return [sample(property.items ?? {}, depth + 1)];
    case "object": return { key: sample(property.additionalProperties ?? {}, depth + 1) };
    default: throw new Error(`no sample for ${JSON.stringify(property)}`);
  }
}

function sampleObject(properties: Record<string, Property>, depth = 0): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, sample(p, depth)]));
}

describe("generation", () => {
  let out: string;
  let generated: SpawnSyncReturns<string>;

  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-sdkgen-"));
    // The other languages are generated (once) by every-generated-sdk-is-current-and-checked-….test.ts.
    generated = run("bash", ["scripts/generate-sdks.sh", "--language", "nodejs", "--out", out]);
  }, GENERATION_TIMEOUT_MS);

  afterAll(() => {
    fs.rmSync(out, { recursive: true, force: true });
  });

  test("Pulumi's schema binder accepts schema/schema.json: the generation succeeds without a diagnostic", () => {
    expect({ status: generated.status, stderr: generated.stderr }).toEqual({
      status: 0, stderr: `sdkgen: wrote ${files(path.join(out, "nodejs")).length} files to ${out}/nodejs\n`,
    });
  });

  test("the committed sdk/nodejs is what Pulumi's Node.js generator writes from schema/schema.json (after changing the schema: npm run sdk)", () => {
    const fresh = path.join(out, "nodejs");
    const committed = path.join(root, "sdk/nodejs");
    expect(files(committed)).toEqual(files(fresh));
    const differing = files(fresh).filter((f) => fs.readFileSync(path.join(fresh, f), "utf8") !== fs.readFileSync(path.join(committed, f), "utf8"));
    expect(differing).toEqual([]);
  });

  test("a schema the binder rejects fails the generation, naming the problem, and writes nothing", () => {
    const broken = JSON.parse(schemaText) as { types: Record<string, ObjectSpec> };
    const type = broken.types["wsbridge:index:WorkspaceVcsRepo"];
    if (type === undefined) throw new Error("the schema has no WorkspaceVcsRepo type");
    type.properties["branch"] = { $ref: "#/types/wsbridge:index:NoSuchType" };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-sdkgen-broken-"));
    try {
      fs.writeFileSync(path.join(dir, "schema.json"), JSON.stringify(broken));
      const result = run("bash", ["scripts/generate-sdks.sh", "--schema", path.join(dir, "schema.json"), "--out", dir]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("reported 1 diagnostic(s)");
      expect(result.stderr).toContain("wsbridge:index:NoSuchType");
      expect(fs.existsSync(path.join(dir, "nodejs"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, GENERATION_TIMEOUT_MS);

  test("the SDK's package.json is @pulumi-wsbridge/wsbridge at the schema's version and names the plugin, wsbridge at that version, and where it is released", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "sdk/nodejs/package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg).toMatchObject({ name: "@pulumi-wsbridge/wsbridge", version: schema.version, repository: schema.repository, homepage: schema.homepage });
    expect(pkg["pulumi"]).toEqual({ resource: true, name: "wsbridge", version: schema.version, server: schema.pluginDownloadURL });
  });

  test("the Go module of the generator pins the Pulumi release the CLI is built from", () => {
    const pins = (file: string): string[] =>
      [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/^\s*(github\.com\/pulumi\/pulumi\/(?:pkg|sdk)\/v3) (v\S+)/gm)]
        .map((m) => `${m[1]} ${m[2]}`).sort();
    expect(pins("scripts/sdkgen/go.mod")).toHaveLength(2);
    expect(pins("scripts/sdkgen/go.mod")).toEqual(pins("scripts/pulumi-cli/go.mod"));
  });
});

describe("the compiled SDK under Pulumi's mocks", () => {
  type ResourceClass = new (name: string, args: Record<string, unknown>) => pulumi.Resource;
  type Lookup = (args: Record<string, unknown>) => Promise<unknown>;
  type LookupOutput = (args: Record<string, unknown>) => pulumi.Output<unknown>;

  /** What each resource registered (from the mocks) and the plugin version it asked for (from the monitor's request). */
  const registrations = new Map<string, { type: string; inputs: unknown }>();
  const registeredVersions = new Map<string, string>();
  /** Each invoke, in order: its token and arguments (mocks), and its plugin version (monitor). */
  const calls: { token: string; inputs: unknown }[] = [];
  const invokedVersions: string[] = [];
  /** What the mocked plugin answers each function with: a value of every output property. */
  const answers = new Map<string, Record<string, unknown>>();
  let sdk: Record<string, unknown>;

  beforeAll(async () => {
    // The SDK scripts/test.sh compiled before jest started (scripts/build-nodejs-sdk.sh, through
    // `build-plugin.js --only sdk`): rebuilding it here, in place, would pull it from under the other
    // files loading it meanwhile (CONTRIBUTING.md, "Tests").
    for (const [token, fn] of Object.entries(schema.functions)) answers.set(token, sampleObject(fn.outputs.properties));
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registrations.set(args.name, { type: args.type, inputs: args.inputs });
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: (args) => {
          calls.push({ token: args.token, inputs: args.inputs });
          const answer = answers.get(args.token);
          if (answer === undefined) throw new Error(`unexpected invoke ${args.token}`);
          return answer;
        },
      },
      "sdk", "dev", false,
    );
    // The mocks do not see the plugin version a request asks for; the monitor's requests carry it.
    type Callback = (err: unknown, response: unknown) => void;
    interface Request { getVersion(): string; getName(): string }
    interface Monitor { registerResource(req: Request, cb: Callback): Promise<void>; invoke(req: Request, cb: Callback): Promise<void> }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const monitor = (require("@pulumi/pulumi/runtime/settings") as { getMonitor(): Monitor }).getMonitor();
    const register = monitor.registerResource.bind(monitor);
    const invoke = monitor.invoke.bind(monitor);
    monitor.registerResource = (req, cb) => {
      registeredVersions.set(req.getName(), req.getVersion());
      return register(req, cb);
    };
    monitor.invoke = (req, cb) => {
      invokedVersions.push(req.getVersion());
      return invoke(req, cb);
    };
    // As a program loads an installed package: node_modules/@pulumi-wsbridge/wsbridge → sdk/nodejs/bin.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    sdk = require("@pulumi-wsbridge/wsbridge") as Record<string, unknown>;
  }, GENERATION_TIMEOUT_MS);

  /** What a resource registered, once the (mocked) engine answered. */
  async function registration(resource: pulumi.Resource, name: string): Promise<unknown> {
    await new Promise<void>((resolve) => resource.urn.apply(() => resolve()));
    return { ...registrations.get(name), version: registeredVersions.get(name) };
  }

  test.each(KINDS.map((k) => [k, k]))("%s registers wsbridge:index:%s with plugin version 0.1.0 and exactly the inputs it was given (every one)", async (kind) => {
    const Class = sdk[kind] as ResourceClass;
    const spec = schema.resources[`wsbridge:index:${kind}`];
    if (spec === undefined) throw new Error(`no resource ${kind}`);
    const args = sampleObject(spec.inputProperties);
    expect(await registration(new Class(`sdk-${kind}`, args), `sdk-${kind}`)).toEqual({ type: `wsbridge:index:${kind}`, version: "0.1.0", inputs: args });
  });

  test("the Provider registers pulumi:providers:wsbridge 0.1.0 with the token as a secret and numbers as JSON text (as any provider's settings travel)", async () => {
    const Provider = sdk["Provider"] as ResourceClass;
    const provider = new Provider("sdk-provider", { organization: "org", token: "tok", edition: "hosted", maxRetries: 3 });
    const secret = { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: "tok" };
    expect(await registration(provider, "sdk-provider")).toEqual({
      type: "pulumi:providers:wsbridge", version: "0.1.0", inputs: { organization: "org", token: secret, edition: "hosted", maxRetries: "3" },
    });
  });

  test.each(FUNCTIONS.map((f) => [f, f]))("%s (and its Output form) invokes wsbridge:index:%s with plugin version 0.1.0 and its arguments, and returns the plugin's answer", async (name) => {
    const fn = schema.functions[`wsbridge:index:${name}`];
    if (fn === undefined) throw new Error(`no function ${name}`);
    const args = sampleObject(fn.inputs.properties);
    const before = calls.length;
    await expect((sdk[name] as Lookup)(args)).resolves.toEqual(answers.get(`wsbridge:index:${name}`));
    const viaOutput = await new Promise((resolve) => (sdk[`${name}Output`] as LookupOutput)(args).apply(resolve));
    expect(viaOutput).toEqual(answers.get(`wsbridge:index:${name}`));
    const invoked = { token: `wsbridge:index:${name}`, inputs: args };
    expect(calls.slice(before)).toEqual([invoked, invoked]);
    expect(invokedVersions.slice(before)).toEqual(["0.1.0", "0.1.0"]);
  });
});

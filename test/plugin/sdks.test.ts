// sdk/go, sdk/python and sdk/dotnet are the provider plugin's Go, Python and .NET SDKs as Pulumi's own
// generators write them from schema/schema.json (scripts/generate-sdks.sh runs scripts/sdkgen; the
// Node.js SDK has its own test, the-generated-typescript-sdk-…, and is generated there, not here).
// These tests regenerate the three and compare, then check each as far as this machine allows:
// - Go: gofmt, `go vet` and `go build` with -mod=readonly (the committed go.sum names every module),
//   and a program outside the repository that requires the SDK's module and replaces it with sdk/go,
//   as users install it, runs under Pulumi's mocks: every resource registers its type with plugin
//   version 0.1.0 and every function invokes its token;
// - Python: every file compiles, setuptools builds the source distribution from pyproject.toml, and
//   the metadata names the plugin wsbridge 0.1.0 (the Pulumi Python SDK cannot be installed here: no
//   PyPI);
// - .NET: no dotnet here, so what can be read: the project file, the pulumi-plugin.json and version
//   it embeds, and a class of the right type token for every resource and function.
//
// The first run builds the generator programs and may download Go modules (minutes); later runs take
// seconds, hence the long timeouts.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.join(__dirname, "../..");
const LONG_MS = 15 * 60_000;
const LANGUAGES = ["go", "python", "dotnet"] as const;

interface Schema {
  version: string;
  resources: Record<string, { requiredInputs?: string[] }>;
  functions: Record<string, unknown>;
  types: Record<string, unknown>;
  language: {
    go: { importBasePath: string };
    python: { packageName: string; requires: Record<string, string> };
    csharp: { rootNamespace: string; packageReferences: Record<string, string> };
  };
}

const schema = JSON.parse(fs.readFileSync(path.join(root, "schema/schema.json"), "utf8")) as Schema;
const tokenName = (token: string): string => token.replace(/^wsbridge:index:/, "");
const KINDS = Object.keys(schema.resources).map(tokenName).sort();
const FUNCTIONS = Object.keys(schema.functions).map(tokenName).sort();
const TYPES = Object.keys(schema.types).map(tokenName).sort();
/** What every SDK's pulumi-plugin.json says: the plugin, its version, and where the engine downloads it from. */
const PLUGIN = { resource: true, name: "wsbridge", version: "0.1.0", server: "github://api.github.com/pulumi-wsbridge/pulumi-wsbridge" };
const GO_MODULE = path.dirname(schema.language.go.importBasePath);

const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

function run(command: string, args: string[], cwd = root, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd, encoding: "utf8", timeout: LONG_MS, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env },
  });
}

/** Go as the generator's scripts run it: no cgo, go.mod and go.sum must not change. */
const GO_ENV = { CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false -trimpath" };

/** What a command printed, less the module downloads of a first run. */
function printed(result: SpawnSyncReturns<string>): string[] {
  return `${result.stdout}${result.stderr}`.split("\n").filter((line) => line !== "" && !line.startsWith("go: downloading "));
}

/** What a tool leaves in an SDK's directory when it is built or installed there (each SDK's .gitignore lists them). */
const BUILD_LEFTOVERS = new Set(["__pycache__", "build", "dist", "bin", "obj"]);

/** Every file under `dir`, relative to it. */
function files(dir: string, under = ""): string[] {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(under, entry.name);
    if (entry.isDirectory()) return BUILD_LEFTOVERS.has(entry.name) || entry.name.endsWith(".egg-info") ? [] : files(dir, relative);
    return [relative];
  }).sort();
}

const read = (...parts: string[]): string => fs.readFileSync(path.join(root, ...parts), "utf8");
const readJson = (...parts: string[]): unknown => JSON.parse(read(...parts));

let out: string;
let generated: SpawnSyncReturns<string>;

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-sdks-"));
  generated = run("bash", ["scripts/generate-sdks.sh", "--language", LANGUAGES.join(","), "--out", out]);
}, LONG_MS);

afterAll(() => {
  fs.rmSync(out, { recursive: true, force: true });
});

describe("generation", () => {
  test("the generators write the three SDKs and report nothing else (no warning)", () => {
    const count = (language: string): number => files(path.join(out, language)).length;
    expect({ status: generated.status, printed: printed(generated) }).toEqual({
      status: 0,
      printed: [
        // go.sum is written by `go mod tidy`, after the generator's files.
        `sdkgen: wrote ${count("go") - 1} files to ${out}/go`,
        `sdkgen: completed the module in ${out}/go with go mod tidy (go.mod, go.sum)`,
        `sdkgen: wrote ${count("python")} files to ${out}/python`,
        `sdkgen: wrote ${count("dotnet")} files to ${out}/dotnet`,
      ],
    });
  });

  test.each(LANGUAGES.map((l) => [l]))("the committed sdk/%s is what the generator writes from schema/schema.json (after changing the schema: npm run generate)", (language) => {
    const fresh = path.join(out, language);
    const committed = path.join(root, "sdk", language);
    expect(files(committed)).toEqual(files(fresh));
    const differing = files(fresh).filter((f) => !fs.readFileSync(path.join(fresh, f)).equals(fs.readFileSync(path.join(committed, f))));
    expect(differing).toEqual([]);
  });
});

describe("the Go SDK", () => {
  const sdk = path.join(root, "sdk/go");

  test("is the module the schema's importBasePath names, one level above the package, requiring the Pulumi Go SDK the generator comes from", () => {
    const goMod = read("sdk/go/go.mod");
    expect(goMod).toMatch(new RegExp(`^module ${GO_MODULE.replace(/\./g, "\\.")}\n`));
    expect(GO_MODULE).toBe("github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go");
    expect(fs.existsSync(path.join(sdk, "wsbridge", "doc.go"))).toBe(true);
    const pin = /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/m;
    expect(goMod.match(pin)?.[1]).toBe(read("scripts/sdkgen/go.mod").match(pin)?.[1]);
    expect(fs.existsSync(path.join(sdk, "go.sum"))).toBe(true);
    expect(readJson("sdk/go/wsbridge/pulumi-plugin.json")).toEqual(PLUGIN);
  });

  test("is gofmt-clean, and go vet and go build pass with -mod=readonly (every module it needs is in the committed go.sum)", () => {
    for (const [command, args] of [["gofmt", ["-l", "."]], ["go", ["vet", "./..."]], ["go", ["build", "./..."]]] as const) {
      const result = run(command, [...args], sdk, GO_ENV);
      expect({ command: `${command} ${args.join(" ")}`, status: result.status, printed: printed(result) })
        .toEqual({ command: `${command} ${args.join(" ")}`, status: 0, printed: [] });
    }
  }, LONG_MS);

  test("a program that requires the module and replaces it with sdk/go registers every resource with plugin version 0.1.0 and invokes every function, under Pulumi's mocks", () => {
    const program = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-go-program-"));
    try {
      fs.copyFileSync(path.join(root, "test/support/go-sdk-program/main.go"), path.join(program, "main.go"));
      fs.writeFileSync(path.join(program, "go.mod"), [
        "module wsbridge.invalid/go-sdk-program", "", "go 1.25.8", "",
        `require ${GO_MODULE} v${schema.version}`, "",
        `replace ${GO_MODULE} => ${sdk}`, "",
      ].join("\n"));
      const tidy = run("go", ["mod", "tidy"], program, GO_ENV);
      expect({ status: tidy.status, printed: printed(tidy) }).toEqual({ status: 0, printed: [] });
      const result = run("go", ["run", "."], program, GO_ENV);
      if (result.status !== 0) throw new Error(`the Go program failed:\n${result.stderr}`);
      const engine = JSON.parse(result.stdout) as { registrations: unknown[]; invokes: string[] };
      expect(engine.registrations).toEqual([
        ...KINDS.map((kind) => ({
          // The program passes each resource exactly its required inputs.
          type: `wsbridge:index:${kind}`, name: `go-${kind}`, version: "0.1.0", inputs: [...(schema.resources[`wsbridge:index:${kind}`]?.requiredInputs ?? [])].sort(),
        })),
        { type: "pulumi:providers:wsbridge", name: "go-provider", version: "0.1.0", inputs: ["organization", "token"] },
      ]);
      expect(engine.invokes).toEqual(FUNCTIONS.map((f) => `wsbridge:index:${f}`));
    } finally {
      fs.rmSync(program, { recursive: true, force: true });
    }
  }, LONG_MS);
});

describe("the Python SDK", () => {
  const sdk = path.join(root, "sdk/python");
  const pkg = schema.language.python.packageName;

  test("every file compiles (python3 -m compileall)", () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-pycache-"));
    try {
      // The bytecode goes to a directory of its own, not into sdk/python.
      const result = run("python3", ["-m", "compileall", "-q", "."], sdk, { PYTHONPYCACHEPREFIX: cache });
      expect({ status: result.status, printed: printed(result) }).toEqual({ status: 0, printed: [] });
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });

  test("pyproject.toml names pulumi_wsbridge 0.1.0, requires the Pulumi SDK the schema names, and ships pulumi-plugin.json, which names plugin wsbridge 0.1.0", () => {
    const toml = run("python3", ["-c", "import json, sys, tomllib; print(json.dumps(tomllib.load(open('pyproject.toml', 'rb'))))"], sdk);
    expect(toml.status).toBe(0);
    const project = JSON.parse(toml.stdout) as { project: { name: string; version: string; dependencies: string[] }; tool: { setuptools: { "package-data": Record<string, string[]> } } };
    expect(project.project).toMatchObject({ name: pkg, version: "0.1.0" });
    expect(project.project.dependencies).toContain(`pulumi${schema.language.python.requires["pulumi"]}`);
    expect(project.tool.setuptools["package-data"][pkg]).toContain("pulumi-plugin.json");
    expect(readJson("sdk/python", pkg, "pulumi-plugin.json")).toEqual(PLUGIN);
    // The version every resource and invoke asks for (the SDK's default options).
    expect(read("sdk/python", pkg, "_utilities.py")).toMatch(/def get_version\(\):\n {4}return "0\.1\.0"\n/);
  });

  test("setuptools builds the source distribution from pyproject.toml (as pip would, less the dependencies), with pulumi-plugin.json in it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-sdist-"));
    try {
      // A copy: the build writes an .egg-info beside pyproject.toml.
      fs.cpSync(sdk, path.join(dir, "src"), { recursive: true });
      const build = run("python3", ["-c", "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))", path.join(dir, "dist")], path.join(dir, "src"));
      if (build.status !== 0) throw new Error(`the sdist build failed:\n${build.stdout}${build.stderr}`);
      const archive = path.join(dir, "dist", build.stdout.trim().split("\n").pop() ?? "");
      expect(path.basename(archive)).toBe(`${pkg}-0.1.0.tar.gz`);
      const listing = run("tar", ["tzf", archive]).stdout.split("\n");
      expect(listing).toEqual(expect.arrayContaining([`${pkg}-0.1.0/${pkg}/pulumi-plugin.json`, `${pkg}-0.1.0/PKG-INFO`]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, LONG_MS);

  test("every resource is a CustomResource of its type token in its own module, registered for the package, and every function invokes its token", () => {
    const init = read("sdk/python", pkg, "__init__.py");
    for (const kind of KINDS) {
      const module = read("sdk/python", pkg, `${snake(kind)}.py`);
      expect(module).toContain(`class ${kind}(pulumi.CustomResource):`);
      expect(module).toContain(`'wsbridge:index:${kind}',`);
      expect(init).toContain(`"wsbridge:index:${kind}": "${kind}"`);
    }
    for (const fn of FUNCTIONS) expect(read("sdk/python", pkg, `${snake(fn)}.py`)).toContain(`pulumi.runtime.invoke('wsbridge:index:${fn}'`);
  });
});

describe("the .NET SDK (no dotnet on this machine: what can be read)", () => {
  const { rootNamespace } = schema.language.csharp;
  const namespace = `${rootNamespace}.Wsbridge`;
  const csproj = (): string => read("sdk/dotnet", `${namespace}.csproj`);

  test("the project is package PulumiWsbridge.Wsbridge 0.1.0 by pulumi-wsbridge, referencing the Pulumi SDK the schema names", () => {
    expect(namespace).toBe("PulumiWsbridge.Wsbridge");
    // The package id is the project's name (the project file sets no PackageId).
    expect(files(path.join(root, "sdk/dotnet")).filter((f) => f.endsWith(".csproj"))).toEqual([`${namespace}.csproj`]);
    expect(csproj()).not.toContain("<PackageId>");
    expect(csproj()).toContain("<Version>0.1.0</Version>");
    expect(csproj()).toContain("<Authors>pulumi-wsbridge</Authors>");
    expect(csproj()).toContain(`<PackageReference Include="Pulumi" Version="${schema.language.csharp.packageReferences["Pulumi"]}" />`);
  });

  test("it embeds pulumi-plugin.json (plugin wsbridge 0.1.0) and version.txt (0.1.0), the version every resource and invoke asks for", () => {
    expect(csproj()).toContain('<EmbeddedResource Include="pulumi-plugin.json" />');
    expect(csproj()).toContain('<EmbeddedResource Include="version.txt" />');
    expect(readJson("sdk/dotnet/pulumi-plugin.json")).toEqual(PLUGIN);
    expect(read("sdk/dotnet/version.txt")).toBe("0.1.0");
    expect(read("sdk/dotnet/Utilities.cs")).toContain(`GetManifestResourceStream("${namespace}.version.txt")`);
  });

  test("every resource has a class file of its type token, the provider too; every function and type has its file", () => {
    for (const kind of KINDS) {
      const source = read("sdk/dotnet", `${kind}.cs`);
      expect(source).toContain(`namespace ${namespace}\n`);
      expect(source).toContain(`[WsbridgeResourceType("wsbridge:index:${kind}")]\n    public partial class ${kind} : global::Pulumi.CustomResource\n`);
    }
    expect(read("sdk/dotnet/Provider.cs")).toContain('[WsbridgeResourceType("pulumi:providers:wsbridge")]\n    public partial class Provider : global::Pulumi.ProviderResource\n');
    for (const fn of FUNCTIONS) expect(read("sdk/dotnet", `${pascal(fn)}.cs`)).toContain(`InvokeAsync<${pascal(fn)}Result>("wsbridge:index:${fn}"`);
    for (const type of TYPES) {
      const candidates = [`Outputs/${type}.cs`, `Inputs/${type}Args.cs`].filter((f) => fs.existsSync(path.join(root, "sdk/dotnet", f)));
      expect({ type, files: candidates.length > 0 }).toEqual({ type, files: true });
    }
  });

  test("logo.png, the package icon, is the logo the schema's logoUrl names, this repository's docs/logo.png (the generator downloads it; scripts/sdkgen/dotnet answers from the working tree)", () => {
    const sha = (file: string): string => createHash("sha256").update(fs.readFileSync(path.join(root, file))).digest("hex");
    const schema = JSON.parse(fs.readFileSync(path.join(root, "schema/schema.json"), "utf8")) as { logoUrl: string };
    expect(schema.logoUrl).toBe("https://raw.githubusercontent.com/pulumi-wsbridge/pulumi-wsbridge/main/docs/logo.png");
    expect(sha("sdk/dotnet/logo.png")).toBe(sha("docs/logo.png"));
  });
});

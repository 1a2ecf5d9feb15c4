// Every folder in examples/ is a Pulumi project a user can copy and run with plain `pulumi up`:
// Pulumi.yaml for the nodejs runtime, a package.json that installs the package and the SDK (with
// `main` at index.ts, or absent, which Pulumi reads as index), a tsconfig.json, index.ts, and a
// README with the commands, including how to install the package from a tarball before it is on the
// registry. And each example's program runs against the emulator in a test on the real Pulumi CLI.
// Reads files only: no CLI, no build.
import * as fs from "node:fs";
import * as path from "node:path";

const EXAMPLES = path.join(__dirname, "../../examples");
const TESTS = path.join(__dirname, "..");

const examples = fs.readdirSync(EXAMPLES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

function read(example: string, file: string): string | undefined {
  const full = path.join(EXAMPLES, example, file);
  return fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
}

interface PackageJson {
  main?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

test("examples/ holds the four examples (so the checks below cannot pass on an empty folder)", () => {
  expect(examples).toEqual(expect.arrayContaining(["ci", "platform", "quickstart", "workspaces"]));
});

describe.each(examples)("examples/%s", (example) => {
  test("has Pulumi.yaml naming the project and the nodejs runtime", () => {
    const yaml = read(example, "Pulumi.yaml");
    expect(yaml).toBeDefined();
    expect(yaml).toMatch(/^name:\s*\S+\s*$/m);
    // `runtime: nodejs` or `runtime:` with `name: nodejs` (and options) below it.
    expect(yaml).toMatch(/^runtime:\s*(nodejs\s*$|\n\s+name:\s*nodejs\s*$)/m);
  });

  test("has a package.json that installs pulumi-wsbridge and @pulumi/pulumi, with main at index.ts or absent", () => {
    const text = read(example, "package.json");
    expect(text).toBeDefined();
    const pkg = JSON.parse(text ?? "{}") as PackageJson;
    expect(pkg.dependencies?.["pulumi-wsbridge"]).toEqual(expect.any(String));
    expect(pkg.dependencies?.["@pulumi/pulumi"]).toEqual(expect.any(String));
    // Pulumi's nodejs runtime compiles index.ts with the project's own TypeScript.
    expect(pkg.devDependencies?.["typescript"] ?? pkg.dependencies?.["typescript"]).toEqual(expect.any(String));
    if (pkg.main !== undefined) expect(pkg.main).toMatch(/^(\.\/)?index\.ts$/);
  });

  test("has a tsconfig.json whose listed files exist", () => {
    const text = read(example, "tsconfig.json");
    expect(text).toBeDefined();
    const files = (JSON.parse(text ?? "{}") as { files?: string[] }).files ?? [];
    expect(files.filter((file) => read(example, file) === undefined)).toEqual([]);
  });

  test("has index.ts", () => {
    expect(read(example, "index.ts")).toBeDefined();
  });

  test("has a README with the commands and the install-before-publish paragraph", () => {
    const readme = read(example, "README.md");
    expect(readme).toBeDefined();
    for (const command of ["npm install", "npm pack", "pulumi stack init", "pulumi config set", "pulumi up"]) {
      expect({ command, found: readme?.includes(command) }).toEqual({ command, found: true });
    }
  });

  test("its program runs against the emulator in a test on the real Pulumi CLI", () => {
    // A test file that starts a stack (with the harness, or the shared real-CLI fixture) and imports
    // this example's program.
    const runners = fs.readdirSync(TESTS, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".test.ts")).filter((file) => {
      const text = fs.readFileSync(path.join(TESTS, file), "utf8");
      return /\b(createStack|useRealCliStack)\(/.test(text) && new RegExp(`import\\("(\\.\\./)+examples/${example}/(program|index)"\\)`).test(text);
    });
    expect(runners).not.toEqual([]);
  });
});

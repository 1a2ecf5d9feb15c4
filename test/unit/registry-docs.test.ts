// The Pulumi Registry's two pages of the package (docs/_index.md, docs/installation-configuration.md) are
// what scripts/lib/registry-docs.ts writes from the package schema, so no fact in them can drift; each
// example says what the SDK of its language takes (TypeScript type-checks against the SDK; the others'
// property names are the schema's inputs in that language's spelling, and Go is in gofmt's layout); and
// `pulumi package publish` takes the schema as far as it can be checked without a Pulumi Cloud account.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { examples, indexPage, installationPage, readSchema } from "../../scripts/lib/registry-docs";
import { pulumiCliRoot, repoRoot } from "../../scripts/lib/stack-harness";
import { typeErrorsOfFiles } from "../support/yaml-import-project";

const schema = readSchema() as ReturnType<typeof readSchema> & {
  resources: Record<string, { inputProperties: Record<string, unknown> }>;
};
const code = examples();
const inputsOf = (kind: string): string[] => Object.keys(schema.resources[`wsbridge:index:${kind}`]?.inputProperties ?? {});
const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

test("the committed pages are what the schema gives (after changing it: node -r ./scripts/lib/register-ts.js scripts/registry-docs.js)", () => {
  expect(fs.readFileSync(path.join(repoRoot, "docs", "_index.md"), "utf8")).toBe(indexPage());
  expect(fs.readFileSync(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8")).toBe(installationPage());
});

test("the Registry's front matter, and an example in every language the chooser offers", () => {
  for (const page of [indexPage(), installationPage()]) expect(page).toMatch(/^---\ntitle: .+\nmeta_desc: .+\nlayout: package\n---\n/);
  for (const language of Object.keys(code)) expect(indexPage()).toContain(`{{% choosable language ${language} %}}\n\n\`\`\`${language}\n`);
});

test("every setting of the schema is in the configuration table, with its description", () => {
  const page = installationPage();
  for (const [name, variable] of Object.entries(schema.config.variables)) {
    expect(page).toContain(`| \`wsbridge:${name}\`${variable.secret === true ? " (secret)" : ""} | ${variable.type} | ${variable.description.replace(/\|/g, "\\|")} |`);
  }
});

test("the TypeScript example type-checks (strict) against the SDK", () => {
  expect(typeErrorsOfFiles(new Map([["index.ts", code.typescript]]), "index.ts")).toEqual([]);
});

test("the Python, Go, C# and YAML examples name only inputs of the schema, in each language's spelling; Go is gofmt's layout", () => {
  const workspace = inputsOf("Workspace");
  const lock = inputsOf("WorkspaceLock");
  const python = [...code.python.matchAll(/(\w+)=/g)].map((m) => m[1]);
  expect(python.filter((k) => ![...workspace, ...lock].map(snake).includes(k ?? ""))).toEqual([]);
  const go = [...code.go.matchAll(/^\t+(\w+): /gm)].map((m) => m[1]);
  expect(go.filter((k) => ![...workspace, ...lock].map(pascal).includes(k ?? ""))).toEqual([]);
  const csharp = [...code.csharp.matchAll(/^ +(\w+) = /gm)].map((m) => m[1]);
  expect(csharp.filter((k) => ![...workspace, ...lock].map(pascal).includes(k ?? ""))).toEqual([]);
  const yaml = parseYaml(code.yaml) as { resources: Record<string, { type: string; properties: Record<string, unknown> }> };
  for (const resource of Object.values(yaml.resources)) {
    const kind = resource.type.replace(/^wsbridge:/, "");
    expect(Object.keys(resource.properties).filter((k) => !inputsOf(kind).includes(k))).toEqual([]);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-registry-go-"));
  try {
    fs.writeFileSync(path.join(dir, "main.go"), `${code.go}\n`);
    expect(execFileSync("gofmt", ["-l", "main.go"], { cwd: dir, encoding: "utf8" })).toBe("");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("pulumi package publish reads the schema and finds its publisher, stopping only where a Pulumi Cloud account is needed", () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-publish-"));
  const publish = (schemaFile: string): string => {
    try {
      execFileSync(path.join(pulumiCliRoot(), "bin", "pulumi"), [
        "package", "publish", schemaFile, "--readme", path.join(repoRoot, "docs", "_index.md"),
        "--installation-configuration", path.join(repoRoot, "docs", "installation-configuration.md"),
      ], { cwd: home, env: { ...process.env, PULUMI_HOME: path.join(home, ".pulumi"), PULUMI_BACKEND_URL: `file://${home}`, PULUMI_SKIP_UPDATE_CHECK: "true" }, encoding: "utf8", stdio: "pipe" });
      return "published";
    } catch (error) {
      return String((error as { stderr?: string }).stderr ?? error);
    }
  };
  try {
    // A schema without a publisher stops earlier: the schema is read before the backend is asked.
    fs.writeFileSync(path.join(home, "no-publisher.json"), JSON.stringify({ name: "nopublisher", version: "0.1.0" }));
    expect(publish(path.join(home, "no-publisher.json"))).toContain("no publisher specified");
    expect(publish(path.join(repoRoot, "schema", "schema.json"))).toContain("Private Registry is not supported by diy backends");
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

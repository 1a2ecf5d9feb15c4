// The two pages the Pulumi Registry lists a community package from (docs/_index.md, the overview with an
// example in each language; docs/installation-configuration.md, the install line per language and the
// configuration), and the ones `pulumi package publish --readme … --installation-configuration …` takes.
// Written from the package schema (schema/schema.json: names, versions, where the plugin is released, each
// setting's description, itself generated from provider/runtime/settings.ts), so no fact has a second copy:
// `node -r ./scripts/lib/register-ts.js scripts/registry-docs.js` writes them, and
// test/unit/registry-docs.test.ts fails when a committed page differs, and checks each example.
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

interface Schema {
  readonly name: string;
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  readonly pluginDownloadURL: string;
  readonly repository: string;
  readonly config: { readonly variables: Readonly<Record<string, { readonly type: string; readonly description: string; readonly secret?: boolean }>> };
  readonly language: {
    readonly nodejs: { readonly packageName: string };
    readonly python: { readonly packageName: string };
    readonly go: { readonly importBasePath: string };
    readonly csharp: { readonly rootNamespace: string };
  };
}

export function readSchema(): Schema {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "schema", "schema.json"), "utf8")) as Schema;
}

/** The example of the overview page, per language: a workspace and a lock on it, the workspace's id exported. */
export function examples(schema: Schema = readSchema()): Readonly<Record<"typescript" | "python" | "go" | "csharp" | "yaml", string>> {
  const goModule = schema.language.go.importBasePath;
  const csharpNamespace = `${schema.language.csharp.rootNamespace}.${schema.name.charAt(0).toUpperCase()}${schema.name.slice(1)}`;
  return {
    typescript: [
      `import * as wsbridge from "${schema.language.nodejs.packageName}";`,
      "",
      'const app = new wsbridge.Workspace("app", { name: "app-prod", description: "The app\'s production stack" });',
      'new wsbridge.WorkspaceLock("app-lock", { workspaceId: app.id, reason: "change freeze" });',
      "",
      "export const workspaceId = app.id;",
    ].join("\n"),
    python: [
      "import pulumi",
      `import ${schema.language.python.packageName} as wsbridge`,
      "",
      'app = wsbridge.Workspace("app", name="app-prod", description="The app\'s production stack")',
      'wsbridge.WorkspaceLock("app-lock", workspace_id=app.id, reason="change freeze")',
      "",
      'pulumi.export("workspaceId", app.id)',
    ].join("\n"),
    go: [
      "package main",
      "",
      "import (",
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      "",
      `\t"${goModule}"`,
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      '\t\tapp, err := wsbridge.NewWorkspace(ctx, "app", &wsbridge.WorkspaceArgs{',
      '\t\t\tName:        pulumi.String("app-prod"),',
      '\t\t\tDescription: pulumi.String("The app\'s production stack"),',
      "\t\t})",
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
      '\t\tif _, err := wsbridge.NewWorkspaceLock(ctx, "app-lock", &wsbridge.WorkspaceLockArgs{',
      "\t\t\tWorkspaceId: app.ID(),",
      '\t\t\tReason:      pulumi.String("change freeze"),',
      "\t\t}); err != nil {",
      "\t\t\treturn err",
      "\t\t}",
      '\t\tctx.Export("workspaceId", app.ID())',
      "\t\treturn nil",
      "\t})",
      "}",
    ].join("\n"),
    csharp: [
      "using System.Collections.Generic;",
      "using Pulumi;",
      `using Wsbridge = ${csharpNamespace};`,
      "",
      "return await Deployment.RunAsync(() =>",
      "{",
      '    var app = new Wsbridge.Workspace("app", new Wsbridge.WorkspaceArgs',
      "    {",
      '        Name = "app-prod",',
      '        Description = "The app\'s production stack",',
      "    });",
      '    new Wsbridge.WorkspaceLock("app-lock", new Wsbridge.WorkspaceLockArgs',
      "    {",
      "        WorkspaceId = app.Id,",
      '        Reason = "change freeze",',
      "    });",
      '    return new Dictionary<string, object?> { ["workspaceId"] = app.Id };',
      "});",
    ].join("\n"),
    yaml: [
      "resources:",
      "  app:",
      `    type: ${schema.name}:Workspace`,
      "    properties:",
      "      name: app-prod",
      "      description: The app's production stack",
      "  app-lock:",
      `    type: ${schema.name}:WorkspaceLock`,
      "    properties:",
      "      workspaceId: ${app.id}",
      "      reason: change freeze",
      "outputs:",
      "  workspaceId: ${app.id}",
    ].join("\n"),
  };
}

const LANGUAGES = [["typescript", "TypeScript"], ["python", "Python"], ["go", "Go"], ["csharp", "C#"], ["yaml", "YAML"]] as const;

/** docs/_index.md: what the package is, and the example in each language (the Registry's language chooser). */
export function indexPage(schema: Schema = readSchema()): string {
  const code = examples(schema);
  return [
    "---",
    `title: ${schema.displayName}`,
    `meta_desc: Provides an overview of the ${schema.displayName} package for Pulumi.`,
    "layout: package",
    "---",
    "",
    "<!-- Written by scripts/registry-docs.js from schema/schema.json; test/unit/registry-docs.test.ts checks it. -->",
    "",
    `The ${schema.displayName} package manages ${schema.description.charAt(0).toLowerCase()}${schema.description.slice(1)}`,
    "Previews say exactly what changes, a read-only token is enough for them, and existing objects can be imported.",
    `A local emulator of the whole API comes with the npm package, to try it without an account (${schema.repository}).`,
    "",
    "## Example",
    "",
    `{{< chooser language "${LANGUAGES.map(([l]) => l).join(",")}" >}}`,
    ...LANGUAGES.flatMap(([language]) => ["", `{{% choosable language ${language} %}}`, "", `\`\`\`${language}`, code[language], "```", "", "{{% /choosable %}}"]),
    "",
    "{{< /chooser >}}",
    "",
  ].join("\n");
}

/** docs/installation-configuration.md: the install line per language, the plugin, and every setting with where it is read from. */
export function installationPage(schema: Schema = readSchema()): string {
  const { version } = schema;
  const goModule = schema.language.go.importBasePath;
  const csharpPackage = `${schema.language.csharp.rootNamespace}.${schema.name.charAt(0).toUpperCase()}${schema.name.slice(1)}`;
  const settings = Object.entries(schema.config.variables).map(([name, v]) =>
    `| \`${schema.name}:${name}\`${v.secret === true ? " (secret)" : ""} | ${v.type} | ${v.description.replace(/\|/g, "\\|")} |`);
  return [
    "---",
    `title: ${schema.displayName} Installation & Configuration`,
    `meta_desc: How to install the ${schema.displayName} package and configure its provider.`,
    "layout: package",
    "---",
    "",
    "<!-- Written by scripts/registry-docs.js from schema/schema.json; test/unit/registry-docs.test.ts checks it. -->",
    "",
    "## Installation",
    "",
    `The ${schema.displayName} provider is available as a package in all Pulumi languages:`,
    "",
    `* JavaScript/TypeScript: [\`${schema.language.nodejs.packageName}\`](https://www.npmjs.com/package/${schema.language.nodejs.packageName})`,
    `* Python: [\`${schema.language.python.packageName}\`](https://pypi.org/project/${schema.language.python.packageName}/)`,
    `* Go: [\`${goModule}\`](https://pkg.go.dev/${goModule})`,
    `* .NET: [\`${csharpPackage}\`](https://www.nuget.org/packages/${csharpPackage})`,
    "",
    "```sh",
    `npm install ${schema.language.nodejs.packageName}@${version}`,
    `pip install ${schema.language.python.packageName}==${version}`,
    `go get ${goModule.replace(/\/[^/]+$/, "")}@v${version}`,
    `dotnet add package ${csharpPackage} --version ${version}`,
    "```",
    "",
    "The provider plugin is downloaded by the engine the first time a program needs it: one executable for",
    "Linux and macOS (amd64, arm64) and Windows (amd64), with nothing else to install (no Node.js). To install",
    "it ahead of time (Pulumi YAML needs nothing else):",
    "",
    "```sh",
    `pulumi plugin install resource ${schema.name} ${version} --server ${schema.pluginDownloadURL}`,
    "```",
    "",
    "## Configuration",
    "",
    `Set the provider's settings as stack config, or leave them to the environment. A token in stack config`,
    "is stored, encrypted, in the provider's state; the environment-variable route keeps it out of state.",
    "",
    "```sh",
    `pulumi config set ${schema.name}:address https://tfe.example.com`,
    `pulumi config set ${schema.name}:organization acme`,
    `pulumi config set --secret ${schema.name}:token <token>`,
    "```",
    "",
    "or",
    "",
    "```sh",
    "export WSBRIDGE_ADDRESS=https://tfe.example.com WSBRIDGE_ORGANIZATION=acme WSBRIDGE_TOKEN=<token>",
    "```",
    "",
    "| Setting | Type | What it is, and where else it is read from |",
    "|---|---|---|",
    ...settings,
    "",
  ].join("\n");
}

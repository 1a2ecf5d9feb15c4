// A Pulumi project whose Pulumi.yaml says `runtime: yaml`, on the real CLI, for the `pulumi import` tests.
//
// `pulumi import` asks the project's language host which packages the program needs, even with
// --generate-code=false, and no Node.js language host can be built here (CONTRIBUTING.md, "Tests"); Pulumi's
// YAML host can (scripts/setup-pulumi.sh). So `pulumi import` runs for real in a YAML project, where it
// also prints the program it generates, which plain `pulumi preview` then runs through that host.
//
// The emulator runs in the test's own process, so every CLI command runs as an async child process.
// Secrets are read by the CLI from the stack's config; the token is passed once, to `config set-all`.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { CREDENTIAL_VARIABLES, installPlugin, repoRoot, type StackSecrets } from "../../scripts/lib/stack-harness";
import type { PluginReleaseServer } from "./plugin-release-server";
import { pathWithoutNode } from "../../scripts/lib/without-node";
import { testStackSecrets } from "./transit-keeper";

/** What one CLI command printed, and how it ended (0 for success). */
export interface CliRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** The provider settings a stack's config points at (the token is stored as a secret). */
export interface ProviderSettings {
  address: string;
  token: string;
  organization: string;
}

export class YamlProject {
  #printed = "";

  private constructor(
    readonly cli: PulumiCommand,
    readonly name: string,
    /** The project folder; its backend (`backend/`) and PULUMI_HOME (`home/.pulumi`) are inside it. */
    readonly dir: string,
    readonly env: Record<string, string>,
    /** The stacks' secrets provider (test/support/transit-keeper.ts), or the passphrase in `env` (undefined). */
    readonly secrets: StackSecrets | undefined,
  ) {}

  /**
   * A new YAML project in a temporary folder with its own file backend, and the plugin installed as users
   * do: with `pulumi plugin install`, or with `fetchFrom` left to the engine to download from that release
   * server when an operation first needs it. `withoutNode`: no Node.js on the CLI's PATH. `passphrase`:
   * the stacks' secrets under a passphrase, as users of a file backend have, not the test stacks' provider.
   */
  static create(cli: PulumiCommand, name: string, options: { fetchFrom?: PluginReleaseServer; withoutNode?: boolean; passphrase?: boolean } = {}): YamlProject {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-yaml-import-"));
    const secrets = options.passphrase === true ? undefined : testStackSecrets();
    fs.mkdirSync(path.join(dir, "backend"));
    fs.mkdirSync(path.join(dir, "home"));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...Object.fromEntries(CREDENTIAL_VARIABLES.map((variable) => [variable, ""])),
      HOME: path.join(dir, "home"),
      PULUMI_HOME: path.join(dir, "home", ".pulumi"),
      PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
      ...(secrets === undefined ? { PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex") } : secrets.env),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PATH: `${path.dirname(cli.command)}${path.delimiter}${process.env.PATH ?? ""}`,
    };
    if (options.fetchFrom !== undefined) {
      delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
      env.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = options.fetchFrom.overrides;
    }
    if (options.withoutNode === true) env.PATH = pathWithoutNode(env.PATH!, path.join(dir, "home"));
    const project = new YamlProject(cli, name, dir, env, secrets);
    project.writeProgram("");
    if (options.fetchFrom === undefined) installPlugin(cli, env);
    return project;
  }

  /** Everything the CLI printed so far (stdout and stderr), for checking that no token appears. */
  get printed(): string {
    return this.#printed;
  }

  /** Runs `pulumi <args>` in the project folder; never throws (see {@link ok}). */
  run(args: string[]): Promise<CliRun> {
    return new Promise((resolve) => {
      execFile(this.cli.command, args, { cwd: this.dir, env: this.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          this.#printed += stdout + stderr;
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
          resolve({ stdout, stderr, code });
        });
    });
  }

  /** Runs `pulumi <args>`; a failure throws with what the CLI printed. */
  async ok(args: string[]): Promise<CliRun> {
    const result = await this.run(args);
    if (result.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
    }
    return result;
  }

  /** `pulumi stack init <stack>`'s arguments, with the project's secrets provider. */
  stackInit(stack: string): string[] {
    return ["stack", "init", stack, "--non-interactive", ...(this.secrets === undefined ? [] : ["--secrets-provider", this.secrets.provider])];
  }

  /** The environment without what unlocks the stacks' secrets (the passphrase, or the provider's settings). */
  get envWithoutSecrets(): Record<string, string> {
    const { PULUMI_CONFIG_PASSPHRASE: _passphrase, ...env } = this.env;
    for (const name of Object.keys(this.secrets?.env ?? {})) delete env[name];
    return env;
  }

  /** `pulumi stack init` and the provider's config in one `config set-all` (the token as a secret). */
  async initStack(stack: string, settings: ProviderSettings): Promise<void> {
    await this.ok(this.stackInit(stack));
    await this.ok([
      "config", "set-all", "--stack", stack,
      "--plaintext", `wsbridge:address=${settings.address}`,
      "--plaintext", `wsbridge:organization=${settings.organization}`,
      "--secret", `wsbridge:token=${settings.token}`,
    ]);
  }

  /** Writes Pulumi.yaml: the project, and after it a program's text (`resources:` …) as `pulumi import` printed it. */
  writeProgram(program: string): void {
    fs.writeFileSync(path.join(this.dir, "Pulumi.yaml"), `name: ${this.name}\nruntime: yaml\n${program}`);
  }

  /** The project in a folder below this one (a split's), with this one's environment: its backend, home and passphrase. */
  in(folder: string): YamlProject {
    return folder === "." ? this : new YamlProject(this.cli, `${this.name}/${folder}`, path.join(this.dir, folder), this.env, this.secrets);
  }

  /** The project name a folder's Pulumi.yaml declares ("" when it declares none). */
  static nameIn(dir: string): string {
    return /^name: (\S+)$/m.exec(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
  }

  /** Another project, `name` in `dir`, with a copy of this one's environment (its backend, home and passphrase) and `env` over it. */
  another(dir: string, name: string, env: Record<string, string> = {}): YamlProject {
    return new YamlProject(this.cli, name, dir, { ...this.env, ...env }, this.secrets);
  }

  /** The same project (name, backend, home, passphrase) with its program in another folder, holding a copy of the stack's settings file. */
  elsewhere(dir: string, stack: string): YamlProject {
    fs.copyFileSync(path.join(this.dir, `Pulumi.${stack}.yaml`), path.join(dir, `Pulumi.${stack}.yaml`));
    return new YamlProject(this.cli, this.name, dir, this.env, this.secrets);
  }

  /** `pulumi stack export` of a stack, parsed. */
  async exportState(stack: string): Promise<Deployment> {
    const { stdout } = await this.ok(["stack", "export", "--stack", stack]);
    return JSON.parse(stdout) as Deployment;
  }

  /** All text below the project folder except installed plugins (state, backups, settings), for leak checks. */
  allStoredText(): string {
    const parts: string[] = [];
    for (const entry of fs.readdirSync(this.dir, { withFileTypes: true, recursive: true })) {
      const full = path.join(entry.parentPath, entry.name);
      if (!entry.isFile() || full.includes(`${path.sep}plugins${path.sep}`)) continue;
      parts.push(fs.readFileSync(full, "utf8"));
    }
    return parts.join("\n");
  }

  /**
   * The same stack (same backend, project name, config and secrets) with `program` as its program, run
   * inline through the Automation API (the Node.js way this machine has: scripts/lib/stack-harness.ts).
   * Its workspace is a folder of its own inside the project, with a copy of the stack's settings file.
   */
  async inlineStack(stack: string, program: PulumiFn): Promise<Stack> {
    const workDir = fs.mkdtempSync(path.join(this.dir, "inline-"));
    fs.copyFileSync(path.join(this.dir, `Pulumi.${stack}.yaml`), path.join(workDir, `Pulumi.${stack}.yaml`));
    return LocalWorkspace.selectStack(
      { stackName: stack, projectName: this.name, program },
      {
        workDir,
        pulumiCommand: this.cli,
        envVars: this.env,
        projectSettings: { name: this.name, runtime: "nodejs", main: repoRoot, backend: { url: this.env.PULUMI_BACKEND_URL ?? "" } },
      },
    );
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One resource of `pulumi stack export`. */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  protect?: boolean;
}

export interface Deployment {
  version: number;
  deployment: { resources?: ExportedResource[] };
}

/** The resources of a package type (`wsbridge:index:…`) in an export, by name. */
export function resourcesByName(state: Deployment): Map<string, ExportedResource> {
  const resources = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("wsbridge:index:"));
  return new Map(resources.map((r) => [r.urn.split("::").pop() ?? "", r]));
}

/** The program `pulumi import` printed after its advice: from `resources:` on ("" when it printed none). */
export function printedProgram(stdout: string): string {
  const start = stdout.indexOf("\nresources:\n");
  return start < 0 ? "" : stdout.slice(start + 1);
}

/** What an operation printed after its `Duration:` line (trimmed): the advice and program of an import. */
export function afterDuration(stdout: string): string {
  const match = /\nDuration: [^\n]*\n/.exec(stdout);
  if (match === null) throw new Error(`no Duration line in:\n${stdout}`);
  return stdout.slice(match.index + match[0].length).trim();
}

/** The lines of the `Resources:` summary (trimmed), e.g. ["= 1 imported", "2 unchanged"]. */
export function resourceSummary(stdout: string): string[] {
  const start = stdout.lastIndexOf("\nResources:\n");
  if (start < 0) throw new Error(`no Resources summary in:\n${stdout}`);
  const lines: string[] = [];
  for (const line of stdout.slice(start + "\nResources:\n".length).split("\n")) {
    if (!line.startsWith("    ")) break;
    lines.push(line.trim());
  }
  return lines;
}

/** The `Diagnostics:` section: each resource's (`<type> (<name>)`) messages, without the stack's own. */
export function diagnosticsByResource(stdout: string): Record<string, string[]> {
  const start = stdout.indexOf("\nDiagnostics:\n");
  if (start < 0) return {};
  const found: Record<string, string[]> = {};
  let current: string | undefined;
  for (const line of stdout.slice(start + "\nDiagnostics:\n".length).split("\n")) {
    if (line !== "" && !line.startsWith(" ")) break;
    const heading = /^ {2}(\S+) \((.+)\):$/.exec(line);
    if (heading !== null) {
      current = heading[1] === "pulumi:pulumi:Stack" ? undefined : `${heading[1]} (${heading[2]})`;
      if (current !== undefined) found[current] = [];
      continue;
    }
    const message = /^ {4}(\S.*)$/.exec(line);
    if (message !== null && current !== undefined) found[current]?.push(message[1] ?? "");
  }
  return found;
}

// ---- the TypeScript program `pulumi import` would print in a Node.js project --------------------------

/**
 * The program `pulumi import` prints in a Node.js project for the resources of `importFile` (the file
 * given to `pulumi import --file`), from the stack's state (`pulumi stack export`): scripts/sdkgen's
 * `import-program` mode runs Pulumi's importer and its Node.js program generator as the CLI and
 * pulumi-language-nodejs do. The first run builds the Go program (minutes with an empty Go cache).
 */
export function typescriptImportProgram(statePath: string, importFile: string): Promise<string> {
  const sdkgen = path.join(repoRoot, "scripts", "sdkgen");
  const args = ["run", ".", "import-program", "--state", statePath, "--imports", importFile, "--schema", path.join(repoRoot, "schema", "schema.json")];
  return new Promise((resolve, reject) => {
    execFile("go", args, {
      cwd: sdkgen, encoding: "utf8", maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false -trimpath" },
    }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`sdkgen import-program failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * What `tsc --noEmit` with the repository's compiler options (tsconfig.base.json: strict) reports for
 * `source` as a file at the repository's root, where `@pulumi-wsbridge/wsbridge` resolves to the SDK as
 * it does for a project that installed it. The file exists only in memory. One line per diagnostic.
 */
export function typeErrorsOf(source: string): string[] {
  return typeErrorsOfFiles(new Map([["generated-import-program.ts", source]]), "generated-import-program.ts");
}

/** Source files read from disk by {@link typeErrorsOfFiles}, by language version and path: they do not change during a test file. */
const parsedFromDisk = new Map<string, import("typescript").SourceFile>();

/**
 * {@link typeErrorsOf} for several files (relative path → text) checked from `entry`: they exist only
 * in memory, in a folder at the repository's root, so relative imports between them resolve.
 */
export function typeErrorsOfFiles(files: ReadonlyMap<string, string>, entry: string): string[] {
  // Loaded here, not at the top: only the tests that type-check pay for it.
  const ts = require("typescript") as typeof import("typescript");
  const configPath = path.join(repoRoot, "tsconfig.base.json");
  const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const base = path.join(repoRoot, "generated-program");
  const virtual = new Map([...files].map(([name, text]) => [path.join(base, name), text]));
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, language);
    // The files on disk (the SDK's and @pulumi/pulumi's declarations, Node's types) are parsed once per
    // test file: every check of a program reads the same ones, and parsing them was most of its cost.
    const key = `${typeof language === "object" ? language.languageVersion : language}\0${name}`;
    let parsed = parsedFromDisk.get(key);
    if (parsed === undefined) {
      parsed = getSourceFile(name, language, ...rest);
      if (parsed !== undefined) parsedFromDisk.set(key, parsed);
    }
    return parsed;
  };
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  const program = ts.createProgram([path.join(base, entry)], { ...options, noEmit: true }, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(repoRoot, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}

/**
 * A program that runs `source` (TypeScript, as generated) as its module body: transpiled to CommonJS and
 * given this test's `require`, so `@pulumi/pulumi` and `@pulumi-wsbridge/wsbridge` are the modules the
 * Automation API's inline host uses. The generated program exports nothing, so the stack has no outputs.
 */
export function programFromTypeScript(source: string): PulumiFn {
  return programFromTypeScriptFiles(new Map([["index.ts", source]]), "index.ts");
}

/**
 * {@link programFromTypeScript} for several files (relative path → text) run from `entry`: a relative
 * `import "./x"` runs that file (x.ts, or x/index.ts) once, as Node.js would; anything else is this
 * test's `require`.
 */
export function programFromTypeScriptFiles(files: ReadonlyMap<string, string>, entry: string): PulumiFn {
  const ts = require("typescript") as typeof import("typescript");
  const compiled = new Map([...files].map(([name, text]) => [path.posix.normalize(name.split(path.sep).join("/")), ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText]));
  return async () => {
    const loaded = new Map<string, Record<string, unknown>>();
    const load = (name: string): Record<string, unknown> => {
      const done = loaded.get(name);
      if (done !== undefined) return done;
      const code = compiled.get(name);
      if (code === undefined) throw new Error(`no file ${name} in the program`);
      const module = { exports: {} as Record<string, unknown> };
      loaded.set(name, module.exports);
      const local = (specifier: string): unknown => {
        if (!specifier.startsWith(".")) return require(specifier);
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(name), specifier));
        return load(compiled.has(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`);
      };
      new Function("require", "module", "exports", code)(local, module, module.exports);
      return module.exports;
    };
    load(path.posix.normalize(entry));
  };
}

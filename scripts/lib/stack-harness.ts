// Runs Pulumi programs with the real CLI (built or found by scripts/setup-pulumi.sh) against a file
// backend in a temporary folder. Used by the end-to-end tests and by the demo.
//
// Programs run inline through the Automation API (`pulumi up --client=…`): the CLI is the real engine
// and dynamic providers run in the real `pulumi-resource-pulumi-nodejs` plugin, but the program is
// hosted by this Node process, because no `pulumi-language-nodejs` can be built here (CONTRIBUTING.md, "Tests").
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiPlatform } from "./platform";
import {
  LocalWorkspace,
  PulumiCommand,
  type ConfigMap,
  type EngineEvent,
  type OutputMap,
  type PulumiFn,
  type Stack,
  type SummaryEvent,
  type UpdateKind,
  type UpdateSummary,
} from "@pulumi/pulumi/automation";

export const repoRoot = path.resolve(__dirname, "../..");

/**
 * Finds, or builds once, the Pulumi CLI matching the SDK in package-lock.json: the folder whose bin/
 * holds `pulumi` and the dynamic-provider launcher.
 */
export function pulumiCliRoot(): string {
  // scripts/test.sh runs the script once before jest and passes on what it printed: each test file
  // asking again cost a shell, a node and a `pulumi version` (about half a CPU-second).
  const found = process.env.WSBRIDGE_PULUMI_ROOT;
  if (found !== undefined && found !== "") return found;
  const printed = execFileSync("bash", [path.join(repoRoot, "scripts/setup-pulumi.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return printed.trim().split("\n").pop() ?? "";
}

/** The CLI of {@link pulumiCliRoot}, for the Automation API. */
export async function pulumiCli(): Promise<PulumiCommand> {
  return PulumiCommand.get({ root: pulumiCliRoot() });
}

/** Variables that would let a developer's real credentials reach a test or demo stack. */
export const CREDENTIAL_VARIABLES = [
  "TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION",
  "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION", "WSBRIDGE_EDITION", "TF_CLI_CONFIG_FILE",
];

/** Stack config that points the provider at an emulator, with the token stored as a secret. */
export function emulatorStackConfig(emulator: { url: string; token: string; organization: string }): ConfigMap {
  return {
    "wsbridge:address": { value: emulator.url },
    "wsbridge:token": { value: emulator.token, secret: true },
    "wsbridge:organization": { value: emulator.organization },
  };
}

export interface StackOptions {
  projectName: string;
  stackName?: string;
  program: PulumiFn;
  config?: ConfigMap;
  cli: PulumiCommand;
  /** Extra environment for the CLI and the provider process. */
  env?: Record<string, string>;
  /**
   * Install the package's provider plugin (`pulumi-resource-wsbridge`) into the stack's PULUMI_HOME, as
   * a user does (`pulumi plugin install … --file <archive>`), so programs using the generated SDK run.
   */
  plugin?: boolean;
  /** The stack's secrets provider; without it, Pulumi's passphrase provider, as users of a file backend have. */
  secrets?: StackSecrets;
}

/** A secrets provider other than the passphrase: its URL (`pulumi stack init --secrets-provider`) and the environment it reads. */
export interface StackSecrets {
  provider: string;
  env: Record<string, string>;
}

/** The plugin archive `npm run build:plugin` writes for this machine's OS and architecture. */
export { pulumiPlatform };

export function pluginArchive(): string {
  const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
  const archive = path.join(repoRoot, "dist", "plugin", `pulumi-resource-wsbridge-v${version}-${pulumiPlatform()}.tar.gz`);
  if (!fs.existsSync(archive)) throw new Error(`${archive} is missing: run \`npm run build:plugin\` first`);
  return archive;
}

/**
 * The plugin installed into the stack's PULUMI_HOME as `pulumi plugin install resource wsbridge <version>
 * --file <archive>` installs it. The CLI itself installs each archive once per machine into a template
 * home (below the temporary folder, keyed by the archive's path, size and time); every install links the
 * files it wrote (the executable is 127 MB: unpacking it for each of the suite's ~30 stacks cost about a
 * second of CPU each). The tests of installing itself (the release's, the engine's download, the archive
 * check) run the CLI's install or download every time.
 */
export function installPlugin(cli: PulumiCommand, env: Record<string, string>): void {
  const archive = pluginArchive();
  const version = /-v([^-]+)-[a-z]+-[a-z0-9]+\.tar\.gz$/.exec(archive)?.[1] ?? "";
  const template = installedTemplate(cli, archive, version);
  const plugins = path.join(env.PULUMI_HOME ?? path.join(os.homedir(), ".pulumi"), "plugins");
  linkTree(template, plugins);
}

/** PULUMI_HOME/plugins of a home where the CLI installed `archive`, made once (a rename makes it whole). */
function installedTemplate(cli: PulumiCommand, archive: string, version: string): string {
  const stat = fs.statSync(archive);
  const key = createHash("sha1").update(`${archive}\0${stat.size}\0${stat.mtimeMs}\0${cli.command}`).digest("hex").slice(0, 16);
  const template = path.join(os.tmpdir(), `wsbridge-plugin-install-${key}`);
  if (!fs.existsSync(template)) {
    forgetOldTemplates(template);
    const making = `${template}.${process.pid}`;
    fs.rmSync(making, { recursive: true, force: true });
    execFileSync(cli.command, ["plugin", "install", "resource", "wsbridge", version, "--file", archive], {
      env: { ...process.env, PULUMI_HOME: making, PULUMI_SKIP_UPDATE_CHECK: "true" }, stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      fs.renameSync(making, template);
    } catch (error) {
      // Another worker made it first: theirs is the same install.
      fs.rmSync(making, { recursive: true, force: true });
      if (!fs.existsSync(template)) throw error;
    }
  }
  return path.join(template, "plugins");
}

/** Templates of earlier builds' archives (127 MB each), an hour after they were made: no run still links them. */
function forgetOldTemplates(keep: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of fs.readdirSync(os.tmpdir())) {
    const folder = path.join(os.tmpdir(), name);
    if (!name.startsWith("wsbridge-plugin-install-") || folder === keep) continue;
    try {
      if (fs.statSync(folder).mtimeMs < hourAgo) fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already.
    }
  }
}

/** `from`'s folders made below `to`, its files hard-linked (copied where links cannot be made). */
function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      linkTree(source, target);
    } else {
      try {
        fs.linkSync(source, target);
      } catch {
        fs.copyFileSync(source, target);
      }
    }
  }
}

export interface HarnessStack {
  readonly stack: Stack;
  /** The temporary folder holding the backend, PULUMI_HOME and the stack's settings. */
  readonly dir: string;
  /** All text below `dir` (state, checkpoints, backups, settings), for leak checks. */
  allStoredText(): string;
  dispose(): Promise<void>;
}

/**
 * Makes `backend/` and `home/` below a stack's folder and returns the environment that keeps the CLI,
 * its plugins and its state there: no developer credentials, no update check, no plugin downloads, and
 * the CLI of `cli` first on PATH; a passphrase, or the environment of `secrets`. `extra` comes last.
 */
export function stackFolderEnvironment(cli: PulumiCommand, dir: string, extra: Record<string, string> = {}, secrets?: StackSecrets): Record<string, string> {
  const backendDir = path.join(dir, "backend");
  const home = path.join(dir, "home");
  fs.mkdirSync(backendDir, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  return {
    ...Object.fromEntries(CREDENTIAL_VARIABLES.map((name) => [name, ""])),
    HOME: home,
    PULUMI_HOME: path.join(home, ".pulumi"),
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    ...(secrets === undefined ? { PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? randomBytes(16).toString("hex") } : secrets.env),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: `${path.dirname(cli.command)}${path.delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

export async function createStack(options: StackOptions): Promise<HarnessStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-stack-"));
  const backendDir = path.join(dir, "backend");
  const envVars = stackFolderEnvironment(options.cli, dir, options.env, options.secrets);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: options.stackName ?? "dev", projectName: options.projectName, program: options.program },
    {
      workDir: dir,
      pulumiCommand: options.cli,
      envVars,
      ...(options.secrets === undefined ? {} : { secretsProvider: options.secrets.provider }),
      // `main` is where the provider plugin runs; from the repo root it resolves
      // `pulumi-wsbridge/runtime` like an installed dependency (node_modules/pulumi-wsbridge).
      projectSettings: { name: options.projectName, runtime: "nodejs", main: repoRoot, backend: { url: `file://${backendDir}` } },
    },
  );
  if (options.config) await stack.setAllConfig(options.config);
  if (options.plugin === true) installPlugin(options.cli, envVars);
  answerFollowUpsFromTheRun(stack, backendDir);
  return {
    stack,
    dir,
    allStoredText: () => readAllText(dir),
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Pulumi's file backend writes each state file's `.attrs` metadata without a rename, so a kill -9 in
 * that instant leaves it empty and the stack unreadable ("failed to load checkpoint: EOF"). The
 * repair (docs/resources/workspace.md, "Notes"): delete the empty `.attrs` file (the metadata is optional). Returns whether it was needed.
 */
export function repairFileBackend(dir: string): boolean {
  let repaired = false;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.endsWith(".attrs") && fs.statSync(full).size === 0) {
      fs.rmSync(full);
      repaired = true;
    }
  }
  return repaired;
}

function readAllText(dir: string): string {
  const parts: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    // Plugins and caches the CLI might put under PULUMI_HOME are binaries, not state.
    if (full.includes(`${path.sep}plugins${path.sep}`)) continue;
    parts.push(fs.readFileSync(full, "utf8"));
  }
  return parts.join("\n");
}

/**
 * After `up`, `refresh` and `destroy` the Automation API runs three more CLI commands (`stack output`
 * twice, `stack history`) to fill in the result's outputs and summary: about 1.5 s of CPU each time,
 * a tenth of the suite. The same facts are at hand without them: the engine's own summary event
 * (the change counts `stack history` reports) and the stack's state file (the outputs). So the
 * harness answers from those; the operation itself still runs on the real CLI. Where they are not
 * enough (no summary event, a secret output) it falls back to the commands.
 */
function answerFollowUpsFromTheRun(stack: Stack, backendDir: string): void {
  const viaCli = { outputs: stack.outputs.bind(stack), info: stack.info.bind(stack) };
  let lastRun: { kind: UpdateKind; started: Date; summary?: SummaryEvent } | undefined;
  // The stack's history number: every up, refresh and destroy of this stack goes through here.
  let runs = 0;

  const withSummary = <O extends { onEvent?: (event: EngineEvent) => void }, R>(kind: UpdateKind, run: (opts?: O) => Promise<R>) =>
    async (opts?: O): Promise<R> => {
      const current: { kind: UpdateKind; started: Date; summary?: SummaryEvent } = { kind, started: new Date() };
      lastRun = current;
      runs++;
      const onEvent = (event: EngineEvent): void => {
        if (event.summaryEvent) current.summary = event.summaryEvent;
        opts?.onEvent?.(event);
      };
      return run({ ...opts, onEvent } as O);
    };
  stack.up = withSummary("update", stack.up.bind(stack));
  stack.refresh = withSummary("refresh", stack.refresh.bind(stack));
  stack.destroy = withSummary("destroy", stack.destroy.bind(stack));

  stack.info = async (showSecrets?: boolean): Promise<UpdateSummary | undefined> => {
    const run = lastRun;
    if (run?.summary === undefined) return viaCli.info(showSecrets);
    // The Automation API throws before asking for the summary of a failed run, so this one succeeded.
    return {
      kind: run.kind, startTime: run.started, endTime: new Date(), message: "", environment: {}, config: {},
      result: "succeeded", resourceChanges: run.summary.resourceChanges, version: runs,
    };
  };
  stack.outputs = async (): Promise<OutputMap> => {
    const outputs = rootOutputsInState(backendDir, stack.name);
    // A secret is ciphertext in the state: only the CLI can show it.
    if (outputs === undefined || JSON.stringify(outputs).includes(SECRET_SIGNATURE)) return viaCli.outputs();
    return Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]));
  };
}

/** Pulumi's marker of a secret value in serialized state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** The stack resource's outputs as the file backend stored them (`.pulumi/stacks/<project>/<stack>.json`). */
function rootOutputsInState(backendDir: string, stackName: string): Record<string, unknown> | undefined {
  const stacks = path.join(backendDir, ".pulumi", "stacks");
  if (!fs.existsSync(stacks)) return undefined;
  const file = fs.readdirSync(stacks, { withFileTypes: true, recursive: true })
    .find((e) => e.isFile() && e.name === `${stackName}.json`);
  if (file === undefined) return undefined;
  const state = JSON.parse(fs.readFileSync(path.join(file.parentPath, file.name), "utf8")) as {
    checkpoint?: { latest?: { resources?: Array<{ type: string; outputs?: Record<string, unknown> }> } };
  };
  const resources = state.checkpoint?.latest?.resources;
  if (resources === undefined) return {};
  return resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {};
}

// Every example's README, followed as a user types it, and on that same run each example's program
// checked exactly on the emulator and its stack. Each example folder is copied out of the repository
// (no link back to it), the package from `npm pack` is installed there with the README's own `npm
// install /path/to/pulumi-wsbridge-0.1.0.tgz`, the emulator is started with the README's command from
// the folder the README names (`npx` may not fetch from the registry: npm_config_yes is false), and the
// README's emulator session block runs in bash exactly as written, after the three `export` lines the
// user pastes: `pulumi login --local`, `stack init`, every `config set`, the `curl` setup calls, `up`,
// `destroy`, with the real Pulumi CLI and a file backend in a temporary HOME.
//
// Where a user would look between two commands, the session stops (test/support/example-readme/pulumi:
// before and after each program run, before `destroy`) and the test checks what the example declared
// on the emulator, and runs what the README does not: previews (before anything exists, a no-op one,
// one with a read-only token, one of an edited program) and a refresh. Those run on the README's own
// stack, in this process through the Automation API with the example's program imported from the
// repository (as the other real-CLI tests run programs), against the same emulator; the provider is
// the one the folder installed from the tarball. After the session the test checks what `destroy`
// sent, in which order, and what it left. So one run per example proves both the README as typed and
// the program's exact effect. examples/platform's first preview, before anything exists, runs on a
// stack of its own, on an in-process emulator seeded with its fixtures.json.
//
// What cannot run here, and what runs instead:
// - `pulumi up` and `pulumi preview` need the Node.js language host, which cannot be built on these
//   machines (README, Limits). test/support/example-readme/pulumi hands exactly those two to
//   inline-program.cjs, which runs the folder's own index.ts inline on the same stack, with the
//   Pulumi.dev.yaml the CLI wrote, through the same real CLI. Every other command is the real CLI.
// - `pulumi login --local` means file://~, and the CLI reads ~ from the passwd entry, not $HOME: the
//   shim logs in to file://$HOME instead, the test's stand-in for the user's home (PULUMI_HOME too).
// - Interactive answers are given as environment: the passphrase `stack init` asks for
//   (PULUMI_CONFIG_PASSPHRASE) and the "yes" of `destroy` (PULUMI_SKIP_CONFIRMATIONS).
// - Blocks for the real service (`<org>`, `<token>` placeholders) need an account: not run.
// - examples/ci/pull-request.yml is a GitHub Actions workflow: it runs only on GitHub. Its preview
//   job's point, a preview of a change with a read-only token that only reads, is the README's own
//   local block, which runs here.
// - A fresh machine has no jq (nothing of the project installs it), so the READMEs read JSON with
//   `node -p`; the shim folder's `jq` fails, so a README line that needs jq fails here even where
//   jq is installed. curl is part of the machine's base system.
// `set -e -o pipefail` makes any failing line fail the test, as a user would stop at an error.
// The old `pulumi config set oauthTokenId "$OAUTH_TOKEN_ID"` line of examples/workspaces fails here
// with the CLI's "looks like a secret" error, and the old read-only preview of examples/ci (no change
// first) fails the check that it read with the read-only token.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, PulumiCommand, Stack, type EngineEvent, type PulumiFn } from "@pulumi/pulumi/automation";
import { request } from "undici";
import type { PlatformSettings } from "../../examples/platform/program";
import { CREDENTIAL_VARIABLES, pulumiCliRoot } from "../../scripts/lib/stack-harness";
import { copyWorkingTree, packBuiltTree, repoRoot } from "../support/packed-package";
import { useRealCliStack } from "../support/real-cli-stack";

const SHIM = path.join(__dirname, "..", "support", "example-readme");
/** A realistic OAuth token id, shaped like the service's (and the emulator's). */
const REALISTIC_OAUTH_TOKEN_ID = "ot-vyGtL7YMu4dgsMTE";
/** What the user types when `stack init` asks for a passphrase. */
const PASSPHRASE = "what the user types when stack init asks";
const TYPE = (kind: string): string => `pulumi-nodejs:dynamic/wsbridge:${kind}`;

interface Block {
  text: string;
  /** The prose between the previous block and this one. */
  before: string;
}

/** The fenced `sh` blocks of a README, each with the prose that introduces it. */
function shellBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  const fence = /```sh\n([\s\S]*?)```/g;
  let last = 0;
  for (let m = fence.exec(readme); m !== null; m = fence.exec(readme)) {
    blocks.push({ text: m[1] ?? "", before: readme.slice(last, m.index) });
    last = m.index + m[0].length;
  }
  return blocks;
}

type Role = "install" | "emulator" | "session" | "real service";

/** What a block is for; a block that fits none fails the test, so no new block escapes it. */
function roleOf(block: Block): Role {
  const text = block.text.trim();
  if (text === "npm install") return "install";
  if (/^npx wsbridge-emulator\b/.test(text)) return "emulator";
  if (text.includes("$WSBRIDGE_EMULATOR_")) return "session";
  if (/<[a-z-]+>/.test(text)) return "real service";
  throw new Error(`a README block that is none of install, emulator, emulator session, real service:\n${text}`);
}

function readme(example: string): string {
  return fs.readFileSync(path.join(repoRoot, "examples", example, "README.md"), "utf8");
}

function blocksOf(example: string, role: Role): Block[] {
  return shellBlocks(readme(example)).filter((b) => roleOf(b) === role);
}

interface Emulator {
  url: string;
  token: string;
  organization: string;
}

interface RunRecord {
  command: string;
  args: string[];
  changes: Record<string, number>;
  outputs?: Record<string, unknown>;
}

interface Shell {
  code: number | null;
  stdout: string;
  stderr: string;
}

let work: string;
let tarball: string;
let cliRoot: string;
/** A folder whose node_modules the first `npm install` filled (later folders start from a hard-linked copy). */
let installedOnce: string | undefined;

/** The environment of the user's terminals: the machine's PATH and npm settings, nothing of Pulumi or the service. */
function terminalEnv(home: string, runLog: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["PULUMI_BACKEND_URL", "PULUMI_HOME", "PULUMI_ACCESS_TOKEN", "PULUMI_CONFIG_PASSPHRASE_FILE", "PULUMI_STACK"]) delete env[name];
  for (const name of CREDENTIAL_VARIABLES) delete env[name];
  return {
    ...env,
    HOME: home,
    PULUMI_HOME: path.join(home, ".pulumi"),
    // The user's own npm cache and settings, although HOME is a new folder.
    npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
    npm_config_userconfig: process.env["npm_config_userconfig"] ?? path.join(os.homedir(), ".npmrc"),
    npm_config_yes: "false",
    npm_config_prefer_offline: "true",
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [SHIM, path.join(cliRoot, "bin"), process.env["PATH"] ?? ""].join(path.delimiter),
    WSBRIDGE_REAL_PULUMI_ROOT: cliRoot,
    WSBRIDGE_README_RUN_LOG: runLog,
  };
}

/** Runs `script` in bash under `set -e -o pipefail`, as a user who stops at the first error. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Shell> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -e -o pipefail\n${script}`], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Fails with what the shell printed, so a failing README line shows in the test's output. */
function expectSuccess(shell: Shell, what: string): void {
  if (shell.code !== 0) throw new Error(`${what} exited with ${String(shell.code)}\n--- stderr\n${shell.stderr}\n--- stdout\n${shell.stdout.slice(-4000)}`);
}

/** The emulator started in `folder` by the README's command; the three lines it printed. */
function startEmulator(command: string, folder: string, env: NodeJS.ProcessEnv): Promise<{ settings: Emulator; stop(): void }> {
  const child = spawn("bash", ["-c", command], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const stop = (): void => {
    // npx runs the emulator as a child of its own: end the whole group.
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  return new Promise((resolve, reject) => {
    let text = "";
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")));
    child.on("exit", (code) => reject(new Error(`\`${command}\` in ${folder} exited with ${String(code)} before printing its address:\n${errors}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const value = (name: string): string | undefined => new RegExp(`^${name}=(.*)$`, "m").exec(text)?.[1];
      const url = value("WSBRIDGE_EMULATOR_URL");
      const token = value("WSBRIDGE_EMULATOR_TOKEN");
      const organization = value("WSBRIDGE_EMULATOR_ORGANIZATION");
      if (url && token && organization) resolve({ settings: { url, token, organization }, stop });
    });
  });
}


/** A request as the emulator logged it (`GET /_emulator/requests`). */
interface LoggedRequest {
  method: string;
  path: string;
  tokenKind?: string;
}

/** Where the session stopped: before or after a program run, or before `destroy`. */
type StopName = "before up" | "after up" | "before preview" | "after preview" | "before destroy";

/** A README session in progress (at a stop) or done: the folder, its emulator and its stack. */
interface Session {
  folder: string;
  /** The user's home: PULUMI_HOME and the file backend `pulumi login --local` chose are below it. */
  home: string;
  emulator: Emulator;
  /** The program runs of the README's `pulumi up` / `pulumi preview` so far. */
  runs(): RunRecord[];
  /** A GET to the emulator (`apiPath` from its root, e.g. `/api/v2/...`) with its owner token. */
  get(apiPath: string): Promise<{ status: number; body: unknown }>;
  /** The emulator's request log since it was last cleared. */
  requests(): Promise<LoggedRequest[]>;
  /** The same, the requests that may change something (all but GET), as "METHOD /path". */
  writes(): Promise<string[]>;
  clearRequests(): Promise<void>;
  /**
   * The README's stack `dev`, opened in this process on the folder (its Pulumi.yaml and the
   * Pulumi.dev.yaml the CLI wrote) and the backend the user logged in to, with `program` inline.
   */
  stack(program?: PulumiFn, env?: Record<string, string>): Promise<Stack>;
  /** An `onOutput` for the operations run on {@link stack}: what they print joins {@link Followed.printed}. */
  log(text: string): void;
  /** Every file the CLI wrote for the stack: the folder's Pulumi.dev.yaml, the state, its backups and history. */
  storedText(): string;
}

interface Followed extends Session {
  shell: Shell;
  /** The stack config the CLI wrote. */
  stackConfig: string;
  /** What the session's commands and the operations on {@link Session.stack} printed. */
  printed: string;
}

interface Variant {
  /** The folder's name under the work folder (one per run). */
  name: string;
  /** The emulator command, when the README gives another one in its prose (the hosted edition). */
  emulatorCommand?: string;
  /** Line replacements in the session block that the README's prose tells the user to make. */
  replace?: [string, string][];
  /**
   * An earlier run of the same README whose install this one reuses (its package.json, lock and
   * packages), as a user who follows the README's prose a second time has installed already.
   */
  installedAs?: string;
  /** What the test does at each stop; at the others the session goes on at once. */
  stops?: Partial<Record<StopName, (session: Session) => Promise<void>>>;
}

let cli: Promise<PulumiCommand> | undefined;

/**
 * Lets a session waiting at a stop go on: "go" on the stop's own FIFO (the shim makes one per stop).
 * Opened without blocking (a blocking open of a FIFO can hang the process), so until the shim has
 * opened its end, it tries again.
 */
async function resumeSession(fifo: string, child: ChildProcess, shell: () => string): Promise<void> {
  for (;;) {
    let fd: number;
    try {
      fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENXIO") throw e;
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the session ended (exit ${String(child.exitCode)}, signal ${String(child.signalCode)}) at a stop\n${shell()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    try {
      fs.writeSync(fd, "go\n");
    } finally {
      fs.closeSync(fd);
    }
    return;
  }
}

/**
 * Runs the session `script` in bash (see {@link bash}) with the shim's stops on: at each stop runs
 * `onStop`, then lets the session go on. A failing check ends the session (and fails the test).
 */
async function runSession(script: string, cwd: string, env: NodeJS.ProcessEnv, onStop: (name: string) => Promise<void>): Promise<Shell> {
  const stops = fs.mkdtempSync(path.join(work, "stops-"));
  fs.writeFileSync(path.join(stops, "stops"), "");
  const child = spawn("bash", ["-c", `set -e -o pipefail\n${script}`], {
    cwd, env: { ...env, WSBRIDGE_README_STOPS: stops }, stdio: ["ignore", "pipe", "pipe"], detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  let code: number | null | undefined;
  const closed = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c) => {
      code = c;
      resolve();
    });
  });
  let handled = 0;
  let failure: unknown;
  while (code === undefined && failure === undefined) {
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 200))]);
    const lines = fs.readFileSync(path.join(stops, "stops"), "utf8").split("\n").slice(0, -1);
    for (; handled < lines.length && failure === undefined; handled++) {
      try {
        await onStop(lines[handled] ?? "");
        await resumeSession(path.join(stops, `resume-${handled + 1}`), child, () => `stopped at: ${lines.slice(0, handled + 1).join(", ")}\n--- stderr\n${stderr}\n--- stdout\n${stdout.slice(-4000)}`);
      } catch (e) {
        failure = e;
      }
    }
  }
  if (failure !== undefined) {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    await closed;
    throw failure;
  }
  await closed;
  return { code: code ?? null, stdout, stderr };
}

/**
 * Follows an example's README: copy the folder, install the tarball as the README says, start the
 * emulator from the folder, paste its three lines after `export` and run the session block, stopping
 * where `variant.stops` asks. The emulator stays up until `check` has looked at it.
 */
async function followReadme(example: string, variant: Variant, check: (run: Followed) => Promise<void>): Promise<void> {
  const text = readme(example);
  const folder = path.join(work, variant.name);
  const home = path.join(work, `${variant.name}.home`);
  const runLog = path.join(work, `${variant.name}.runs.jsonl`);
  fs.mkdirSync(home);
  copyWorkingTree(`examples/${example}`, folder);
  const env = terminalEnv(home, runLog);

  // Install: the README's tarball line, with the path of the tarball this test packed.
  expect(blocksOf(example, "install")).toHaveLength(1);
  const installLine = /`(npm install \/path\/to\/pulumi-wsbridge-[\d.]+\.tgz)`/.exec(text)?.[1];
  expect(installLine).toBeDefined();
  if (variant.installedAs !== undefined) {
    // The same README followed again: the folder as that run's install left it.
    const installed = path.join(work, variant.installedAs);
    for (const file of ["package.json", "package-lock.json"]) fs.copyFileSync(path.join(installed, file), path.join(folder, file));
    execFileSync("cp", ["-al", path.join(installed, "node_modules"), path.join(folder, "node_modules")]);
  } else {
    // Only the first folder downloads; the others start from its packages (hard links) and npm checks them.
    if (installedOnce !== undefined) execFileSync("cp", ["-al", path.join(installedOnce, "node_modules"), path.join(folder, "node_modules")]);
    expectSuccess(await bash((installLine ?? "").replace(/\/path\/to\/\S+\.tgz/, tarball), folder, env), installLine ?? "");
    installedOnce ??= folder;
  }

  // The emulator, from the folder the README names: its block, or its command in the prose.
  const [emulatorBlock] = blocksOf(example, "emulator");
  const inProse = /in one terminal, in this folder \(after `npm install`[^)]*\),? `(npx wsbridge-emulator[^`]*)`/i.exec(text)?.[1];
  expect({ example, folderNamed: emulatorBlock === undefined ? inProse !== undefined : /in one terminal, in this folder \(after `npm install`/i.test(emulatorBlock.before) })
    .toEqual({ example, folderNamed: true });
  const emulator = await startEmulator(variant.emulatorCommand ?? emulatorBlock?.text ?? inProse ?? "", folder, env);
  try {
    const { url, token, organization } = emulator.settings;
    // What the user pastes: the three lines after `export` (where the block begins with that line
    // with `…` in place of the values, it is that line, filled in).
    const pasted = `export WSBRIDGE_EMULATOR_URL=${url} WSBRIDGE_EMULATOR_TOKEN=${token} WSBRIDGE_EMULATOR_ORGANIZATION=${organization}`;
    const sessions = blocksOf(example, "session");
    expect(sessions).toHaveLength(1);
    let script = (sessions[0]?.text ?? "").replace(/^export WSBRIDGE_EMULATOR_URL=….*$/m, "");
    for (const [from, to] of variant.replace ?? []) {
      expect(script).toContain(from);
      script = script.replace(from, to);
    }

    const get = async (apiPath: string): Promise<{ status: number; body: unknown }> => {
      // A new connection each time: the emulator may have closed an idle one while the shell ran.
      const res = await request(`${url}${apiPath}`, { headers: { authorization: `Bearer ${token}` }, reset: true });
      const body = await res.body.text();
      return { status: res.statusCode, body: body === "" ? undefined : (JSON.parse(body) as unknown) };
    };
    const requests = async (): Promise<LoggedRequest[]> => (await get("/_emulator/requests")).body as LoggedRequest[];
    let printed = "";
    const session: Session = {
      folder, home, emulator: emulator.settings, get, requests,
      runs: () => fs.existsSync(runLog) ? fs.readFileSync(runLog, "utf8").trim().split("\n").map((line) => JSON.parse(line) as RunRecord) : [],
      writes: async () => (await requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`),
      clearRequests: async () => {
        const res = await request(`${url}/_emulator/requests`, { method: "DELETE", reset: true });
        await res.body.dump();
        expect(res.statusCode).toBe(204);
      },
      stack: async (program, extraEnv = {}) => {
        const workspace = await LocalWorkspace.create({
          workDir: folder,
          pulumiCommand: await (cli ??= PulumiCommand.get({ root: cliRoot })),
          ...(program === undefined ? {} : { program }),
          envVars: {
            ...Object.fromEntries(CREDENTIAL_VARIABLES.map((name) => [name, ""])),
            HOME: home,
            PULUMI_HOME: path.join(home, ".pulumi"),
            PULUMI_BACKEND_URL: `file://${home}`,
            PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            PATH: [path.join(cliRoot, "bin"), process.env["PATH"] ?? ""].join(path.delimiter),
            ...extraEnv,
          },
        });
        return Stack.select("dev", workspace);
      },
      log: (line) => {
        printed += line;
      },
      storedText: () => [path.join(folder, "Pulumi.dev.yaml"), ...fs.readdirSync(home, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))]
        .map((file) => fs.readFileSync(file, "utf8")).join("\n"),
    };

    const stopped: string[] = [];
    const shell = await runSession(`${pasted}\n${script}`, folder, env, async (name) => {
      stopped.push(name);
      await variant.stops?.[name as StopName]?.(session);
    });
    expectSuccess(shell, `examples/${example}'s README session`);
    // Every stop the test meant to check at was reached (a README that lost a command fails here).
    expect(Object.keys(variant.stops ?? {}).filter((name) => !stopped.includes(name))).toEqual([]);
    await check({
      ...session, shell,
      stackConfig: fs.readFileSync(path.join(folder, "Pulumi.dev.yaml"), "utf8"),
      printed: `${shell.stdout}${shell.stderr}${printed}`,
    });
  } finally {
    emulator.stop();
  }
}

function workspacePath(emulator: Emulator, name: string): string {
  return `/api/v2/organizations/${emulator.organization}/workspaces/${name}`;
}

type Doc = { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };

/** A workspace by name, as an outside client reads it. */
async function workspace(session: Session, name: string): Promise<{ status: number; data?: Doc }> {
  const res = await session.get(workspacePath(session.emulator, name));
  return { status: res.status, data: (res.body as { data?: Doc } | undefined)?.data };
}

async function listData(session: Session, apiPath: string): Promise<Doc[]> {
  return ((await session.get(`/api/v2${apiPath}`)).body as { data?: Doc[] } | undefined)?.data ?? [];
}

async function tagBindings(session: Session, workspaceId: string): Promise<Record<string, unknown>> {
  return Object.fromEntries((await listData(session, `/workspaces/${workspaceId}/tag-bindings`)).map((b) => [b.attributes["key"], b.attributes["value"]]));
}

/** The id a to-one relationship points at (e.g. a workspace's project). */
function related(resource: Doc | undefined, name: string): unknown {
  return (resource?.relationships?.[name]?.data as { id?: string } | null | undefined)?.id;
}

/** A workspace's page, as the outputs give it. */
function page(emulator: Emulator, name: string): string {
  return `${emulator.url}/app/${emulator.organization}/workspaces/${name}`;
}

/** The token went into the stack config as a secret: encrypted, never as it is. */
function expectTokenEncrypted(run: Followed): void {
  expect(run.stackConfig).toMatch(/wsbridge:token:\n\s+secure: /);
  expect(run.stackConfig).not.toContain(run.emulator.token);
}

/**
 * What the README's `pulumi destroy` did, from the files the CLI wrote in the backend the user logged in
 * to: the last update's kind and change counts (the history `pulumi stack history` reads), and the
 * dynamic resources left in the stack's state.
 */
function destroyed(run: Session): { kind: string; resourceChanges?: Record<string, number>; left: string[] } {
  const project = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(run.folder, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
  const backend = path.join(run.home, ".pulumi");
  const history = path.join(backend, "history", project, "dev");
  const [last] = fs.readdirSync(history).map((f) => /^dev-(\d+)\.history\.json$/.exec(f)?.[1]).filter((n) => n !== undefined)
    .sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1));
  const update = JSON.parse(fs.readFileSync(path.join(history, `dev-${last ?? ""}.history.json`), "utf8")) as
    { kind: string; resourceChanges?: Record<string, number> };
  const state = JSON.parse(fs.readFileSync(path.join(backend, "stacks", project, "dev.json"), "utf8")) as
    { checkpoint?: { latest?: { resources?: { type: string }[] } } };
  const left = (state.checkpoint?.latest?.resources ?? []).map((r) => r.type).filter((t) => t.startsWith(TYPE("")));
  return { kind: update.kind, ...(update.resourceChanges === undefined ? {} : { resourceChanges: update.resourceChanges }), left };
}

/** Every run's printed text and emulator token, for the last test. */
const followed: { example: string; printed: string; token: string }[] = [];

beforeAll(() => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-readmes-")));
  cliRoot = pulumiCliRoot();
  tarball = packBuiltTree(work);
}, 600_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("every README's shell blocks are the install, the emulator, one emulator session, or for the real service", () => {
  const roles = Object.fromEntries(["quickstart", "workspaces", "ci", "platform"].map((example) =>
    [example, shellBlocks(readme(example)).map(roleOf)]));
  expect(roles).toEqual({
    quickstart: ["install", "real service", "emulator", "session"],
    workspaces: ["install", "emulator", "session"],
    ci: ["install", "real service", "session"],
    platform: ["install", "emulator", "session"],
  });
  expect(fs.readdirSync(path.join(repoRoot, "examples")).sort()).toEqual(["ci", "platform", "quickstart", "workspaces"]);
});

test("each example's Pulumi.yaml names its project: its config keys live in that namespace", () => {
  const names = Object.fromEntries(["quickstart", "workspaces", "ci", "platform"].map((example) =>
    [example, /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(repoRoot, "examples", example, "Pulumi.yaml"), "utf8"))?.[1]]));
  expect(names).toEqual({ quickstart: "wsbridge-quickstart", workspaces: "wsbridge-workspaces", ci: "wsbridge-ci", platform: "wsbridge-platform" });
});

test("the CLI refuses a realistic OAuth token id set without --plaintext (the line examples/workspaces had): the README says --plaintext", async () => {
  const folder = path.join(work, "refused");
  const home = path.join(work, "refused.home");
  fs.mkdirSync(home);
  copyWorkingTree("examples/workspaces", folder);
  const env = terminalEnv(home, path.join(work, "refused.runs.jsonl"));
  const setup = "pulumi login --local\npulumi stack init dev\n";
  const old = await bash(`${setup}OAUTH_TOKEN_ID=${REALISTIC_OAUTH_TOKEN_ID}\npulumi config set oauthTokenId "$OAUTH_TOKEN_ID"`, folder, env);
  expect(old.code).not.toBe(0);
  expect(old.stderr).toContain("looks like a secret; rerun with --secret to encrypt it, or --plaintext");
  // The README's line, as it reads now, with the same id.
  const line = /^pulumi config set .*oauthTokenId "\$OAUTH_TOKEN_ID".*$/m.exec(blocksOf("workspaces", "session")[0]?.text ?? "")?.[0];
  expect(line).toContain("--plaintext");
  expectSuccess(await bash(`OAUTH_TOKEN_ID=${REALISTIC_OAUTH_TOKEN_ID}\n${line ?? ""}`, folder, env), line ?? "");
  expect(fs.readFileSync(path.join(folder, "Pulumi.dev.yaml"), "utf8")).toContain(`wsbridge-workspaces:oauthTokenId: ${REALISTIC_OAUTH_TOKEN_ID}`);
}, 120_000);

describe("examples/quickstart", () => {
  const NAME = "quickstart-networking";
  /** What examples/quickstart/index.ts does, as a function: inline programs run once per operation. */
  const quickstart: PulumiFn = async () => {
    const { program, readConfig } = await import("../../examples/quickstart/program");
    return program(readConfig(new pulumi.Config()));
  };

  test("the session runs as typed: up creates the workspace as declared, a second preview changes nothing, destroy deletes only it", async () => {
    let workspaceId = "";
    await followReadme("quickstart", {
      name: "quickstart",
      stops: {
        "after up": async (s) => {
          const ws = (await workspace(s, NAME)).data;
          if (!ws) throw new Error(`${NAME} is missing on the emulator`);
          workspaceId = ws.id;
          expect(ws.attributes["description"]).toBe("VPCs and peering, managed by pulumi-wsbridge");
          const outputs = s.runs()[0]?.outputs ?? {};
          expect(outputs["workspaceId"]).toBe(ws.id);
          expect(outputs["organization"]).toBe(s.emulator.organization);
          // Not declared: the organization's default, as the server reports it.
          expect(outputs["executionMode"]).toBe(ws.attributes["execution-mode"]);
          expect(outputs["executionMode"]).toBe("remote");
          expect(outputs["workspaceUrl"]).toBe(page(s.emulator, NAME));

          // A second preview shows no changes and sends no mutating request.
          await s.clearRequests();
          const preview = await (await s.stack(quickstart)).preview({ onOutput: s.log, diff: true });
          expect(preview.changeSummary).toEqual({ same: 2 });
          expect(await s.writes()).toEqual([]);
        },
        "before destroy": async (s) => s.clearRequests(),
      },
    }, async (run) => {
      expect(run.runs().map((r) => [r.command, r.changes])).toEqual([["up", { create: 2 }]]);
      expect(run.runs()[0]?.outputs?.["workspaceId"]).toMatch(/^ws-[A-Za-z0-9]{16}$/);
      expect(run.shell.stdout).toContain("Destroying (dev)");
      // destroy deleted the workspace with one request, and emptied the state.
      expect(await run.writes()).toEqual([`POST /api/v2/workspaces/${workspaceId}/actions/safe-delete`]);
      expect((await workspace(run, NAME)).status).toBe(404);
      expect(destroyed(run)).toEqual({ kind: "destroy", resourceChanges: { delete: 2 }, left: [] });
      expectTokenEncrypted(run);
      followed.push({ example: "quickstart", printed: run.printed, token: run.emulator.token });
    });
  }, 600_000);
});

describe("examples/workspaces", () => {
  const NAMES = { network: "platform-network", cluster: "platform-clusters", sandbox: "platform-sandbox" };
  const SHARED = "shared-dns";
  /** What examples/workspaces/index.ts does, as a function. */
  const workspaces: PulumiFn = async () => {
    const { program, readConfig } = await import("../../examples/workspaces/program");
    return program(readConfig(new pulumi.Config()));
  };

  test("the setup calls, the config (a realistic OAuth token id included) and up run as typed: a first preview only reads, up creates the declared settings, destroy leaves shared-dns", async () => {
    let sharedBefore: Doc | undefined;
    await followReadme("workspaces", {
      name: "workspaces",
      stops: {
        "before up": async (s) => {
          sharedBefore = (await workspace(s, SHARED)).data;
          expect(sharedBefore?.id).toMatch(/^ws-/);
          // The first preview plans the three workspaces and only reads from the service (the lookup).
          await s.clearRequests();
          const preview = await (await s.stack(workspaces)).preview({ onOutput: s.log });
          expect(preview.changeSummary).toEqual({ create: 4 }); // the stack and three workspaces
          expect((await s.requests()).map((r) => `${r.method} ${r.path}`)).toContain(`GET ${workspacePath(s.emulator, SHARED)}`);
          expect(await s.writes()).toEqual([]);
        },
        "after up": async (s) => {
          const config = fs.readFileSync(path.join(s.folder, "Pulumi.dev.yaml"), "utf8");
          const setting = (key: string): string => new RegExp(`^  wsbridge-workspaces:${key}: (\\S+)$`, "m").exec(config)?.[1] ?? "";
          const [network, cluster, sandbox] = await Promise.all([NAMES.network, NAMES.cluster, NAMES.sandbox].map(async (n) => (await workspace(s, n)).data));
          if (!network || !cluster || !sandbox) throw new Error("a workspace of the example is missing on the emulator");

          // VCS: repository, OAuth connection, branch, working directory, trigger prefixes / patterns.
          expect(network.attributes["vcs-repo"]).toEqual(expect.objectContaining({
            identifier: "acme/platform-infra", "oauth-token-id": setting("oauthTokenId"), branch: "main",
          }));
          expect(network.attributes["working-directory"]).toBe("network");
          // Sets: the provider sends them in one canonical order.
          expect([...(network.attributes["trigger-prefixes"] as string[])].sort()).toEqual(["modules/shared/", "modules/vpc/"]);
          expect(network.attributes["global-remote-state"]).toBe(true);
          expect([...(cluster.attributes["trigger-patterns"] as string[])].sort()).toEqual(["clusters/**/*.tf", "modules/k8s/**/*"]);

          // Agent execution, and the project.
          expect(cluster.attributes["execution-mode"]).toBe("agent");
          expect(related(cluster, "agent-pool")).toBe(setting("agentPoolId"));
          expect(related(network, "project")).toBe(setting("projectId"));
          expect(related(cluster, "project")).toBe(setting("projectId"));
          expect(related(sandbox, "project")).not.toBe(setting("projectId")); // left out: the default project
          expect(sandbox.attributes["execution-mode"]).toBe("local");
          expect(sandbox.attributes["auto-destroy-activity-duration"]).toBe("14d");

          // Key-value and flat tags.
          expect(await tagBindings(s, network.id)).toEqual({ team: "platform", "cost-center": "cc-1042", env: "prod", layer: "network" });
          expect(await tagBindings(s, sandbox.id)).toEqual({ team: "platform", "cost-center": "cc-1042", env: "sandbox" });
          expect([...(network.attributes["tag-names"] as string[])].sort()).toEqual(["network", "platform"]);
          expect([...(cluster.attributes["tag-names"] as string[])].sort()).toEqual(["kubernetes", "platform"]);

          // The dependencies: one workspace's id, and the looked-up one's, in descriptions.
          expect(cluster.attributes["description"]).toBe(
            `Kubernetes clusters; reads subnet ids from ${NAMES.network} (${network.id}) via remote state`,
          );
          expect(sandbox.attributes["description"]).toBe(
            `Experiments against the zones of ${SHARED} (${sharedBefore?.id ?? ""}); destroyed after 14 idle days`,
          );

          // Stack outputs.
          const out = s.runs()[0]?.outputs ?? {};
          expect(out["networkWorkspaceId"]).toBe(network.id);
          expect(out["clusterWorkspaceId"]).toBe(cluster.id);
          expect(out["sandboxWorkspaceId"]).toBe(sandbox.id);
          expect(out["clusterExecutionMode"]).toBe("agent");
          expect(out["sharedWorkspaceId"]).toBe(sharedBefore?.id);
          expect(out["networkUrl"]).toBe(page(s.emulator, NAMES.network));
          expect(out["clusterUrl"]).toBe(page(s.emulator, NAMES.cluster));
          expect(out["sandboxUrl"]).toBe(page(s.emulator, NAMES.sandbox));
          expect(out["sharedWorkspaceUrl"]).toBe(page(s.emulator, SHARED));

        },
      },
    }, async (run) => {
      // The ids the setup calls returned, in the config the CLI wrote: realistic, plaintext.
      expect(run.stackConfig).toMatch(/wsbridge-workspaces:oauthTokenId: ot-[A-Za-z0-9]{16}\n/);
      expect(run.stackConfig).toMatch(/wsbridge-workspaces:projectId: prj-[A-Za-z0-9]{16}\n/);
      expect(run.stackConfig).toMatch(/wsbridge-workspaces:agentPoolId: apool-[A-Za-z0-9]{16}\n/);
      expectTokenEncrypted(run);
      expect(run.runs().map((r) => [r.command, r.changes])).toEqual([["up", { create: 4 }]]);
      // destroy removed exactly the program's workspaces; the looked-up one stays untouched.
      expect(destroyed(run)).toEqual({ kind: "destroy", resourceChanges: { delete: 4 }, left: [] });
      for (const name of Object.values(NAMES)) {
        expect({ name, status: (await workspace(run, name)).status }).toEqual({ name, status: 404 });
      }
      const shared = await workspace(run, SHARED);
      expect(shared.status).toBe(200);
      expect(shared.data?.attributes).toEqual(sharedBefore?.attributes);
      followed.push({ example: "workspaces", printed: run.printed, token: run.emulator.token });
    });
  }, 600_000);
});

describe("examples/ci, with the provider's settings in the environment as pull-request.yml passes them", () => {
  const NAME = "service-prod";
  const VARIABLES = ["WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION"] as const;
  /** What examples/ci/index.ts does, as a function. */
  const ci: PulumiFn = async () => {
    const { program, readConfig } = await import("../../examples/ci/program");
    return program(readConfig(new pulumi.Config()));
  };

  test("the session runs as typed: up binds the tags as declared, a read-only preview of the unchanged program and then of the README's change only read, destroy unbinds then deletes", async () => {
    let workspaceId = "";
    const saved: Partial<Record<(typeof VARIABLES)[number], string>> = {};
    for (const name of VARIABLES) saved[name] = process.env[name];
    try {
      await followReadme("ci", {
        name: "ci",
        stops: {
          "after up": async (s) => {
            const ws = (await workspace(s, NAME)).data;
            if (!ws) throw new Error(`${NAME} is missing on the emulator`);
            workspaceId = ws.id;
            expect(ws.attributes["description"]).toBe(
              "Managed by Pulumi: previewed read-only on pull requests, deployed from the default branch by GitHub Actions",
            );
            const tags = { team: "platform", env: "dev", "deployed-by": "github-actions" };
            expect(await tagBindings(s, ws.id)).toEqual(tags);
            const out = s.runs()[0]?.outputs ?? {};
            expect(out["workspaceId"]).toBe(ws.id);
            expect(out["workspaceName"]).toBe(NAME);
            expect(out["workspaceUrl"]).toBe(page(s.emulator, NAME));
            expect(out["tagBindingsId"]).toMatch(new RegExp(`^${ws.id}:[0-9a-f]{12}$`));
            expect(out["tags"]).toEqual(tags);

            // The pull-request job's preview of an unchanged program, with a read-only team token from
            // the environment (no wsbridge:* config at all): no changes, nothing written. In a real run
            // the program and the provider share the CLI's environment; an inline program runs in this
            // process, so it gets the address and organization here (it never needs the token).
            process.env["WSBRIDGE_ADDRESS"] = s.emulator.url;
            process.env["WSBRIDGE_ORGANIZATION"] = s.emulator.organization;
            const issued = await request(`${s.emulator.url}/_emulator/tokens`, {
              method: "POST", body: JSON.stringify({ kind: "team", access: "read" }), headers: { "content-type": "application/json" }, reset: true,
            });
            const readOnly = ((await issued.body.json()) as { token: string }).token;
            await s.clearRequests();
            const stack = await s.stack(ci, { WSBRIDGE_ADDRESS: s.emulator.url, WSBRIDGE_TOKEN: readOnly, WSBRIDGE_ORGANIZATION: s.emulator.organization });
            expect((await stack.preview({ onOutput: s.log, diff: true })).changeSummary).toEqual({ same: 3 });
            expect(await s.writes()).toEqual([]);
            await s.clearRequests();
          },
          "before destroy": async (s) => {
            expect(s.runs().map((r) => [r.command, r.changes])).toEqual([
              ["up", { create: 3 }],
              ["preview", { same: 2, update: 1 }], // the env tag's change
            ]);
            // The README's preview of the change read the workspace's bindings (for the limit of 10) with
            // the read-only team token, and sent nothing else.
            expect((await s.requests()).map((r) => `${r.method} ${r.path} ${r.tokenKind ?? "none"}`))
              .toEqual([`GET /api/v2/workspaces/${workspaceId}/tag-bindings team`]);
            await s.clearRequests();
          },
        },
      }, async (run) => {
        expect(run.runs()[0]?.outputs?.["tags"]).toEqual({ team: "platform", env: "dev", "deployed-by": "github-actions" });
        // destroy unbound the tags, then deleted the workspace, and emptied the state.
        expect(await run.writes()).toEqual([
          `PATCH /api/v2/workspaces/${workspaceId}`,
          `POST /api/v2/workspaces/${workspaceId}/actions/safe-delete`,
        ]);
        expect((await workspace(run, NAME)).status).toBe(404);
        expect(destroyed(run)).toEqual({ kind: "destroy", resourceChanges: { delete: 3 }, left: [] });
        // The token from the environment is stored nowhere: not in the stack's config, state or backups.
        // The provider's settings came from the environment alone: no wsbridge:* config at all.
        expect(run.stackConfig).toMatch(/wsbridge-ci:env: dev\n/);
        expect(run.stackConfig).not.toContain("wsbridge:");
        expect(run.stackConfig).not.toContain(run.emulator.token);
        const stored = run.storedText();
        expect(stored).toContain(NAME); // the state really was read
        expect(stored).not.toContain(run.emulator.token);
        followed.push({ example: "ci", printed: run.printed, token: run.emulator.token });
      });
    } finally {
      for (const name of VARIABLES) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  }, 600_000);
});

describe("examples/platform, all seven kinds, in both editions", () => {
  const EXAMPLE = path.join(repoRoot, "examples/platform");
  const NAMES = { network: "platform-network", app: "platform-app", appStaging: "platform-app-staging" };
  const PROJECT_ID = "prj-platform000000001";
  const SSH_KEY_ID = "sshkey-platformdeploy1";
  type Edit = (s: PlatformSettings) => PlatformSettings;
  /** What the program's next run changes in the settings read from config (the "edit" of a user). */
  let edit: Edit = (s) => s;
  /** What examples/platform/index.ts does, as a function, with {@link edit} applied. */
  const platform: PulumiFn = async () => {
    const { program, readConfig } = await import("../../examples/platform/program");
    return program(edit(readConfig(new pulumi.Config(), new pulumi.Config("wsbridge"))));
  };
  const requestCounts: Record<string, number> = {};

  /** The registry's view of a module version: its deprecation (absent when none). */
  async function registryVersion(s: Session, version: string): Promise<Record<string, unknown>> {
    const res = await s.get(`/api/registry/v1/modules/${s.emulator.organization}/vpc/aws/${version}`);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  }

  /**
   * The steps other than "same": the inputs whose values differ (a dynamic provider returns no
   * per-property diff, so these are what the CLI shows) and the engine's replace keys.
   */
  function changes(events: EngineEvent[]): { name: string; op: string; changedInputs: string[]; replaceKeys: string[] }[] {
    return events.flatMap((e) => {
      const m = e.resourcePreEvent?.metadata;
      if (!m || m.op === "same" || !m.type.startsWith(TYPE(""))) return [];
      const before = m.old?.inputs ?? {};
      const after = m.new?.inputs ?? {};
      const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== "__provider");
      return [{
        name: m.urn.split("::").pop() ?? "", op: m.op,
        changedInputs: keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort(),
        replaceKeys: [...(m.keys ?? [])].sort(),
      }];
    });
  }

  afterAll(() => {
    // The measured request counts, for the table in docs/examples.md.
    console.log(`examples/platform request counts (self-managed): ${JSON.stringify(requestCounts)}`);
  });

  describe("the program from the repository, on a stack of its own before anything exists", () => {
    const fresh = useRealCliStack({
      projectName: "wsbridge-platform",
      emulator: { quiet: true, edition: "self-managed", fixtures: path.join(EXAMPLE, "fixtures.json") },
      // Only the provider's settings: every setting of the example keeps its default (fixtures.json's ids).
      config: { "wsbridge:edition": { value: "self-managed" } },
      program: platform,
    });

    test("preview plans all seven kinds and only reads from the service", async () => {
      fresh.emulator.clearRequests();
      const preview = await fresh.stack.preview({ onOutput: fresh.log });
      // The stack, 3 workspaces, 2 tag binding sets, consumers, key, policy, lock, deprecation.
      expect(preview.changeSummary).toEqual({ create: 11 });
      expect(fresh.writes()).toEqual([]);
      followed.push({ example: "platform (repository)", printed: fresh.printed, token: fresh.emulator.token });
    });
  });

  test("self-managed: the session runs as typed; up creates everything as declared, a second preview and a refresh change nothing, an edit previews as update, update and replace, destroy removes everything in dependency order", async () => {
    const ids: Record<string, string> = {};
    await followReadme("platform", {
      name: "platform-self-managed",
      stops: {
        "after up": async (s) => {
          requestCounts["up"] = (await s.requests()).length;
          const [network, app, staging] = await Promise.all([NAMES.network, NAMES.app, NAMES.appStaging].map(async (n) => (await workspace(s, n)).data));
          if (!network || !app || !staging) throw new Error("a workspace of the example is missing on the emulator");
          Object.assign(ids, { network: network.id, app: app.id, appStaging: staging.id });
          for (const ws of [network, app, staging]) expect(related(ws, "project")).toBe(PROJECT_ID);

          expect(await tagBindings(s, network.id)).toEqual({ team: "platform", layer: "network" });
          expect(await tagBindings(s, app.id)).toEqual({ team: "apps", "cost-center": "cc-1042", env: "prod" });
          expect(await tagBindings(s, staging.id)).toEqual({ team: "apps", env: "staging" });

          const consumers = await listData(s, `/workspaces/${network.id}/relationships/remote-state-consumers`);
          expect(consumers.map((c) => c.id).sort()).toEqual([app.id, staging.id].sort());
          expect(related(app, "ssh-key")).toBe(SSH_KEY_ID);
          const policy = await s.get(`/api/v2/workspaces/${network.id}/relationships/data-retention-policy`);
          expect((policy.body as { data: Doc }).data.attributes["delete-older-than-n-days"]).toBe(30);
          expect(staging.attributes["locked"]).toBe(true);
          expect(staging.attributes["locked-reason"]).toBe("release 2.4 under verification");
          expect(app.attributes["locked"]).toBe(false);
          const deprecated = (await registryVersion(s, "1.0.0"))["deprecation"] as { reason: string; link: string };
          expect(deprecated.link).toBe("https://example.com/modules/vpc/upgrade-to-1.1");
          expect(deprecated.reason.startsWith("1.0.0 opens port 22 to the world; use 1.1.0 or later")).toBe(true);
          expect((await registryVersion(s, "1.1.0"))["deprecation"]).toBeUndefined();

          // What a reviewer reads in the stack outputs.
          const out = s.runs()[0]?.outputs ?? {};
          expect(out["workspaces"]).toEqual({
            network: { id: network.id, name: NAMES.network, url: page(s.emulator, NAMES.network) },
            app: { id: app.id, name: NAMES.app, url: page(s.emulator, NAMES.app) },
            appStaging: { id: staging.id, name: NAMES.appStaging, url: page(s.emulator, NAMES.appStaging) },
          });
          expect(out["stateReaders"]).toEqual({ [NAMES.network]: [NAMES.app, NAMES.appStaging] });
          expect(out["sshKey"]).toEqual({ workspace: NAMES.app, sshKeyId: SSH_KEY_ID });
          expect(out["lock"]).toEqual({ workspace: NAMES.appStaging, locked: true, reason: "release 2.4 under verification", heldByThisStack: true });
          expect(out["dataRetention"]).toEqual({ workspace: NAMES.network, deleteOlderThanNDays: 30 });
          expect(out["deprecation"]).toEqual({ moduleSource: `${s.emulator.organization}/vpc/aws`, version: "1.0.0", reason: deprecated.reason, link: deprecated.link });

          // A second preview changes nothing and sends no mutating request; a refresh finds nothing changed.
          const stack = await s.stack(platform);
          await s.clearRequests();
          const preview = await stack.preview({ onOutput: s.log, diff: true });
          requestCounts["noOpPreview"] = (await s.requests()).length;
          expect(preview.changeSummary).toEqual({ same: 11 });
          expect(await s.writes()).toEqual([]);
          await s.clearRequests();
          const refresh = await stack.refresh({ onOutput: s.log });
          requestCounts["refresh"] = (await s.requests()).length;
          expect(refresh.summary.resourceChanges).toEqual({ same: 11 });
          expect(await s.writes()).toEqual([]);

          // A changed description, tag value and deprecated version preview as update, update and
          // replace of exactly those properties.
          edit = (settings) => ({
            ...settings,
            appDescription: "The application, now on three availability zones",
            costCenter: "cc-2077",
            deprecation: { ...settings.deprecation, version: "1.1.0" },
          });
          const events: EngineEvent[] = [];
          await s.clearRequests();
          try {
            await stack.preview({ onOutput: s.log, onEvent: (e) => events.push(e) });
          } finally {
            edit = (settings) => settings;
          }
          const steps = changes(events);
          const byName = (name: string) => steps.filter((step) => step.name === name).map(({ op, changedInputs, replaceKeys }) => ({ op, changedInputs, replaceKeys }));
          expect(steps.map((step) => step.name).sort()).toEqual(["app", "app-tags", "vpc-deprecation", "vpc-deprecation", "vpc-deprecation"]);
          expect(byName("app")).toEqual([{ op: "update", changedInputs: ["description"], replaceKeys: [] }]);
          expect(byName("app-tags")).toEqual([{ op: "update", changedInputs: ["tags"], replaceKeys: [] }]);
          // The new version is deprecated before the old one is reinstated (create before delete).
          expect(byName("vpc-deprecation").map((step) => step.op)).toEqual(["create-replacement", "replace", "delete-replaced"]);
          expect(byName("vpc-deprecation")[1]).toEqual({ op: "replace", changedInputs: ["version"], replaceKeys: ["version"] });
          expect(await s.writes()).toEqual([]);
        },
        "before destroy": async (s) => s.clearRequests(),
      },
    }, async (run) => {
      expect(run.runs().map((r) => [r.command, r.changes])).toEqual([["up", { create: 11 }]]);
      expect(run.runs()[0]?.outputs?.["dataRetention"]).toEqual({ workspace: NAMES.network, deleteOlderThanNDays: 30 });
      expectTokenEncrypted(run);

      // destroy removed everything in dependency order: each workspace's delete comes after every
      // write to it, and after the consumer list that names it.
      const sent = await run.writes();
      requestCounts["destroy"] = (await run.requests()).length;
      expect(destroyed(run)).toEqual({ kind: "destroy", resourceChanges: { delete: 11 }, left: [] });
      const consumersWrite = sent.findIndex((w) => w.includes(`/workspaces/${ids["network"] ?? "?"}/relationships/remote-state-consumers`));
      expect(consumersWrite).toBeGreaterThanOrEqual(0);
      expect(Object.keys(ids)).toHaveLength(3);
      for (const id of Object.values(ids)) {
        const deleted = sent.indexOf(`POST /api/v2/workspaces/${id}/actions/safe-delete`);
        expect(deleted).toBeGreaterThan(consumersWrite);
        expect(sent.slice(deleted + 1).filter((w) => w.includes(id))).toEqual([]);
        expect(sent.slice(0, deleted).filter((w) => w.includes(id)).length).toBeGreaterThan(0); // its attachments went first
      }
      expect(sent).toContain(`POST /api/v2/workspaces/${ids["appStaging"] ?? "?"}/actions/unlock`);
      for (const name of Object.values(NAMES)) expect({ name, status: (await workspace(run, name)).status }).toEqual({ name, status: 404 });
      expect((await registryVersion(run, "1.0.0"))["deprecation"]).toBeUndefined();
      expect((await registryVersion(run, "1.1.0"))["deprecation"]).toBeUndefined();
      followed.push({ example: "platform (self-managed)", printed: run.printed, token: run.emulator.token });
    });
  }, 900_000);

  test("hosted: the README's hosted emulator command and edition setting run the same session without the retention policy, up and down", async () => {
    const text = readme("platform");
    const emulatorCommand = /\(`(npx wsbridge-emulator --fixtures fixtures\.json)`/.exec(text)?.[1];
    const editionLine = /set `(pulumi config set wsbridge:edition hosted)`/.exec(text)?.[1];
    expect([emulatorCommand, editionLine]).toEqual([expect.any(String), expect.any(String)]);
    await followReadme("platform", {
      name: "platform-hosted",
      installedAs: "platform-self-managed",
      emulatorCommand: emulatorCommand ?? "",
      replace: [["pulumi config set wsbridge:edition self-managed", editionLine ?? ""]],
      stops: {
        "after up": async (s) => {
          const staging = (await workspace(s, NAMES.appStaging)).data;
          expect(staging?.attributes["locked"]).toBe(true);
          expect((await registryVersion(s, "1.0.0"))["deprecation"]).toBeDefined();
          expect((await s.requests()).filter((r) => r.path.includes("data-retention-policy"))).toEqual([]);
        },
      },
    }, async (run) => {
      expect(run.stackConfig).toMatch(/wsbridge:edition: hosted\n/);
      expect(run.runs().map((r) => [r.command, r.changes])).toEqual([["up", { create: 10 }]]);
      expect(run.runs()[0]?.outputs?.["dataRetention"]).toBeNull();
      expect(destroyed(run)).toEqual({ kind: "destroy", resourceChanges: { delete: 10 }, left: [] });
      for (const name of Object.values(NAMES)) expect({ name, status: (await workspace(run, name)).status }).toEqual({ name, status: 404 });
      expect((await registryVersion(run, "1.0.0"))["deprecation"]).toBeUndefined();
      followed.push({ example: "platform (hosted)", printed: run.printed, token: run.emulator.token });
    });
  }, 600_000);
});

test("nothing the CLI printed, in any session or operation above, contains an emulator's token", () => {
  expect(followed.map((f) => f.example)).toEqual(["quickstart", "workspaces", "ci", "platform (repository)", "platform (self-managed)", "platform (hosted)"]);
  const tokens = followed.map((f) => f.token);
  for (const { example, printed } of followed) {
    // The output really was captured.
    expect({ example, captured: printed.includes(TYPE("Workspace")) }).toEqual({ example, captured: true });
    expect({ example, leaked: tokens.filter((token) => printed.includes(token)).length }).toEqual({ example, leaked: 0 });
  }
});

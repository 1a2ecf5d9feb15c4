// Every example's README, followed as a user types it. Each example folder is copied out of the
// repository (no link back to it), the package from `npm pack` is installed there with the README's
// own `npm install /path/to/pulumi-wsbridge-0.1.0.tgz`, the emulator is started with the README's
// command from the folder the README names (`npx` may not fetch from the registry: npm_config_yes is
// false), and the README's emulator session block runs in bash exactly as written, after the three
// `export` lines the user pastes: `pulumi login --local`, `stack init`, every `config set`, the `curl`
// setup calls, `destroy`, with the real Pulumi CLI and a file backend in a temporary HOME.
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
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { CREDENTIAL_VARIABLES, pulumiCliRoot } from "../../scripts/lib/stack-harness";
import { copyWorkingTree, packBuiltTree, repoRoot } from "../support/packed-package";

const SHIM = path.join(__dirname, "..", "support", "example-readme");
/** A realistic OAuth token id, shaped like the service's (and the emulator's). */
const REALISTIC_OAUTH_TOKEN_ID = "ot-vyGtL7YMu4dgsMTE";

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
    PULUMI_CONFIG_PASSPHRASE: "what the user types when stack init asks",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [SHIM, path.join(cliRoot, "bin"), process.env["PATH"] ?? ""].join(path.delimiter),
    WSBRIDGE_REAL_PULUMI_ROOT: cliRoot,
    WSBRIDGE_README_RUN_LOG: runLog,
  };
}

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

interface Followed {
  folder: string;
  emulator: Emulator;
  shell: Shell;
  runs: RunRecord[];
  /** The stack config the CLI wrote. */
  stackConfig: string;
  get(apiPath: string): Promise<{ status: number; body: unknown }>;
  requests(): Promise<{ method: string; path: string; tokenKind?: string }[]>;
}

interface Variant {
  /** The folder's name under the work folder (one per run). */
  name: string;
  /** The emulator command, when the README gives another one in its prose (the hosted edition). */
  emulatorCommand?: string;
  /** Line replacements in the session block that the README's prose tells the user to make. */
  replace?: [string, string][];
}

/**
 * Follows an example's README: copy the folder, install the tarball as the README says, start the
 * emulator from the folder, paste its three lines after `export` and run the session block. The
 * emulator stays up until `check` has looked at it.
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
  // Only the first folder downloads; the others start from its packages (hard links) and npm checks them.
  if (installedOnce !== undefined) execFileSync("cp", ["-al", path.join(installedOnce, "node_modules"), path.join(folder, "node_modules")]);
  expectSuccess(await bash((installLine ?? "").replace(/\/path\/to\/\S+\.tgz/, tarball), folder, env), installLine ?? "");
  installedOnce ??= folder;

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
    let session = (sessions[0]?.text ?? "").replace(/^export WSBRIDGE_EMULATOR_URL=….*$/m, "");
    for (const [from, to] of variant.replace ?? []) {
      expect(session).toContain(from);
      session = session.replace(from, to);
    }
    const shell = await bash(`${pasted}\n${session}`, folder, env);
    expectSuccess(shell, `examples/${example}'s README session`);
    const runs = fs.existsSync(runLog) ? fs.readFileSync(runLog, "utf8").trim().split("\n").map((line) => JSON.parse(line) as RunRecord) : [];
    const get = async (apiPath: string): Promise<{ status: number; body: unknown }> => {
      // A new connection each time: the emulator may have closed an idle one while the shell ran.
      const res = await request(`${url}${apiPath}`, { headers: { authorization: `Bearer ${token}` }, reset: true });
      const body = await res.body.text();
      return { status: res.statusCode, body: body === "" ? undefined : (JSON.parse(body) as unknown) };
    };
    await check({
      folder, emulator: emulator.settings, shell, runs,
      stackConfig: fs.readFileSync(path.join(folder, "Pulumi.dev.yaml"), "utf8"),
      get,
      requests: async () => (await get("/_emulator/requests")).body as { method: string; path: string; tokenKind?: string }[],
    });
  } finally {
    emulator.stop();
  }
}

function workspacePath(emulator: Emulator, name: string): string {
  return `/api/v2/organizations/${emulator.organization}/workspaces/${name}`;
}

/** The token went into the stack config as a secret: encrypted, never as it is. */
function expectTokenEncrypted(run: Followed): void {
  expect(run.stackConfig).toMatch(/wsbridge:token:\n\s+secure: /);
  expect(run.stackConfig).not.toContain(run.emulator.token);
}

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

test("examples/quickstart: the emulator session runs as typed: up creates the workspace, destroy deletes it", async () => {
  await followReadme("quickstart", { name: "quickstart" }, async (run) => {
    expect(run.runs.map((r) => [r.command, r.changes])).toEqual([["up", { create: 2 }]]);
    const outputs = run.runs[0]?.outputs ?? {};
    expect(outputs["workspaceId"]).toMatch(/^ws-[A-Za-z0-9]{16}$/);
    expect(outputs["organization"]).toBe(run.emulator.organization);
    expect(outputs["workspaceUrl"]).toBe(`${run.emulator.url}/app/${run.emulator.organization}/workspaces/quickstart-networking`);
    expect(run.shell.stdout).toContain("Destroying (dev)");
    expect((await run.get(workspacePath(run.emulator, "quickstart-networking"))).status).toBe(404);
    expectTokenEncrypted(run);
  });
}, 300_000);

test("examples/workspaces: the setup calls, the config (a realistic OAuth token id included) and up run as typed; destroy leaves shared-dns", async () => {
  await followReadme("workspaces", { name: "workspaces" }, async (run) => {
    // The ids the setup calls returned, in the config the CLI wrote: realistic, plaintext.
    expect(run.stackConfig).toMatch(/wsbridge-workspaces:oauthTokenId: ot-[A-Za-z0-9]{16}\n/);
    expect(run.stackConfig).toMatch(/wsbridge-workspaces:projectId: prj-[A-Za-z0-9]{16}\n/);
    expect(run.stackConfig).toMatch(/wsbridge-workspaces:agentPoolId: apool-[A-Za-z0-9]{16}\n/);
    expectTokenEncrypted(run);
    expect(run.runs.map((r) => [r.command, r.changes])).toEqual([["up", { create: 4 }]]);
    const outputs = run.runs[0]?.outputs ?? {};
    expect(outputs["clusterExecutionMode"]).toBe("agent");
    expect(outputs["networkWorkspaceId"]).toMatch(/^ws-/);
    const shared = await run.get(workspacePath(run.emulator, "shared-dns"));
    expect(shared.status).toBe(200);
    expect(outputs["sharedWorkspaceId"]).toBe((shared.body as { data: { id: string } }).data.id);
    for (const name of ["platform-network", "platform-clusters", "platform-sandbox"]) {
      expect({ name, status: (await run.get(workspacePath(run.emulator, name))).status }).toEqual({ name, status: 404 });
    }
  });
}, 300_000);

test("examples/ci: the session runs as typed, and its read-only preview of a change reads with the read-only token and writes nothing", async () => {
  await followReadme("ci", { name: "ci" }, async (run) => {
    expect(run.runs.map((r) => [r.command, r.changes])).toEqual([
      ["up", { create: 3 }],
      ["preview", { same: 2, update: 1 }], // the env tag's change
    ]);
    expect(run.runs[0]?.outputs?.["tags"]).toEqual({ team: "platform", env: "dev", "deployed-by": "github-actions" });
    const requests = await run.requests();
    const readOnly = requests.filter((r) => r.tokenKind === "team");
    // The preview's check of the tags read the workspace's bindings with the read-only team token...
    expect(readOnly.map((r) => `${r.method} ${r.path}`)).toEqual([
      expect.stringMatching(/^GET \/api\/v2\/workspaces\/ws-[A-Za-z0-9]{16}\/tag-bindings$/),
    ]);
    // ...and the token from the environment was stored nowhere in the folder.
    expect(run.stackConfig).not.toContain(run.emulator.token);
    expect(run.stackConfig).toMatch(/wsbridge-ci:env: dev\n/);
    expect((await run.get(workspacePath(run.emulator, "service-prod"))).status).toBe(404);
  });
}, 300_000);

describe("examples/platform, in both editions", () => {
  const WORKSPACES = ["platform-network", "platform-app", "platform-app-staging"];

  test("self-managed: the session runs as typed: up creates all seven kinds, destroy removes the workspaces", async () => {
    await followReadme("platform", { name: "platform-self-managed" }, async (run) => {
      expect(run.runs.map((r) => r.command)).toEqual(["up"]);
      expect(run.runs[0]?.changes).toEqual({ create: 11 });
      expect(run.runs[0]?.outputs?.["dataRetention"]).toEqual({ workspace: "platform-network", deleteOlderThanNDays: 30 });
      expectTokenEncrypted(run);
      for (const name of WORKSPACES) expect({ name, status: (await run.get(workspacePath(run.emulator, name))).status }).toEqual({ name, status: 404 });
    });
  }, 300_000);

  test("hosted: the README's hosted emulator command and edition setting run the same session without the retention policy", async () => {
    const text = readme("platform");
    const emulatorCommand = /\(`(npx wsbridge-emulator --fixtures fixtures\.json)`/.exec(text)?.[1];
    const editionLine = /set `(pulumi config set wsbridge:edition hosted)`/.exec(text)?.[1];
    expect([emulatorCommand, editionLine]).toEqual([expect.any(String), expect.any(String)]);
    await followReadme("platform", {
      name: "platform-hosted",
      emulatorCommand: emulatorCommand ?? "",
      replace: [["pulumi config set wsbridge:edition self-managed", editionLine ?? ""]],
    }, async (run) => {
      expect(run.stackConfig).toMatch(/wsbridge:edition: hosted\n/);
      expect(run.runs.map((r) => [r.command, r.changes])).toEqual([["up", { create: 10 }]]);
      expect(run.runs[0]?.outputs?.["dataRetention"]).toBeNull();
      for (const name of WORKSPACES) expect({ name, status: (await run.get(workspacePath(run.emulator, name))).status }).toEqual({ name, status: 404 });
    });
  }, 300_000);
});

// A fresh Python virtual environment with the plugin's Python SDK installed as a user installs it: a wheel
// built from sdk/python (`pip wheel`), installed by pip with the Pulumi SDK from PyPI. pip's own cache
// (below the user's HOME, which these commands keep) makes a second set-up take seconds.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../scripts/lib/stack-harness";

export interface PythonEnvironment {
  /** The virtual environment's folder. */
  readonly venv: string;
  /** Its interpreter. */
  readonly python: string;
  /** The SDK's wheel it holds. */
  readonly wheel: string;
  /** Removes the folder it was made in (when the function made that folder). */
  remove(): void;
}

export interface PythonEnvironmentOptions {
  /** The folder to make it in (default: a new temporary folder, removed by `remove`). */
  dir?: string;
  /** What pip installs beside the wheel (default: `pulumi==<the Pulumi release the repository is built with>`). */
  requirements?: string[];
  /** The interpreter that makes the environment (default: `python3`). */
  python?: string;
  /**
   * One environment for every test file that asks for the same one (the SDK's files, `requirements`),
   * made once below the temporary folder by the first to ask while the others wait: the suite runs its
   * files side by side, and each environment costs tens of seconds. It is never changed after it is
   * made, and `remove` leaves it (a later suite run with the same SDK finds it ready).
   */
  shared?: boolean;
}

/** What the test files that run Python install beside the SDK: the Pulumi SDK of the CLI's release, and mypy. */
export function testRequirements(): string[] {
  return [`pulumi==${pulumiRelease()}`, "mypy"];
}

export interface Printed {
  status: number | null;
  printed: string;
}

/**
 * Runs a command and collects what it printed (stdout and stderr, in the order they came). Asynchronously:
 * a test that serves an emulator or a release server from its own process must keep its event loop running
 * while the child calls them.
 */
export function runCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Printed> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => { printed += chunk.toString(); });
    child.stderr.on("data", (chunk: Buffer) => { printed += chunk.toString(); });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, printed }));
  });
}

/** The Pulumi release the repository is built with: the CLI's, and @pulumi/pulumi's in package-lock.json. */
export function pulumiRelease(): string {
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
  const version = lock.packages["node_modules/@pulumi/pulumi"]?.version;
  if (version === undefined) throw new Error("package-lock.json has no node_modules/@pulumi/pulumi entry");
  return version;
}

/**
 * Makes a fresh virtual environment (`python3 -m venv`) and installs into it a wheel of sdk/python and
 * `requirements`. The wheel is built from a copy of sdk/python: setuptools builds in the source folder and
 * would leave `build/` and `*.egg-info` in the repository.
 */
export async function pythonEnvironmentWithSdk(options: PythonEnvironmentOptions = {}): Promise<PythonEnvironment> {
  if (options.shared === true && options.dir === undefined) return sharedEnvironment(options);
  const made = options.dir === undefined;
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-python-"));
  fs.mkdirSync(dir, { recursive: true });
  const requirements = options.requirements ?? [`pulumi==${pulumiRelease()}`];
  const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", PYTHONDONTWRITEBYTECODE: "1" };
  const must = async (what: string, command: string, args: string[]): Promise<void> => {
    const { status, printed } = await runCommand(command, args, { cwd: dir, env });
    if (status !== 0) throw new Error(`${what} failed (${command} ${args.join(" ")}, status ${status}):\n${printed}`);
  };

  const source = path.join(dir, "sdk-python");
  fs.cpSync(path.join(repoRoot, "sdk", "python"), source, { recursive: true });
  const wheels = path.join(dir, "wheels");
  await must("building the SDK's wheel", options.python ?? "python3", ["-m", "pip", "wheel", "--no-deps", "-w", wheels, source]);
  const built = fs.readdirSync(wheels).filter((name) => name.endsWith(".whl"));
  if (built.length !== 1) throw new Error(`pip wheel wrote ${built.length} wheels to ${wheels}: ${built.join(", ")}`);
  const wheel = path.join(wheels, built[0]!);

  const venv = path.join(dir, "venv");
  await must("making the virtual environment", options.python ?? "python3", ["-m", "venv", venv]);
  const python = path.join(venv, "bin", "python");
  await must("installing the SDK's wheel", python, ["-m", "pip", "install", wheel, ...requirements]);
  return {
    venv,
    python,
    wheel,
    remove: () => { if (made) fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

const READY = "ready.json";

/** The shared environment for these options: made by the first caller holding the lock (a folder), awaited by the rest. */
async function sharedEnvironment(options: PythonEnvironmentOptions): Promise<PythonEnvironment> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([options.python ?? "python3", [...(options.requirements ?? [])].sort()]));
  for (const file of (fs.readdirSync(path.join(repoRoot, "sdk", "python"), { recursive: true }) as string[]).sort()) {
    const full = path.join(repoRoot, "sdk", "python", file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const root = path.join(os.tmpdir(), "wsbridge-python-envs");
  fs.mkdirSync(root, { recursive: true });
  const dir = path.join(root, hash.digest("hex").slice(0, 16));
  const lock = `${dir}.lock`;
  const ready = (): PythonEnvironment | undefined => {
    try {
      const made = JSON.parse(fs.readFileSync(path.join(dir, READY), "utf8")) as Omit<PythonEnvironment, "remove">;
      return { ...made, remove: () => undefined };
    } catch {
      return undefined;
    }
  };
  for (const deadline = Date.now() + 15 * 60_000; Date.now() < deadline;) {
    const found = ready();
    if (found !== undefined) return found;
    try {
      fs.mkdirSync(lock);
    } catch {
      // Another file is making it; a lock left by a process that died is taken over after 10 minutes.
      const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      const made = await pythonEnvironmentWithSdk({ ...options, shared: false, dir });
      fs.writeFileSync(path.join(dir, READY), JSON.stringify({ venv: made.venv, python: made.python, wheel: made.wheel }));
      return { ...made, remove: () => undefined };
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new Error(`the shared Python environment ${dir} was not made within 15 minutes`);
}

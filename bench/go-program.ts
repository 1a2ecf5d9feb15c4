/*
 * The Go route of bench/routes.ts: the Go program `program.Workspaces` (test/go/program/workspaces.go)
 * run through the provider plugin by test/go/cmd/lifecycle, one Automation API call per command. The
 * command is built once (`go build`, before anything is measured) and started once per stack; it times
 * each call itself, around the Automation API call, as routes.ts times the TypeScript programs' calls.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import type { OpMap, PulumiCommand } from "@pulumi/pulumi/automation";
import { installPlugin, repoRoot, stackFolderEnvironment } from "../scripts/lib/stack-harness";

const GO_MODULE = path.join(repoRoot, "test", "go");

/** What one operation of the Go program reported. */
export interface GoOperation {
  /** The Automation API call, timed in the Go process. */
  seconds: number;
  /** From the call to the engine's summary event; null when none came. */
  engineSeconds: number | null;
  /** The Go process's CPU during the call (the program and the Automation API). */
  cpuSeconds: number;
  changes: OpMap;
}

interface Answer {
  ready?: boolean;
  seconds?: number;
  engineSeconds?: number | null;
  cpuSeconds?: number;
  changes?: OpMap;
  deployment?: unknown;
  error?: string;
}

/** Builds test/go/cmd/lifecycle into `into` (a folder) and returns the binary's path. */
export function buildGoLifecycle(into: string): Promise<string> {
  const binary = path.join(into, "lifecycle");
  return new Promise((resolve, reject) => {
    const child = spawn("go", ["build", "-o", binary, "./cmd/lifecycle"], {
      cwd: GO_MODULE,
      // go.mod and go.sum are committed: a build must not change them.
      env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(binary) : reject(new Error(`go build ./cmd/lifecycle failed (${code}): ${stderr.trim()}`))));
  });
}

export interface GoStackOptions {
  cli: PulumiCommand;
  binary: string;
  emulator: { url: string; token: string; organization: string };
  /** The project's name and the prefix of the workspaces' names, as on the TypeScript routes. */
  projectName: string;
  size: number;
  /** Extra environment for the CLI and the plugin. */
  env: Record<string, string>;
  parallel?: number;
}

/** One stack of the Go program, in a folder of its own laid out as scripts/lib/stack-harness.ts lays out TypeScript stacks (and stacks/ for the Go harness). */
export class GoStack {
  private readonly answers: AsyncIterator<string>;
  private stderr = "";

  private constructor(readonly dir: string, private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on("data", (chunk: Buffer) => { this.stderr += chunk.toString(); });
    this.answers = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  /** Starts the Go program and waits until its stack exists (not part of any measured operation). */
  static async start(options: GoStackOptions): Promise<GoStack> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-stack-"));
    fs.mkdirSync(path.join(dir, "stacks"));
    const pulumiEnv = stackFolderEnvironment(options.cli, dir, options.env);
    installPlugin(options.cli, pulumiEnv);
    const args = ["-project", options.projectName, "-n", String(options.size)];
    if (options.parallel !== undefined) args.push("-parallel", String(options.parallel));
    const child = spawn(options.binary, args, {
      cwd: dir,
      env: {
        ...process.env,
        ...pulumiEnv,
        WSBRIDGE_GO_ADDRESS: options.emulator.url,
        WSBRIDGE_GO_TOKEN: options.emulator.token,
        WSBRIDGE_GO_ORGANIZATION: options.emulator.organization,
        WSBRIDGE_GO_WORKDIR: path.join(dir, "stacks"),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stack = new GoStack(dir, child);
    try {
      if ((await stack.next("start")).ready !== true) throw new Error("the Go program's first line is not {\"ready\": true}");
    } catch (e) {
      await stack.dispose();
      throw e;
    }
    return stack;
  }

  private async next(what: string): Promise<Answer> {
    const next = await this.answers.next();
    if (next.done === true) throw new Error(`the Go program ended before answering "${what}": ${this.stderr.trim()}`);
    const answer = JSON.parse(next.value) as Answer;
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer;
  }

  private ask(command: string): Promise<Answer> {
    this.child.stdin.write(`${command}\n`);
    return this.next(command.split(" ")[0] ?? command);
  }

  /** `up` with the workspaces' description set first, `preview`, `refresh` or `destroy`. */
  async operation(command: "up" | "preview" | "refresh" | "destroy", description = ""): Promise<GoOperation> {
    const answer = await this.ask(command === "up" ? `up ${description}` : command);
    if (answer.seconds === undefined || answer.cpuSeconds === undefined) throw new Error(`the Go program's answer to ${command} has no times`);
    return { seconds: answer.seconds, engineSeconds: answer.engineSeconds ?? null, cpuSeconds: answer.cpuSeconds, changes: answer.changes ?? {} };
  }

  /** The stack's deployment, as `stack export` gives it. */
  async exportDeployment(): Promise<unknown> {
    return (await this.ask("export")).deployment;
  }

  async dispose(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
      this.child.stdin.end();
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

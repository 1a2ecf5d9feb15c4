// Running a GitHub Actions workflow's `run:` steps as written (examples/ci/*.yml), for the tests that
// run them against the emulator: bash as Actions runs it, shell quoting, and git in a checkout.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { parse } from "yaml";

/** A workflow's step, as far as the tests read it. */
export interface Step {
  id?: string;
  uses?: string;
  run?: string;
  "working-directory"?: string;
  env?: Record<string, string>;
}

/** A workflow file, as far as the tests read it: its env and each job's steps. */
export interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

export function readWorkflow(file: string): Workflow {
  return parse(fs.readFileSync(file, "utf8")) as Workflow;
}

/** What a step's bash printed, its exit code and what it wrote to GITHUB_OUTPUT. */
export interface StepRun {
  code: number;
  output: string;
  outputs: Record<string, string>;
}

export function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** A bash script as Actions runs a `run:` (bash -e, pipefail), asynchronously: the emulator serves from the test's process. */
export function bash(cwd: string, script: string, env: Record<string, string>): Promise<StepRun> {
  return new Promise((resolve) => {
    execFile("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: `${stdout}${stderr}`, outputs: {} });
    });
  });
}

/** git commands in `cwd`, each of which must succeed; what the last printed. */
export async function git(cwd: string, ...commands: string[][]): Promise<string> {
  let printed = "";
  for (const args of commands) {
    const run = await bash(cwd, ["git", "-c", "user.name=test", "-c", "user.email=test@example.com", ...args].map(quote).join(" "), { ...process.env as Record<string, string> });
    if (run.code !== 0) throw new Error(`git ${args.join(" ")}: ${run.output}`);
    printed = run.output.trimEnd();
  }
  return printed;
}

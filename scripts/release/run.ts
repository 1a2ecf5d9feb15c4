// Child processes for the release steps: run concurrently (each returns a promise), their output kept
// and shown only when one fails, and every step logged to stderr with the time it took.
import { spawn } from "node:child_process";

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

export class CommandError extends Error {}

/** Runs a command; resolves with its stdout, rejects with its output when it exits non-zero. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.once("error", (error) => reject(new CommandError(`${command}: ${error.message}`)));
    child.once("close", (code, signal) => {
      const out = Buffer.concat(stdout).toString("utf8");
      if (code === 0) {
        resolve(out);
        return;
      }
      const err = Buffer.concat(stderr).toString("utf8");
      const shown = `${out}${err}`.trim().split("\n").slice(-40).join("\n");
      reject(new CommandError(`\`${[command, ...args].join(" ")}\`${options.cwd ? ` (in ${options.cwd})` : ""} failed (${signal ?? `exit ${code}`}):\n${shown}`));
    });
  });
}

const started = Date.now();

/** Seconds since the release started, for the log. */
export function elapsed(): string {
  return `${((Date.now() - started) / 1000).toFixed(1)}s`;
}

export function log(message: string): void {
  process.stderr.write(`release [${elapsed()}]: ${message}\n`);
}

/** Runs one named step, logging its start and end with its duration. */
export async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  log(`${name}…`);
  const result = await body();
  log(`${name}: done in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return result;
}

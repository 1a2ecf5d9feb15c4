/**
 * The emulator CLI compiled from the current sources into a temporary folder, for tests that start
 * it as a process the way users do. (Not dist/: a test must run what is in the tree now.)
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");

export interface BuiltCli {
  /** Path of `emulator/cli.js` in the build. */
  cli: string;
  /** Environment that lets the built files find the project's dependencies. */
  env: NodeJS.ProcessEnv;
  remove(): void;
}

export function buildEmulatorCli(): BuiltCli {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-cli-"));
  try {
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(ROOT, "tsconfig.json"), "--outDir", outDir], {
      cwd: ROOT,
      stdio: "pipe",
    });
  } catch {
    // Type errors elsewhere in the tree still emit JavaScript; the tests check the file exists.
  }
  return {
    cli: path.join(outDir, "emulator", "cli.js"),
    env: { ...process.env, NODE_PATH: path.join(ROOT, "node_modules") },
    remove: () => fs.rmSync(outDir, { recursive: true, force: true }),
  };
}

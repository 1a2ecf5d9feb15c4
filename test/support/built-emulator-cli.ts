/**
 * The emulator CLI compiled from the current sources, for tests that start it as a process the way
 * users do: a test must run what is in the tree now. Under `npm test` that is dist/, which
 * scripts/test.sh compiles from the tree just before jest starts (and says so in WSBRIDGE_DIST_CURRENT);
 * a file run alone compiles into a temporary folder, as dist/ may be older than the tree. Each such
 * compile costs about 20 CPU-seconds.
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
  if (process.env.WSBRIDGE_DIST_CURRENT === "1") {
    return { cli: path.join(ROOT, "dist", "emulator", "cli.js"), env: { ...process.env }, remove: () => undefined };
  }
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

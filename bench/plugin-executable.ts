/*
 * The plugin executables (not a test; nothing here is asserted): each archive's size against the 45 MB
 * budget and how much of it is Node.js, and on this machine the start of the linux-amd64 executable,
 * exec to the port printed (what the engine waits for), with the code cache it ships and with the
 * same bundle injected without one (what the platforms built elsewhere pay), beside Node.js 22.23.2
 * itself printing a line. Target (issue 42): at most 0.15 s on linux-amd64.
 *
 *   node scripts/build-plugin.js && node -r ./scripts/lib/register-ts.js bench/plugin-executable.ts
 *   BENCH_START_RUNS=N (default 20, after one unmeasured start each)
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BLOB_FILES, executableName, writeExecutable } from "../scripts/plugin-executable/executable";
import { hostPlatform, nodeBinary, PLATFORMS } from "../scripts/plugin-executable/node-runtime";
import { ARCHIVE_BUDGET_BYTES } from "../scripts/release/verify";

const RUNS = Number(process.env["BENCH_START_RUNS"] ?? 20);
const root = path.resolve(__dirname, "..");
const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** Seconds from exec to the first line on stdout. */
function startOnce(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.once("data", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      child.kill();
      child.once("exit", () => resolve(seconds));
    });
    child.once("error", reject);
  });
}

async function starts(command: string, args: string[]): Promise<number[]> {
  await startOnce(command, args);
  const seconds: number[] = [];
  for (let run = 0; run < RUNS; run++) seconds.push(await startOnce(command, args));
  return seconds.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-bench-executable-"));
  try {
    console.log("## Plugin archives (dist/plugin)\n");
    console.log("| platform | archive | executable | of it, Node.js | within 45 MB |");
    console.log("|---|---:|---:|---:|---|");
    for (const platform of PLATFORMS) {
      const archive = path.join(root, "dist", "plugin", `pulumi-resource-wsbridge-v${version}-${platform}.tar.gz`);
      if (!fs.existsSync(archive)) {
        console.log(`| ${platform} | not built | | | |`);
        continue;
      }
      const into = path.join(dir, platform);
      fs.mkdirSync(into);
      execFileSync("tar", ["-xzf", archive, "-C", into]);
      const executable = fs.statSync(path.join(into, executableName(platform))).size;
      const size = fs.statSync(archive).size;
      console.log(`| ${platform} | ${mb(size)} | ${mb(executable)} | ${mb(fs.statSync(nodeBinary(platform)).size)} | ${size <= ARCHIVE_BUDGET_BYTES ? "yes" : "NO"} |`);
      if (platform !== hostPlatform()) fs.rmSync(into, { recursive: true, force: true });
    }

    const host = hostPlatform();
    if (host === undefined || !fs.existsSync(path.join(dir, host))) return;
    const shipped = path.join(dir, host, executableName(host));
    const uncached = path.join(dir, `uncached-${executableName(host)}`);
    await writeExecutable(host, fs.readFileSync(path.join(root, "dist", "plugin", "bin", BLOB_FILES.portable)), uncached);
    const rows: Array<[string, number[]]> = [
      [`${host} executable, as shipped (code cache)`, await starts(shipped, ["127.0.0.1:1"])],
      [`${host} executable without the code cache (as built elsewhere)`, await starts(uncached, ["127.0.0.1:1"])],
      ["Node.js 22.23.2 printing a line", await starts(nodeBinary(host), ["-e", "console.log(1); setTimeout(() => {}, 60000)"])],
    ];
    console.log(`\n## Start, exec to the port printed (${RUNS} runs each, after one unmeasured)\n`);
    console.log("| what | median | fastest | slowest |");
    console.log("|---|---:|---:|---:|");
    for (const [what, seconds] of rows) {
      console.log(`| ${what} | ${seconds[Math.floor(seconds.length / 2)]!.toFixed(3)} s | ${seconds[0]!.toFixed(3)} s | ${seconds[seconds.length - 1]!.toFixed(3)} s |`);
    }
    console.log("\nTarget: at most 0.150 s on linux-amd64.");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

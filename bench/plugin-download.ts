/*
 * What the engine's own plugin download costs a user (not a test; nothing here is asserted): the first
 * `pulumi up` with an empty plugin cache, the plugin fetched from a release (a local server standing in
 * for GitHub, test/support/plugin-release-server.ts), against the same `up` with the plugin already
 * installed. Runs alternate between the two so the machine's drift falls on both; each is a fresh stack
 * of one Workspace through the plugin's Node.js SDK, on the real Pulumi CLI, against the emulator.
 * Target (issue 34): the download and unpack add at most 1 s.
 *
 *   npx tsc -p tsconfig.json && node scripts/build-plugin.js && node -r ./scripts/lib/register-ts.js bench/plugin-download.ts
 *   BENCH_DOWNLOAD_RUNS=N (default 5)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import * as wsbridge from "@pulumi-wsbridge/wsbridge";
import { startEmulator, type RunningEmulator } from "../emulator";
import { installPlugin, pluginArchive, pulumiCli, stackFolderEnvironment } from "../scripts/lib/stack-harness";
import { fetchingEnvironment, servePluginReleases, type PluginReleaseServer } from "../test/support/plugin-release-server";

const RUNS = Number(process.env["BENCH_DOWNLOAD_RUNS"] ?? 5);
type Cli = Awaited<ReturnType<typeof pulumiCli>>;

/** One fresh stack's first `up`, timed; the plugin either fetched (`server`) or installed beforehand. */
async function firstUp(cli: Cli, emulator: RunningEmulator, run: number, server?: PluginReleaseServer): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-bench-download-"));
  try {
    let env: Record<string, string>;
    if (server !== undefined) {
      env = fetchingEnvironment(cli, dir, server);
    } else {
      env = stackFolderEnvironment(cli, dir);
      installPlugin(cli, env);
    }
    const name = `bench-${server ? "fetched" : "installed"}-${run}`;
    const program = async (): Promise<void> => { new wsbridge.Workspace("app", { name }); };
    const stack = await LocalWorkspace.createOrSelectStack({ stackName: "dev", projectName: "bench-download", program }, { pulumiCommand: cli, envVars: env, workDir: dir });
    await stack.setAllConfig({
      "wsbridge:address": { value: emulator.url },
      "wsbridge:organization": { value: emulator.organization },
      "wsbridge:token": { value: emulator.token, secret: true },
    });
    const start = performance.now();
    await stack.up();
    const ms = performance.now() - start;
    await stack.destroy();
    return ms;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const cli = await pulumiCli();
  const emulator = await startEmulator({ port: 0, quiet: true });
  const server = await servePluginReleases();
  const fetched: number[] = [];
  const installed: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      fetched.push(await firstUp(cli, emulator, run, server));
      installed.push(await firstUp(cli, emulator, run));
    }
  } finally {
    await server.close();
    await emulator.close();
  }
  const archive = fs.statSync(pluginArchive()).size;
  console.log(`First \`pulumi up\` of one Workspace, empty plugin cache vs plugin installed (${RUNS} runs each, alternating; archive ${(archive / 1e6).toFixed(1)} MB; ${os.cpus().length} cores)`);
  console.log("| plugin | median | fastest | slowest |");
  console.log("|---|---:|---:|---:|");
  for (const [label, times] of [["fetched by the engine from the release", fetched], ["installed beforehand", installed]] as const) {
    console.log(`| ${label} | ${seconds(median(times))} | ${seconds(Math.min(...times))} | ${seconds(Math.max(...times))} |`);
  }
  const added = median(fetched) - median(installed);
  console.log(`| download and unpack add (median) | ${seconds(added)} | | |`);
  console.log(`Target: at most 1 s added. ${added <= 1000 ? "Met" : "Not met"}. Downloads: ${server.requests.length} (one per fetched run).`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

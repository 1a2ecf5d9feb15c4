/*
 * The fault campaign at scale (not a test; the suite runs a 20-50 workspace version):
 * `pulumi up` and `pulumi destroy` of hundreds of workspaces on the real CLI against the emulator,
 * with 10% server errors and 5% dropped connections, and an `up` killed with SIGKILL half-way and run
 * again. Prints a table: runs needed, faults injected, duplicates and orphans (both must be 0).
 *
 *   node -r ./scripts/lib/register-ts.js bench/faults.ts      (npm run bench runs it)
 *   BENCH_FAULT_SIZES=100,300 to choose the sizes (default 100,250).
 *
 * Stops by itself: every run is bounded by the retry budgets, and the campaign by its sizes.
 */
import { execFileSync } from "node:child_process";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, repairFileBackend, type HarnessStack } from "../scripts/lib/stack-harness";

const SIZES = (process.env["BENCH_FAULT_SIZES"] ?? "100,250").split(",").map(Number).filter((n) => n > 0);
const MAX_RUNS = 3;

interface Row {
  scenario: string;
  workspaces: number;
  runs: number;
  seconds: number;
  faults: number;
  duplicates: number;
  orphans: number;
}

async function serverIds(emulator: RunningEmulator, prefix: string): Promise<Map<string, string[]>> {
  const byName = new Map<string, string[]>();
  for (let page = 1; ; page++) {
    const res = await request(`${emulator.url}/api/v2/organizations/${emulator.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    const body = (await res.body.json()) as { data: Array<{ id: string; attributes: { name: string } }>; meta: { pagination: { "next-page": number | null } } };
    for (const w of body.data) if (w.attributes.name.startsWith(`${prefix}-`)) byName.set(w.attributes.name, [...(byName.get(w.attributes.name) ?? []), w.id]);
    if (body.meta.pagination["next-page"] === null) return byName;
  }
}

async function stateIds(h: HarnessStack): Promise<Set<string>> {
  const deployment = await h.stack.exportStack();
  const resources = (deployment.deployment as { resources?: Array<{ type: string; id?: string }> }).resources ?? [];
  return new Set(resources.filter((r) => r.type === "pulumi-nodejs:dynamic/wsbridge:Workspace").map((r) => r.id ?? ""));
}

async function tally(emulator: RunningEmulator, h: HarnessStack, prefix: string): Promise<{ duplicates: number; orphans: number }> {
  const server = await serverIds(emulator, prefix);
  const state = await stateIds(h);
  let duplicates = 0;
  let orphans = 0;
  for (const ids of server.values()) {
    duplicates += ids.length - 1;
    orphans += ids.filter((id) => !state.has(id)).length;
  }
  return { duplicates, orphans };
}

/** Runs `up` until it succeeds (at most MAX_RUNS); returns how many runs it took. */
async function upUntilDone(h: HarnessStack): Promise<number> {
  for (let run = 1; ; run++) {
    try {
      await h.stack.up();
      return run;
    } catch (e) {
      if (run >= MAX_RUNS) throw e;
    }
  }
}

function killOurUp(): boolean {
  const all = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" }).split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  const up = all.find((m) => Number(m[2]) === process.pid && /\bpulumi\b.*\bup\b/.test(m[3] ?? ""));
  if (!up) return false;
  process.kill(Number(up[1]), "SIGKILL");
  return true;
}

async function main(): Promise<void> {
  const cli = await pulumiCli();
  const emulator = await startEmulator({ port: 0, quiet: true });
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      for (const scenario of ["10% 5xx + 5% drops", "kill -9 of the CLI at half-way"] as const) {
        const prefix = `bench-${scenario.startsWith("kill") ? "kill" : "faults"}-${size}`;
        const h = await createStack({
          cli,
          projectName: prefix,
          config: emulatorStackConfig(emulator),
          program: async () => {
            const { Workspace } = await import("pulumi-wsbridge");
            for (let i = 0; i < size; i++) new Workspace(`ws-${i}`, { name: `${prefix}-${i}` });
          },
        });
        try {
          emulator.clearRequests();
          const started = Date.now();
          let runs: number;
          if (scenario === "kill -9 of the CLI at half-way") {
            const running = h.stack.up().catch(() => undefined);
            while (emulator.requests().filter((r) => r.method === "POST" && r.status === 201).length < size / 2) {
              await new Promise((r) => setTimeout(r, 20));
            }
            if (!killOurUp()) throw new Error("no pulumi up to kill");
            await running;
            repairFileBackend(h.dir);
            await h.stack.cancel().catch(() => undefined);
            runs = 1 + (await upUntilDone(h));
          } else {
            emulator.setFaults({ serverErrorRate: 0.1, dropRate: 0.05, seed: size });
            runs = await upUntilDone(h);
          }
          const faults = emulator.requests().filter((r) => r.fault !== undefined).length + (scenario.startsWith("kill") ? 1 : 0);
          emulator.clearFaults();
          const seconds = (Date.now() - started) / 1000;
          rows.push({ scenario: `up: ${scenario}`, workspaces: size, runs, seconds, faults, ...(await tally(emulator, h, prefix)) });

          emulator.clearRequests();
          if (!scenario.startsWith("kill")) emulator.setFaults({ serverErrorRate: 0.1, dropRate: 0.05, seed: size + 1 });
          const destroyStarted = Date.now();
          await h.stack.destroy();
          const destroyFaults = emulator.requests().filter((r) => r.fault !== undefined).length;
          emulator.clearFaults();
          const left = await serverIds(emulator, prefix);
          rows.push({
            scenario: `destroy: ${scenario.startsWith("kill") ? "no faults" : scenario}`, workspaces: size, runs: 1,
            seconds: (Date.now() - destroyStarted) / 1000, faults: destroyFaults, duplicates: 0, orphans: [...left.values()].flat().length,
          });
        } finally {
          await h.dispose();
        }
      }
    }
  } finally {
    await emulator.close();
  }
  const header = "| scenario | workspaces | runs | seconds | faults injected | duplicates | orphans |";
  console.log([header, "|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.scenario} | ${r.workspaces} | ${r.runs} | ${r.seconds.toFixed(1)} | ${r.faults} | ${r.duplicates} | ${r.orphans} |`)].join("\n"));
  if (rows.some((r) => r.duplicates > 0 || r.orphans > 0)) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

/*
 * The lifecycle benchmark (not a test; issue 14): N workspaces through the real Pulumi CLI and the real
 * dynamic-provider plugin against the in-process emulator, phase by phase: create, no-op preview,
 * preview with refresh, update all (every description changes), refresh, destroy. Prints a table of
 * wall time, requests and 429s (from the emulator's request log), the floor the rate limit sets
 * (requests / advertised limit), the target, the plugin's peak RSS, and where the time went
 * around our requests (engine and plugin start before the first, state writes after the last).
 *
 * Wall time is the whole Automation API call, which after `up`, `refresh` and `destroy` may run more
 * CLI commands for the outputs and history (unless the harness answers them); "to summary event" ends
 * at the engine's last event, which is what `pulumi up` on a terminal costs. Targets are judged on the
 * wall time, the stricter of the two.
 *
 *   node -r ./scripts/lib/register-ts.js bench/lifecycle.ts      (npm run bench runs it)
 *
 * Environment (all optional):
 *   BENCH_LIFECYCLE_SIZES=10,100          sizes (default 10,100,1000)
 *   BENCH_LIFECYCLE_MODES=limit-30        `limit-30` and/or `no-limit` (default both)
 *   BENCH_LIFECYCLE_REPEATS=3             runs per size and mode, medians reported (default 3 for N ≤ 100, else 1)
 *   BENCH_LIFECYCLE_PHASES=preview        optional phases to run, comma-separated, of preview, preview-refresh,
 *                                         update, refresh (default all); create and destroy always run
 *   BENCH_LIFECYCLE_PARALLEL=16           `--parallel` for every operation (default: the CLI's, 4 × CPUs)
 *   BENCH_LIFECYCLE_CLI_ENV=PULUMI_SKIP_CHECKPOINTS=true,…   extra environment for the CLI and the plugin
 *
 * Modes. `limit-30`: the emulator advertises the service's 30 requests/s in `X-RateLimit-Limit` and
 * enforces it per user, as the service does (one-second windows, 429 beyond). `no-limit`: the emulator always advertises a
 * limit (it sends the header on every answer), and the provider has no setting that turns its pacing
 * off, so this mode advertises and enforces 1,000,000 requests/s: the provider's pacing then never
 * waits, and the emulator never refuses. What remains is the engine's and our own cost.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, OpMap, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";
import { PluginRssSampler, canSamplePluginRss } from "./plugin-rss";

// ---- settings ----------------------------------------------------------------------------------

const SERVICE_LIMIT = 30;
const UNLIMITED = 1_000_000;

const MODES = {
  "limit-30": { advertised: SERVICE_LIMIT, label: "30 req/s" },
  "no-limit": { advertised: UNLIMITED, label: "no limit" },
} as const;
type ModeName = keyof typeof MODES;

type PhaseKey = "create" | "preview" | "preview-refresh" | "update" | "refresh" | "destroy";
const PHASE_LABELS: Record<PhaseKey, string> = {
  create: "create",
  preview: "no-op preview",
  "preview-refresh": "preview with refresh",
  update: "update all",
  refresh: "refresh",
  destroy: "destroy",
};
const PHASE_ORDER: readonly PhaseKey[] = ["create", "preview", "preview-refresh", "update", "refresh", "destroy"];
const OPTIONAL_PHASES: readonly PhaseKey[] = ["preview", "preview-refresh", "update", "refresh"];

function listFromEnv(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback).split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function positiveIntegerFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const SIZES = listFromEnv("BENCH_LIFECYCLE_SIZES", "10,100,1000").map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_LIFECYCLE_SIZES: "${s}" is not a positive integer`);
  return n;
});
const MODE_NAMES = listFromEnv("BENCH_LIFECYCLE_MODES", "limit-30,no-limit").map((m) => {
  if (!(m in MODES)) throw new Error(`BENCH_LIFECYCLE_MODES: "${m}" is not one of ${Object.keys(MODES).join(", ")}`);
  return m as ModeName;
});
const REPEATS = positiveIntegerFromEnv("BENCH_LIFECYCLE_REPEATS");
const PARALLEL = positiveIntegerFromEnv("BENCH_LIFECYCLE_PARALLEL");
const CHOSEN_OPTIONAL = listFromEnv("BENCH_LIFECYCLE_PHASES", OPTIONAL_PHASES.join(",")).map((p) => {
  if (!(OPTIONAL_PHASES as readonly string[]).includes(p)) {
    throw new Error(`BENCH_LIFECYCLE_PHASES: "${p}" is not one of ${OPTIONAL_PHASES.join(", ")} (create and destroy always run)`);
  }
  return p as PhaseKey;
});
const PHASES = PHASE_ORDER.filter((p) => p === "create" || p === "destroy" || CHOSEN_OPTIONAL.includes(p));
const CLI_ENV: Record<string, string> = Object.fromEntries(listFromEnv("BENCH_LIFECYCLE_CLI_ENV", "").map((pair) => {
  const eq = pair.indexOf("=");
  if (eq < 1) throw new Error(`BENCH_LIFECYCLE_CLI_ENV: "${pair}" is not NAME=value`);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}));

function repeatsFor(size: number): number {
  return REPEATS ?? (size <= 100 ? 3 : 1);
}

// ---- one lifecycle -----------------------------------------------------------------------------

interface PhaseSample {
  /** The Automation API call, including the commands it runs afterwards for outputs and history. */
  seconds: number;
  /** From the start to the engine's summary event: the CLI operation itself, as `pulumi up` on a terminal. */
  engineSeconds: number | null;
  requests: number;
  rateLimited: number;
  pluginPeakMib: number;
  /** From the start of the operation to our first request: CLI, engine and plugin start, program, checks. */
  beforeFirstRequestSeconds: number | null;
  /** From our last request to the end of the operation: the last state writes, shutdown. */
  afterLastRequestSeconds: number | null;
  /** Size of the stack's state file after the phase (the file backend rewrites all of it after every step). */
  stateMib: number;
  changes: OpMap;
  /** Set when the operation did something other than the phase means to measure. */
  unexpected?: string;
}

/** What each phase must have done, so that a table row never measures something else. */
function unexpectedChanges(phase: PhaseKey, changes: OpMap, size: number): string | undefined {
  const mutations = (["create", "update", "delete", "replace", "create-replacement", "delete-replaced"] as const)
    .filter((op) => (changes[op] ?? 0) > 0);
  const want: Partial<Record<PhaseKey, keyof OpMap>> = { create: "create", update: "update", destroy: "delete" };
  const op = want[phase];
  if (op === undefined) return mutations.length === 0 ? undefined : `expected no changes, got ${formatChanges(changes)}`;
  // The stack resource itself is created and deleted with the workspaces.
  const expected = op === "update" ? size : size + 1;
  const other = mutations.filter((m) => m !== op);
  return changes[op] === expected && other.length === 0 ? undefined : `expected ${op} ${expected}, got ${formatChanges(changes)}`;
}

function formatChanges(changes: OpMap): string {
  const parts = Object.entries(changes).filter(([, count]) => (count ?? 0) > 0).map(([op, count]) => `${op} ${count}`);
  return parts.length === 0 ? "none" : parts.join(", ");
}

interface Program {
  description: string;
}

/** Runs the phase; `onEvent` sees the engine's events (the summary event ends the CLI's own work). */
async function runPhase(h: HarnessStack, phase: PhaseKey, program: Program, onEvent: (event: EngineEvent) => void): Promise<OpMap> {
  const options = { onEvent, ...(PARALLEL === undefined ? {} : { parallel: PARALLEL }) };
  switch (phase) {
    case "create":
      return (await h.stack.up(options)).summary.resourceChanges ?? {};
    case "preview":
      return (await h.stack.preview(options)).changeSummary;
    case "preview-refresh":
      return (await h.stack.preview({ ...options, refresh: true })).changeSummary;
    case "update":
      program.description = "updated by the lifecycle benchmark";
      return (await h.stack.up(options)).summary.resourceChanges ?? {};
    case "refresh":
      return (await h.stack.refresh(options)).summary.resourceChanges ?? {};
    case "destroy":
      return (await h.stack.destroy(options)).summary.resourceChanges ?? {};
  }
}

async function measurePhase(emulator: RunningEmulator, h: HarnessStack, phase: PhaseKey, program: Program, size: number): Promise<PhaseSample> {
  emulator.clearRequests();
  const sampler = new PluginRssSampler();
  sampler.start();
  const started = Date.now();
  let changes: OpMap;
  let pluginPeakMib = 0;
  let summaryAt: number | undefined;
  const onEvent = (event: EngineEvent): void => {
    if (event.summaryEvent !== undefined) summaryAt = Date.now();
  };
  try {
    changes = await runPhase(h, phase, program, onEvent);
  } finally {
    // Stopped on failure too, so no timer keeps the process alive.
    pluginPeakMib = sampler.stop();
  }
  const ended = Date.now();
  const log = emulator.requests();
  const times = log.map((r) => Date.parse(r.at));
  const unexpected = unexpectedChanges(phase, changes, size);
  return {
    seconds: (ended - started) / 1000,
    engineSeconds: summaryAt === undefined ? null : (summaryAt - started) / 1000,
    requests: log.length,
    rateLimited: log.filter((r) => r.status === 429).length,
    pluginPeakMib,
    beforeFirstRequestSeconds: times.length === 0 ? null : (Math.min(...times) - started) / 1000,
    afterLastRequestSeconds: times.length === 0 ? null : (ended - Math.max(...times)) / 1000,
    stateMib: stateFileBytes(h.dir) / 2 ** 20,
    changes,
    ...(unexpected === undefined ? {} : { unexpected }),
  };
}

/** The file backend's state of the stack (`.pulumi/stacks/<project>/<stack>.json`), in bytes; 0 when none. */
function stateFileBytes(dir: string): number {
  const stacks = path.join(dir, "backend", ".pulumi", "stacks");
  if (!fs.existsSync(stacks)) return 0;
  return fs.readdirSync(stacks, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".json"))
    .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}

async function runLifecycle(cli: PulumiCommand, emulator: RunningEmulator, size: number, mode: ModeName, run: number): Promise<Map<PhaseKey, PhaseSample>> {
  const prefix = `life-${size}-${mode}-${run}`;
  const program: Program = { description: "created by the lifecycle benchmark" };
  const h = await createStack({
    cli,
    projectName: prefix,
    config: emulatorStackConfig(emulator),
    env: CLI_ENV,
    program: async () => {
      const { Workspace } = await import("pulumi-wsbridge");
      for (let i = 0; i < size; i++) new Workspace(`ws-${i}`, { name: `${prefix}-${i}`, description: program.description });
    },
  });
  const samples = new Map<PhaseKey, PhaseSample>();
  try {
    for (const phase of PHASES) {
      const sample = await measurePhase(emulator, h, phase, program, size);
      samples.set(phase, sample);
      console.error(
        `lifecycle: N=${size} ${MODES[mode].label} run ${run} ${PHASE_LABELS[phase]}: ${sample.seconds.toFixed(1)} s ` +
          `(summary at ${sample.engineSeconds?.toFixed(1) ?? "—"} s), ` +
          `${sample.requests} requests, ${sample.rateLimited} × 429, plugin ${sample.pluginPeakMib.toFixed(0)} MiB` +
          (sample.unexpected === undefined ? "" : ` — UNEXPECTED: ${sample.unexpected}`),
      );
    }
  } finally {
    await h.dispose();
  }
  return samples;
}

// ---- the table ---------------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function medianOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : median(known);
}

/** The targets, with the service's limit advertised: `requests / 30` plus a fixed allowance. */
function targetSeconds(size: number, mode: ModeName, phase: PhaseKey, requests: number): number | undefined {
  if (mode !== "limit-30") return undefined;
  if (size === 100) return phase === "preview" ? 4 : requests / SERVICE_LIMIT + 3;
  if (size === 1000) return requests / SERVICE_LIMIT + 10;
  return undefined;
}

interface Row {
  size: number;
  mode: ModeName;
  phase: PhaseKey;
  runs: number;
  samples: PhaseSample[];
}

const fixed = (v: number | null | undefined, digits = 1): string => (v === null || v === undefined ? "—" : v.toFixed(digits));

function formatRow(r: Row): string {
  const seconds = median(r.samples.map((s) => s.seconds));
  const spread = r.samples.length > 1
    ? `${fixed(Math.min(...r.samples.map((s) => s.seconds)))}–${fixed(Math.max(...r.samples.map((s) => s.seconds)))}`
    : "—";
  const requests = median(r.samples.map((s) => s.requests));
  const rateLimited = median(r.samples.map((s) => s.rateLimited));
  const floor = requests / MODES[r.mode].advertised;
  const target = targetSeconds(r.size, r.mode, r.phase, requests);
  const verdict = target === undefined ? "—" : seconds <= target ? `yes (${fixed(target - seconds)} s under)` : `no (${fixed(seconds - target)} s over)`;
  const unexpected = r.samples.map((s) => s.unexpected).find((u) => u !== undefined);
  const changes = unexpected === undefined ? formatChanges(r.samples[0]?.changes ?? {}) : `UNEXPECTED: ${unexpected}`;
  return `| ${r.size} | ${MODES[r.mode].label} | ${PHASE_LABELS[r.phase]} | ${r.runs} | ${fixed(seconds)} | ${spread} | ${fixed(medianOrNull(r.samples.map((s) => s.engineSeconds)))} | ${fixed(requests, 0)} | ` +
    `${fixed(rateLimited, 0)} | ${fixed(floor)} | ${fixed(target)} | ${verdict} | ${fixed(median(r.samples.map((s) => s.pluginPeakMib)), 0)} | ` +
    `${fixed(medianOrNull(r.samples.map((s) => s.beforeFirstRequestSeconds)))} | ` +
    `${fixed(medianOrNull(r.samples.map((s) => s.afterLastRequestSeconds)))} | ${fixed(median(r.samples.map((s) => s.stateMib)), 2)} | ${changes} |`;
}

function printTable(rows: Row[], failures: string[]): void {
  console.log([
    "| N | mode | phase | runs | wall (s, median) | min–max (s) | to summary event (s) | requests | 429s | floor (s) | target (s) | within target | plugin peak RSS (MiB) | before 1st request (s) | after last request (s) | state file (MiB) | changes |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(formatRow),
  ].join("\n"));
  for (const f of failures) console.log(`FAILED: ${f}`);
}

function describeSetup(): string {
  const parallel = PARALLEL === undefined ? `the CLI's default (${os.availableParallelism() * 4})` : String(PARALLEL);
  const env = Object.keys(CLI_ENV).length === 0 ? "none" : Object.entries(CLI_ENV).map(([k, v]) => `${k}=${v}`).join(" ");
  return `${os.availableParallelism()} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; --parallel ${parallel}; extra CLI environment: ${env}`;
}

// ---- main --------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!canSamplePluginRss()) console.error("lifecycle: no /proc here, the plugin's RSS reads 0");
  const cli = await pulumiCli();
  console.log(`Lifecycle benchmark: ${describeSetup()}`);
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const size of SIZES) {
    for (const mode of MODE_NAMES) {
      const limit = MODES[mode].advertised;
      const emulator = await startEmulator({ port: 0, quiet: true, faults: { rateLimit: { limit } } });
      const runs: Map<PhaseKey, PhaseSample>[] = [];
      try {
        for (let run = 1; run <= repeatsFor(size); run++) {
          try {
            runs.push(await runLifecycle(cli, emulator, size, mode, run));
          } catch (e) {
            failures.push(`N=${size} ${MODES[mode].label} run ${run}: ${e instanceof Error ? e.message.split("\n").slice(0, 20).join("\n") : String(e)}`);
          }
        }
      } finally {
        await emulator.close();
      }
      for (const phase of PHASES) {
        const samples = runs.map((r) => r.get(phase)).filter((s): s is PhaseSample => s !== undefined);
        if (samples.length > 0) rows.push({ size, mode, phase, runs: samples.length, samples });
      }
    }
  }
  printTable(rows, failures);
  console.log(`After the runs: ${describeSetup()}`);
  if (failures.length > 0 || rows.some((r) => r.samples.some((s) => s.unexpected !== undefined))) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

/*
 * The routes side by side (a benchmark, not a test): the dynamic route (the classes of
 * `pulumi-wsbridge`, run by Pulumi's Node.js dynamic-provider host `pulumi-resource-pulumi-nodejs`), the
 * provider plugin route (`pulumi-resource-wsbridge`, installed from its archive as users install it,
 * with the generated SDK `@pulumi-wsbridge/wsbridge`), and the same program in Go through the plugin
 * (the generated Go SDK, run by Pulumi's Go Automation API: bench/go-program.ts), on the real Pulumi CLI
 * against the in-process emulator. Prints three tables, each with the issues' targets and whether they held:
 *
 * 1. Plugin start: exec of the installed launcher until it prints its port (what the engine waits for
 *    before its first call), median and spread over BENCH_ROUTES_START_RUNS runs, for the plugin and for
 *    the dynamic host's launcher (started from the repository root, where it resolves @pulumi/pulumi);
 *    also until its first answer (GetPluginInfo), which on the plugin route loads the handlers.
 *    The Go route starts the same plugin, so it has no row of its own.
 * 2. Operations: for each N, create, no-op preview, update all (every description changes), refresh and
 *    destroy, the same program on every route (same Workspace arguments), each run on a fresh stack, the
 *    routes taking turns to go first: wall time (median, spread), plugin / dynamic and Go / plugin,
 *    requests (every route, the request floor they set at the emulator's rate limit, and whether the
 *    requests are the same, method, path and query, ids aside), the time before our first request and
 *    after our last, the provider process's peak RSS (bench/plugin-rss.ts), and the CPU of the program
 *    and the emulator: this process hosts the emulator and the TypeScript programs (the Automation API
 *    runs them inline); the Go program's process reports its own CPU, which is added. Below it, the
 *    floor: up and preview of a program with no resource, in TypeScript and in Go.
 * 3. State: `stack export` after create: total bytes (compact JSON), per workspace (total / N), per
 *    Workspace resource (mean), the provider resource, and the state file on disk per workspace.
 *
 * Wall time is the whole Automation API call, as in bench/lifecycle.ts (whose notes on "to summary
 * event" apply here too); targets are judged on it.
 *
 *   node -r ./scripts/lib/register-ts.js bench/routes.ts      (npm run bench runs it, after building the SDK and the plugin)
 *
 * Before running: bash scripts/ensure-deps.sh && bash scripts/build-nodejs-sdk.sh && npx tsc -p tsconfig.json
 * && npm run build:plugin && bash scripts/setup-pulumi.sh (the bench uses dist/, the compiled SDK and the
 * plugin archive as they are).
 *
 * Environment (all optional):
 *   BENCH_ROUTES_PARTS=start,operations   what to run (default both)
 *   BENCH_ROUTES_START_RUNS=20            launcher starts per route, after one unmeasured start each (default 20)
 *   BENCH_ROUTES_SIZES=10,100,1000        sizes (default 10,100). From 1,000 on, only create, no-op preview and
 *                                         destroy run (unless BENCH_ROUTES_PHASES is set), with the file
 *                                         backend's default checkpoints unless BENCH_ROUTES_CLI_ENV says otherwise
 *   BENCH_ROUTES_REPEATS=3                runs per size and route, medians reported (default 3 for N ≤ 100, else 1)
 *   BENCH_ROUTES_ROUTES=plugin,go         routes to run, of dynamic, plugin, go (default all three; go needs `go`
 *                                         on PATH and builds test/go/cmd/lifecycle first)
 *   BENCH_ROUTES_MODE=no-limit            `limit-30` (the emulator advertises and enforces the service's 30
 *                                         requests/s; the default) or `no-limit` (1,000,000/s: see bench/lifecycle.ts)
 *   BENCH_ROUTES_PHASES=preview,update    optional phases, of preview, update, refresh (default all; at
 *                                         N ≥ 1,000 preview only); create and destroy always run
 *   BENCH_ROUTES_PARALLEL=16              `--parallel` for every operation (default: the CLI's, 4 × CPUs)
 *   BENCH_ROUTES_CLI_ENV=PULUMI_SKIP_CHECKPOINTS=true,…   extra environment for the CLI and the plugins
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { EngineEvent, OpMap, PulumiCommand } from "@pulumi/pulumi/automation";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { startEmulator, type RunningEmulator } from "../emulator";
import type { RequestLogEntry } from "../emulator/types";
import {
  createStack, emulatorStackConfig, installPlugin, pluginArchive, pulumiCli, repoRoot, type HarnessStack,
} from "../scripts/lib/stack-harness";
import { GoStack, buildGoLifecycle } from "./go-program";
import { PluginRssSampler, canSamplePluginRss, type SampledPlugin } from "./plugin-rss";

// ---- settings ----------------------------------------------------------------------------------

const SERVICE_LIMIT = 30;
const UNLIMITED = 1_000_000;
const MODES = {
  "limit-30": { advertised: SERVICE_LIMIT, label: "30 req/s" },
  "no-limit": { advertised: UNLIMITED, label: "no limit" },
} as const;
type ModeName = keyof typeof MODES;

type Route = "dynamic" | "plugin" | "go";
const ALL_ROUTES: readonly Route[] = ["dynamic", "plugin", "go"];
/** The routes whose provider is a launcher of its own (the Go route starts the plugin's). */
type StartRoute = Exclude<Route, "go">;
const ROUTE_LABELS: Record<StartRoute, string> = { dynamic: "dynamic (pulumi-resource-pulumi-nodejs)", plugin: "plugin (pulumi-resource-wsbridge)" };

type PhaseKey = "create" | "preview" | "update" | "refresh" | "destroy";
const PHASE_LABELS: Record<PhaseKey, string> = {
  create: "create", preview: "no-op preview", update: "update all", refresh: "refresh", destroy: "destroy",
};
const PHASE_ORDER: readonly PhaseKey[] = ["create", "preview", "update", "refresh", "destroy"];
const OPTIONAL_PHASES: readonly PhaseKey[] = ["preview", "update", "refresh"];
/** From this size on, only the cheap optional phases run by default (create and destroy take minutes). */
const LARGE = 1000;

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

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name}: "${value}" is not one of ${allowed.join(", ")}`);
  return value as T;
}

const PARTS = listFromEnv("BENCH_ROUTES_PARTS", "start,operations").map((p) => oneOf("BENCH_ROUTES_PARTS", p, ["start", "operations"] as const));
const START_RUNS = positiveIntegerFromEnv("BENCH_ROUTES_START_RUNS") ?? 20;
const SIZES = listFromEnv("BENCH_ROUTES_SIZES", "10,100").map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_ROUTES_SIZES: "${s}" is not a positive integer`);
  return n;
});
const REPEATS = positiveIntegerFromEnv("BENCH_ROUTES_REPEATS");
const ROUTES = listFromEnv("BENCH_ROUTES_ROUTES", ALL_ROUTES.join(",")).map((r) => oneOf("BENCH_ROUTES_ROUTES", r, ALL_ROUTES));
const START_ROUTES = ROUTES.filter((r): r is StartRoute => r !== "go");
const MODE: ModeName = oneOf("BENCH_ROUTES_MODE", process.env.BENCH_ROUTES_MODE || "limit-30", Object.keys(MODES) as ModeName[]);
const PHASES_SET = process.env.BENCH_ROUTES_PHASES !== undefined && process.env.BENCH_ROUTES_PHASES !== "";
const CHOSEN_OPTIONAL = listFromEnv("BENCH_ROUTES_PHASES", OPTIONAL_PHASES.join(",")).map((p) => {
  if (!(OPTIONAL_PHASES as readonly string[]).includes(p)) {
    throw new Error(`BENCH_ROUTES_PHASES: "${p}" is not one of ${OPTIONAL_PHASES.join(", ")} (create and destroy always run)`);
  }
  return p as PhaseKey;
});
const PARALLEL = positiveIntegerFromEnv("BENCH_ROUTES_PARALLEL");
const CLI_ENV: Record<string, string> = Object.fromEntries(listFromEnv("BENCH_ROUTES_CLI_ENV", "").map((pair) => {
  const eq = pair.indexOf("=");
  if (eq < 1) throw new Error(`BENCH_ROUTES_CLI_ENV: "${pair}" is not NAME=value`);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}));

function phasesFor(size: number): PhaseKey[] {
  const optional = size >= LARGE && !PHASES_SET ? ["preview"] : CHOSEN_OPTIONAL;
  return PHASE_ORDER.filter((p) => p === "create" || p === "destroy" || optional.includes(p));
}

function repeatsFor(size: number): number {
  return REPEATS ?? (size <= 100 ? 3 : 1);
}

/** The routes in the order of this run: each goes first in turn, so a drifting load hits all alike. */
function routesInOrder<R extends Route>(routes: readonly R[], run: number): R[] {
  const shift = (run - 1) % Math.max(routes.length, 1);
  return [...routes.slice(shift), ...routes.slice(0, shift)];
}

// ---- small helpers -----------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function medianOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : median(known);
}

const fixed = (v: number | null | undefined, digits = 1): string => (v === null || v === undefined ? "—" : v.toFixed(digits));

function spreadOf(values: number[], digits = 1): string {
  return values.length > 1 ? `${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)}` : "—";
}

const bytes = (n: number): string => Math.round(n).toLocaleString("en-US");

function errorText(e: unknown): string {
  return e instanceof Error ? e.message.split("\n").slice(0, 20).join("\n") : String(e);
}

function describeSetup(): string {
  const parallel = PARALLEL === undefined ? `the CLI's default (${os.availableParallelism() * 4})` : String(PARALLEL);
  const env = Object.keys(CLI_ENV).length === 0 ? "none" : Object.entries(CLI_ENV).map(([k, v]) => `${k}=${v}`).join(" ");
  return `${os.availableParallelism()} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; ` +
    `emulator ${MODES[MODE].label}; --parallel ${parallel}; extra CLI environment: ${env}`;
}

// ---- 1. plugin start ---------------------------------------------------------------------------

const PLUGIN_START_TARGET_SECONDS = 0.15;

interface StartSample {
  /** exec → the port line on stdout. */
  portSeconds: number;
  /** exec → GetPluginInfo answered over gRPC. */
  firstAnswerSeconds: number;
}

/** Installs the plugin archive into a fresh PULUMI_HOME with the CLI, as users do; returns the installed launcher. */
function installedPluginLauncher(cli: PulumiCommand, home: string): string {
  const pulumiHome = path.join(home, ".pulumi");
  installPlugin(cli, { HOME: home, PULUMI_HOME: pulumiHome, PULUMI_SKIP_UPDATE_CHECK: "true" });
  const version = /-v([^-]+)-[a-z]+-[a-z0-9]+\.tar\.gz$/.exec(pluginArchive())?.[1] ?? "";
  const launcher = path.join(pulumiHome, "plugins", `resource-wsbridge-v${version}`, "pulumi-resource-wsbridge");
  if (!fs.existsSync(launcher)) throw new Error(`the installed plugin has no launcher at ${launcher}`);
  return launcher;
}

/** Ends a launcher we started and everything it started (the dynamic host's launcher does not exec). */
function endGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      resolve();
      return;
    }
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      resolve();
    }
  });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const newline = text.indexOf("\n");
      if (newline >= 0) resolve(text.slice(0, newline));
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing its port: ${stderr.trim()}`)));
  });
}

function pluginInfo(port: string): Promise<PluginInfo> {
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise<PluginInfo>((resolve, reject) => {
    client.getPluginInfo(new Empty(), (error, info) => (error ? reject(error) : resolve(info)));
  }).finally(() => client.close());
}

async function startOnce(launcher: string): Promise<StartSample> {
  const started = process.hrtime.bigint();
  // The engine passes its own address last; none listens there, and none is needed to start and answer.
  const child = spawn(launcher, ["127.0.0.1:1"], { cwd: repoRoot, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const port = await firstLine(child);
    const portAt = process.hrtime.bigint();
    if (!/^\d+$/.test(port)) throw new Error(`${launcher} printed "${port}" first, not a port`);
    await pluginInfo(port);
    const answeredAt = process.hrtime.bigint();
    return { portSeconds: Number(portAt - started) / 1e9, firstAnswerSeconds: Number(answeredAt - started) / 1e9 };
  } finally {
    await endGroup(child);
  }
}

/** Node.js itself, exec → its first line: the floor under any plugin written for Node.js on this machine. */
async function nodeFloorSeconds(runs: number): Promise<number> {
  const seconds: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ["-e", "process.stdout.write('0\\n'); setInterval(() => {}, 60000)"], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    try {
      await firstLine(child);
      // The first start is not counted, as for the launchers.
      if (run > 0) seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    } finally {
      await endGroup(child);
    }
  }
  return median(seconds);
}

async function measureStarts(cli: PulumiCommand, failures: string[]): Promise<Map<StartRoute, StartSample[]>> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-routes-start-"));
  const samples = new Map<StartRoute, StartSample[]>(START_ROUTES.map((r) => [r, []]));
  try {
    const launchers: Record<StartRoute, string> = {
      dynamic: path.join(path.dirname(cli.command), "pulumi-resource-pulumi-nodejs"),
      plugin: installedPluginLauncher(cli, home),
    };
    // One unmeasured start each: the first reads its files from disk, the engine's never do.
    for (const route of START_ROUTES) await startOnce(launchers[route]);
    for (let run = 1; run <= START_RUNS; run++) {
      for (const route of routesInOrder(START_ROUTES, run)) {
        try {
          samples.get(route)?.push(await startOnce(launchers[route]));
        } catch (e) {
          failures.push(`start of ${route}, run ${run}: ${errorText(e)}`);
        }
      }
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  return samples;
}

function printStartTable(samples: Map<StartRoute, StartSample[]>): void {
  const rows = START_ROUTES.map((route) => {
    const s = samples.get(route) ?? [];
    if (s.length === 0) return `| ${ROUTE_LABELS[route]} | 0 | — | — | — | — | — | — |`;
    const port = s.map((x) => x.portSeconds);
    const answer = s.map((x) => x.firstAnswerSeconds);
    const p = median(port);
    const target = route === "plugin" ? `≤ ${PLUGIN_START_TARGET_SECONDS}` : "— (comparison)";
    const held = route === "plugin"
      ? p <= PLUGIN_START_TARGET_SECONDS ? `yes (${fixed(PLUGIN_START_TARGET_SECONDS - p, 3)} s under)` : `no (${fixed(p - PLUGIN_START_TARGET_SECONDS, 3)} s over)`
      : "—";
    return `| ${ROUTE_LABELS[route]} | ${s.length} | ${fixed(p, 3)} | ${spreadOf(port, 3)} | ${fixed(median(answer), 3)} | ${spreadOf(answer, 3)} | ${target} | ${held} |`;
  });
  console.log([
    "| launcher | runs | exec → port (s, median) | min–max (s) | exec → first answer, GetPluginInfo (s, median) | min–max (s) | target (s) | held |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n"));
}

// ---- 2. operations -----------------------------------------------------------------------------

interface PhaseSample {
  seconds: number;
  engineSeconds: number | null;
  requests: number;
  /** Every request as `METHOD path?query` with ids and our names generalized, sorted. */
  requestLines: string[];
  rateLimited: number;
  providerPeakMib: number;
  /** CPU of this process during the phase: the program (run inline here) and the emulator (same requests on both routes). */
  hostCpuSeconds: number;
  beforeFirstRequestSeconds: number | null;
  afterLastRequestSeconds: number | null;
  changes: OpMap;
  unexpected?: string;
}

interface StateSample {
  /** The resources of `stack export` after create. */
  resources: number;
  /** `stack export`'s deployment as compact JSON, in bytes. */
  totalBytes: number;
  /** Mean compact JSON of one Workspace resource. */
  perWorkspaceResourceBytes: number;
  /** The provider resource(s) the workspaces use. */
  providerBytes: number;
  /** The file backend's state file after create. */
  fileBytes: number;
}

interface LifecycleSample {
  phases: Map<PhaseKey, PhaseSample>;
  state?: StateSample;
}

function formatChanges(changes: OpMap): string {
  const parts = Object.entries(changes).filter(([, count]) => (count ?? 0) > 0).map(([op, count]) => `${op} ${count}`);
  return parts.length === 0 ? "none" : parts.join(", ");
}

/** What each phase must have done, so that a row never measures something else. */
function unexpectedChanges(phase: PhaseKey, changes: OpMap, size: number): string | undefined {
  const mutations = (["create", "update", "delete", "replace", "create-replacement", "delete-replaced"] as const)
    .filter((op) => (changes[op] ?? 0) > 0);
  const want: Partial<Record<PhaseKey, keyof OpMap>> = { create: "create", update: "update", destroy: "delete" };
  const op = want[phase];
  if (op === undefined) return mutations.length === 0 ? undefined : `expected no changes, got ${formatChanges(changes)}`;
  // The stack resource itself is created and deleted with the workspaces (provider resources are not counted).
  const expected = op === "update" ? size : size + 1;
  const other = mutations.filter((m) => m !== op);
  return changes[op] === expected && other.length === 0 ? undefined : `expected ${op} ${expected}, got ${formatChanges(changes)}`;
}

/** A request with what differs between runs and routes (ids, our workspace names) generalized. */
function requestLine(r: RequestLogEntry, prefix: string): string {
  const generalize = (s: string): string => s.replace(/ws-[A-Za-z0-9]+/g, "ws-…").split(prefix).join("<prefix>").replace(/<prefix>-\d+/g, "<name>");
  return `${r.method} ${generalize(r.path)}${r.query === "" ? "" : `?${generalize(r.query)}`}`;
}

interface Program {
  description: string;
}

const CREATED_DESCRIPTION = "created by the routes benchmark";
const UPDATED_DESCRIPTION = "updated by the routes benchmark";

/** The Workspace class of a TypeScript route, as the program uses it: the same arguments on both. */
type WorkspaceClass = new (name: string, args: { name: string; description: string }) => unknown;

async function workspaceClass(route: StartRoute): Promise<WorkspaceClass> {
  return route === "dynamic" ? (await import("pulumi-wsbridge")).Workspace : (await import("@pulumi-wsbridge/wsbridge")).Workspace;
}

/** What one operation reported, however the route's program ran it. */
interface Operation {
  /** The whole Automation API call. */
  seconds: number;
  engineSeconds: number | null;
  /** CPU of a program that runs in a process of its own (the Go route); 0 when it runs in this one. */
  programProcessCpuSeconds: number;
  changes: OpMap;
}

/** A stack of one route's program: the operations, the state, and its folder (whose backend/ holds the state). */
interface RouteStack {
  readonly dir: string;
  /** Runs the phase; `update` is an up after the program's description changed. */
  run(phase: PhaseKey): Promise<Operation>;
  exportDeployment(): Promise<unknown>;
  dispose(): Promise<void>;
}

/** A TypeScript program, run inline in this process by the Node.js Automation API (scripts/lib/stack-harness.ts). */
function typescriptStack(h: HarnessStack, program: Program): RouteStack {
  const options = PARALLEL === undefined ? {} : { parallel: PARALLEL };
  const call = async (phase: PhaseKey, onEvent: (event: EngineEvent) => void): Promise<OpMap> => {
    switch (phase) {
      case "create":
      case "update":
        return (await h.stack.up({ ...options, onEvent })).summary.resourceChanges ?? {};
      case "preview":
        return (await h.stack.preview({ ...options, onEvent })).changeSummary;
      case "refresh":
        return (await h.stack.refresh({ ...options, onEvent })).summary.resourceChanges ?? {};
      case "destroy":
        return (await h.stack.destroy({ ...options, onEvent })).summary.resourceChanges ?? {};
    }
  };
  return {
    dir: h.dir,
    async run(phase) {
      if (phase === "update") program.description = UPDATED_DESCRIPTION;
      let summaryAt: number | undefined;
      const started = Date.now();
      const changes = await call(phase, (event) => {
        if (event.summaryEvent !== undefined) summaryAt = Date.now();
      });
      const seconds = (Date.now() - started) / 1000;
      return { seconds, engineSeconds: summaryAt === undefined ? null : (summaryAt - started) / 1000, programProcessCpuSeconds: 0, changes };
    },
    async exportDeployment() {
      return (await h.stack.exportStack()).deployment;
    },
    dispose: () => h.dispose(),
  };
}

/** The Go program, in a process of its own that times each Automation API call (bench/go-program.ts). */
function goStack(g: GoStack, program: Program): RouteStack {
  return {
    dir: g.dir,
    async run(phase) {
      if (phase === "update") program.description = UPDATED_DESCRIPTION;
      const command = phase === "create" || phase === "update" ? "up" : phase;
      const done = await g.operation(command, program.description);
      return { seconds: done.seconds, engineSeconds: done.engineSeconds, programProcessCpuSeconds: done.cpuSeconds, changes: done.changes };
    },
    exportDeployment: () => g.exportDeployment(),
    dispose: () => g.dispose(),
  };
}

interface Setting {
  cli: PulumiCommand;
  /** The Go route's command, built before anything is measured. */
  goBinary?: string;
}

async function stackOf(setting: Setting, emulator: RunningEmulator | undefined, route: Route, projectName: string, size: number, program: Program): Promise<RouteStack> {
  if (route === "go") {
    if (setting.goBinary === undefined) throw new Error("the Go route's command was not built");
    const noEmulator = { url: "http://127.0.0.1:1", token: "none", organization: "none" };
    return goStack(await GoStack.start({
      cli: setting.cli, binary: setting.goBinary, emulator: emulator ?? noEmulator, projectName, size, env: CLI_ENV, ...(PARALLEL === undefined ? {} : { parallel: PARALLEL }),
    }), program);
  }
  const h = await createStack({
    cli: setting.cli,
    projectName,
    ...(emulator === undefined ? {} : { config: emulatorStackConfig(emulator) }),
    env: CLI_ENV,
    plugin: route === "plugin",
    program: async () => {
      const Workspace = await workspaceClass(route);
      for (let i = 0; i < size; i++) new Workspace(`ws-${i}`, { name: `${projectName}-${i}`, description: program.description });
    },
  });
  return typescriptStack(h, program);
}

/** Which plugin process holds the route's provider. */
const SAMPLED: Record<Route, SampledPlugin> = { dynamic: "dynamic", plugin: "wsbridge", go: "wsbridge" };

async function measurePhase(emulator: RunningEmulator, stack: RouteStack, route: Route, phase: PhaseKey, size: number, prefix: string): Promise<PhaseSample> {
  emulator.clearRequests();
  const sampler = new PluginRssSampler(SAMPLED[route]);
  sampler.start();
  const sent = Date.now();
  const cpuBefore = process.cpuUsage();
  let done: Operation;
  let providerPeakMib = 0;
  try {
    done = await stack.run(phase);
  } finally {
    providerPeakMib = sampler.stop();
  }
  const answered = Date.now();
  const cpu = process.cpuUsage(cpuBefore);
  const log = emulator.requests();
  const times = log.map((r) => Date.parse(r.at));
  const unexpected = unexpectedChanges(phase, done.changes, size);
  return {
    seconds: done.seconds,
    engineSeconds: done.engineSeconds,
    requests: log.length,
    requestLines: log.map((r) => requestLine(r, prefix)).sort(),
    rateLimited: log.filter((r) => r.status === 429).length,
    providerPeakMib,
    hostCpuSeconds: (cpu.user + cpu.system) / 1e6 + done.programProcessCpuSeconds,
    beforeFirstRequestSeconds: times.length === 0 ? null : (Math.min(...times) - sent) / 1000,
    afterLastRequestSeconds: times.length === 0 ? null : (answered - Math.max(...times)) / 1000,
    changes: done.changes,
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

async function measureState(stack: RouteStack): Promise<StateSample> {
  const deployment = (await stack.exportDeployment()) as { resources?: Array<{ urn: string; type: string }> };
  const resources = deployment.resources ?? [];
  const size = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");
  const workspaces = resources.filter((r) => /::ws-\d+$/.test(r.urn));
  const providers = resources.filter((r) => r.type.startsWith("pulumi:providers:"));
  return {
    resources: resources.length,
    totalBytes: size(deployment),
    perWorkspaceResourceBytes: workspaces.length === 0 ? 0 : workspaces.reduce((sum, r) => sum + size(r), 0) / workspaces.length,
    providerBytes: providers.reduce((sum, r) => sum + size(r), 0),
    fileBytes: stateFileBytes(stack.dir),
  };
}

async function runLifecycle(setting: Setting, emulator: RunningEmulator, route: Route, size: number, run: number): Promise<LifecycleSample> {
  const prefix = `routes-${route}-${size}-${run}`;
  const stack = await stackOf(setting, emulator, route, prefix, size, { description: CREATED_DESCRIPTION });
  const result: LifecycleSample = { phases: new Map() };
  try {
    for (const phase of phasesFor(size)) {
      const sample = await measurePhase(emulator, stack, route, phase, size, prefix);
      result.phases.set(phase, sample);
      console.error(
        `routes: N=${size} ${route} run ${run} ${PHASE_LABELS[phase]}: ${sample.seconds.toFixed(1)} s ` +
          `(summary at ${sample.engineSeconds?.toFixed(1) ?? "—"} s, 1st request at ${sample.beforeFirstRequestSeconds?.toFixed(1) ?? "—"} s), ` +
          `${sample.requests} requests, ${sample.rateLimited} × 429, provider ${sample.providerPeakMib.toFixed(0)} MiB, ` +
          `program + emulator ${sample.hostCpuSeconds.toFixed(1)} s CPU` +
          (sample.unexpected === undefined ? "" : ` — UNEXPECTED: ${sample.unexpected}`),
      );
      if (phase === "create") {
        result.state = await measureState(stack);
        console.error(`routes: N=${size} ${route} run ${run} state: ${bytes(result.state.totalBytes)} bytes exported, ` +
          `${bytes(result.state.perWorkspaceResourceBytes)} per Workspace resource`);
      }
    }
  } finally {
    await stack.dispose();
  }
  return result;
}

type FloorPhase = "create" | "preview";

/**
 * The floor no route can go below: the same operations on a program that declares no resource, so no
 * provider starts (the CLI, the engine, the Automation API and the state writes of the stack alone), for
 * a TypeScript program (both TypeScript routes run the same) and for the Go program.
 */
async function measureEmptyProgram(setting: Setting, language: "typescript" | "go", runs: number): Promise<Map<FloorPhase, number[]>> {
  const seconds = new Map<FloorPhase, number[]>([["create", []], ["preview", []]]);
  const stack = await stackOf(setting, undefined, language === "go" ? "go" : "plugin", `routes-empty-${language}`, 0, { description: "" });
  try {
    for (let run = 1; run <= runs; run++) {
      for (const phase of ["create", "preview"] as const) seconds.get(phase)?.push((await stack.run(phase)).seconds);
      await stack.run("destroy");
    }
  } finally {
    await stack.dispose();
  }
  return seconds;
}

// ---- the operations table ----------------------------------------------------------------------

/** A ratio of two routes' wall times and its target per N and phase (issue 26: plugin / dynamic; issue 27: Go / plugin). */
interface Comparison {
  route: Route;
  over: Route;
  target(size: number, phase: PhaseKey): number | undefined;
}

const COMPARISONS: readonly Comparison[] = [
  {
    route: "plugin",
    over: "dynamic",
    target: (size, phase) => {
      if (size === 10) return phase === "create" || phase === "preview" ? 0.6 : phase === "update" || phase === "destroy" ? 1 : undefined;
      return size === 100 ? 1 : undefined;
    },
  },
  { route: "go", over: "plugin", target: (size, phase) => (size === 10 && (phase === "create" || phase === "preview") ? 1.1 : undefined) },
];

interface Row {
  size: number;
  phase: PhaseKey;
  samples: Map<Route, PhaseSample[]>;
}

/** Whether every route sent the same requests in every run of the phase; a description when not. */
function requestDifference(row: Row): string | undefined {
  const all = ROUTES.flatMap((route) => (row.samples.get(route) ?? []).map((sample) => ({ route, sample })));
  const first = all[0];
  if (first === undefined) return undefined;
  const key = (s: PhaseSample): string => s.requestLines.join("\n");
  const odd = all.find((s) => key(s.sample) !== key(first.sample));
  if (odd === undefined) return undefined;
  const count = (lines: string[]): Map<string, number> => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const a = count(first.sample.requestLines);
  const b = count(odd.sample.requestLines);
  const other = odd.route === first.route ? `another ${odd.route} run` : odd.route;
  const lines = [...new Set([...a.keys(), ...b.keys()])].filter((l) => a.get(l) !== b.get(l))
    .map((l) => `${l}: ${first.route} ${a.get(l) ?? 0}, ${other} ${b.get(l) ?? 0}`);
  return lines.join("; ");
}

function perRoute(row: Row, value: (samples: PhaseSample[]) => string): string {
  return ROUTES.map((route) => {
    const s = row.samples.get(route) ?? [];
    return s.length === 0 ? "—" : value(s);
  }).join(" / ");
}

function wallOf(row: Row, route: Route): number | undefined {
  const s = row.samples.get(route) ?? [];
  return s.length === 0 ? undefined : median(s.map((x) => x.seconds));
}

/** The comparisons this run can make: both of their routes ran. */
const comparisonsRun = (): Comparison[] => COMPARISONS.filter((c) => ROUTES.includes(c.route) && ROUTES.includes(c.over));

function comparisonCells(row: Row, c: Comparison): string {
  const mine = wallOf(row, c.route);
  const theirs = wallOf(row, c.over);
  const ratio = mine !== undefined && theirs !== undefined && theirs > 0 ? mine / theirs : undefined;
  const target = c.target(row.size, row.phase);
  const targetText = target === undefined ? "—" : target === 1 ? "no slower (≤ 1.00×)" : `≤ ${target.toFixed(2)}×`;
  const held = target === undefined || ratio === undefined ? "—" : ratio <= target ? `yes (${ratio.toFixed(2)}×)` : `no (${ratio.toFixed(2)}×)`;
  return `${ratio === undefined ? "—" : `${ratio.toFixed(2)}×`} | ${targetText} | ${held}`;
}

function formatRow(row: Row): string {
  const difference = requestDifference(row);
  const same = row.samples.size < 2 ? "—" : difference === undefined ? "yes" : "NO (below)";
  const seconds = (route: Route): string => {
    const s = row.samples.get(route) ?? [];
    return s.length === 0 ? "— | —" : `${fixed(median(s.map((x) => x.seconds)))} | ${spreadOf(s.map((x) => x.seconds))}`;
  };
  const unexpected = [...row.samples.values()].flat().map((s) => s.unexpected).find((u) => u !== undefined);
  const first = [...row.samples.values()].flat()[0];
  const changes = unexpected === undefined ? formatChanges(first?.changes ?? {}) : `UNEXPECTED: ${unexpected}`;
  const requestFloor = first === undefined ? "—" : fixed(first.requests / MODES[MODE].advertised);
  return `| ${row.size} | ${PHASE_LABELS[row.phase]} | ${perRoute(row, (s) => String(s.length))} | ${ROUTES.map(seconds).join(" | ")} | ` +
    `${comparisonsRun().map((c) => comparisonCells(row, c)).join(" | ")} | ` +
    `${perRoute(row, (s) => fixed(median(s.map((x) => x.requests)), 0))} | ${requestFloor} | ${same} | ` +
    `${perRoute(row, (s) => fixed(median(s.map((x) => x.rateLimited)), 0))} | ` +
    `${perRoute(row, (s) => fixed(medianOrNull(s.map((x) => x.engineSeconds))))} | ` +
    `${perRoute(row, (s) => fixed(medianOrNull(s.map((x) => x.beforeFirstRequestSeconds))))} | ` +
    `${perRoute(row, (s) => fixed(medianOrNull(s.map((x) => x.afterLastRequestSeconds))))} | ` +
    `${perRoute(row, (s) => fixed(median(s.map((x) => x.providerPeakMib)), 0))} | ${perRoute(row, (s) => fixed(median(s.map((x) => x.hostCpuSeconds))))} | ${changes} |`;
}

function printOperationsTable(rows: Row[]): void {
  const all = ROUTES.join(" / ");
  const header = [
    "N", "phase", `runs (${all})`,
    ...ROUTES.flatMap((route) => [`${route} wall (s, median)`, `${route} min–max (s)`]),
    ...comparisonsRun().flatMap((c) => [`${c.route} / ${c.over}`, "target", "held"]),
    `requests (${all})`, `request floor at ${MODES[MODE].label} (s)`, "same requests", `429s (${all})`, `to summary event (s; ${all})`,
    `before 1st request (s; ${all})`, `after last request (s; ${all})`, `provider peak RSS (MiB; ${all})`, `program + emulator CPU (s; ${all})`, "changes",
  ];
  console.log([`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map(formatRow)].join("\n"));
  for (const row of rows) {
    const difference = requestDifference(row);
    if (difference !== undefined) console.log(`DIFFERENT REQUESTS at N=${row.size}, ${PHASE_LABELS[row.phase]}: ${difference}`);
  }
}

function printStateTable(states: Map<number, Map<Route, StateSample[]>>): void {
  const rows: string[] = [];
  for (const [size, byRoute] of states) {
    const perResource = (route: Route): number | undefined => {
      const s = byRoute.get(route) ?? [];
      return s.length === 0 ? undefined : median(s.map((x) => x.perWorkspaceResourceBytes));
    };
    const dynamicPer = perResource("dynamic");
    for (const route of ROUTES) {
      const s = byRoute.get(route) ?? [];
      if (s.length === 0) continue;
      const total = median(s.map((x) => x.totalBytes));
      const per = median(s.map((x) => x.perWorkspaceResourceBytes));
      // Issue 26's target is the plugin's. The Go SDK adds the registering goroutine's stack trace to each
      // resource (its source positions), which the engine stores: printed, not judged.
      const judged = route === "plugin" && dynamicPer !== undefined && dynamicPer > 0;
      const target = judged ? `≤ ½ dynamic (${bytes(dynamicPer / 2)})` : "—";
      const held = judged ? `${per <= dynamicPer / 2 ? "yes" : "no"} (${(per / dynamicPer).toFixed(2)}×)` : "—";
      rows.push(`| ${size} | ${route} | ${median(s.map((x) => x.resources))} | ${bytes(total)} | ${bytes(total / size)} | ${bytes(per)} | ` +
        `${bytes(median(s.map((x) => x.providerBytes)))} | ${bytes(median(s.map((x) => x.fileBytes)) / size)} | ${target} | ${held} |`);
    }
  }
  console.log([
    "| N | route | resources | `stack export` after create (bytes, compact JSON) | per workspace (total / N) | per Workspace resource (mean) | provider resource | state file on disk / N | target (per Workspace resource) | held |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n"));
}

// ---- main --------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!canSamplePluginRss()) console.error("routes: no /proc here, the providers' RSS reads 0");
  const setting: Setting = { cli: await pulumiCli() };
  console.log(`Routes benchmark: ${describeSetup()}`);
  const failures: string[] = [];

  if (PARTS.includes("start") && START_ROUTES.length > 0) {
    const starts = await measureStarts(setting.cli, failures);
    console.log("");
    console.log(`Plugin start (${START_RUNS} runs per launcher, alternating, after one unmeasured start each; the Go route starts the plugin's):`);
    printStartTable(starts);
    const floor = await nodeFloorSeconds(START_RUNS);
    console.log(`Node.js itself (${process.version}), exec → its first line printed, median of ${START_RUNS}: ${fixed(floor, 3)} s: ` +
      "the floor of any plugin run by Node.js on this machine; the target allows the plugin " +
      `${fixed(PLUGIN_START_TARGET_SECONDS - floor, 3)} s above it here.`);
  }

  const rows: Row[] = [];
  const states = new Map<number, Map<Route, StateSample[]>>();
  const floors = new Map<"typescript" | "go", Map<FloorPhase, number[]>>();
  if (PARTS.includes("operations")) {
    const buildDir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-routes-go-"));
    try {
      if (ROUTES.includes("go")) setting.goBinary = await buildGoLifecycle(buildDir);
      // The TypeScript programs run in this process (inline): load both routes' classes once before
      // measuring, so the first run of neither pays a require the others do not (a few ms each).
      for (const route of START_ROUTES) await workspaceClass(route);
      const languages = [
        ...(START_ROUTES.length > 0 ? ["typescript" as const] : []),
        ...(ROUTES.includes("go") ? ["go" as const] : []),
      ];
      for (const language of languages) {
        try {
          floors.set(language, await measureEmptyProgram(setting, language, repeatsFor(SIZES[0] ?? 10)));
        } catch (e) {
          failures.push(`the empty ${language} program: ${errorText(e)}`);
        }
      }
      for (const size of SIZES) {
        const emulator = await startEmulator({ port: 0, quiet: true, faults: { rateLimit: { limit: MODES[MODE].advertised } } });
        const runs = new Map<Route, LifecycleSample[]>(ROUTES.map((r) => [r, []]));
        try {
          for (let run = 1; run <= repeatsFor(size); run++) {
            for (const route of routesInOrder(ROUTES, run)) {
              try {
                runs.get(route)?.push(await runLifecycle(setting, emulator, route, size, run));
              } catch (e) {
                failures.push(`N=${size} ${route} run ${run}: ${errorText(e)}`);
              }
            }
          }
        } finally {
          await emulator.close();
        }
        for (const phase of phasesFor(size)) {
          const samples = new Map<Route, PhaseSample[]>();
          for (const [route, lifecycles] of runs) {
            const s = lifecycles.map((l) => l.phases.get(phase)).filter((x): x is PhaseSample => x !== undefined);
            if (s.length > 0) samples.set(route, s);
          }
          if (samples.size > 0) rows.push({ size, phase, samples });
        }
        states.set(size, new Map([...runs].map(([route, lifecycles]) => [route, lifecycles.flatMap((l) => (l.state === undefined ? [] : [l.state]))])));
      }
    } finally {
      fs.rmSync(buildDir, { recursive: true, force: true });
    }
    console.log("");
    console.log(`Operations (emulator ${MODES[MODE].label}; wall time is the whole Automation API call; routes take turns to run first):`);
    printOperationsTable(rows);
    for (const [language, seconds] of floors) {
      const line = (phase: FloorPhase): string => {
        const s = seconds.get(phase) ?? [];
        return s.length === 0 ? "—" : `${fixed(median(s))} s (${spreadOf(s)})`;
      };
      console.log(`The floor, a ${language === "go" ? "Go" : "TypeScript"} program with no resource (no provider starts): up ${line("create")}, no-op preview ${line("preview")}.`);
    }
    console.log("");
    console.log("State after create:");
    printStateTable(states);
  }

  for (const f of failures) console.log(`FAILED: ${f}`);
  console.log(`After the runs: ${describeSetup()}`);
  const unexpected = rows.some((r) => [...r.samples.values()].flat().some((s) => s.unexpected !== undefined));
  const differentRequests = rows.some((r) => requestDifference(r) !== undefined);
  if (failures.length > 0 || unexpected || differentRequests) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

/*
 * The two routes side by side (a benchmark, not a test): the dynamic route (the classes of
 * `pulumi-wsbridge`, run by Pulumi's Node.js dynamic-provider host `pulumi-resource-pulumi-nodejs`) and
 * the provider plugin route (`pulumi-resource-wsbridge`, installed from its archive as users install it,
 * with the generated SDK `@pulumi-wsbridge/wsbridge`), on the real Pulumi CLI against the in-process
 * emulator. Prints three tables, each with the issue's targets and whether they held:
 *
 * 1. Plugin start: exec of the installed launcher until it prints its port (what the engine waits for
 *    before its first call), median and spread over BENCH_ROUTES_START_RUNS runs, for the plugin and for
 *    the dynamic host's launcher (started from the repository root, where it resolves @pulumi/pulumi);
 *    also until its first answer (GetPluginInfo), which on the plugin route loads the handlers.
 * 2. Operations: for each N, create, no-op preview, update all (every description changes), refresh and
 *    destroy, the same program on both routes (same Workspace arguments; only the import differs), each
 *    run on a fresh stack, the routes alternating which goes first: wall time (median, spread),
 *    plugin / dynamic, requests (both routes, and whether the requests are the same, method, path and
 *    query, ids aside), the time before our first request and after our last, the provider process's
 *    peak RSS (bench/plugin-rss.ts), and the CPU of this process, which hosts the program (the Automation
 *    API runs it inline) and the emulator (the same requests on both routes). Below it, the floor: up and preview of a program with no resource.
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
 *   BENCH_ROUTES_ROUTES=plugin            routes to run, of dynamic, plugin (default both)
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
import { PluginRssSampler, canSamplePluginRss } from "./plugin-rss";

// ---- settings ----------------------------------------------------------------------------------

const SERVICE_LIMIT = 30;
const UNLIMITED = 1_000_000;
const MODES = {
  "limit-30": { advertised: SERVICE_LIMIT, label: "30 req/s" },
  "no-limit": { advertised: UNLIMITED, label: "no limit" },
} as const;
type ModeName = keyof typeof MODES;

type Route = "dynamic" | "plugin";
const ROUTE_LABELS: Record<Route, string> = { dynamic: "dynamic (pulumi-resource-pulumi-nodejs)", plugin: "plugin (pulumi-resource-wsbridge)" };

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
const ROUTES = listFromEnv("BENCH_ROUTES_ROUTES", "dynamic,plugin").map((r) => oneOf("BENCH_ROUTES_ROUTES", r, ["dynamic", "plugin"] as const));
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

/** The routes in the order of this run: alternating which goes first, so a drifting load hits both alike. */
function routesInOrder(run: number): Route[] {
  return run % 2 === 1 ? [...ROUTES] : [...ROUTES].reverse();
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

async function measureStarts(cli: PulumiCommand, failures: string[]): Promise<Map<Route, StartSample[]>> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-routes-start-"));
  const samples = new Map<Route, StartSample[]>(ROUTES.map((r) => [r, []]));
  try {
    const launchers: Record<Route, string> = {
      dynamic: path.join(path.dirname(cli.command), "pulumi-resource-pulumi-nodejs"),
      plugin: installedPluginLauncher(cli, home),
    };
    // One unmeasured start each: the first reads its files from disk, the engine's never do.
    for (const route of ROUTES) await startOnce(launchers[route]);
    for (let run = 1; run <= START_RUNS; run++) {
      for (const route of routesInOrder(run)) {
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

function printStartTable(samples: Map<Route, StartSample[]>): void {
  const rows = ROUTES.map((route) => {
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

/** The Workspace class of either route, as the program uses it: the same arguments on both. */
type WorkspaceClass = new (name: string, args: { name: string; description: string }) => unknown;

async function workspaceClass(route: Route): Promise<WorkspaceClass> {
  return route === "dynamic" ? (await import("pulumi-wsbridge")).Workspace : (await import("@pulumi-wsbridge/wsbridge")).Workspace;
}

async function runPhase(h: HarnessStack, phase: PhaseKey, program: Program, onEvent: (event: EngineEvent) => void): Promise<OpMap> {
  const options = { onEvent, ...(PARALLEL === undefined ? {} : { parallel: PARALLEL }) };
  switch (phase) {
    case "create":
      return (await h.stack.up(options)).summary.resourceChanges ?? {};
    case "preview":
      return (await h.stack.preview(options)).changeSummary;
    case "update":
      program.description = "updated by the routes benchmark";
      return (await h.stack.up(options)).summary.resourceChanges ?? {};
    case "refresh":
      return (await h.stack.refresh(options)).summary.resourceChanges ?? {};
    case "destroy":
      return (await h.stack.destroy(options)).summary.resourceChanges ?? {};
  }
}

async function measurePhase(
  emulator: RunningEmulator, h: HarnessStack, route: Route, phase: PhaseKey, program: Program, size: number, prefix: string,
): Promise<PhaseSample> {
  emulator.clearRequests();
  const sampler = new PluginRssSampler(route === "dynamic" ? "dynamic" : "wsbridge");
  sampler.start();
  let summaryAt: number | undefined;
  const onEvent = (event: EngineEvent): void => {
    if (event.summaryEvent !== undefined) summaryAt = Date.now();
  };
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  let changes: OpMap;
  let providerPeakMib = 0;
  try {
    changes = await runPhase(h, phase, program, onEvent);
  } finally {
    providerPeakMib = sampler.stop();
  }
  const ended = Date.now();
  const cpu = process.cpuUsage(cpuBefore);
  const log = emulator.requests();
  const times = log.map((r) => Date.parse(r.at));
  const unexpected = unexpectedChanges(phase, changes, size);
  return {
    seconds: (ended - started) / 1000,
    engineSeconds: summaryAt === undefined ? null : (summaryAt - started) / 1000,
    requests: log.length,
    requestLines: log.map((r) => requestLine(r, prefix)).sort(),
    rateLimited: log.filter((r) => r.status === 429).length,
    providerPeakMib,
    hostCpuSeconds: (cpu.user + cpu.system) / 1e6,
    beforeFirstRequestSeconds: times.length === 0 ? null : (Math.min(...times) - started) / 1000,
    afterLastRequestSeconds: times.length === 0 ? null : (ended - Math.max(...times)) / 1000,
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

async function measureState(h: HarnessStack): Promise<StateSample> {
  const exported = await h.stack.exportStack();
  const deployment = exported.deployment as { resources?: Array<{ urn: string; type: string }> };
  const resources = deployment.resources ?? [];
  const size = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");
  const workspaces = resources.filter((r) => /::ws-\d+$/.test(r.urn));
  const providers = resources.filter((r) => r.type.startsWith("pulumi:providers:"));
  return {
    resources: resources.length,
    totalBytes: size(exported.deployment),
    perWorkspaceResourceBytes: workspaces.length === 0 ? 0 : workspaces.reduce((sum, r) => sum + size(r), 0) / workspaces.length,
    providerBytes: providers.reduce((sum, r) => sum + size(r), 0),
    fileBytes: stateFileBytes(h.dir),
  };
}

async function runLifecycle(cli: PulumiCommand, emulator: RunningEmulator, route: Route, size: number, run: number): Promise<LifecycleSample> {
  const prefix = `routes-${route}-${size}-${run}`;
  const program: Program = { description: "created by the routes benchmark" };
  const h = await createStack({
    cli,
    projectName: prefix,
    config: emulatorStackConfig(emulator),
    env: CLI_ENV,
    plugin: route === "plugin",
    program: async () => {
      const Workspace = await workspaceClass(route);
      for (let i = 0; i < size; i++) new Workspace(`ws-${i}`, { name: `${prefix}-${i}`, description: program.description });
    },
  });
  const result: LifecycleSample = { phases: new Map() };
  try {
    for (const phase of phasesFor(size)) {
      const sample = await measurePhase(emulator, h, route, phase, program, size, prefix);
      result.phases.set(phase, sample);
      console.error(
        `routes: N=${size} ${route} run ${run} ${PHASE_LABELS[phase]}: ${sample.seconds.toFixed(1)} s ` +
          `(summary at ${sample.engineSeconds?.toFixed(1) ?? "—"} s, 1st request at ${sample.beforeFirstRequestSeconds?.toFixed(1) ?? "—"} s), ` +
          `${sample.requests} requests, ${sample.rateLimited} × 429, provider ${sample.providerPeakMib.toFixed(0)} MiB, ` +
          `program + emulator ${sample.hostCpuSeconds.toFixed(1)} s CPU` +
          (sample.unexpected === undefined ? "" : ` — UNEXPECTED: ${sample.unexpected}`),
      );
      if (phase === "create") {
        result.state = await measureState(h);
        console.error(`routes: N=${size} ${route} run ${run} state: ${bytes(result.state.totalBytes)} bytes exported, ` +
          `${bytes(result.state.perWorkspaceResourceBytes)} per Workspace resource`);
      }
    }
  } finally {
    await h.dispose();
  }
  return result;
}

/**
 * The floor no route can go below: the same operations on a program that declares no resource, so no
 * provider starts (the CLI, the engine, the Automation API and the state writes of the stack alone).
 */
async function measureEmptyProgram(cli: PulumiCommand, runs: number): Promise<Map<"create" | "preview", number[]>> {
  const seconds = new Map<"create" | "preview", number[]>([["create", []], ["preview", []]]);
  const h = await createStack({ cli, projectName: "routes-empty", env: CLI_ENV, program: async () => {} });
  const options = PARALLEL === undefined ? {} : { parallel: PARALLEL };
  try {
    for (let run = 1; run <= runs; run++) {
      let started = Date.now();
      await h.stack.up(options);
      seconds.get("create")?.push((Date.now() - started) / 1000);
      started = Date.now();
      await h.stack.preview(options);
      seconds.get("preview")?.push((Date.now() - started) / 1000);
      await h.stack.destroy(options);
    }
  } finally {
    await h.dispose();
  }
  return seconds;
}

// ---- the operations table ----------------------------------------------------------------------

/** The issue's targets: plugin wall time as a fraction of the dynamic route's, per N and phase. */
function targetRatio(size: number, phase: PhaseKey): number | undefined {
  if (size === 10) return phase === "create" || phase === "preview" ? 0.6 : phase === "update" || phase === "destroy" ? 1 : undefined;
  if (size === 100) return 1;
  return undefined;
}

interface Row {
  size: number;
  phase: PhaseKey;
  samples: Map<Route, PhaseSample[]>;
}

/** Whether both routes sent the same requests in every run of the phase; a description when not. */
function requestDifference(row: Row): string | undefined {
  const dynamic = row.samples.get("dynamic") ?? [];
  const plugin = row.samples.get("plugin") ?? [];
  if (dynamic.length === 0 || plugin.length === 0) return undefined;
  const key = (s: PhaseSample): string => s.requestLines.join("\n");
  const reference = key(dynamic[0] as PhaseSample);
  const odd = [...dynamic, ...plugin].find((s) => key(s) !== reference);
  if (odd === undefined) return undefined;
  const count = (lines: string[]): Map<string, number> => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const a = count((dynamic[0] as PhaseSample).requestLines);
  const b = count(odd.requestLines);
  const lines = [...new Set([...a.keys(), ...b.keys()])].filter((l) => a.get(l) !== b.get(l))
    .map((l) => `${l}: dynamic ${a.get(l) ?? 0}, ${plugin.includes(odd) ? "plugin" : "another dynamic run"} ${b.get(l) ?? 0}`);
  return lines.join("; ");
}

function pair(row: Row, value: (samples: PhaseSample[]) => string): string {
  return ROUTES.map((route) => {
    const s = row.samples.get(route) ?? [];
    return s.length === 0 ? "—" : value(s);
  }).join(" / ");
}

function formatRow(row: Row): string {
  const wall = (route: Route): number | undefined => {
    const s = row.samples.get(route) ?? [];
    return s.length === 0 ? undefined : median(s.map((x) => x.seconds));
  };
  const dynamic = wall("dynamic");
  const plugin = wall("plugin");
  const ratio = dynamic !== undefined && plugin !== undefined && dynamic > 0 ? plugin / dynamic : undefined;
  const target = targetRatio(row.size, row.phase);
  const targetText = target === undefined ? "—" : target === 1 ? "no slower (≤ 1.00×)" : `≤ ${target.toFixed(2)}×`;
  const held = target === undefined || ratio === undefined ? "—" : ratio <= target ? `yes (${ratio.toFixed(2)}×)` : `no (${ratio.toFixed(2)}×)`;
  const difference = requestDifference(row);
  const same = row.samples.size < 2 ? "—" : difference === undefined ? "yes" : "NO (below)";
  const runs = pair(row, (s) => String(s.length));
  const secondsOf = (route: Route): string => {
    const s = row.samples.get(route) ?? [];
    return s.length === 0 ? "— | —" : `${fixed(median(s.map((x) => x.seconds)))} | ${spreadOf(s.map((x) => x.seconds))}`;
  };
  const unexpected = [...row.samples.values()].flat().map((s) => s.unexpected).find((u) => u !== undefined);
  const first = [...row.samples.values()].flat()[0];
  const changes = unexpected === undefined ? formatChanges(first?.changes ?? {}) : `UNEXPECTED: ${unexpected}`;
  return `| ${row.size} | ${PHASE_LABELS[row.phase]} | ${runs} | ${secondsOf("dynamic")} | ${secondsOf("plugin")} | ${ratio === undefined ? "—" : `${ratio.toFixed(2)}×`} | ` +
    `${targetText} | ${held} | ${pair(row, (s) => fixed(median(s.map((x) => x.requests)), 0))} | ${same} | ` +
    `${pair(row, (s) => fixed(median(s.map((x) => x.rateLimited)), 0))} | ` +
    `${pair(row, (s) => fixed(medianOrNull(s.map((x) => x.engineSeconds))))} | ` +
    `${pair(row, (s) => fixed(medianOrNull(s.map((x) => x.beforeFirstRequestSeconds))))} | ` +
    `${pair(row, (s) => fixed(medianOrNull(s.map((x) => x.afterLastRequestSeconds))))} | ` +
    `${pair(row, (s) => fixed(median(s.map((x) => x.providerPeakMib)), 0))} | ${pair(row, (s) => fixed(median(s.map((x) => x.hostCpuSeconds))))} | ${changes} |`;
}

function printOperationsTable(rows: Row[]): void {
  const both = ROUTES.join(" / ");
  console.log([
    `| N | phase | runs (${both}) | dynamic wall (s, median) | dynamic min–max (s) | plugin wall (s, median) | plugin min–max (s) | plugin / dynamic | target | held | ` +
      `requests (${both}) | same requests | 429s (${both}) | to summary event (s; ${both}) | before 1st request (s; ${both}) | ` +
      `after last request (s; ${both}) | provider peak RSS (MiB; ${both}) | program + emulator CPU (s; ${both}) | changes |`,
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(formatRow),
  ].join("\n"));
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
  const cli = await pulumiCli();
  console.log(`Routes benchmark: ${describeSetup()}`);
  const failures: string[] = [];

  if (PARTS.includes("start")) {
    const starts = await measureStarts(cli, failures);
    console.log("");
    console.log(`Plugin start (${START_RUNS} runs per launcher, alternating, after one unmeasured start each):`);
    printStartTable(starts);
    const floor = await nodeFloorSeconds(START_RUNS);
    console.log(`Node.js itself (${process.version}), exec → its first line printed, median of ${START_RUNS}: ${fixed(floor, 3)} s: ` +
      "the floor of any plugin run by Node.js on this machine; the target allows the plugin " +
      `${fixed(PLUGIN_START_TARGET_SECONDS - floor, 3)} s above it here.`);
  }

  const rows: Row[] = [];
  const states = new Map<number, Map<Route, StateSample[]>>();
  let empty: Map<"create" | "preview", number[]> | undefined;
  if (PARTS.includes("operations")) {
    // The programs run in this process (inline): load both routes' classes once before measuring, so the
    // first run of neither pays a require the others do not (each takes a few ms in a fresh Node.js).
    for (const route of ROUTES) await workspaceClass(route);
    try {
      empty = await measureEmptyProgram(cli, repeatsFor(SIZES[0] ?? 10));
    } catch (e) {
      failures.push(`the empty program: ${errorText(e)}`);
    }
    for (const size of SIZES) {
      const emulator = await startEmulator({ port: 0, quiet: true, faults: { rateLimit: { limit: MODES[MODE].advertised } } });
      const runs = new Map<Route, LifecycleSample[]>(ROUTES.map((r) => [r, []]));
      try {
        for (let run = 1; run <= repeatsFor(size); run++) {
          for (const route of routesInOrder(run)) {
            try {
              runs.get(route)?.push(await runLifecycle(cli, emulator, route, size, run));
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
    console.log("");
    console.log(`Operations (emulator ${MODES[MODE].label}; wall time is the whole Automation API call; routes alternate which runs first):`);
    printOperationsTable(rows);
    if (empty !== undefined) {
      const line = (phase: "create" | "preview"): string => {
        const s = empty?.get(phase) ?? [];
        return s.length === 0 ? "—" : `${fixed(median(s))} s (${spreadOf(s)})`;
      };
      console.log(`The floor, a program with no resource (no provider starts): up ${line("create")}, no-op preview ${line("preview")}.`);
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

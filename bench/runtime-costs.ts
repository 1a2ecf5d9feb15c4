/*
 * Fixed costs of our layer (not a test; nothing here is asserted): what loading the package costs a
 * fresh process, the first calls of the provider plugin, the serialized provider per resource, the
 * program side's work per resource, and the throughput of the client against the emulator's
 * fixed-window limit of 30 req/s compared with the floor (requests / limit).
 *
 *   npx tsc -p tsconfig.json && node -r ./scripts/lib/register-ts.js bench/runtime-costs.ts
 *   BENCH_RUNS=N fresh processes per load/first-call row (default 11); BENCH_REQUESTS=N (default 100).
 *
 * `pulumi-wsbridge` resolves to dist/ (the package refers to itself), so build first. The token only
 * travels to the child processes through their environment and is never printed.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";

const ROOT = path.join(__dirname, "..");
const RUNS = positive(process.env["BENCH_RUNS"], 11);
const REQUESTS = positive(process.env["BENCH_REQUESTS"], 100);
const LIMIT = 30;

type Api = typeof import("../provider/runtime/api");
type RateLimitOptions = import("../provider/runtime/api").RateLimitOptions;

function positive(raw: string | undefined, fallback: number): number {
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`expected a positive integer, got ${raw}`);
  return n;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const ms = (n: number): string => `${n.toFixed(1)} ms`;

/** Runs `code` in a fresh node process in the repository (so `pulumi-wsbridge` resolves to dist/) and
 * parses the JSON line it prints last. Asynchronous: the emulator answering it runs in this process. */
function fresh<T>(code: string, env: Record<string, string> = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", code], { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8" }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`a measuring process failed: ${stderr.trim().split("\n").slice(-3).join(" ")}`));
      const lines = stdout.trim().split("\n");
      resolve(JSON.parse(lines[lines.length - 1]!) as T);
    });
  });
}

/** Runs `count` measurements one after the other (never two processes at once: they would compete). */
async function sequentially<T>(count: number, measure: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i++) results.push(await measure(i));
  return results;
}

// 1. Loading ----------------------------------------------------------------------------------------

interface LoadSample {
  ms: number;
  files: number;
  /** Files loaded per package (node_modules name, or "(this package)"). */
  packages: Record<string, number>;
}

function loadCode(specifier: string): string {
  return `
    const t0 = process.hrtime.bigint();
    require(${JSON.stringify(specifier)});
    const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
    const packages = {};
    for (const file of Object.keys(require.cache)) {
      const at = file.lastIndexOf("node_modules");
      const parts = at < 0 ? [] : file.slice(at + "node_modules".length + 1).split(/[\\/]/);
      const name = at < 0 ? "(this package)" : parts[0].startsWith("@") ? parts[0] + "/" + parts[1] : parts[0];
      packages[name] = (packages[name] || 0) + 1;
    }
    console.log(JSON.stringify({ ms: elapsed, files: Object.keys(require.cache).length, packages }));`;
}

async function measureLoad(specifier: string): Promise<{ median: number; min: number; max: number; last: LoadSample }> {
  const samples = await sequentially(RUNS, () => fresh<LoadSample>(loadCode(specifier)));
  const times = samples.map((s) => s.ms);
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), last: samples[samples.length - 1]! };
}

// 2. First calls of the plugin -------------------------------------------------------------------------

interface FirstCalls {
  require: number;
  configure: number;
  check: number;
  create: number;
  warmCheck: number;
  warmCreate: number;
}

/** What the plugin does for its first Workspace: load the runtime, configure, check, create; then the
 * same for a second one (warm), to show what the first call pays once. */
function firstCallsCode(run: number): string {
  return `
    (async () => {
      const now = () => Number(process.hrtime.bigint()) / 1e6;
      const config = { "wsbridge:address": process.env.BENCH_ADDRESS, "wsbridge:token": process.env.BENCH_TOKEN,
        "wsbridge:organization": process.env.BENCH_ORGANIZATION };
      const t0 = now();
      const runtime = require("pulumi-wsbridge/runtime");
      const t1 = now();
      await runtime.configure({ config: { get: (key) => config[key] } });
      const t2 = now();
      const first = await runtime.workspace.check({}, { name: "first-call-${run}-a" });
      const t3 = now();
      if (first.failures && first.failures.length > 0) throw new Error(JSON.stringify(first.failures));
      await runtime.workspace.create(first.inputs);
      const t4 = now();
      const second = await runtime.workspace.check({}, { name: "first-call-${run}-b" });
      const t5 = now();
      await runtime.workspace.create(second.inputs);
      const t6 = now();
      console.log(JSON.stringify({ require: t1 - t0, configure: t2 - t1, check: t3 - t2, create: t4 - t3, warmCheck: t5 - t4, warmCreate: t6 - t5 }));
      process.exit(0);
    })().catch((err) => { console.error(err.message); process.exit(1); });`;
}

async function measureFirstCalls(emulator: RunningEmulator): Promise<Record<keyof FirstCalls, number>> {
  const env = { BENCH_ADDRESS: emulator.url, BENCH_TOKEN: emulator.token, BENCH_ORGANIZATION: emulator.organization };
  const samples = await sequentially(RUNS, (i) => fresh<FirstCalls>(firstCallsCode(i), env));
  const keys = Object.keys(samples[0]!) as (keyof FirstCalls)[];
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k]))])) as Record<keyof FirstCalls, number>;
}

// 3. The program side: serialized provider and work per resource -------------------------------------

interface ProgramSide {
  providerBytes: Record<string, number>;
  /** Milliseconds per resource to construct and register N Workspaces under mocks, and N bare
   * CustomResources declaring the same outputs (the SDK's own work, for comparison). */
  workspaceMsPerResource: number;
  bareMsPerResource: number;
  resources: number;
  outputs: number;
}

const PROGRAM_SIDE_CODE = `
  (async () => {
    const pulumi = require("@pulumi/pulumi");
    const registered = [];
    await pulumi.runtime.setMocks({
      newResource(args) { registered.push(args); return { id: args.name + "-id", state: args.inputs }; },
      call: () => ({}),
    }, "project", "stack", false);
    const w = require("pulumi-wsbridge");
    const ws = "ws-bench0000000001";
    new w.Workspace("ws", { name: "bench-ws", organization: "example-org" });
    new w.WorkspaceLock("lock", { workspaceId: ws });
    new w.SshKeyAssignment("key", { workspaceId: ws, sshKeyId: "sshkey-bench00001" });
    new w.DataRetentionPolicy("drp", { workspaceId: ws, deleteOlderThanNDays: 30 });
    new w.WorkspaceTagBindings("tags", { workspaceId: ws, tags: { env: "bench" } });
    new w.RemoteStateConsumers("consumers", { workspaceId: ws, consumerIds: ["ws-bench0000000002"] });
    new w.ModuleVersionDeprecation("dep", { organization: "example-org", moduleName: "vpc", provider: "aws", version: "1.0.0" });
    await new Promise((r) => setTimeout(r, 200));
    const providerBytes = {};
    for (const r of registered) {
      if (typeof r.inputs.__provider === "string") providerBytes[r.type.split(":").pop()] = Buffer.byteLength(r.inputs.__provider, "utf8");
    }
    const N = Number(process.env.BENCH_PROGRAM_RESOURCES);
    const settle = async () => { const before = registered.length; for (;;) { await new Promise((r) => setTimeout(r, 20)); if (registered.length >= before + N) return; } };
    // The fair baseline: a CustomResource declaring the same outputs (the SDK's work grows with them).
    const probe = new w.Workspace("probe", { name: "probe", organization: "example-org" });
    const outputKeys = Object.keys(probe).filter((k) => !k.startsWith("__") && k !== "urn" && k !== "id");
    await new Promise((r) => setTimeout(r, 100));
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) {
      const props = {};
      for (const k of outputKeys) props[k] = undefined;
      Object.assign(props, { name: "bare-" + i, organization: "example-org" });
      new pulumi.CustomResource("bench:index:Bare", "bare-" + i, props);
    }
    await settle();
    const bare = Number(process.hrtime.bigint() - t0) / 1e6 / N;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) new w.Workspace("ws-" + i, { name: "bench-" + i, organization: "example-org" });
    await settle();
    const workspace = Number(process.hrtime.bigint() - t0) / 1e6 / N;
    console.log(JSON.stringify({ providerBytes, workspaceMsPerResource: workspace, bareMsPerResource: bare, resources: N, outputs: outputKeys.length }));
    process.exit(0);
  })().catch((err) => { console.error(err.message); process.exit(1); });`;

// 4. Throughput at the advertised limit ---------------------------------------------------------------

interface ThroughputRow {
  pacing: string;
  mode: "sequential" | "parallel";
  clients: number;
  requests: number;
  seconds: number;
  refused: number;
  failed: number;
}

/** A fresh copy of the client modules (own queue and pool), as a separate provider process has. */
function freshApi(): { api: Api } {
  const apiDir = path.join(ROOT, "dist", "provider", "runtime", "api");
  for (const key of Object.keys(require.cache)) if (key.startsWith(apiDir)) delete require.cache[key];
  return { api: require(path.join(apiDir, "index.js")) as Api };
}

async function throughput(
  emulator: RunningEmulator, workspaceId: string, pacing: string, rateLimit: RateLimitOptions,
  mode: "sequential" | "parallel", clients = 1,
): Promise<ThroughputRow> {
  await new Promise((r) => setTimeout(r, 1_100)); // the previous row's window closes
  emulator.clearRequests();
  const copies = Array.from({ length: clients }, () => freshApi());
  const started = process.hrtime.bigint();
  let failed = 0;
  await Promise.all(copies.map(async ({ api }) => {
    const client = new api.WsbridgeClient({ address: emulator.url, token: emulator.token, rateLimit });
    const read = () => client.readWorkspace(workspaceId).then(() => undefined, () => { failed++; });
    if (mode === "parallel") await Promise.all(Array.from({ length: REQUESTS }, read));
    else for (let i = 0; i < REQUESTS; i++) await read();
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(copies.map(({ api }) => api.closeAllPools()));
  const refused = emulator.requests().filter((r) => r.status === 429).length;
  return { pacing, mode, clients, requests: REQUESTS * clients, seconds, refused, failed };
}

// Main ------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(`Fixed costs of pulumi-wsbridge (node ${process.version}, medians of ${RUNS} fresh processes)\n`);

  console.log("| load in a fresh process | median | min | max | files loaded | heaviest packages (files) |");
  console.log("|---|---|---|---|---|---|");
  for (const [label, specifier] of [
    ["`pulumi-wsbridge/runtime` (the plugin's first call)", "pulumi-wsbridge/runtime"],
    ["`pulumi-wsbridge` (the program)", "pulumi-wsbridge"],
    ["`@pulumi/pulumi` alone (what any program loads)", "@pulumi/pulumi"],
    ["`zod` alone", "zod"],
    ["`undici` alone", "undici"],
  ] as const) {
    const r = await measureLoad(specifier);
    const heaviest = Object.entries(r.last.packages).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([p, n]) => `${p} ${n}`).join(", ");
    console.log(`| ${label} | ${ms(r.median)} | ${ms(r.min)} | ${ms(r.max)} | ${r.last.files} | ${heaviest} |`);
  }

  const emulator = await startEmulator({ port: 0, quiet: true });
  try {
    const first = await measureFirstCalls(emulator);
    console.log("\n| the plugin's first Workspace, fresh process | median |");
    console.log("|---|---|");
    console.log(`| require the runtime | ${ms(first.require)} |`);
    console.log(`| configure | ${ms(first.configure)} |`);
    console.log(`| first check | ${ms(first.check)} |`);
    console.log(`| first create (1 request or more) | ${ms(first.create)} |`);
    console.log(`| second check (warm) | ${ms(first.warmCheck)} |`);
    console.log(`| second create (warm; includes waiting for its slot, 34.5 ms after the first) | ${ms(first.warmCreate)} |`);

    const programResources = 300;
    const side = await fresh<ProgramSide>(PROGRAM_SIDE_CODE, { BENCH_PROGRAM_RESOURCES: String(programResources) });
    console.log("\n| serialized provider (`__provider`), per resource | bytes |");
    console.log("|---|---|");
    for (const [kind, bytes] of Object.entries(side.providerBytes)) console.log(`| ${kind} | ${bytes} |`);
    console.log(`\nProgram side under mocks, ${side.resources} resources each: Workspace ${side.workspaceMsPerResource.toFixed(1)} ms per resource; ` +
      `a bare CustomResource declaring the same ${side.outputs} outputs ${side.bareMsPerResource.toFixed(1)} ms (the SDK's work per output).`);

    emulator.setFaults({ rateLimit: { limit: LIMIT, windowMs: 1000 } });
    const setup = freshApi().api;
    const workspace = await new setup.WsbridgeClient({ address: emulator.url, token: emulator.token, rateLimit: { enabled: false } })
      .createWorkspace(emulator.organization, { name: "throughput-target" });
    await setup.closeAllPools();

    const rows: ThroughputRow[] = [];
    for (const mode of ["sequential", "parallel"] as const) {
      rows.push(await throughput(emulator, workspace.id, "default: limit − 1 per s, burst 1, one at a time until the first answer", {}, mode));
      rows.push(await throughput(emulator, workspace.id, "go-tfe shares: rateShare 0.66, burstShare 0.33", { rateShare: 0.66, burstShare: 0.33 }, mode));
      rows.push(await throughput(emulator, workspace.id, "client-side limit off (429 back-off only)", { enabled: false }, mode));
    }
    rows.push(await throughput(emulator, workspace.id, "default, 3 processes on one token", {}, "parallel", 3));
    rows.push(await throughput(emulator, workspace.id, "go-tfe shares, 3 processes on one token", { rateShare: 0.66, burstShare: 0.33 }, "parallel", 3));

    console.log(`\nGETs against the emulator enforcing ${LIMIT} req/s in fixed one-second windows (fresh client state per row)\n`);
    console.log("| pacing | mode | requests | seconds | req/s | floor (requests / limit) | × floor | 429s | failed |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      const floor = r.requests / LIMIT;
      console.log(`| ${r.pacing} | ${r.mode}${r.clients > 1 ? ` × ${r.clients}` : ""} | ${r.requests} | ${r.seconds.toFixed(2)} | ` +
        `${(r.requests / r.seconds).toFixed(1)} | ${floor.toFixed(2)} s | ${(r.seconds / floor).toFixed(2)} | ${r.refused} | ${r.failed} |`);
    }
  } finally {
    await emulator.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

#!/usr/bin/env node
/**
 * Client overhead benchmark: WsbridgeClient.readWorkspace against raw undici Pool.request (+ JSON parse)
 * on the same emulator endpoint, on loopback. 1,000 sequential GETs and 1,000 GETs with concurrency 16,
 * each measured in alternating rounds after a warm-up; overheads are paired per round (median and quartiles).
 *
 *   npx tsc -p tsconfig.json && node bench/client.js [--requests 1000] [--concurrency 16] [--rounds 31] [--in-process]
 *
 * To pin the two processes to separate cores: BENCH_PIN=1 taskset -c 0 node bench/client.js (the emulator
 * goes to core 1). Unpinned is the default because it is what a user's machine does.
 *
 * The emulator runs in a child process (a server is never inside the client's process), so the CPU time
 * of this process is the client side only: besides wall time, the table reports client CPU per call.
 *
 * The client's own rate limiter is turned off here: the emulator advertises 30 req/s and the limiter
 * would (correctly) pace 1,000 requests over ~50 s, which measures the limiter, not the client.
 */
"use strict";
const path = require("node:path");
const { Pool } = require("undici");

const dist = path.join(__dirname, "..", "dist");
const api = require(path.join(dist, "provider", "runtime", "api", "index.js"));
const documents = require(path.join(dist, "provider", "runtime", "api", "documents", "workspaces.js"));
// The client validates with zod's compiled fast path; the "raw + validation" row does the same.
const compiledWorkspaceDocument = require("zod").z.compile(documents.workspaceDocument);
const { spawn } = require("node:child_process");

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new Error(`--${name} must be an integer 1..100000`);
  return n;
}

const REQUESTS = arg("requests", 1000);
const CONCURRENCY = arg("concurrency", 16);
const ROUNDS = arg("rounds", 31);
const IN_PROCESS = process.argv.includes("--in-process");
const WARMUP = 200;

/** Starts the emulator in a child process (or in this one with --in-process). */
async function emulator() {
  const entry = path.join(dist, "emulator", "index.js");
  if (IN_PROCESS) {
    const emu = await require(entry).startEmulator({ port: 0, quiet: true });
    return { url: emu.url, token: emu.token, organization: emu.organization, close: () => emu.close() };
  }
  const code = `require(${JSON.stringify(entry)}).startEmulator({ port: 0, quiet: true }).then((e) =>
    process.stdout.write(JSON.stringify({ url: e.url, token: e.token, organization: e.organization }) + "\\n"));`;
  const argv = process.env.BENCH_PIN ? ["taskset", "-c", "1", process.execPath, "-e", code] : [process.execPath, "-e", code];
  const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
  const info = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on("exit", (c) => reject(new Error(`emulator exited with ${c}`)));
  });
  return { ...info, close: async () => { child.kill(); } };
}

/** Runs `total` calls of `fn` with at most `concurrency` in flight; returns per-call latencies (ns). */
async function run(fn, total, concurrency) {
  const latencies = new Array(total);
  let next = 0;
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const t0 = process.hrtime.bigint();
      await fn();
      latencies[i] = Number(process.hrtime.bigint() - t0);
    }
  }
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const wallNs = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(cpu0);
  return { wallNs, cpuUs: cpu.user + cpu.system, latencies };
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Per-round relative overheads of `other` against `base` (same round index), as median and quartiles. */
function pairedOverheads(base, other, measure) {
  const ratios = base.map((b, i) => (measure(other[i]) - measure(b)) / measure(b)).sort((a, b) => a - b);
  return { q1: quantile(ratios, 0.25), median: quantile(ratios, 0.5), q3: quantile(ratios, 0.75) };
}

function formatSpread({ q1, median, q3 }) {
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  return `${pct(median)} (${pct(q1)}..${pct(q3)})`;
}

function summarize(rounds) {
  // The median round by wall time is reported, so one noisy round (GC, scheduler) does not decide.
  const byWall = [...rounds].sort((a, b) => a.wallNs - b.wallNs);
  const r = byWall[Math.floor(byWall.length / 2)];
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return {
    wallMs: r.wallNs / 1e6,
    perCallUs: r.wallNs / r.latencies.length / 1e3,
    rps: r.latencies.length / (r.wallNs / 1e9),
    p50Us: quantile(sorted, 0.5) / 1e3,
    p99Us: quantile(sorted, 0.99) / 1e3,
    // CPU is summed over rounds: a median of small CPU deltas would be too coarse.
    cpuPerCallUs: rounds.reduce((a, x) => a + x.cpuUs, 0) / rounds.reduce((a, x) => a + x.latencies.length, 0),
  };
}

async function main() {
  const emu = await emulator();
  const origin = new URL(emu.url).origin;
  const client = new api.WsbridgeClient({ address: emu.url, token: emu.token, rateLimit: { enabled: false } });
  const ws = await client.createWorkspace(emu.organization, { name: `bench-${Date.now()}` });
  const wsPath = `${new URL(emu.url).pathname.replace(/\/$/, "")}/api/v2/workspaces/${ws.id}`;

  const raw = new Pool(origin, { connections: 32, keepAliveTimeout: 10_000 });
  const headers = {
    authorization: `Bearer ${emu.token}`,
    accept: "application/vnd.api+json",
    "content-type": "application/vnd.api+json",
    "user-agent": "bench-raw",
  };
  const rawGet = async () => {
    const res = await raw.request({ method: "GET", path: wsPath, headers, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const body = await res.body.json();
    if (res.statusCode !== 200 || body.data.id !== ws.id) throw new Error(`raw GET answered ${res.statusCode}`);
  };
  // The same request plus the validation and mapping the client must do on every response: shows
  // how much of the client's overhead is that required work rather than the client's machinery.
  const rawValidatedGet = async () => {
    const res = await raw.request({ method: "GET", path: wsPath, headers, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const doc = compiledWorkspaceDocument.parse(await res.body.json());
    const w = documents.toWorkspace(doc.data, doc.included);
    if (res.statusCode !== 200 || w.id !== ws.id) throw new Error(`raw GET answered ${res.statusCode}`);
  };
  const clientGet = async () => {
    const w = await client.readWorkspace(ws.id);
    if (w.id !== ws.id) throw new Error("client GET returned another workspace");
  };

  const scenarios = [
    { name: "sequential", concurrency: 1 },
    { name: `concurrency ${CONCURRENCY}`, concurrency: CONCURRENCY },
  ];
  const rows = [];
  for (const s of scenarios) {
    const impls = [
      { impl: "raw undici", fn: rawGet },
      { impl: "raw undici + zod + mapping", fn: rawValidatedGet },
      { impl: "WsbridgeClient", fn: clientGet },
    ];
    for (const x of impls) await run(x.fn, WARMUP, s.concurrency);
    const rounds = impls.map(() => []);
    for (let i = 0; i < ROUNDS; i++) {
      // Rotate the order so no implementation always runs on a warmer process.
      for (let j = 0; j < impls.length; j++) {
        const k = (i + j) % impls.length;
        rounds[k].push(await run(impls[k].fn, REQUESTS, s.concurrency));
      }
    }
    const base = summarize(rounds[0]);
    impls.forEach((x, k) => {
      const r = k === 0 ? base : summarize(rounds[k]);
      // Paired: each round's overhead is taken against the raw run of the same round, so drift between
      // rounds (CPU frequency, the other process's GC) cancels; the median and quartiles of those ratios
      // are reported.
      const wall = k === 0 ? undefined : pairedOverheads(rounds[0], rounds[k], (x) => x.wallNs);
      const cpu = k === 0 ? undefined : pairedOverheads(rounds[0], rounds[k], (x) => x.cpuUs);
      rows.push({
        scenario: s.name, impl: x.impl, ...r,
        overhead: wall ? formatSpread(wall) : "",
        cpuOverhead: cpu ? formatSpread(cpu) : "",
        wallMedian: wall?.median,
      });
    });
  }

  await raw.close();
  await api.closeAllPools();
  await emu.close();

  const header = [
    "scenario", "implementation", "requests", "total ms", "req/s", "µs/call", "p50 µs", "p99 µs", "client CPU µs/call",
    "wall overhead (IQR)", "client CPU overhead (IQR)",
  ];
  const table = rows.map((x) => [
    x.scenario, x.impl, String(REQUESTS), x.wallMs.toFixed(1), x.rps.toFixed(0), x.perCallUs.toFixed(1),
    x.p50Us.toFixed(1), x.p99Us.toFixed(1), x.cpuPerCallUs.toFixed(1), x.overhead, x.cpuOverhead,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(
    `GET /api/v2/workspaces/:id on ${origin} (loopback, emulator ${IN_PROCESS ? "in this process" : "in a child process"}), ` +
      `median of ${ROUNDS} rounds, node ${process.version}`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of table) console.log(line(r));
  console.log("(client CPU = this process's user+system time per call, averaged over all rounds. Overheads compare each round");
  console.log(" with the raw undici run of the same round: median and interquartile range over the rounds.");
  console.log(" The middle row is the response validation and mapping every client call must do.)");
  const verdict = rows.filter((x) => x.impl === "WsbridgeClient")
    .map((x) => `${x.scenario}: ${(x.wallMedian * 100).toFixed(1)}% ${x.wallMedian < 0.1 ? "meets" : "misses"}`);
  console.log(`target: WsbridgeClient wall overhead under 10% — ${verdict.join("; ")}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

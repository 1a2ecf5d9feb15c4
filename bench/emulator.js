#!/usr/bin/env node
/*
 * Emulator benchmark (not a test): requests per second over keep-alive on loopback.
 *
 *   npx tsc -p tsconfig.json && node bench/emulator.js
 *
 * Starts the built CLI (dist/emulator/cli.js) as a separate process seeded with 1,000 workspaces
 * through a fixtures file, so the load generator does not share the server's event loop, then runs
 * a bounded number of requests per operation and prints a table. Stops by itself.
 */
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { Pool } = require("undici");

const ROOT = path.resolve(__dirname, "..");
// WSBRIDGE_DIST points at another build output directory (default dist/).
const CLI = path.join(process.env.WSBRIDGE_DIST ? path.resolve(process.env.WSBRIDGE_DIST) : path.join(ROOT, "dist"), "emulator", "cli.js");
const WORKSPACES = 1000;
const CONNECTIONS = 16;

function startEmulator(fixturesFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "--port", "0", "--quiet", "--fixtures", fixturesFile], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d.toString();
      const vars = Object.fromEntries(
        buf.split("\n").filter((l) => l.startsWith("WSBRIDGE_EMULATOR_")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      if (vars.WSBRIDGE_EMULATOR_ORGANIZATION) resolve({ child, url: vars.WSBRIDGE_EMULATOR_URL, token: vars.WSBRIDGE_EMULATOR_TOKEN });
    });
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(pool, token, name, total, concurrency, pathFor) {
  const latencies = new Array(total);
  let next = 0;
  let failures = 0;
  const headers = { authorization: `Bearer ${token}` };
  async function worker() {
    while (next < total) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      const res = await pool.request({ method: "GET", path: pathFor(i), headers });
      await res.body.dump();
      if (res.statusCode >= 400) failures++;
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    }
  }
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const sorted = latencies.slice().sort((a, b) => a - b);
  return {
    operation: name,
    requests: total,
    concurrency,
    "req/s": Math.round(total / seconds),
    "p50 ms": percentile(sorted, 50).toFixed(2),
    "p99 ms": percentile(sorted, 99).toFixed(2),
    failures,
  };
}

async function main() {
  if (!fs.existsSync(CLI)) {
    console.error(`${CLI} not found: build first with "npx tsc -p tsconfig.json"`);
    process.exit(2);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-bench-"));
  const fixturesFile = path.join(dir, "fixtures.json");
  const workspaces = Array.from({ length: WORKSPACES }, (_, i) => ({
    id: `ws-bench${String(i).padStart(12, "0")}`,
    name: `bench-${String(i).padStart(4, "0")}`,
    attributes: { description: `workspace ${i}`, "auto-apply": i % 2 === 0 },
  }));
  fs.writeFileSync(fixturesFile, JSON.stringify({ organizations: [{ name: "example-org", workspaces }] }));
  const { child, url, token } = await startEmulator(fixturesFile);
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  const org = "/api/v2/organizations/example-org/workspaces";
  try {
    // Warm-up so JIT and connections are ready before measuring.
    await run(pool, token, "warm-up", 2000, CONNECTIONS, (i) => `/api/v2/workspaces/${workspaces[i % WORKSPACES].id}`);
    const rows = [
      await run(pool, token, "GET /ping", 20000, CONNECTIONS, () => "/api/v2/ping"),
      await run(pool, token, "GET /workspaces/:id", 20000, CONNECTIONS, (i) => `/api/v2/workspaces/${workspaces[(i * 7919) % WORKSPACES].id}`),
      await run(pool, token, "GET /organizations/:org/workspaces/:name", 10000, CONNECTIONS, (i) => `${org}/${workspaces[(i * 7919) % WORKSPACES].name}`),
      await run(pool, token, "GET list of 1,000 (page size 20)", 5000, CONNECTIONS, (i) => `${org}?page%5Bnumber%5D=${(i % 50) + 1}`),
      await run(pool, token, "GET list of 1,000 (page size 100)", 2000, CONNECTIONS, (i) => `${org}?page%5Bsize%5D=100&page%5Bnumber%5D=${(i % 10) + 1}`),
      await run(pool, token, "GET list, search[name]", 3000, CONNECTIONS, (i) => `${org}?search%5Bname%5D=bench-0${i % 10}`),
    ];
    console.log(`wsbridge emulator benchmark: ${WORKSPACES} workspaces, keep-alive, ${CONNECTIONS} connections, loopback, ${os.cpus().length} CPUs, node ${process.version}`);
    console.table(rows);
  } finally {
    await pool.close();
    child.kill("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

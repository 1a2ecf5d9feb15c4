/*
 * An estate run as many stacks (issue 50; not a test: nothing is asserted, the table says where a target
 * is missed and why). 10,000 workspaces over 50 projects, adopted with `wsbridge adopt --split-by
 * project` at the service's 30 requests/s per user, on the real Pulumi CLI:
 *
 *   1. discovery: `wsbridge adopt` as users run it (bin/wsbridge.js, its own process): time against its
 *      floor (the GETs it sent / 30), and its peak memory (the process's maximum resident set);
 *   2. the 51 stacks' adoption steps (`pulumi up`), BENCH_ESTATE_PARALLEL at a time (docs/adopt.md's
 *      advice), first with one read-only token shared by all, then, on new stacks, one token per stack;
 *   3. every stack's no-op preview, the same number at a time, then each alone with the machine time it
 *      takes (what one job of examples/ci/estate.yml's matrix runs on its own runner);
 *   4. a second adopt run of the folder after 100 new workspaces: it reads every stack's state.
 *
 *   npx tsc -p tsconfig.json && node -r ./scripts/lib/register-ts.js bench/estate.ts
 *   BENCH_ESTATE_WORKSPACES (default 10000), BENCH_ESTATE_PROJECTS (50), BENCH_ESTATE_PARALLEL (8),
 *   BENCH_ESTATE_NEW (100). The file backend, with PULUMI_SKIP_CHECKPOINTS=true as docs/performance.md
 *   advises. Tokens are never printed.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { eachAtMost } from "../provider/adopt/each-at-most";
import { pulumiCli } from "../scripts/lib/stack-harness";
import { seedEstate, type EstateManifest } from "../test/support/adopt-estate";
import { YamlProject } from "../test/support/yaml-import-project";

const WORKSPACES = Number(process.env["BENCH_ESTATE_WORKSPACES"] ?? 10_000);
const PROJECTS = Number(process.env["BENCH_ESTATE_PROJECTS"] ?? 50);
const PARALLEL = Number(process.env["BENCH_ESTATE_PARALLEL"] ?? 8);
const NEW = Number(process.env["BENCH_ESTATE_NEW"] ?? 100);
const LIMIT = 30;
const ROOT = path.resolve(__dirname, "..");

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

interface Ran { code: number; stdout: string; stderr: string; maxRssKb: number }

/** `wsbridge adopt …` as its own process (as users run it), with its peak memory from GNU time. */
function adoptProcess(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const rss = path.join(os.tmpdir(), `wsbridge-estate-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve) => {
    execFile("/usr/bin/time", ["-f", "%M", "-o", rss, process.execPath, path.join(ROOT, "bin", "wsbridge.js"), "adopt", ...args],
      { env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
        const maxRssKb = Number(fs.readFileSync(rss, "utf8").trim().split("\n").pop() ?? 0);
        fs.rmSync(rss, { force: true });
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr, maxRssKb });
      });
  });
}

/** The requests the emulator answered (not 429) and refused since the last clear. */
function counted(emulator: RunningEmulator): { sent: number; refused: number } {
  const log = emulator.requests();
  const refused = log.filter((r) => r.status === 429).length;
  return { sent: log.length - refused, refused };
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0, quiet: true, edition: "self-managed" });
  const cli = await pulumiCli();
  const shared = YamlProject.create(cli, "estate-shared");
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-estate-"));
  const rows: string[][] = [];
  try {
    const seeding = await timed(() => seedEstate(emulator.url, emulator.token, { workspaces: WORKSPACES, edition: "self-managed", projects: PROJECTS - 1 }));
    const estate: EstateManifest = seeding.value;
    console.error(`seeded ${estate.workspaces.length} workspaces in ${seconds(seeding.ms)}`);
    emulator.setFaults({ rateLimit: { limit: LIMIT } });
    const env = { ...shared.env, PULUMI_SKIP_CHECKPOINTS: "true" };
    const adoptEnv = { ...env, WSBRIDGE_ADDRESS: emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization };

    // 1. Discovery.
    resetCounter(emulator);
    const discovery = await timed(() => adoptProcess(["--out", out, "--split-by", "project", "--project-name", "estate", "--concurrency", "16"], adoptEnv));
    if (discovery.value.code !== 0) throw new Error(`adopt failed: ${discovery.value.stderr}`);
    const found = requestTotal(emulator);
    const floor = (found.sent / LIMIT) * 1000;
    const folders = Object.values((JSON.parse(fs.readFileSync(path.join(out, "adoption-split.json"), "utf8")) as { folders: Record<string, string> }).folders);
    const resources = folders.reduce((n, f) => n + (JSON.parse(fs.readFileSync(path.join(out, f, "adoption-report.json"), "utf8")) as { resources: unknown[] }).resources.length, 0);
    rows.push(["discovery (adopt --split-by project)", seconds(discovery.ms), `${found.sent} GETs, ${found.refused} answered 429; peak memory ${(discovery.value.maxRssKb / 1024).toFixed(0)} MiB`,
      `floor ${seconds(floor)}: ${(discovery.ms / floor).toFixed(2)}× (target ≤ 1.10×, ≤ 1 GiB)`]);

    // 2. The adoption steps: one shared token, then one token per stack (new stacks of the same programs).
    const project = (folder: string): YamlProject => shared.another(path.join(out, folder), YamlProject.nameIn(path.join(out, folder)), { PULUMI_SKIP_CHECKPOINTS: "true" });
    const settings = (token: string): { address: string; token: string; organization: string } => ({ address: emulator.url, token, organization: estate.organization });
    for (const folder of folders) await project(folder).initStack("shared", settings(estate.tokens.readOnly));
    for (const folder of folders) await project(folder).initStack("own", settings(emulator.issueToken({ kind: "team", organization: estate.organization, access: "read" })));
    for (const [stack, label] of [["shared", "one read-only token shared by all"], ["own", "one read-only token per stack"]] as const) {
      resetCounter(emulator);
      const up = await timed(() => eachAtMost(PARALLEL, folders, async (f) => (await project(f).ok(["up", "--stack", stack, "--yes", "--skip-preview"])).stdout));
      const sent = requestTotal(emulator);
      // One token: every GET waits for the one budget. One per stack: PARALLEL budgets at once at best.
      const upFloor = (sent.sent / (stack === "shared" ? LIMIT : LIMIT * PARALLEL)) * 1000;
      rows.push([`${folders.length} adoption steps, ${PARALLEL} at a time, ${label}`, seconds(up.ms), `${sent.sent} GETs, ${sent.refused} answered 429; ${resources} resources imported`,
        `floor ${seconds(upFloor)}: ${(up.ms / upFloor).toFixed(2)}×${stack === "shared" ? " (target ≤ 1.30×)" : " (the machine's 2 cores, not the budgets, bound it)"}`]);
    }

    // 3. The no-op previews side by side, then each alone (what one job of the workflow's matrix runs on
    // its own runner), with the machine time each takes: the CLI's, its language host's and plugin's.
    resetCounter(emulator);
    const preview = (f: string): Promise<unknown> => project(f).ok(["preview", "--stack", "shared", "--expect-no-changes"]);
    const previews = await timed(() => eachAtMost(PARALLEL, folders, preview));
    const sideBySideRequests = requestTotal(emulator).sent;
    const alone: { ms: number; cpu: number }[] = [];
    for (const f of folders) {
      const before = childCpuSeconds();
      const one = await timed(() => preview(f));
      alone.push({ ms: one.ms, cpu: childCpuSeconds() - before });
    }
    const cpu = alone.reduce((n, a) => n + a.cpu, 0);
    const slowest = Math.max(...alone.map((a) => a.ms));
    const machineFloor = (cpu / os.cpus().length) * 1000;
    rows.push([`${folders.length} no-op previews, ${PARALLEL} at a time`, seconds(previews.ms), `${sideBySideRequests} requests`,
      `target ≤ 60 s: ${previews.ms <= 60_000 ? "met" : `missed: together they need ${cpu.toFixed(0)} CPU-s, ${seconds(machineFloor)} on ${os.cpus().length} cores at best`}`]);
    rows.push([`each stack's no-op preview alone (one job of the matrix)`, `slowest ${seconds(slowest)}`, "none",
      `${(cpu / alone.length).toFixed(2)} CPU-s per stack on average (the CLI, the YAML host and the plugin)`]);

    // 4. 100 new workspaces, then adopt again: discovery plus reading every stack.
    emulator.clearFaults();
    await newWorkspaces(emulator, estate, NEW);
    emulator.setFaults({ rateLimit: { limit: LIMIT } });
    resetCounter(emulator);
    const again = await timed(() => adoptProcess(["--out", out, "--stack", "shared", "--concurrency", "16"], adoptEnv));
    if (again.value.code !== 0) throw new Error(`adopt again failed: ${again.value.stderr}`);
    const second = requestTotal(emulator);
    const secondFloor = (second.sent / LIMIT) * 1000;
    const target = secondFloor * 1.2 + folders.length * 1000;
    rows.push([`adopt again after ${NEW} new workspaces (reads ${folders.length} stacks)`, seconds(again.ms), `${second.sent} GETs; peak memory ${(again.value.maxRssKb / 1024).toFixed(0)} MiB`,
      `target ≤ 1.2 × ${seconds(secondFloor)} + ${folders.length} s = ${seconds(target)}: ${again.ms <= target ? "met" : "missed"}`]);

    console.log(`An estate of ${estate.workspaces.length} workspaces over ${PROJECTS} projects, ${folders.length} stacks (--split-by project), ${resources} resources, at ${LIMIT} requests/s per user; ${os.cpus().length} cores; file backend, PULUMI_SKIP_CHECKPOINTS=true`);
    const header = ["step", "time", "requests", "against the target"];
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]?.length ?? 0)));
    const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    console.log(line(header));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const row of rows) console.log(line(row));
  } finally {
    shared.dispose();
    fs.rmSync(out, { recursive: true, force: true });
    await emulator.close();
  }
}

/**
 * The CPU time (user and system) of this process's children that have ended, from /proc/self/stat
 * (cutime and cstime, in clock ticks of 1/100 s): a serial preview's difference is its CLI's, and that
 * of the language host and plugin the CLI waited for. NaN where there is no /proc.
 */
function childCpuSeconds(): number {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
    // After "pid (comm) ", field 3 (state) is index 0: cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

// The request log keeps the last 10,000 entries: past that, its length is not the count. The bench
// counts through it in slices instead: cleared after each step's read (a step below 10,000 requests
// reads exactly), and for longer steps the emulator's log is read every few seconds.
let total = { sent: 0, refused: 0 };
let timer: NodeJS.Timeout | undefined;
function resetCounter(emulator: RunningEmulator): void {
  total = { sent: 0, refused: 0 };
  emulator.clearRequests();
  if (timer !== undefined) clearInterval(timer);
  timer = setInterval(() => drain(emulator), 2000);
  timer.unref();
}
function drain(emulator: RunningEmulator): void {
  const c = counted(emulator);
  emulator.clearRequests();
  total = { sent: total.sent + c.sent, refused: total.refused + c.refused };
}
function requestTotal(emulator: RunningEmulator): { sent: number; refused: number } {
  drain(emulator);
  if (timer !== undefined) clearInterval(timer);
  timer = undefined;
  return total;
}

/** `count` new workspaces in the estate's projects, readable by its read-only team, through the API. */
async function newWorkspaces(emulator: RunningEmulator, estate: EstateManifest, count: number): Promise<void> {
  const projects = [...new Set(estate.workspaces.map((w) => w.projectId))];
  const call = async (method: string, route: string, body: unknown): Promise<{ data: { id: string } }> => {
    const res = await fetch(`${emulator.url}/api/v2${route}`, {
      method, headers: { authorization: `Bearer ${estate.tokens.admin}`, "content-type": "application/vnd.api+json" }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status}`);
    return (await res.json()) as { data: { id: string } };
  };
  await eachAtMost(8, Array.from({ length: count }, (_, i) => i), async (i) => {
    const ws = await call("POST", `/organizations/${estate.organization}/workspaces`, {
      data: { type: "workspaces", attributes: { name: `new-${i}` }, relationships: { project: { data: { type: "projects", id: projects[i % projects.length] } } } },
    });
    await call("POST", "/team-workspaces", {
      data: { type: "team-workspaces", attributes: { access: "read" }, relationships: { workspace: { data: { type: "workspaces", id: ws.data.id } }, team: { data: { type: "teams", id: estate.readersTeamId } } } },
    });
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

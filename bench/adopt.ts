/*
 * `wsbridge adopt` at scale (not a test; nothing here is asserted): discovery of an estate of 1,000
 * workspaces (tags on half, consumers on a third, locks on a tenth, SSH keys on a fifth, policies on a
 * few, four registry modules) at the service's 30 requests/s, against its request floor (the requests
 * it must send, divided by the limit); then the adoption step (`pulumi up` of the YAML program, every
 * resource imported) and the first preview, on the real Pulumi CLI, at the same limit.
 *
 *   npx tsc -p tsconfig.json && node -r ./scripts/lib/register-ts.js bench/adopt.ts
 *   BENCH_ADOPT_WORKSPACES=N (default 1000); BENCH_ADOPT_EDITION=hosted|self-managed (default self-managed);
 *   BENCH_ADOPT_CHECKPOINTS=1 keeps the file backend's checkpoint after every step (by default the CLI
 *   runs with PULUMI_SKIP_CHECKPOINTS=true, as docs/performance.md advises from a few hundred resources:
 *   with a checkpoint per step, the up of 1,600 imports spent over 8 minutes rewriting its state);
 *   BENCH_ADOPT_SPLIT=project adopts with `--split-by project` (BENCH_ADOPT_PROJECTS projects, default 5):
 *   every stack's adoption step side by side with the one token, then every stack's first preview.
 *
 * The rate limit is enforced per user by the emulator (a fixed window of 1 s), as the service does;
 * the estate is seeded before it is switched on. Tokens are never printed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { pulumiCli } from "../scripts/lib/stack-harness";
import { seedEstate } from "../test/support/adopt-estate";
import { runAdopt } from "../test/support/adopt-run";
import { YamlProject, resourceSummary } from "../test/support/yaml-import-project";

const WORKSPACES = Number(process.env["BENCH_ADOPT_WORKSPACES"] ?? 1000);
const EDITION = (process.env["BENCH_ADOPT_EDITION"] ?? "self-managed") as "hosted" | "self-managed";
const LIMIT = 30;
const SPLIT = process.env["BENCH_ADOPT_SPLIT"] === "project";
const PROJECTS = Number(process.env["BENCH_ADOPT_PROJECTS"] ?? 5);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0, quiet: true, edition: EDITION });
  const cli = await pulumiCli();
  const project = YamlProject.create(cli, "estate-org-estate");
  try {
    const estate = await seedEstate(emulator.url, emulator.token, { workspaces: WORKSPACES, edition: EDITION, projects: PROJECTS });
    fs.rmSync(path.join(project.dir, "Pulumi.yaml"));
    emulator.setFaults({ rateLimit: { limit: LIMIT } });
    emulator.clearRequests();

    const discovery = await timed(() => runAdopt(["--out", project.dir, "--project-name", project.name, ...(SPLIT ? ["--split-by", "project"] : [])], {
      WSBRIDGE_ADDRESS: emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization,
    }));
    if (discovery.value.code !== 0) throw new Error(`adopt failed: ${discovery.value.stderr}`);
    const log = emulator.requests();
    const refused = log.filter((r) => r.status === 429).length;
    const sent = log.length - refused;
    const floorMs = (sent / LIMIT) * 1000;
    const readable = estate.workspaces.length - (estate.unreadableWorkspaceId === undefined ? 0 : 1);
    // One folder, or (split) one per project and the registry's: each a project with its own stack.
    const folders = SPLIT ? Object.values((JSON.parse(fs.readFileSync(path.join(project.dir, "adoption-split.json"), "utf8")) as { folders: Record<string, string> }).folders) : ["."];
    const report = { resources: folders.flatMap((f) => (JSON.parse(fs.readFileSync(path.join(project.dir, f, "adoption-report.json"), "utf8")) as { resources: unknown[] }).resources) };

    if (process.env["BENCH_ADOPT_CHECKPOINTS"] !== "1") project.env["PULUMI_SKIP_CHECKPOINTS"] = "true";
    const settings = { address: emulator.url, token: estate.tokens.readOnly, organization: estate.organization };
    for (const folder of folders) await project.in(folder).initStack("dev", settings);
    emulator.clearRequests();
    const up = await timed(() => Promise.all(folders.map((f) => project.in(f).ok(["up", "--stack", "dev", "--yes", "--skip-preview"]))));
    const upRequests = emulator.requests().filter((r) => r.status !== 429).length;
    emulator.clearRequests();
    const preview = await timed(() => Promise.all(folders.map((f) => project.in(f).ok(["preview", "--stack", "dev", "--expect-no-changes"]))));
    const previewRequests = emulator.requests().filter((r) => r.status !== 429).length;
    const summaries = (runs: { stdout: string }[]): string => runs.map((r) => resourceSummary(r.stdout).join(", ")).join("; ");

    const rows: [string, string, string, string][] = [
      ["discovery (adopt)", seconds(discovery.ms), `${sent} GETs (${(sent / readable).toFixed(2)} per workspace), ${refused} answered 429`,
        `floor ${seconds(floorMs)}; ${(discovery.ms / floorMs).toFixed(2)}× the floor (target ≤ 1.20×)`],
      [`adoption step${SPLIT ? `s (${folders.length} stacks' pulumi up, side by side)` : " (pulumi up)"}`, seconds(up.ms), `${upRequests} GETs; ${summaries(up.value)}`,
        `floor ${seconds((upRequests / LIMIT) * 1000)}; ${(up.ms / ((upRequests / LIMIT) * 1000)).toFixed(2)}× the floor (target ≤ 2.00×)`],
      [`first preview${SPLIT ? "s (side by side)" : ""}`, seconds(preview.ms), `${previewRequests} requests; ${summaries(preview.value)}`, "target ≤ 30 s"],
    ];
    const checkpoints = project.env["PULUMI_SKIP_CHECKPOINTS"] === "true" ? "PULUMI_SKIP_CHECKPOINTS=true" : "a checkpoint per step";
    console.log(`wsbridge adopt${SPLIT ? " --split-by project" : ""}: ${readable} readable workspaces (${EDITION}) over ${PROJECTS} projects, ${report.resources.length} resources, at ${LIMIT} requests/s; file backend, ${checkpoints}`);
    const widths = [0, 1, 2, 3].map((i) => Math.max(...[["step", "time", "requests", "against the floor"], ...rows].map((r) => r[i]?.length ?? 0)));
    const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    console.log(line(["step", "time", "requests", "against the floor"]));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const row of rows) console.log(line(row));
  } finally {
    project.dispose();
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

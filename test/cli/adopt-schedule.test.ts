// examples/ci/adopt-schedule.yml, the scheduled job that keeps an adopted estate current, run here as
// GitHub would run its steps: each step with an `id` is read from the workflow file and run in bash as
// written, in a git checkout of an adopted folder, with the workflow's env, the step's env (secrets
// standing for the emulator's address, organization and read-only token, a file backend), and
// GITHUB_OUTPUT / RUNNER_TEMP as Actions sets them. `wsbridge` is this repository's bin (what `npm
// install --global pulumi-wsbridge` puts on PATH), `pulumi` the real CLI. Not run here: the `uses:`
// steps (checkout, setup-node, pulumi/actions, the pull request) and the installs, which are GitHub's.
import * as fs from "node:fs";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt } from "../support/adopt-run";
import { EstateChanges, plainWorkspaces } from "../support/estate-changes";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { YamlProject } from "../support/yaml-import-project";
import { READ_ONLY_CONFIG } from "../../provider/adopt/program/header";
import { repoRoot } from "../../scripts/lib/stack-harness";
import { bash, git, quote, readWorkflow, type StepRun } from "../support/workflow-steps";

const LONG_MS = 20 * 60_000;
const WORKFLOW = path.join(repoRoot, "examples", "ci", "adopt-schedule.yml");

const e2e = useEmulatorAndCli({ edition: "self-managed", quiet: true });

test("the scheduled job: nothing new and no drift → no change and a passing check; new objects and a change by hand → a changed program for the pull request and a failing drift check; after the merge's read-only up and the drift put right, both pass again", async () => {
  const workflow = readWorkflow(WORKFLOW);
  const estate: EstateManifest = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: 16, edition: "self-managed", organization: "scheduled-org" });
  const changes = new EstateChanges((m, p, b, t) => e2e.api(m, p, b, t), estate);
  // The repository: a checkout holding the adopted folder (WORK_DIR), its stack already adopted, its
  // secrets under the passphrase the workflow's PULUMI_CONFIG_PASSPHRASE secret gives.
  const project = YamlProject.create(e2e.cli, "scheduled-estate", { passphrase: true });
  try {
    const checkout = project.dir;
    const workDir = path.join(checkout, workflow.env.WORK_DIR ?? "estate");
    fs.rmSync(path.join(checkout, "Pulumi.yaml"));
    const stack = workflow.env.STACK_NAME ?? "prod";
    const settings = { WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization };
    expect((await runAdopt(["--out", workDir, "--project-name", project.name], { ...project.env, ...settings })).code).toBe(0);
    const inWorkDir = (args: string[], env: Record<string, string> = {}): Promise<StepRun> => bash(workDir, ["pulumi", ...args].map(quote).join(" "), { ...project.env, ...settings, ...env });
    for (const args of [["stack", "init", stack, "--non-interactive"], ["up", "--yes", "--stack", stack, "--non-interactive"]]) {
      expect((await inWorkDir(args)).code).toBe(0);
    }
    // Handed over, as docs/adopt.md says once the preview is clean: the read-only lines deleted.
    const program = path.join(workDir, "Pulumi.yaml");
    const readOnly = `${READ_ONLY_CONFIG.join("\n")}\n`;
    expect(fs.readFileSync(program, "utf8")).toContain(readOnly);
    fs.writeFileSync(program, fs.readFileSync(program, "utf8").replace(readOnly, ""));
    // One `up` records the provider's new settings (a refresh runs with the recorded ones); it sends nothing.
    e2e.emulator.clearRequests();
    expect((await inWorkDir(["up", "--yes", "--stack", stack, "--non-interactive"])).code).toBe(0);
    expect(e2e.writes()).toEqual([]);
    await git(checkout, ["init", "-q"], ["add", "-A", workDir], ["commit", "-qm", "adopted"]);

    // GitHub's side: the runner's folders, the secrets, `wsbridge` and `pulumi` on PATH.
    const runner = path.join(checkout, "runner");
    fs.mkdirSync(path.join(runner, "bin"), { recursive: true });
    fs.writeFileSync(path.join(runner, "bin", "wsbridge"), `#!/bin/sh\nexec node ${quote(path.join(repoRoot, "bin", "wsbridge.js"))} "$@"\n`, { mode: 0o755 });
    const secrets: Record<string, string> = {
      ...settings, PULUMI_BACKEND_URL: project.env.PULUMI_BACKEND_URL ?? "", PULUMI_ACCESS_TOKEN: "",
      PULUMI_CONFIG_PASSPHRASE: project.env.PULUMI_CONFIG_PASSPHRASE ?? "",
    };
    const step = async (job: string, id: string): Promise<StepRun> => {
      const found = workflow.jobs[job]?.steps.find((s) => s.id === id);
      if (found?.run === undefined) throw new Error(`no step ${job}.${id} with a run in the workflow`);
      const output = path.join(runner, `output-${job}-${id}`);
      fs.writeFileSync(output, "");
      const env: Record<string, string> = {
        ...project.env, ...workflow.env, GITHUB_OUTPUT: output, RUNNER_TEMP: runner,
        PATH: `${path.join(runner, "bin")}${path.delimiter}${project.env.PATH ?? ""}`,
        ...Object.fromEntries(Object.entries(found.env ?? {}).map(([k, v]) => [k, expand(v, workflow.env, secrets)])),
      };
      const cwd = path.join(checkout, expand(found["working-directory"] ?? ".", workflow.env, secrets));
      const ran = await bash(cwd, found.run, env);
      ran.outputs = Object.fromEntries(fs.readFileSync(output, "utf8").split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
      return ran;
    };

    // A day with nothing new and no drift.
    e2e.emulator.clearRequests();
    expect((await step("adopt", "adopt")).code).toBe(0);
    expect((await step("adopt", "changes")).outputs).toEqual({ program: "same" });
    expect(await git(checkout, ["status", "--porcelain", "--", workflow.env.WORK_DIR ?? ""])).toBe("");
    expect((await step("drift", "drift")).code).toBe(0);
    expect(e2e.writes()).toEqual([]);

    // Others create a workspace and change one the stack owns.
    await changes.createWorkspace("made-in-the-ui");
    const changed = plainWorkspaces(estate)[0];
    if (changed === undefined) throw new Error("no plain workspace");
    await changes.setDescription(changed.id, "changed by hand");

    e2e.emulator.clearRequests();
    const adopted = await step("adopt", "adopt");
    expect(adopted.code).toBe(0);
    expect(adopted.output).toContain(`not held by stack ${stack}: batch 1, in Pulumi.yaml:`);
    expect(fs.readFileSync(path.join(runner, "adopt-summary.txt"), "utf8")).toContain("Workspace                       1");
    expect((await step("adopt", "changes")).outputs).toEqual({ program: "changed" });
    expect((await git(checkout, ["status", "--porcelain", "--", workflow.env.WORK_DIR ?? ""])).split("\n").sort()).toEqual([
      ` M ${workflow.env.WORK_DIR}/Pulumi.yaml`, ` M ${workflow.env.WORK_DIR}/adoption-report.json`, ` M ${workflow.env.WORK_DIR}/adoption-report.md`,
    ]);
    const drift = await step("drift", "drift");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toContain(`~ description: "changed by hand" => "estate workspace ${changed.name}"`);
    expect(e2e.writes()).toEqual([]);

    // The pull request merged, its deploy imports read-only; the team puts the drift right.
    e2e.emulator.clearRequests();
    expect((await inWorkDir(["up", "--yes", "--stack", stack, "--non-interactive"], { WSBRIDGE_READ_ONLY: "true" })).code).toBe(0);
    expect(e2e.writes()).toEqual([]);
    await changes.setDescription(changed.id, `estate workspace ${changed.name}`);
    await git(checkout, ["add", "-A", workDir], ["commit", "-qm", "wsbridge adopt: what is new in the organization"]);
    expect((await step("adopt", "changes")).outputs).toEqual({ program: "same" });
    expect((await step("drift", "drift")).code).toBe(0);
  } finally {
    project.dispose();
  }
}, LONG_MS);

/** `${{ env.X }}` and `${{ secrets.X }}` as Actions expands them. */
function expand(text: string, env: Record<string, string>, secrets: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(env|secrets)\.([A-Z_]+)\s*\}\}/g, (_m, scope: string, name: string) => (scope === "env" ? env[name] : secrets[name]) ?? "");
}

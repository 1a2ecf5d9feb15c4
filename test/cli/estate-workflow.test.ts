// examples/ci/estate.yml, the workflow of an estate run as many stacks, run here as GitHub would run its
// steps: each step with an `id` is read from the workflow file and run in bash as written, per matrix
// entry, in a git checkout of the folders `wsbridge adopt --split-by project` wrote (and of one folder
// adopt wrote without a split: a matrix of one), with the workflow's env, the step's env (secrets
// standing for the emulator's address, organization and tokens, a file backend), the matrix entry, the
// outputs of earlier steps, and GITHUB_OUTPUT / RUNNER_TEMP as Actions sets them. `wsbridge` is this
// repository's bin, `pulumi` the real CLI, `gh` a stand-in that keeps the pull request's comments in a
// file (the GitHub API is not reachable here). Not run: the `uses:` steps and the installs, which are
// GitHub's. And actionlint (built from the Go module proxy) passes every workflow.
import * as fs from "node:fs";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt } from "../support/adopt-run";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { YamlProject } from "../support/yaml-import-project";
import { repoRoot } from "../../scripts/lib/stack-harness";
import { bash, git, quote, readWorkflow, type StepRun, type Workflow } from "../support/workflow-steps";

const LONG_MS = 20 * 60_000;
const WORKFLOW = path.join(repoRoot, "examples", "ci", "estate.yml");

const e2e = useEmulatorAndCli({ edition: "self-managed", quiet: true });

test("actionlint passes every workflow of the repository and the examples", async () => {
  const files = [
    ...fs.readdirSync(path.join(repoRoot, "examples", "ci")).filter((f) => f.endsWith(".yml")).map((f) => path.join("examples", "ci", f)),
    ...fs.readdirSync(path.join(repoRoot, ".github", "workflows")).filter((f) => f.endsWith(".yml")).map((f) => path.join(".github", "workflows", f)),
  ];
  expect(files).toContain(path.join("examples", "ci", "estate.yml"));
  // Pinned; `go run` builds it once into the Go build cache.
  const run = await bash(repoRoot, `GOFLAGS= go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 ${files.map(quote).join(" ")}`, { ...process.env as Record<string, string> });
  expect({ code: run.code, output: run.output }).toEqual({ code: 0, output: "" });
}, LONG_MS);

test("per stack: a pull request previews the folders it changes (one comment each, updated), a failing preview fails its job only; a merge updates them; the schedule checks every stack's drift and re-adopts in one pull request naming the new stack; a folder added or removed joins or leaves the matrix", async () => {
  const { workflow, estate, project, checkout, estateDir, stack, readOnly } = await adoptedCheckout("estate-ci", ["--split-by", "project"]);
  try {
    const folderNames = (): string[] => fs.readdirSync(path.join(checkout, estateDir)).filter((f) => fs.existsSync(path.join(checkout, estateDir, f, "Pulumi.yaml"))).sort();
    const [first, second] = folderNames().map((f) => `${estateDir}/${f}`);
    if (first === undefined || second === undefined) throw new Error(`two folders expected, got ${folderNames().join(", ")}`);

    const secrets = secretsOf(project, readOnly);
    const { step, stacks, previewJob, commentsNow, runner } = actionsRunner(workflow, project, secrets);

    // Each stack adopted (its read-only adoption step), on main.
    for (const folder of [first, second]) {
      const inFolder = project.another(path.join(checkout, folder), YamlProject.nameIn(path.join(checkout, folder)));
      await inFolder.ok(["stack", "init", stack, "--non-interactive"]);
      await bashOk(path.join(checkout, folder), `pulumi up --yes --stack ${stack} --non-interactive`, { ...inFolder.env, ...readOnly });
    }
    await git(checkout, ["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "adopted"]);
    const main = await git(checkout, ["rev-parse", "HEAD"]);

    // A pull request that hands the first stack over and changes one of its workspaces' descriptions.
    await git(checkout, ["checkout", "-qb", "change"]);
    const firstProgram = path.join(checkout, first, "Pulumi.yaml");
    const handedOver = fs.readFileSync(firstProgram, "utf8").replace(/^config:\n(?: {2}#.*\n)* {2}wsbridge:readOnly: true\n/m, "");
    const description = /^ {6}description: (.+)$/m.exec(handedOver)?.[1] ?? "";
    expect(description).not.toBe("");
    fs.writeFileSync(firstProgram, handedOver.replace(`description: ${description}`, "description: changed in a pull request"));
    await git(checkout, ["commit", "-qam", "a description"]);
    expect(await stacks(main)).toEqual({ all: [first, second], changed: [first] });

    e2e.emulator.clearRequests();
    const previewed = await previewJob(first);
    expect(previewed.verdict).toBe(0);
    expect(previewed.preview.output).toContain("changed in a pull request");
    expect(e2e.writes()).toEqual([]);
    expect(commentsNow()).toEqual([{ id: 1, body: expect.stringContaining(`<!-- wsbridge-estate-preview: ${first} -->\n#### \`${first}\` (stack ${stack}): previewed`) }]);
    // Previewed again (the next push): the same comment, updated, not a second one.
    expect((await previewJob(first)).verdict).toBe(0);
    expect(commentsNow().map((c) => c.id)).toEqual([1]);

    // A second commit breaks the other stack's program: its preview fails its own job, with its own comment.
    const secondProgram = path.join(checkout, second, "Pulumi.yaml");
    const secondText = fs.readFileSync(secondProgram, "utf8");
    fs.writeFileSync(secondProgram, secondText.replace(/^( {6})name: (.+)$/m, "$1name: $2\n$1autoApply: not-a-boolean"));
    await git(checkout, ["commit", "-qam", "a mistake"]);
    expect((await stacks(main)).changed).toEqual([first, second]);
    const broken = await previewJob(second);
    expect(broken.verdict).not.toBe(0);
    expect(commentsNow().map((c) => [c.id, c.body.split("\n")[1]])).toEqual([
      [1, `#### \`${first}\` (stack ${stack}): previewed`], [2, `#### \`${second}\` (stack ${stack}): **failed** (exit ${broken.preview.outputs.status})`],
    ]);
    expect((await previewJob(first)).verdict).toBe(0);
    fs.writeFileSync(secondProgram, secondText);
    await git(checkout, ["commit", "-qam", "put right"]);

    // Merged: the push's up of the changed stack only, with a token that may change the estate.
    await git(checkout, ["checkout", "-q", "main"], ["merge", "-q", "--no-ff", "change", "-m", "merge"]);
    const merged = await stacks(main);
    expect(merged.changed).toEqual([first]);
    const writer = { ...secrets, WSBRIDGE_TOKEN: estate.tokens.admin };
    e2e.emulator.clearRequests();
    expect((await step("up", "up", { "matrix.folder": first }, writer)).code).toBe(0);
    expect(e2e.writes()).toEqual([expect.stringMatching(/^PATCH \/api\/v2\/workspaces\/ws-/)]);

    // The schedule: every stack's drift check passes; a new project with a workspace appears.
    const drift = await Promise.all(merged.all.map((folder) => step("drift", "drift", { "matrix.folder": folder })));
    expect(drift.map((d) => d.code)).toEqual([0, 0]);
    const created = await e2e.api("POST", `/organizations/${estate.organization}/projects`, { data: { type: "projects", attributes: { name: "newcomers" } } });
    const projectId = (created.doc as { data: { id: string } }).data.id;
    const ws = await e2e.api("POST", `/organizations/${estate.organization}/workspaces`, {
      data: { type: "workspaces", attributes: { name: "newcomer" }, relationships: { project: { data: { type: "projects", id: projectId } } } },
    });
    await e2e.api("POST", "/team-workspaces", {
      data: { type: "team-workspaces", attributes: { access: "read" }, relationships: { workspace: { data: { type: "workspaces", id: (ws.doc as { data: { id: string } }).data.id } }, team: { data: { type: "teams", id: estate.readersTeamId } } } },
    });
    e2e.emulator.clearRequests();
    expect((await step("readopt", "adopt")).code).toBe(0);
    expect(e2e.writes()).toEqual([]);
    const changes = await step("readopt", "changes");
    expect(changes.outputs).toEqual({ stacks: `${estateDir}/newcomers` });
    expect(fs.readFileSync(path.join(runner, "pr-body.md"), "utf8")).toContain(`found what the stacks do not hold yet in: ${estateDir}/newcomers`);

    // Its pull request merged: the new folder joins the matrix with no edit to the workflow, and its up is its adoption step.
    const beforeMerge = await git(checkout, ["rev-parse", "HEAD"]);
    await git(checkout, ["add", "-A", estateDir], ["commit", "-qm", "wsbridge adopt: what is new in the estate"]);
    const joined = await stacks(beforeMerge);
    expect(joined).toEqual({ all: [first, second, `${estateDir}/newcomers`].sort(), changed: [`${estateDir}/newcomers`] });
    const newcomerDrift = await step("drift", "drift", { "matrix.folder": `${estateDir}/newcomers` });
    expect({ code: newcomerDrift.code, output: newcomerDrift.output }).toEqual({ code: 0, output: expect.stringContaining("has no stack prod yet") });
    e2e.emulator.clearRequests();
    expect((await step("up", "up", { "matrix.folder": `${estateDir}/newcomers` })).code).toBe(0);
    expect(e2e.writes()).toEqual([]);
    expect((await step("drift", "drift", { "matrix.folder": `${estateDir}/newcomers` })).code).toBe(0);

    // A folder removed leaves the matrix.
    await git(checkout, ["rm", "-rq", second], ["commit", "-qm", "that team's stack moved elsewhere"]);
    expect((await stacks(undefined)).all).toEqual([first, `${estateDir}/newcomers`].sort());
  } finally {
    project.dispose();
  }
}, LONG_MS);

test("one folder adopt wrote without a split is a matrix of one: a pull request that does not touch it previews nothing, one that does previews it with its comment, and the schedule's re-adoption names it", async () => {
  const { workflow, estate, project, checkout, estateDir, stack, readOnly } = await adoptedCheckout("estate-one", []);
  try {
    const { step, stacks, previewJob, commentsNow, runner } = actionsRunner(workflow, project, secretsOf(project, readOnly));
    const folder = path.join(checkout, estateDir);
    const inFolder = project.another(folder, YamlProject.nameIn(folder));
    await inFolder.ok(["stack", "init", stack, "--non-interactive"]);
    await bashOk(folder, `pulumi up --yes --stack ${stack} --non-interactive`, { ...inFolder.env, ...readOnly });
    await git(checkout, ["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "adopted"]);
    const main = await git(checkout, ["rev-parse", "HEAD"]);

    // A pull request outside the folder: the matrix has its one entry, and nothing to preview.
    await git(checkout, ["checkout", "-qb", "change"]);
    fs.writeFileSync(path.join(checkout, "NOTES.md"), "not the estate\n");
    await git(checkout, ["add", "NOTES.md"], ["commit", "-qm", "notes"]);
    expect(await stacks(main)).toEqual({ all: [estateDir], changed: [] });

    // One that hands the stack over and changes a description: previewed, one comment, nothing sent but reads.
    const program = path.join(folder, "Pulumi.yaml");
    const handedOver = fs.readFileSync(program, "utf8").replace(/^config:\n(?: {2}#.*\n)* {2}wsbridge:readOnly: true\n/m, "");
    const description = /^ {6}description: (.+)$/m.exec(handedOver)?.[1] ?? "";
    expect(description).not.toBe("");
    fs.writeFileSync(program, handedOver.replace(`description: ${description}`, "description: changed in a pull request"));
    await git(checkout, ["commit", "-qam", "a description"]);
    expect(await stacks(main)).toEqual({ all: [estateDir], changed: [estateDir] });
    e2e.emulator.clearRequests();
    const previewed = await previewJob(estateDir);
    expect({ verdict: previewed.verdict, output: previewed.preview.output }).toEqual({ verdict: 0, output: expect.stringContaining("changed in a pull request") });
    expect(e2e.writes()).toEqual([]);
    expect(commentsNow()).toEqual([{ id: 1, body: expect.stringContaining(`<!-- wsbridge-estate-preview: ${estateDir} -->\n#### \`${estateDir}\` (stack ${stack}): previewed`) }]);

    // The schedule, after a new workspace: the re-adoption changes the one folder, and the pull request names it.
    await git(checkout, ["checkout", "-q", "main"]);
    const ws = await e2e.api("POST", `/organizations/${estate.organization}/workspaces`, { data: { type: "workspaces", attributes: { name: "newcomer" } } });
    await e2e.api("POST", "/team-workspaces", {
      data: { type: "team-workspaces", attributes: { access: "read" }, relationships: { workspace: { data: { type: "workspaces", id: (ws.doc as { data: { id: string } }).data.id } }, team: { data: { type: "teams", id: estate.readersTeamId } } } },
    });
    expect((await step("drift", "drift", { "matrix.folder": estateDir })).code).toBe(0);
    e2e.emulator.clearRequests();
    expect((await step("readopt", "adopt")).code).toBe(0);
    expect(e2e.writes()).toEqual([]);
    expect((await step("readopt", "changes")).outputs).toEqual({ stacks: estateDir });
    expect(fs.readFileSync(program, "utf8")).toContain("name: newcomer");
    expect(fs.readFileSync(path.join(runner, "pr-body.md"), "utf8")).toContain(`found what the stacks do not hold yet in: ${estateDir}`);
  } finally {
    project.dispose();
  }
}, LONG_MS);

/**
 * The repository: a checkout (the project's folder) holding what `wsbridge adopt` wrote into the
 * workflow's ESTATE_DIR for a new estate of 12 workspaces in organization `organization`, with
 * `adoptArgs` (a split, or none); the stacks under the passphrase the PULUMI_CONFIG_PASSPHRASE secret
 * gives. The caller disposes of the project.
 */
async function adoptedCheckout(organization: string, adoptArgs: string[]): Promise<{
  workflow: Workflow; estate: EstateManifest; project: YamlProject; checkout: string; estateDir: string; stack: string; readOnly: Record<string, string>;
}> {
  const workflow = readWorkflow(WORKFLOW);
  const estate = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: 12, edition: "self-managed", organization, projects: 1 });
  const project = YamlProject.create(e2e.cli, organization, { passphrase: true });
  const checkout = project.dir;
  const estateDir = workflow.env.ESTATE_DIR ?? "estate";
  fs.rmSync(path.join(checkout, "Pulumi.yaml"));
  const readOnly = { WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization };
  const adopted = await runAdopt(["--out", path.join(checkout, estateDir), ...adoptArgs, "--no-modules", "--project-name", "estate"], { ...project.env, ...readOnly });
  if (adopted.code !== 0) {
    project.dispose();
    throw new Error(`adopt failed: ${adopted.stderr}`);
  }
  return { workflow, estate, project, checkout, estateDir, stack: workflow.env.STACK_NAME ?? "prod", readOnly };
}

/** The secrets the workflow's jobs read: the provider's settings given, and the project's file backend and passphrase. */
function secretsOf(project: YamlProject, provider: Record<string, string>): Record<string, string> {
  return {
    ...provider, PULUMI_BACKEND_URL: project.env.PULUMI_BACKEND_URL ?? "", PULUMI_ACCESS_TOKEN: "",
    PULUMI_CONFIG_PASSPHRASE: project.env.PULUMI_CONFIG_PASSPHRASE ?? "",
  };
}

interface ActionsRunner {
  /** The runner's folder (RUNNER_TEMP): the steps' outputs, the comments file, what steps wrote. */
  runner: string;
  /** One step with an `id`, as written, with the workflow's and the step's env and the given context. */
  step(job: string, id: string, context?: Record<string, string>, secretsHere?: Record<string, string>): Promise<StepRun>;
  /** The `stacks` job against `base` (undefined: none, as on a schedule or a first push). */
  stacks(base: string | undefined): Promise<{ all: string[]; changed: string[] }>;
  /** A preview job for one matrix entry: preview, comment, verdict; its verdict's exit code. */
  previewJob(folder: string): Promise<{ preview: StepRun; verdict: number }>;
  /** The pull request's comments, as the `gh` stand-in keeps them. */
  commentsNow(): { id: number; body: string }[];
}

/**
 * GitHub's side, in the project's folder (the checkout): the runner's folders, the event, `wsbridge`,
 * `gh` and `pulumi` on PATH, and each step run as written.
 */
function actionsRunner(workflow: Workflow, project: YamlProject, secrets: Record<string, string>): ActionsRunner {
  const checkout = project.dir;
  const runner = path.join(checkout, "runner");
  const bin = path.join(runner, "bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "wsbridge"), `#!/bin/sh\nexec node ${quote(path.join(repoRoot, "bin", "wsbridge.js"))} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, "gh"), FAKE_GH, { mode: 0o755 });
  const comments = path.join(runner, "comments.json");
  fs.writeFileSync(path.join(checkout, ".gitignore"), "runner/\nbackend/\nhome/\n");
  const event: Record<string, string> = { "github.token": "gh-token", "github.event.pull_request.number": "7" };
  const step = async (job: string, id: string, context: Record<string, string> = {}, secretsHere: Record<string, string> = secrets): Promise<StepRun> => {
    const found = workflow.jobs[job]?.steps.find((s) => s.id === id);
    if (found?.run === undefined) throw new Error(`no step ${job}.${id} with a run in the workflow`);
    const output = path.join(runner, `output-${job}-${id}`);
    fs.writeFileSync(output, "");
    const values = { ...event, ...context };
    const env: Record<string, string> = {
      ...project.env, ...workflow.env, GITHUB_OUTPUT: output, RUNNER_TEMP: runner, GITHUB_REPOSITORY: "acme/estate", FAKE_GH_COMMENTS: comments,
      PATH: `${bin}${path.delimiter}${project.env.PATH ?? ""}`,
      ...Object.fromEntries(Object.entries(found.env ?? {}).map(([k, v]) => [k, expand(v, workflow.env, secretsHere, values)])),
    };
    const cwd = path.join(checkout, expand(found["working-directory"] ?? ".", workflow.env, secretsHere, values));
    const ran = await bash(cwd, found.run, env);
    ran.outputs = Object.fromEntries(fs.readFileSync(output, "utf8").split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    return ran;
  };
  return {
    runner,
    step,
    async stacks(base) {
      const ran = await step("stacks", "stacks", { [BASE_EXPRESSION]: base ?? "" });
      expect(ran.code).toBe(0);
      return { all: JSON.parse(ran.outputs.all ?? "null") as string[], changed: JSON.parse(ran.outputs.changed ?? "null") as string[] };
    },
    async previewJob(folder) {
      const preview = await step("preview", "preview", { "matrix.folder": folder });
      const status = preview.outputs.status ?? "";
      const context = { "matrix.folder": folder, "steps.preview.outputs.status": status };
      expect((await step("preview", "comment", context)).code).toBe(0);
      return { preview, verdict: (await step("preview", "verdict", context)).code };
    },
    commentsNow: () => (fs.existsSync(comments) ? JSON.parse(fs.readFileSync(comments, "utf8")) as { id: number; body: string }[] : []),
  };
}

/** The expression `stacks` computes its BASE from, as the workflow spells it. */
const BASE_EXPRESSION = "github.event_name == 'pull_request' && github.event.pull_request.base.sha || github.event.before";

/** `${{ … }}` as Actions expands it: env, secrets, and the given context (the matrix, step outputs, the event); anything else fails the test. */
function expand(text: string, env: Record<string, string>, secrets: Record<string, string>, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_m, expression: string) => {
    const scoped = /^(env|secrets)\.([A-Za-z_]+)$/.exec(expression);
    if (scoped !== null) return (scoped[1] === "env" ? env[scoped[2] ?? ""] : secrets[scoped[2] ?? ""]) ?? "";
    const value = context[expression];
    if (value === undefined) throw new Error(`the test gives no value for \${{ ${expression} }}`);
    return value;
  });
}

async function bashOk(cwd: string, script: string, env: Record<string, string>): Promise<string> {
  const ran = await bash(cwd, script, env);
  if (ran.code !== 0) throw new Error(`${script}: ${ran.output}`);
  return ran.output;
}

/**
 * `gh api` for the calls the workflow makes on a pull request's comments, kept in $FAKE_GH_COMMENTS:
 * the list (with --jq, a select on the body's start, printing ids), a POST and a PATCH of `body=@file`.
 */
const FAKE_GH = `#!/usr/bin/env node
const fs = require("fs");
const file = process.env.FAKE_GH_COMMENTS;
const comments = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
const args = process.argv.slice(2);
if (args[0] !== "api") { console.error("fake gh: only gh api"); process.exit(2); }
let method = "GET", route = "", body, jq;
for (let i = 1; i < args.length; i++) {
  if (args[i] === "-X") method = args[++i];
  else if (args[i] === "-F") { const [k, v] = args[++i].split(/=(.*)/s); if (k === "body") body = v.startsWith("@") ? fs.readFileSync(v.slice(1), "utf8") : v; }
  else if (args[i] === "--jq") jq = args[++i];
  else if (args[i] === "--paginate") {}
  else route = args[i];
}
if (method === "GET" && /\\/issues\\/\\d+\\/comments$/.test(route)) {
  const start = /startswith\\("(.*)"\\)/.exec(jq || "");
  for (const c of comments) if (!start || c.body.startsWith(start[1])) console.log(c.id);
} else if (method === "POST" && /\\/issues\\/\\d+\\/comments$/.test(route)) {
  comments.push({ id: comments.length + 1, body });
} else if (method === "PATCH" && /\\/issues\\/comments\\/\\d+$/.test(route)) {
  const c = comments.find((x) => x.id === Number(route.split("/").pop()));
  if (!c) { console.error("fake gh: no such comment"); process.exit(1); }
  c.body = body;
} else { console.error("fake gh: unexpected " + method + " " + route); process.exit(2); }
fs.writeFileSync(file, JSON.stringify(comments));
`;

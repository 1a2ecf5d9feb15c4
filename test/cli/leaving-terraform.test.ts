// Leaving Terraform on the real Pulumi CLI, the walk-through of docs/adopt.md ("Leaving Terraform") step by
// step, against the emulator started from the Terraform fixture's data (test/fixtures/terraform-migration/:
// what OpenTofu 1.10.10 and the tfe provider wrote), so the ids in Terraform's state are the server's:
//
// 1. `wsbridge adopt --from-terraform` with a read-only token, then the Pulumi adoption step: `pulumi up`
//    imports exactly the state's objects, named after their addresses, with GETs only, and `pulumi
//    preview` shows no change.
// 2-4. Terraform's side: the release adopt wrote is the one OpenTofu planned as forgetting every moved
//    object (plan-forget.json, made from the fixture's release-removed.tf), and `wsbridge gate` passes
//    that plan and fails the wrong one (plan-delete.json). The tfe provider cannot be installed here, so
//    Terraform's plan and apply are the fixture's; what adopt writes is checked against them, and its
//    `removed` blocks by `tofu validate` (test/adopt/terraform-release-validates.test.ts).
// 5. The hand-over: without the read-only lines, `pulumi up` sends nothing; a later `wsbridge adopt` in
//    the folder, without the Terraform input, finds nothing new.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { main } from "../../provider/adopt/cli";
import { repoRoot } from "../../scripts/lib/stack-harness";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { stateObjects } from "../support/adoptable";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { copyEmulatorData, fixturePath, TERRAFORM_ORGANIZATION } from "../support/terraform-estate";
import { YamlProject, resourceSummary } from "../support/yaml-import-project";

const LONG_MS = 10 * 60_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-leaving-terraform-"));
const e2e = useEmulatorAndCli({ quiet: true, stateFile: copyEmulatorData(dataDir), edition: "self-managed" });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

let project: YamlProject;
let readOnlyToken: string;

/** adopt as a user runs it in the project folder (its pulumi, backend and home), with the read-only token, without the stack's secrets. */
function adopt(args: string[]): Promise<AdoptRun> {
  return runAdopt(["--out", project.dir, "--project-name", project.name, ...args], {
    ...project.envWithoutSecrets, WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: readOnlyToken, WSBRIDGE_ORGANIZATION: TERRAFORM_ORGANIZATION,
  });
}

function ok(run: AdoptRun): AdoptRun {
  expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
  return run;
}

async function gate(plan: string): Promise<number> {
  const sink = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
  return main(["gate", plan, "--out", project.dir], { stdout: sink, stderr: sink, env: {}, cwd: project.dir });
}

beforeAll(() => {
  project = YamlProject.create(e2e.cli, "leaving-terraform");
  fs.rmSync(path.join(project.dir, "Pulumi.yaml"));
  readOnlyToken = e2e.emulator.issueToken({ kind: "team", team: "migration-readers", access: "read" });
});

test("the adoption step imports exactly the objects Terraform's state manages, named after their addresses, reading only, and previews clean", async () => {
  e2e.emulator.clearRequests();
  ok(await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10"]));
  await project.initStack("dev", { address: e2e.emulator.url, token: readOnlyToken, organization: TERRAFORM_ORGANIZATION });
  const up = await project.ok(["up", "--stack", "dev", "--yes", "--skip-preview"]);
  expect(resourceSummary(up.stdout)).toEqual(["+ 1 created", "= 9 imported", "10 changes"]);
  const preview = await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
  expect(resourceSummary(preview.stdout)).toEqual(["10 unchanged"]);
  expect(e2e.writes()).toEqual([]);

  const state = await project.exportState("dev");
  // A consumer list's id is its workspace's and a hash of its members.
  expect(stateObjects(state).map((o) => o.replace(/^(RemoteStateConsumers ws-\w+):\w+$/, "$1:…"))).toEqual([
    "DataRetentionPolicy ws-if1DUJVYATI1W8Nw",
    "RemoteStateConsumers ws-if1DUJVYATI1W8Nw:…",
    "SshKeyAssignment ws-if1DUJVYATI1W8Nw",
    "Workspace ws-HUHivj3JnOsBnDNL", "Workspace ws-T69G3bYAsW3DJVX5", "Workspace ws-TREp3fODdscptfWD",
    "Workspace ws-if1DUJVYATI1W8Nw", "Workspace ws-w82yaAyX8edPjhmX", "Workspace ws-wSHSUskR8TYIXuwA",
  ]);
  const names = (state.deployment.resources ?? []).filter((r) => r.type.startsWith("wsbridge:index:")).map((r) => r.urn.split("::").pop()).sort();
  expect(names).toEqual(["app", "app-consumers", "app-data-retention", "app-ssh-key", "batch-0", "batch-1", "batch-2", "team-api-ws", "team-web-ws"]);
}, LONG_MS);

test("the gate passes Terraform's plan of the release adopt wrote, and fails the plan that deletes", async () => {
  expect(await gate(fixturePath("plan-forget.json"))).toBe(0);
  expect(await gate(fixturePath("plan-delete.json"))).toBe(1);
});

test("examples/ci/terraform-release.yml's gate step, as written, passes Terraform's plan of the release and fails the plan that deletes", async () => {
  const workflow = parseYaml(fs.readFileSync(path.join(repoRoot, "examples", "ci", "terraform-release.yml"), "utf8")) as {
    env: Record<string, string>; jobs: Record<string, { steps: { id?: string; run?: string }[] }>;
  };
  const script = workflow.jobs["release"]?.steps.find((s) => s.id === "gate")?.run;
  if (script === undefined) throw new Error("no gate step in the workflow");
  // The runner's checkout: the configuration (its plan as the plan step writes it) and the folder adopt wrote.
  const checkout = fs.mkdtempSync(path.join(dataDir, "checkout-"));
  const tfDir = path.join(checkout, workflow.env.TF_DIR ?? "terraform");
  fs.mkdirSync(tfDir);
  fs.cpSync(project.dir, path.join(checkout, workflow.env.RELEASE_DIR ?? "estate"), { recursive: true, filter: (f) => !/\/(backend|home)$/.test(f) });
  const bin = path.join(checkout, "bin");
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, "wsbridge"), `#!/bin/sh\nexec node '${path.join(repoRoot, "bin", "wsbridge.js")}' "$@"\n`, { mode: 0o755 });
  const gateStep = (plan: string): Promise<{ code: number; output: string }> => {
    fs.copyFileSync(fixturePath(plan), path.join(tfDir, "release-plan.json"));
    return new Promise((resolve) => {
      execFile("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
        cwd: checkout, env: { ...process.env, ...workflow.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
      }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: `${stdout}${stderr}` }));
    });
  };
  expect(await gateStep("plan-forget.json")).toEqual({ code: 0, output: "The plan forgets every released object and changes none of them: Terraform may apply it.\n" });
  const failed = await gateStep("plan-delete.json");
  expect(failed.code).toBe(1);
  expect(failed.output).toContain("  tfe_workspace.app: delete, not forget");
});

test("the hand-over: without the read-only lines `pulumi up` sends nothing, and adopt again finds nothing new", async () => {
  const file = path.join(project.dir, "Pulumi.yaml");
  const program = fs.readFileSync(file, "utf8");
  const readOnly = /^config:\n(?: {2}#.*\n)* {2}wsbridge:readOnly: true\n/m;
  expect(program).toMatch(readOnly);
  fs.writeFileSync(file, program.replace(readOnly, ""));
  e2e.emulator.clearRequests();
  const up = await project.ok(["up", "--stack", "dev", "--yes"]);
  expect(resourceSummary(up.stdout)).toEqual(["10 unchanged"]);
  expect(e2e.writes()).toEqual([]);
  const again = ok(await adopt([]));
  expect(again.stdout).toContain("Nothing new in example-org");
}, LONG_MS);

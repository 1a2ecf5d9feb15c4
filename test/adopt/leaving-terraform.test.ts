// `wsbridge adopt --from-terraform` in process, against the emulator started from the Terraform fixture's
// data (test/fixtures/terraform-migration/: real files OpenTofu 1.10.10 and the tfe provider wrote): the
// state chooses what is adopted and the names, the program is written from the server, the release for
// the user's tool and version is what OpenTofu planned as forgetting every moved object, and `wsbridge gate`
// passes that plan and fails the wrong one. Every bad input fails with a sentence and writes nothing.
// The same program on the real Pulumi CLI: test/cli/leaving-terraform.test.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../provider/adopt/cli";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { tofuValidate } from "../support/tofu";
import { fixturePath, fixtureText, startTerraformEstate, TERRAFORM_ORGANIZATION, type TerraformEstate } from "../support/terraform-estate";

let estate: TerraformEstate;
beforeAll(async () => { estate = await startTerraformEstate(); });
afterAll(async () => { await estate.close(); });

let folders = 0;
/** A new folder under the estate's, not created yet (adopt creates it). */
const newFolder = (): string => path.join(estate.dir, `out-${++folders}`);
const env = (): NodeJS.ProcessEnv => ({ WSBRIDGE_ADDRESS: estate.emulator.url, WSBRIDGE_TOKEN: estate.readOnlyToken, WSBRIDGE_ORGANIZATION: TERRAFORM_ORGANIZATION });
const adopt = (args: string[]): Promise<AdoptRun> => runAdopt(args, env());
const read = (dir: string, file: string): string => fs.readFileSync(path.join(dir, file), "utf8");
const froms = (text: string): string[] => [...text.matchAll(/^\s*from = (\S+)$/gm)].map((m) => m[1] ?? "");
const stderrOf = (run: AdoptRun): string => run.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("reading ")).join("\n");

/** `wsbridge gate …`: its exit code and what it printed. */
async function gate(args: string[]): Promise<AdoptRun> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void): NodeJS.WriteStream =>
    ({ write: (chunk: string | Uint8Array) => { append(String(chunk)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
  const code = await main(["gate", ...args], { stdout: sink((t) => { stdout += t; }), stderr: sink((t) => { stderr += t; }), env: {}, cwd: process.cwd() });
  return { code, stdout, stderr };
}

/** A state file in the estate's folder, from the fixture's raw state changed by `change`. */
function stateFile(name: string, change: (state: { resources: { type: string; name: string; module?: string; instances: { attributes: Record<string, unknown> }[] }[] }) => void): string {
  const state = JSON.parse(fixtureText("terraform.tfstate")) as Parameters<typeof change>[0];
  change(state);
  const file = path.join(estate.dir, name);
  fs.writeFileSync(file, JSON.stringify(state));
  return file;
}

describe("one input, one program, one release", () => {
  let out: string;
  let run: AdoptRun;
  beforeAll(async () => {
    out = newFolder();
    estate.emulator.clearRequests();
    run = await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10", "--out", out]);
  });

  test("adopt reads only (GETs) and succeeds", () => {
    expect({ code: run.code, stderr: stderrOf(run) }).toEqual({ code: 0, stderr: "" });
    expect(estate.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(run.stdout).toContain("Taken over from Terraform");
    expect(run.stdout).toContain("8 addresses, as 9 resources; Terraform keeps 3.");
  });

  test("the program declares the state's workspaces and what Terraform managed on them, named after their addresses", () => {
    const resources = (JSON.parse(read(out, "adoption-report.json")) as { resources: { kind: string; name: string }[] }).resources
      .map((r) => `${r.kind} ${r.name}`).sort();
    expect(resources).toEqual([
      "DataRetentionPolicy app-data-retention", "RemoteStateConsumers app-consumers", "SshKeyAssignment app-ssh-key",
      "Workspace app", "Workspace batch-0", "Workspace batch-1", "Workspace batch-2", "Workspace team-api-ws", "Workspace team-web-ws",
    ]);
    const yaml = read(out, "Pulumi.yaml");
    expect(yaml).not.toContain("wsbridge:index:ModuleVersionDeprecation");
    // Written from the server, as any adopt run: the workspace's name is the server's, the resource's the address's.
    expect(yaml).toMatch(/^ {2}app:\n {4}type: wsbridge:index:Workspace\n(?: {4}.*\n)*? {6}name: app-prod$/m);
  });

  test("the report maps every released address to its Pulumi resources, and lists what Terraform keeps with why", () => {
    const readme = read(out, "terraform-release/README.md");
    expect(readme).toContain("| `tfe_workspace.app` | Workspace `app`, SshKeyAssignment `app-ssh-key` |");
    expect(readme).toContain("| `tfe_workspace_settings.app` | RemoteStateConsumers `app-consumers` |");
    expect(readme).toContain("| `tfe_data_retention_policy.app` | DataRetentionPolicy `app-data-retention` |");
    expect(readme).toContain("| `module.team[\"web\"].tfe_workspace.ws` | Workspace `team-web-ws` |");
    expect(readme).toContain("| `tfe_workspace.batch[2]` | Workspace `batch-2` |");
    expect(readme).toContain("| `tfe_project.platform` | tfe_project has no kind in this package |");
    expect(readme).toContain("| `terraform_data.app_reference` | another provider's (terraform.io/builtin/terraform) |");
  });

  test("the release forgets exactly what OpenTofu planned as forgotten: the fixture's removed blocks, and released.json its forget addresses", () => {
    expect(froms(read(out, "terraform-release/removed.tf")).sort()).toEqual(froms(fixtureText("release-removed.tf")).sort());
    expect(read(out, "terraform-release/removed.tf").match(/destroy = false/g)).toHaveLength(5);
    const plan = JSON.parse(fixtureText("plan-forget.json")) as { resource_changes: { address: string; change: { actions: string[] } }[] };
    const forgotten = plan.resource_changes.filter((c) => c.change.actions.join() === "forget").map((c) => c.address).sort();
    expect((JSON.parse(read(out, "terraform-release/released.json")) as { released: string[] }).released).toEqual(forgotten);
    expect(fs.existsSync(path.join(out, "terraform-release/state-rm.sh"))).toBe(false);
  });

  test("the removed.tf adopt wrote, as it is, passes `tofu validate` with no provider", () => {
    expect(tofuValidate({ "removed.tf": read(out, "terraform-release/removed.tf") })).toMatchObject({ status: 0 });
  }, 600_000);

  test("a resource Terraform keeps that refers to a released workspace is told what to refer to instead", () => {
    expect(read(out, "terraform-release/README.md")).toContain(
      "`terraform_data.app_reference` refers to `tfe_workspace.app`: write data.tfe_workspace.app.id (or the literal id \"ws-if1DUJVYATI1W8Nw\") instead");
    expect(read(out, "terraform-release/data-blocks.tf")).toContain('data "tfe_workspace" "app" {\n  name = "app-prod"\n}');
  });

  test("the gate passes the plan that forgets every released object", async () => {
    const passed = await gate([fixturePath("plan-forget.json"), "--out", out]);
    expect(passed).toEqual({ code: 0, stdout: "The plan forgets every released object and changes none of them: Terraform may apply it.\n", stderr: "" });
  });

  test("the gate fails the plan that deletes them, naming each address", async () => {
    const failed = await gate([fixturePath("plan-delete.json"), "--out", out]);
    expect(failed.code).toBe(1);
    for (const address of ["tfe_workspace.app", "tfe_workspace.batch[0]", "module.team[\"api\"].tfe_workspace.ws", "tfe_workspace_settings.app", "tfe_data_retention_policy.app"]) {
      expect(failed.stdout).toContain(`  ${address}: delete, not forget`);
    }
    expect(failed.stdout).toContain("these 8 are not forgotten");
  });

  test("the gate refuses a state given as the plan, and a folder adopt did not write a release into", async () => {
    expect(await gate([fixturePath("terraform.tfstate"), "--out", out])).toMatchObject({ code: 2, stderr: expect.stringContaining("is a state, not a plan") });
    expect(await gate([fixturePath("plan-forget.json"), "--out", estate.dir])).toMatchObject({ code: 2, stderr: expect.stringContaining("terraform-release/released.json cannot be read") });
  });

  test("`terraform show -json` of the state gives the same program and release, byte for byte but the source's name", async () => {
    const again = newFolder();
    const shown = await adopt(["--from-terraform", fixturePath("show.json"), "--release-for", "opentofu@1.10", "--out", again]);
    expect(shown.code).toBe(0);
    const program = (dir: string, source: string): string => read(dir, "Pulumi.yaml").split(fixturePath(source)).join("<source>");
    expect(program(again, "show.json")).toBe(program(out, "terraform.tfstate"));
    for (const file of ["terraform-release/removed.tf", "terraform-release/data-blocks.tf"]) expect(read(again, file)).toBe(read(out, file));
    const released = (dir: string): unknown => (JSON.parse(read(dir, "terraform-release/released.json")) as { released: unknown }).released;
    expect(released(again)).toEqual(released(out));
  });
});

describe("the state of a workspace on the same server (--from-terraform-workspace)", () => {
  /** A request with the emulator's owner token (the fixture's Terraform configuration ran as it); the parsed body. */
  const owner = async (method: string, route: string, body: unknown): Promise<{ data: { id: string } }> => {
    const res = await fetch(`${estate.emulator.url}/api/v2${route}`, {
      method, headers: { authorization: `Bearer ${estate.emulator.token}`, "content-type": "application/vnd.api+json" }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { id: string } };
  };
  const workspace = (name: string): Promise<{ data: { id: string } }> =>
    owner("POST", `/organizations/${TERRAFORM_ORGANIZATION}/workspaces`, { data: { type: "workspaces", attributes: { name } } });

  test("the state of the workspace the configuration runs in gives the same program and release as the file, with GETs only", async () => {
    const ws = await workspace("tfe-configuration");
    const state = fixtureText("terraform.tfstate");
    await owner("POST", `/workspaces/${ws.data.id}/state-versions`, {
      data: { type: "state-versions", attributes: { serial: 1, md5: "not-checked", state: Buffer.from(state, "utf8").toString("base64") } },
    });
    const fromFile = newFolder();
    expect((await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10", "--out", fromFile])).code).toBe(0);
    const out = newFolder();
    estate.emulator.clearRequests();
    const run = await adopt(["--from-terraform-workspace", "tfe-configuration", "--release-for", "opentofu@1.10", "--out", out]);
    expect({ code: run.code, stderr: stderrOf(run) }).toEqual({ code: 0, stderr: "" });
    expect(estate.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(run.stdout).toMatch(/Taken over from Terraform \(workspace tfe-configuration \(state version sv-\w+, serial 1\)\): 8 addresses, as 9 resources/);
    const program = (dir: string): string => read(dir, "Pulumi.yaml").replace(/^# Adopted from .*$/m, "");
    expect(program(out)).toBe(program(fromFile));
    for (const file of ["terraform-release/removed.tf", "terraform-release/data-blocks.tf"]) expect(read(out, file)).toBe(read(fromFile, file));
  });

  test("a workspace with no state version yet is refused with a sentence, and nothing is written", async () => {
    await workspace("tfe-never-applied");
    const out = newFolder();
    const run = await adopt(["--from-terraform-workspace", "tfe-never-applied", "--release-for", "opentofu@1.10", "--out", out]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: expect.stringContaining("workspace tfe-never-applied: has no state version yet") });
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe("the release for the user's tool and version", () => {
  test("Terraform before 1.7 has no removed block: every address is a `terraform state rm`", async () => {
    const out = newFolder();
    expect((await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "terraform@1.6", "--out", out])).code).toBe(0);
    expect(fs.existsSync(path.join(out, "terraform-release/removed.tf"))).toBe(false);
    const script = read(out, "terraform-release/state-rm.sh");
    expect(script.split("\n").filter((l) => l.startsWith("terraform state rm"))).toHaveLength(8);
    expect(script).toContain("terraform state rm 'module.team[\"web\"].tfe_workspace.ws'");
  });

  test("OpenTofu 1.8 forgets by default and rejects lifecycle: blocks without it", async () => {
    const out = newFolder();
    expect((await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.8", "--out", out])).code).toBe(0);
    const removed = read(out, "terraform-release/removed.tf");
    expect(froms(removed)).toHaveLength(5);
    expect(removed).not.toContain("lifecycle");
  });

  test("with another selection flag, only what it keeps moves: one instance of several is a `state rm`, the others stay Terraform's", async () => {
    const out = newFolder();
    const run = await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10", "--workspace", "batch-0", "--out", out]);
    expect({ code: run.code, stderr: stderrOf(run) }).toEqual({ code: 0, stderr: "" });
    expect((JSON.parse(read(out, "terraform-release/released.json")) as { released: string[] }).released).toEqual(["tfe_workspace.batch[0]"]);
    expect(fs.existsSync(path.join(out, "terraform-release/removed.tf"))).toBe(false);
    expect(read(out, "terraform-release/state-rm.sh")).toContain("\ntofu state rm 'tfe_workspace.batch[0]'\n");
    const readme = read(out, "terraform-release/README.md");
    expect(readme).toContain("| `tfe_workspace.batch[1]` | its workspace is outside the selection given with it (--workspace batch-0) |");
    expect(readme).toContain("| `tfe_workspace.app` | its workspace is outside the selection given with it (--workspace batch-0) |");
    expect(readme).toContain("   - only some instances of `tfe_workspace.batch` move: keep the block, and change its `count` or `for_each` so it no longer declares them");
    expect(readme).not.toContain("delete these resource blocks");
  });

  test("CDKTF: names keep the logical ids, and the release is `state rm` run in cdktf.out/stacks/<stack>", async () => {
    const file = stateFile("terraform.app.tfstate", (state) => {
      for (const r of state.resources) if (r.module === undefined) r.name = `${r.name}_${"ABCDEF01"}`;
    });
    const out = newFolder();
    const run = await adopt(["--from-terraform", file, "--release-for", "terraform@1.9", "--cdktf-stack", "app", "--out", out]);
    expect(run.code).toBe(0);
    expect(read(out, "terraform-release/README.md")).toContain("| `tfe_workspace.app_ABCDEF01` | Workspace `app_ABCDEF01`, SshKeyAssignment `app_ABCDEF01-ssh-key` |");
    expect(read(out, "terraform-release/README.md")).toContain("in `cdktf.out/stacks/app`: `terraform init`, then `sh");
    expect(fs.existsSync(path.join(out, "terraform-release/removed.tf"))).toBe(false);
    expect(read(out, "terraform-release/state-rm.sh")).toContain("terraform state rm 'tfe_workspace.batch_ABCDEF01[1]'");
  });
});

describe("what Terraform did not create", () => {
  test("settings and a policy on a workspace Terraform did not create: its consumers and policy are taken, the workspace is not, and the report says so", async () => {
    const file = stateFile("settings-only.tfstate", (state) => {
      state.resources = state.resources.filter((r) => !(r.type === "tfe_workspace" && r.name === "app"));
    });
    const out = newFolder();
    const run = await adopt(["--from-terraform", file, "--release-for", "opentofu@1.10", "--out", out]);
    expect(run.code).toBe(0);
    const yaml = read(out, "Pulumi.yaml");
    expect(yaml).not.toMatch(/^ {2}app:$/m);
    expect(yaml).toMatch(/^ {2}app-consumers:$/m);
    expect(yaml).toMatch(/^ {2}app-data-retention:$/m);
    expect(yaml).toContain("# app-prod: its workspace is not taken over (Terraform did not create it), so not a resource of this program\n      workspaceId: ws-if1DUJVYATI1W8Nw");
    expect(read(out, "terraform-release/README.md")).toContain("## Settings nothing manages after the move");
  });
});

describe("a workspace of the state that is gone from the server", () => {
  test("is adopted as nothing, released all the same, and the map says it was not found", async () => {
    const file = stateFile("gone.tfstate", (state) => {
      const batch = state.resources.find((r) => r.type === "tfe_workspace" && r.name === "batch");
      const first = batch?.instances[0];
      if (batch !== undefined && first !== undefined) batch.instances.push({ ...first, index_key: 3, attributes: { ...first.attributes, id: "ws-GoneSinceTheApply1", name: "batch-3" } } as typeof first);
    });
    const out = newFolder();
    expect((await adopt(["--from-terraform", file, "--release-for", "opentofu@1.10", "--out", out])).code).toBe(0);
    expect(read(out, "terraform-release/README.md")).toContain("| `tfe_workspace.batch[3]` | none (not found on the server) |");
    expect((JSON.parse(read(out, "terraform-release/released.json")) as { released: string[] }).released).toContain("tfe_workspace.batch[3]");
    expect(read(out, "Pulumi.yaml")).not.toContain("ws-GoneSinceTheApply1");
  });
});

describe("differences between Terraform's state and the server", () => {
  test("a value changed on the server since Terraform's apply is reported with both values; the program holds the server's", async () => {
    const changed = stateFile("changed.tfstate", (state) => {
      const app = state.resources.find((r) => r.type === "tfe_workspace" && r.name === "app");
      if (app?.instances[0] !== undefined) app.instances[0].attributes.description = "What Terraform last applied";
    });
    const out = newFolder();
    expect((await adopt(["--from-terraform", changed, "--release-for", "opentofu@1.10", "--out", out])).code).toBe(0);
    expect(read(out, "terraform-release/README.md")).toContain("| `tfe_workspace.app` | description | `\"What Terraform last applied\"` | `\"The app, in production\"` |");
    expect(read(out, "Pulumi.yaml")).toContain("The app, in production");
  });
});

describe("bad input fails with a sentence and writes nothing", () => {
  const refused = async (args: string[], sentence: string, code = 1): Promise<void> => {
    const out = newFolder();
    const run = await adopt([...args, "--out", out]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code, stderr: expect.stringContaining(sentence) });
    expect(fs.existsSync(out)).toBe(false);
  };
  const given = (name: string, text: string): string => {
    const file = path.join(estate.dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  test("not JSON", () => refused(["--from-terraform", given("notes.txt", "terraform {}"), "--release-for", "opentofu@1.10"], "is not JSON"));
  test("an encrypted OpenTofu state", () => refused(
    ["--from-terraform", given("encrypted.tfstate", JSON.stringify({ serial: 1, lineage: "x", meta: {}, encrypted_data: "AAAA", encryption_version: "v0" })), "--release-for", "opentofu@1.10"],
    "is an encrypted OpenTofu state"));
  test("a state of another organization", () => refused(
    ["--from-terraform", stateFile("other-org.tfstate", (s) => { for (const r of s.resources) for (const i of r.instances) if ("organization" in i.attributes && i.attributes.organization !== null) i.attributes.organization = "acme"; }), "--release-for", "opentofu@1.10"],
    'manages objects of organization "acme", not of "example-org"'));
  test("a state of another server (its objects' html_url name another host)", () => refused(
    ["--from-terraform", stateFile("other-server.tfstate", (s) => { for (const r of s.resources) for (const i of r.instances) if (typeof i.attributes.html_url === "string") i.attributes.html_url = i.attributes.html_url.replace("127.0.0.1", "tfe.example.com"); }), "--release-for", "opentofu@1.10"],
    "manages objects of tfe.example.com (their html_url), not of 127.0.0.1: run adopt with --address https://tfe.example.com"));
  test("a state with no tfe object", () => refused(
    ["--from-terraform", stateFile("no-tfe.tfstate", (s) => { s.resources = s.resources.filter((r) => r.type === "terraform_data"); }), "--release-for", "opentofu@1.10"],
    "holds no object of the tfe provider"));
  test("a file that is not there", () => refused(["--from-terraform", path.join(estate.dir, "missing.tfstate"), "--release-for", "opentofu@1.10"], "cannot be read (ENOENT)"));
  test("no --release-for", () => refused(["--from-terraform", fixturePath("terraform.tfstate")], "--from-terraform needs --release-for terraform@X.Y or opentofu@X.Y", 2));
  test("a --release-for that names no tool", () => refused(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "pulumi@3"], "--release-for must be terraform@X.Y or opentofu@X.Y", 2));
  test("two states", () => refused(["--from-terraform", "a", "--from-terraform-workspace", "b", "--release-for", "opentofu@1.10"], "give one state, not two", 2));
});

describe("adopt's other runs on what it wrote", () => {
  test("every language and form takes the same names: TypeScript's table names each row's resources after its address, its blocks declare them so", async () => {
    const table = newFolder();
    expect((await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10", "--language", "typescript", "--out", table])).code).toBe(0);
    expect(read(table, "index.ts")).toContain('names: {\n            workspace: "app",\n            sshKey: "app-ssh-key",');
    const blocks = newFolder();
    expect((await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10", "--language", "typescript", "--form", "blocks", "--out", blocks])).code).toBe(0);
    expect(read(blocks, "index.ts")).toMatch(/new wsbridge\.Workspace\("team-web-ws", \{/);
  });

  test("--split-by project: one project per project of the state's workspaces, and one release beside them mapping each address to its folder", async () => {
    const out = newFolder();
    const run = await adopt(["--from-terraform", fixturePath("terraform.tfstate"), "--release-for", "opentofu@1.10", "--split-by", "project", "--out", out]);
    expect({ code: run.code, stderr: stderrOf(run) }).toEqual({ code: 0, stderr: "" });
    const folders = fs.readdirSync(out).filter((f) => fs.existsSync(path.join(out, f, "Pulumi.yaml"))).sort();
    expect(folders).toEqual(["Default-Project", "platform"]);
    const readme = read(out, "terraform-release/README.md");
    expect(readme).toContain("| `tfe_workspace.app` | Workspace `app` (platform), SshKeyAssignment `app-ssh-key` (platform) |");
    expect(readme).toContain("| `module.team[\"api\"].tfe_workspace.ws` | Workspace `team-api-ws` (Default-Project) |");
    expect(froms(read(out, "terraform-release/removed.tf")).sort()).toEqual(froms(fixtureText("release-removed.tf")).sort());
  });
});

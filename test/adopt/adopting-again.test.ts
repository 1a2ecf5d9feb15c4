// `wsbridge adopt` run again in a folder it wrote, below the engine: what the stack holds is read with the
// real `pulumi` (a file backend of the test's own; the stack's state put there with `pulumi stack
// import`, as an `up` would leave it), and every way that can fail is a sentence, exit 1, nothing
// written: a backend that cannot be read, no `pulumi`, an unknown --stack, another --language, the
// table form for Pulumi YAML (which cannot loop), a Pulumi.yaml adopt cannot add to. Also a later
// batch's form. The whole flow on the real engine: test/cli/adopt-day-two.test.ts.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { EstateChanges } from "../support/estate-changes";
import { request } from "undici";
import { OLDER_MARKER } from "../../provider/adopt/program/header";
import { pulumiCliRoot } from "../../scripts/lib/stack-harness";

let emulator: RunningEmulator;
let estate: EstateManifest;
let dir: string;
let cliBin: string;
let folders = 0;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, quiet: true, edition: "hosted" });
  estate = await seedEstate(emulator.url, emulator.token, { workspaces: 12, edition: "hosted" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-adopt-again-"));
  fs.mkdirSync(path.join(dir, "backend"));
  cliBin = path.join(pulumiCliRoot(), "bin");
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The user's environment: the settings, `pulumi` on PATH, a file backend and a PULUMI_HOME of the test's own. */
function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    WSBRIDGE_ADDRESS: emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization,
    PATH: `${cliBin}${path.delimiter}${process.env.PATH ?? ""}`, PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PULUMI_HOME: path.join(dir, "pulumi-home"), PULUMI_CONFIG_PASSPHRASE: "", PULUMI_SKIP_UPDATE_CHECK: "true", HOME: dir, ...extra,
  };
}

function pulumi(cwd: string, args: string[], input?: string): string {
  return execFileSync(path.join(cliBin, "pulumi"), [...args, "--non-interactive"], { cwd, env: env(), encoding: "utf8", ...(input !== undefined && { input }) });
}

/** Every file of a folder (relative path → text). */
function filesIn(out: string): Map<string, string> {
  return new Map((fs.readdirSync(out, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile())
    .map((e) => { const full = path.join(e.parentPath, e.name); return [path.relative(out, full), fs.readFileSync(full, "utf8")] as const; }));
}

/** A folder adopt wrote, whose stack `dev` holds the first workspace of its program, as an `up` would have left it. */
async function adoptedAndHeld(language = "yaml", extra: string[] = []): Promise<{ out: string; project: string }> {
  const out = path.join(dir, `folder-${++folders}`);
  const project = `again-${folders}`;
  expect((await runAdopt(["--out", out, "--project-name", project, "--language", language, ...extra], env())).code).toBe(0);
  pulumi(out, ["stack", "init", "dev"]);
  const report = JSON.parse(fs.readFileSync(path.join(out, "adoption-report.json"), "utf8")) as { written: { batches: { resources: { kind: string; name: string; importId: string }[] }[] } };
  const first = report.written.batches[0]?.resources.find((r) => r.kind === "Workspace");
  if (first === undefined) throw new Error("no workspace adopted");
  const deployment = JSON.parse(pulumi(out, ["stack", "export"])) as { deployment: { resources?: unknown[] } };
  deployment.deployment.resources = [
    { urn: `urn:pulumi:dev::${project}::pulumi:pulumi:Stack::${project}-dev`, custom: false, type: "pulumi:pulumi:Stack" },
    {
      urn: `urn:pulumi:dev::${project}::wsbridge:index:Workspace::${first.name}`, custom: true, id: first.importId, type: "wsbridge:index:Workspace",
      inputs: { name: first.name, organization: estate.organization }, outputs: { name: first.name, organization: estate.organization },
      parent: `urn:pulumi:dev::${project}::pulumi:pulumi:Stack::${project}-dev`, protect: true,
    },
  ];
  const file = path.join(dir, `state-${folders}.json`);
  fs.writeFileSync(file, JSON.stringify(deployment));
  pulumi(out, ["stack", "import", "--file", file]);
  return { out, project };
}

/** What other teams do, through the emulator's API (test/support/estate-changes.ts). */
function others(): EstateChanges {
  return new EstateChanges(async (method, p, body, token) => {
    const res = await request(`${emulator.url}/api/v2${p}`, {
      method: method as "GET", headers: { authorization: `Bearer ${token ?? emulator.token}`, "content-type": "application/vnd.api+json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, doc: (text === "" ? {} : JSON.parse(text)) as never };
  }, estate);
}

function failed(run: AdoptRun): string {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  return run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n").trimEnd();
}

describe("what it reads of the stack", () => {
  test("a program the stack holds part of is the user's: a new object goes into a batch after it, and a second run before any up rewrites that batch with the same bytes", async () => {
    const { out } = await adoptedAndHeld();
    const before = filesIn(out);
    await others().createWorkspace("later-one");
    const run = await runAdopt(["--out", out], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("not held by stack dev: batch 1, in Pulumi.yaml:");
    const after = fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    expect(after.startsWith(before.get("Pulumi.yaml") ?? "-")).toBe(true);
    expect(after.slice((before.get("Pulumi.yaml") ?? "").length)).toMatch(/^ {2}# ---- wsbridge adopt, batch 1: 1 object added[^\n]*\n {2}later-one:\n[\s\S]* {2}# ---- end of wsbridge adopt, batch 1 ----\n$/);
    // Run again before any up: batch 1 is still adopt's, rewritten in place with the same bytes.
    const twice = filesIn(out);
    expect((await runAdopt(["--out", out], env())).code).toBe(0);
    expect(filesIn(out)).toEqual(twice);
  });
});

describe("a folder adopt wrote before it kept a record", () => {
  test("is known by its first line: its program counts as batch 0, so what its stack holds is not added again, and a new object goes into batch 1", async () => {
    const { out } = await adoptedAndHeld();
    const report = path.join(out, "adoption-report.json");
    const { written: _written, ...older } = JSON.parse(fs.readFileSync(report, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(report, `${JSON.stringify(older, null, 2)}\n`);
    const program = path.join(out, "Pulumi.yaml");
    const text = fs.readFileSync(program, "utf8").replace(/^[^\n]*\n/, `${OLDER_MARKER}\n`);
    fs.writeFileSync(program, text);
    await others().createWorkspace(`legacy-${folders}`);
    const run = await runAdopt(["--out", out], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("not held by stack dev: batch 1, in Pulumi.yaml:");
    const after = fs.readFileSync(program, "utf8");
    expect(after.startsWith(text)).toBe(true);
    expect(after.slice(text.length)).toMatch(new RegExp(`^ {2}# ---- wsbridge adopt, batch 1: 1 object added[^\\n]*\\n {2}legacy-${folders}:\\n`));
  });
});

describe("the form of a later batch", () => {
  test("the folder's form by default (blocks, as it was adopted); --form table rewrites the batch, still adopt's, as a table; the record keeps the form", async () => {
    const { out } = await adoptedAndHeld("typescript", ["--form", "blocks"]);
    const made = `form-${folders}`;
    await others().createWorkspace(made);
    expect((await runAdopt(["--out", out], env())).code).toBe(0);
    expect(fs.readFileSync(path.join(out, "adopted/1.ts"), "utf8")).toContain(`new wsbridge.Workspace(${JSON.stringify(made)}, {`);
    expect((await runAdopt(["--out", out, "--form", "table"], env())).code).toBe(0);
    const batch = fs.readFileSync(path.join(out, "adopted/1.ts"), "utf8");
    expect(batch).toContain(`    ${JSON.stringify(made)}: {\n`);
    expect(batch.match(/new wsbridge\.Workspace\(/g)).toHaveLength(1);
    const report = JSON.parse(fs.readFileSync(path.join(out, "adoption-report.json"), "utf8")) as { written: { form?: string } };
    expect(report.written.form).toBe("table");
  });
});

describe("how it fails: a sentence, exit 1, nothing written", () => {
  test("--form table with Pulumi YAML, which cannot loop", async () => {
    const out = path.join(dir, `folder-${++folders}`);
    const message = failed(await runAdopt(["--out", out, "--form", "table"], env()));
    expect(message).toBe("--form table: Pulumi YAML cannot loop (pulumi/pulumi-yaml#191), so its programs declare one block per object. Use --language typescript, python or go for the table form, or drop --form. Nothing was written.");
    expect(fs.existsSync(out)).toBe(false);
  });


  test("a backend that cannot be read is named, with what pulumi said", async () => {
    const { out } = await adoptedAndHeld();
    const before = filesIn(out);
    const message = failed(await runAdopt(["--out", out], env({ PULUMI_BACKEND_URL: "file:///nonexistent/backend" })));
    expect(message).toBe(`Could not list the stacks of ${out}: pulumi said "unable to open bucket file:///nonexistent/backend?no_tmp_dir=true: stat /nonexistent/backend: no such file or directory". Check the backend (\`pulumi login\`, PULUMI_BACKEND_URL) and --stack. Nothing was written.`);
    expect(filesIn(out)).toEqual(before);
  });

  test("no pulumi on PATH", async () => {
    const { out } = await adoptedAndHeld();
    const message = failed(await runAdopt(["--out", out], env({ PATH: path.join(dir, "nothing-here") })));
    expect(message).toBe(`Could not run \`pulumi\` to list the stacks of ${out}: it is not on PATH. Adopt reads the stack to add only what it does not hold yet. Nothing was written.`);
  });

  test("a --stack the project does not have, named with those it has", async () => {
    const { out } = await adoptedAndHeld();
    const message = failed(await runAdopt(["--out", out, "--stack", "prod"], env()));
    expect(message).toBe(`The project in ${out} has no stack "prod" in this backend (it has dev). Nothing was written.`);
  });

  test("another --language than the folder's program", async () => {
    const { out } = await adoptedAndHeld();
    const message = failed(await runAdopt(["--out", out, "--language", "go"], env()));
    expect(message).toBe(`${out} holds a yaml program that adopt wrote; a later run adds to it in yaml. Drop --language, or choose another --out. Nothing was written.`);
  });

  test("a Pulumi.yaml the team broke: pulumi cannot read the project, and says where", async () => {
    const { out } = await adoptedAndHeld();
    const file = path.join(out, "Pulumi.yaml");
    fs.writeFileSync(file, `${fs.readFileSync(file, "utf8")}\n  broken: [\n`);
    const before = filesIn(out);
    const message = failed(await runAdopt(["--out", out], env()));
    expect(message).toMatch(new RegExp(`^Could not list the stacks of ${out}: pulumi said "could not load current project: .*invalid YAML file.*"\\. Fix the project's Pulumi\\.yaml\\. Nothing was written\\.$`));
    expect(filesIn(out)).toEqual(before);
  });

  test("a Pulumi.yaml whose resources adopt cannot add to (a list), when there is something to add", async () => {
    const { out } = await adoptedAndHeld();
    const file = path.join(out, "Pulumi.yaml");
    fs.writeFileSync(file, `${fs.readFileSync(file, "utf8").split("\nresources:\n")[0]}\nresources:\n  - not-a-mapping\n`);
    const before = filesIn(out);
    await others().createWorkspace(`later-${folders}`);
    const message = failed(await runAdopt(["--out", out], env()));
    expect(message).toBe("Pulumi.yaml's `resources` is neither a block mapping nor empty: adopt adds its block to it. Nothing was written.");
    expect(filesIn(out)).toEqual(before);
  });
});

// The forms `wsbridge adopt` writes (issue 41), on the real Pulumi CLI against the emulator: the table form
// (a typed table of the workspaces, the settings they share written once, loops) is the default in
// TypeScript and Go; the stack its first `up` adopts previews with no change from every other program of
// the same estate: the TypeScript blocks, the Pulumi YAML program, and the Go program in both forms, since
// names, URNs, inputs and references are the same. Adopting again writes a batch that is a table of its
// own (rows of held workspaces are declared elsewhere and add only what hangs off them), and the
// TypeScript and Go batches preview the same imports. TypeScript and Go run inline through the Automation
// API (no language host for them here), each program loaded from the files adopt wrote; Pulumi YAML runs as
// users run it. Python's forms: adopt-python.test.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { goDriverOfFolders, runAdoptedGo, runCommand } from "../support/adopted-go";
import { runAdopt } from "../support/adopt-run";
import { adoptable, adoptableConsumers } from "../support/adoptable";
import { EstateChanges, plainWorkspaces } from "../support/estate-changes";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { YamlProject, programFromTypeScriptFiles, resourceSummary, typeErrorsOfFiles } from "../support/yaml-import-project";

const LONG_MS = 15 * 60_000;
const STACK = "dev";

const e2e = useEmulatorAndCli({ edition: "self-managed", quiet: true });
let estate: EstateManifest;
/** The TypeScript table program's project: the stack's backend, home and config; the other forms live in folders beside it. */
let project: YamlProject;
let total: number;

beforeAll(async () => {
  estate = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: 16, edition: "self-managed" });
  project = YamlProject.create(e2e.cli, `${estate.organization}-forms`);
  fs.rmSync(path.join(project.dir, "Pulumi.yaml"));
  total = adoptable(estate, () => true).length + Object.keys(adoptableConsumers(estate, () => true)).length;
}, LONG_MS);

afterAll(() => project?.dispose());

/** A folder of the project for another form's program. */
const folder = (name: string): string => path.join(project.dir, name);

/** `wsbridge adopt` into `dir` with the read-only token, as a user runs it there (without what unlocks the stack's secrets: reading the stack needs none). */
async function adopt(dir: string, args: string[]): Promise<void> {
  const env = project.envWithoutSecrets;
  const run = await runAdopt(["--out", dir, "--project-name", project.name, ...args], {
    ...env, WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization,
  });
  expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
}

/** The TypeScript files below `dir`, by relative path. */
function typescriptFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of ["index.ts", ...fs.readdirSync(path.join(dir, "adopted")).map((f) => `adopted/${f}`)].filter((f) => f.endsWith(".ts"))) {
    files.set(name, fs.readFileSync(path.join(dir, name), "utf8"));
  }
  return files;
}

/** An operation of the TypeScript program in `dir` on the stack, read-only as the adoption step is: its change counts. */
async function typescript(dir: string, action: "preview" | "up"): Promise<Record<string, number>> {
  project.env["WSBRIDGE_READ_ONLY"] = "true";
  try {
    const stack = await project.inlineStack(STACK, programFromTypeScriptFiles(typescriptFiles(dir), "index.ts"));
    if (action === "preview") return (await stack.preview()).changeSummary as Record<string, number>;
    return (await stack.up()).summary.resourceChanges as Record<string, number>;
  } finally {
    delete project.env["WSBRIDGE_READ_ONLY"];
  }
}

/** The Go programs in `dirs`, built once (one module, a package each); a preview of the stack with program `index`. */
async function goPrograms(dirs: readonly string[]): Promise<(index: number) => Promise<Record<string, number>>> {
  const driver = await goDriverOfFolders(dirs, fs.mkdtempSync(path.join(project.dir, "go-")));
  return (index) => runAdoptedGo(dirs[index] ?? "", "preview", { project: project.name, name: STACK, workDir: path.join(project.dir, "go-stacks"), settingsFrom: project.dir, env: project.env },
    { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization }, { path: driver, index });
}

test("the TypeScript program is a table by default: the shared settings once, a row per workspace; it type-checks, its up imports every object with GETs only, and the next preview is clean", async () => {
  await adopt(project.dir, ["--language", "typescript"]);
  const program = fs.readFileSync(path.join(project.dir, "index.ts"), "utf8");
  expect(program).toContain("const shared: WorkspaceSettings = {\n");
  expect(program).toContain("const workspaces: Readonly<Record<string, WorkspaceRow>> = {\n");
  expect(program.match(/new wsbridge\.Workspace\(/g)).toHaveLength(1);
  for (const w of estate.workspaces.filter((w) => w.id !== estate.unreadableWorkspaceId)) expect(program).toContain(`        id: "${w.id}",\n`);
  expect(typeErrorsOfFiles(typescriptFiles(project.dir), "index.ts")).toEqual([]);
  await project.initStack(STACK, { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization });
  e2e.emulator.clearRequests();
  expect(await typescript(project.dir, "up")).toEqual({ create: 1, import: total });
  expect(await typescript(project.dir, "preview")).toEqual({ same: total + 1 });
  expect(e2e.writes()).toEqual([]);
}, LONG_MS);

test("the stack switches with no change to the TypeScript blocks, the Pulumi YAML program, and the Go program as a table and as blocks (gofmt-clean, built)", async () => {
  e2e.emulator.clearRequests();
  await adopt(folder("ts-blocks"), ["--language", "typescript", "--form", "blocks"]);
  expect(fs.readFileSync(path.join(folder("ts-blocks"), "index.ts"), "utf8").match(/new wsbridge\.Workspace\(/g)?.length).toBeGreaterThan(10);
  expect(await typescript(folder("ts-blocks"), "preview")).toEqual({ same: total + 1 });

  await adopt(folder("yaml"), []);
  const yaml = project.elsewhere(folder("yaml"), STACK);
  expect(resourceSummary((await yaml.ok(["preview", "--stack", STACK, "--expect-no-changes"])).stdout)).toEqual([`${total + 1} unchanged`]);

  await adopt(folder("go-table"), ["--language", "go"]);
  await adopt(folder("go-blocks"), ["--language", "go", "--form", "blocks"]);
  expect(fs.readFileSync(path.join(folder("go-table"), "main.go"), "utf8")).toContain("\tworkspaces := []workspaceRow{\n");
  for (const dir of [folder("go-table"), folder("go-blocks")]) expect(await runCommand("gofmt", ["-l", "."], dir)).toBe("");
  const go = await goPrograms([folder("go-table"), folder("go-blocks")]);
  expect(await Promise.all([go(0), go(1)])).toEqual([{ same: total + 1 }, { same: total + 1 }]);
  expect(e2e.writes()).toEqual([]);
}, LONG_MS);

test("adopting again: the batch is a table of its own (a held workspace's row adds only what hangs off it); the TypeScript and Go batches preview the same imports, which the up makes", async () => {
  const changes = new EstateChanges(e2e.api.bind(e2e), estate);
  const [locked, consumed] = plainWorkspaces(estate);
  if (locked === undefined || consumed === undefined) throw new Error("the estate has too few plain workspaces");
  const made = await changes.createWorkspace("made-in-the-ui");
  await changes.lockAsUser(locked.id, "change freeze");
  await changes.addConsumers(consumed.id, [made, locked.id]);

  await adopt(project.dir, []);
  await adopt(folder("go-table"), ["--stack", STACK]);
  const batch = fs.readFileSync(path.join(project.dir, "adopted/1.ts"), "utf8");
  expect(batch).toContain(`    // ${consumed.name}: held by this stack, declared in your program\n    "${consumed.name}": {\n        id: "${consumed.id}",\n        declaredElsewhere: true,\n`);
  expect(batch).toContain('        consumers: ["made-in-the-ui"],\n');
  expect(batch).toContain(`            // ${locked.name}: held by this stack, declared in your program\n            "${locked.id}",\n`);
  expect(typeErrorsOfFiles(typescriptFiles(project.dir), "index.ts")).toEqual([]);
  expect(fs.readFileSync(path.join(folder("go-table"), "adopted_1.go"), "utf8")).toContain("\t\t\tDeclaredElsewhere: true,\n");
  expect(await runCommand("gofmt", ["-l", "."], folder("go-table"))).toBe("");

  e2e.emulator.clearRequests();
  const imports = { import: 3, same: total + 1 };
  const go = await goPrograms([folder("go-table")]);
  expect(await typescript(project.dir, "preview")).toEqual(imports);
  expect(await go(0)).toEqual(imports);
  expect(await typescript(project.dir, "up")).toEqual(imports);
  expect(await Promise.all([typescript(project.dir, "preview"), go(0)])).toEqual([{ same: total + 4 }, { same: total + 4 }]);
  expect(e2e.writes()).toEqual([]);
}, LONG_MS);

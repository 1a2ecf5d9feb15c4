// `wsbridge adopt --language python` on the real Pulumi CLI (issue 41): the program it writes
// (__main__.py, adopted/__init__.py, requirements.txt, Pulumi.yaml) type-checks with mypy --strict
// against the plugin's Python SDK, installed as a user installs it (a wheel of sdk/python, in a fresh
// virtual environment, with the Pulumi SDK of the CLI's release from PyPI), and runs as the stack's
// program through Pulumi's Python Automation API (the written __main__.py loaded as the inline
// program: no Python language host can be installed here): the first `up` imports every object with
// GETs only, and the next preview shows every resource unchanged. The program is the table form (typed
// rows, the shared settings once, a loop); the same stack previews with no change from the block form and
// from the Pulumi YAML program.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { adoptable, adoptableConsumers, consumersInState, stateObjects } from "../support/adoptable";
import { EstateChanges } from "../support/estate-changes";
import { projectsWithAConsumerAcross } from "../support/split-pair";
import { pythonEnvironmentWithSdk, runCommand, testRequirements, type PythonEnvironment } from "../support/python-env";
import { useEmulatorAndCli, type RealCliEmulator } from "../support/real-cli-stack";
import { YamlProject, resourceSummary } from "../support/yaml-import-project";

/** A first run downloads the Pulumi Python SDK, mypy and their dependencies from PyPI. */
const LONG_MS = 15 * 60_000;
const STACK = "dev";

/**
 * Runs one operation of the written program through the Python Automation API and prints its change
 * counts as JSON on the last line. The program is the folder's own __main__.py, run as `__main__`.
 */
const DRIVER = `
import json, runpy, sys
from pulumi import automation as auto

work_dir, project_name, stack_name, operation = sys.argv[1:5]
sys.path.insert(0, work_dir)

def program() -> None:
    runpy.run_path(f"{work_dir}/__main__.py", run_name="__main__")

stack = auto.select_stack(
    stack_name=stack_name, project_name=project_name, program=program, opts=auto.LocalWorkspaceOptions(work_dir=work_dir),
)
if operation == "up":
    changes = stack.up(on_output=print).summary.resource_changes
else:
    changes = stack.preview(on_output=print).change_summary
print(json.dumps(changes))
`;

const e2e = useEmulatorAndCli({ edition: "self-managed", quiet: true });
let estate: EstateManifest;
let project: YamlProject;
let python: PythonEnvironment;
/**
 * mypy's cache for this file's checks: the Pulumi SDK and pulumi_wsbridge, which every check reads and
 * which do not change, are analysed once instead of at each of the nine checks (3 to 4 CPU-seconds each
 * without it). Outside the project folders, whose files the tests compare.
 */
const mypyCache = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-mypy-"));
/** The id of the workspace a later test makes in the UI (in the default project; not in the estate's manifest). */
let made = "";

beforeAll(async () => {
  estate = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: 16, edition: "self-managed" });
  project = YamlProject.create(e2e.cli, `${estate.organization}-python`);
  fs.rmSync(path.join(project.dir, "Pulumi.yaml"));
  python = await pythonEnvironmentWithSdk({ shared: true, requirements: testRequirements() });
}, LONG_MS);

afterAll(() => {
  project?.dispose();
  python?.remove();
  fs.rmSync(mypyCache, { recursive: true, force: true });
});

/** An organization of an emulator, and the project folder its tests adopt into. */
interface Org {
  readonly e2e: RealCliEmulator;
  readonly estate: EstateManifest;
  readonly project: YamlProject;
}

const self = (): Org => ({ e2e, estate, project });

/** One operation of the program written in `dir` (by default the project's); its change counts. */
async function operation(
  name: "up" | "preview", dir = project.dir, projectName = project.name, stack = STACK, org: Org = self(),
): Promise<Record<string, number>> {
  // Written once: operations run side by side, and one must not read the file while another writes it.
  const driver = path.join(org.project.dir, "drive.py");
  if (!fs.existsSync(driver)) fs.writeFileSync(driver, DRIVER);
  const { status, printed } = await runCommand(python.python, [driver, dir, projectName, stack, name], { cwd: dir, env: org.project.env });
  expect([name, status, status === 0 ? "" : printed]).toEqual([name, 0, ""]);
  const last = printed.trim().split("\n").pop() ?? "{}";
  return JSON.parse(last) as Record<string, number>;
}

/** `wsbridge adopt` into the project folder (or `dir`) with the estate's read-only token (a later run: no --language). */
async function adopt(args: string[], dir = project.dir, org: Org = self()): Promise<void> {
  const run: AdoptRun = await runAdopt(["--out", dir, ...args], {
    ...org.project.env, WSBRIDGE_ADDRESS: org.e2e.emulator.url, WSBRIDGE_TOKEN: org.estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: org.estate.organization,
  });
  expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
}

/** mypy --strict of the program and its batches (in `dir`, by default the project's). */
async function typeCheck(dir = project.dir): Promise<void> {
  const { status, printed } = await runCommand(python.python, ["-m", "mypy", "--strict", "--cache-dir", mypyCache, "__main__.py", "adopted"], { cwd: dir, env: project.env });
  expect([status, printed.trim()]).toEqual([0, expect.stringMatching(/^Success: no issues found in \d+ source files$/)]);
}

test("adopt writes the project: the program, its batch index, requirements.txt and Pulumi.yaml (read-only)", async () => {
  await adopt(["--project-name", project.name, "--language", "python"]);
  const files = ["Pulumi.yaml", "__main__.py", "adopted/__init__.py", "requirements.txt", "adoption-report.json", "adoption-report.md"];
  for (const file of files) expect([file, fs.existsSync(path.join(project.dir, file))]).toEqual([file, true]);
  const pulumiYaml = fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8");
  expect(pulumiYaml).toContain("runtime: python\n");
  expect(pulumiYaml).toContain("  wsbridge:readOnly: true\n");
  expect(fs.readFileSync(path.join(project.dir, "requirements.txt"), "utf8")).toMatch(/^pulumi>=3\.246\.0,<4\.0\.0\npulumi_wsbridge==\d+\.\d+\.\d+\n$/);
  // The table form: the shared settings once, one typed row per workspace, one loop.
  const program = fs.readFileSync(path.join(project.dir, "__main__.py"), "utf8");
  expect(program).toContain("SHARED: WorkspaceSettings = {\n");
  expect(program).toContain("WORKSPACES: dict[str, WorkspaceRow] = {\n");
  expect(program.match(/wsbridge\.Workspace\(/g)).toHaveLength(1);
}, LONG_MS);

test("the program type-checks with mypy --strict against the Python SDK", () => typeCheck(), LONG_MS);

test("run as the stack's program through the Python Automation API: up imports every object with GETs only, and the next preview shows every resource unchanged", async () => {
  await project.initStack(STACK, { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization });
  const everyWorkspace = (): boolean => true;
  const expected = adoptable(estate, everyWorkspace);
  const consumers = adoptableConsumers(estate, everyWorkspace);
  const total = expected.length + Object.keys(consumers).length;
  e2e.emulator.clearRequests();
  expect(await operation("up")).toEqual({ create: 1, import: total });
  expect(await operation("preview")).toEqual({ same: total + 1 });
  expect(e2e.writes()).toEqual([]);
  const state = await project.exportState(STACK);
  expect(stateObjects(state).filter((o) => !o.startsWith("RemoteStateConsumers "))).toEqual(expected);
  expect(consumersInState(state)).toEqual(consumers);
  expect(project.allStoredText()).not.toContain(estate.tokens.readOnly);
}, LONG_MS);

test("adopting again once the stack holds the estate: a new workspace comes as adopted/batch_1.py, run through adopted/__init__.py; it type-checks, up imports only it, and the preview is clean", async () => {
  const before = fs.readFileSync(path.join(project.dir, "__main__.py"), "utf8");
  made = await new EstateChanges(e2e.api.bind(e2e), estate).createWorkspace("made-in-the-ui");
  await adopt(["--stack", STACK]);
  expect(fs.readFileSync(path.join(project.dir, "__main__.py"), "utf8")).toBe(before);
  expect(fs.readFileSync(path.join(project.dir, "adopted/__init__.py"), "utf8")).toContain("from . import batch_1\n");
  expect(fs.readFileSync(path.join(project.dir, "adopted/batch_1.py"), "utf8")).toMatch(/\nWORKSPACES: dict\[str, WorkspaceRow\] = \{\n {4}"made-in-the-ui": \{/);
  await typeCheck();
  e2e.emulator.clearRequests();
  const total = Object.values(await operation("preview")).reduce((sum, n) => sum + n, 0);
  expect(await operation("up")).toEqual({ import: 1, same: total - 1 });
  expect(await operation("preview")).toEqual({ same: total });
  expect(e2e.writes()).toEqual([]);
}, LONG_MS);

test("the stack switches with no change to the block form (--form blocks, which type-checks too) and to the Pulumi YAML program", async () => {
  const blocks = path.join(project.dir, "blocks");
  await adopt(["--project-name", project.name, "--language", "python", "--form", "blocks"], blocks);
  const program = fs.readFileSync(path.join(blocks, "__main__.py"), "utf8");
  expect(program).not.toContain("WORKSPACES");
  expect(program.match(/wsbridge\.Workspace\(/g)?.length).toBeGreaterThan(10);
  await typeCheck(blocks);
  project.elsewhere(blocks, STACK);
  e2e.emulator.clearRequests();
  const total = Object.values(await operation("preview")).reduce((sum, n) => sum + n, 0);
  expect(await operation("preview", blocks)).toEqual({ same: total });

  const yaml = path.join(project.dir, "yaml");
  await adopt(["--project-name", project.name], yaml);
  const preview = await project.elsewhere(yaml, STACK).ok(["preview", "--stack", STACK, "--expect-no-changes"]);
  expect(resourceSummary(preview.stdout)).toEqual([`${total} unchanged`]);
  expect(e2e.writes()).toEqual([]);
}, LONG_MS);

const SPLIT = "--split-by project in Python, two projects with consumers across them: every folder's program type-checks; every stack's adoption step side by side (one read-only token), every preview clean, GETs only; together the stacks hold each selected object exactly once";

/** The split in Python, in an organization: see SPLIT. */
async function splitInPython(org: Org): Promise<void> {
  const { e2e, estate, project } = org;
  // Two projects with a consumer across them (a stack per project costs an engine run each): found in a
  // split of the whole organization, which adopt writes without the engine.
  const probe = path.join(project.dir, "split-probe");
  await adopt(["--split-by", "project", "--language", "python"], probe, org);
  const chosen = projectsWithAConsumerAcross(probe, "__main__.py");
  expect(chosen).toHaveLength(2);
  const projectOf = new Map(estate.workspaces.map((w) => [w.id, w.projectId]));
  const selected = (id: string): boolean => chosen.includes(projectOf.get(id) ?? "");
  const out = path.join(project.dir, "split");
  await adopt(["--split-by", "project", "--language", "python", ...chosen.flatMap((p) => ["--project", p])], out, org);
  const record = JSON.parse(fs.readFileSync(path.join(out, "adoption-split.json"), "utf8")) as { folders: Record<string, string> };
  const folders = Object.values(record.folders).sort().map((folder) => path.join(out, folder));
  expect(folders.map((f) => path.basename(f))).toHaveLength(3);
  const programs = folders.map((folder) => fs.readFileSync(path.join(folder, "__main__.py"), "utf8")).join("\n");
  expect(programs).toMatch(/# [^\n]+: adopted by the stack of \.\.\/[^ ]+ \(wsbridge adopt --split-by project\), so a literal id here\n\s+"ws-/);
  for (const folder of folders) {
    await typeCheck(folder);
    await project.another(folder, YamlProject.nameIn(folder)).initStack("split", { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization });
  }
  e2e.emulator.clearRequests();
  // The project's Pulumi.yaml makes each adoption step read-only (wsbridge:readOnly).
  const ups = await Promise.all(folders.map((folder) => operation("up", folder, YamlProject.nameIn(folder), "split", org)));
  const previews = await Promise.all(folders.map((folder) => operation("preview", folder, YamlProject.nameIn(folder), "split", org)));
  for (const [i, up] of ups.entries()) {
    expect(up).toEqual({ create: 1, import: up["import"] ?? 0 });
    expect(previews[i]).toEqual({ same: (up["import"] ?? 0) + 1 });
  }
  expect(e2e.writes()).toEqual([]);
  const states = await Promise.all(folders.map((folder) => project.another(folder, YamlProject.nameIn(folder)).exportState("split")));
  const held = states.flatMap(stateObjects).sort();
  expect(held.filter((o) => !o.startsWith("RemoteStateConsumers ") && o !== `Workspace ${made}`)).toEqual(adoptable(estate, selected));
  expect(Object.assign({}, ...states.map(consumersInState))).toEqual(adoptableConsumers(estate, selected));
}

test(SPLIT, () => splitInPython(self()), LONG_MS);

describe("the hosted edition", () => {
  const hosted = useEmulatorAndCli({ edition: "hosted", quiet: true });
  const org = {} as { -readonly [K in keyof Org]: Org[K] };
  beforeAll(async () => {
    org.e2e = hosted;
    org.estate = await seedEstate(hosted.emulator.url, hosted.emulator.token, { workspaces: 16, edition: "hosted", organization: "hosted-org" });
    org.project = YamlProject.create(hosted.cli, `${org.estate.organization}-python`);
  }, LONG_MS);
  afterAll(() => org.project?.dispose());

  test(SPLIT, () => splitInPython(org), LONG_MS);
});

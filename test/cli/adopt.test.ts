// `wsbridge adopt` on the real Pulumi CLI, against an estate seeded through the emulator's API (200
// workspaces over five projects, with every kind and references between them): the program it writes
// (Pulumi YAML, run by the YAML language host with the plugin installed as users install it) adopts
// every object in one `pulumi up` of its `import` options, the next preview shows no change, nothing
// but GETs reached the server, and every object is in the state exactly once. On the self-managed
// edition also: a selection. Adopting into a new folder afterwards writes the same program, byte for
// byte. The table form's size against blocks in each language (printed). The TypeScript and Go programs
// on the engine, and adopting again into an owned stack: adopt-forms.test.ts, adopt-day-two.test.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { discover } from "../../provider/adopt/discover";
import { planAdoption } from "../../provider/adopt/plan";
import type { PackageSchema } from "../../provider/adopt/program/go";
import { batchFile, projectFiles, type Form, type ProjectContext } from "../../provider/adopt/program/project";
import { EVERYTHING } from "../../provider/adopt/selection";
import { WsbridgeClient } from "../../provider/runtime/api";
import { packageSchemaText } from "../../provider/runtime/package-files";
import { WORKSPACE_OMITTED } from "../../provider/schemas/workspace";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { adoptable, adoptableConsumers, consumersInState, stateObjects } from "../support/adoptable";
import { useEmulatorAndCli, type RealCliEmulator } from "../support/real-cli-stack";
import {
  YamlProject, resourceSummary,
} from "../support/yaml-import-project";

const WORKSPACES = 200;

const LONG_MS = 20 * 60_000;

interface Adopted {
  project: YamlProject;
  estate: EstateManifest;
}

/** A YAML project folder with its own backend, emptied of its Pulumi.yaml: the "empty folder" adopt writes into. */
function emptyProject(e2e: RealCliEmulator, name: string): YamlProject {
  const project = YamlProject.create(e2e.cli, name);
  fs.rmSync(path.join(project.dir, "Pulumi.yaml"));
  // As docs/adopt.md advises from a few hundred resources: the file backend writes the state once at
  // the end of an operation instead of after each of the ~330 imports.
  project.env["PULUMI_SKIP_CHECKPOINTS"] = "true";
  return project;
}

/** `wsbridge adopt` with the estate's read-only token, its settings from the environment as a user sets them. */
function adoptReadOnly(e2e: RealCliEmulator, estate: EstateManifest, args: string[]): Promise<AdoptRun> {
  return runAdopt(args, { WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization });
}

/** adopt (read-only token) → `pulumi up` → `pulumi preview --expect-no-changes`, checking the request log and the state. */
async function adoptAndPreview(e2e: RealCliEmulator, adopted: Adopted, stack: string, args: string[], selected: (id: string) => boolean): Promise<void> {
  const { project, estate } = adopted;
  e2e.emulator.clearRequests();
  const run = await adoptReadOnly(e2e, estate, ["--out", project.dir, "--project-name", project.name, ...args]);
  expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
  await project.initStack(stack, { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization });
  // Only the inputs that differ from what leaving them out means (issue 40): no Workspace declares a
  // setting at its fixed value when left out. What the program costs to read is printed.
  const text = fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8");
  const declared = Object.values((parseYaml(text) as { resources: Record<string, { type: string; properties: Record<string, unknown> }> }).resources)
    .filter((r) => r.type === "wsbridge:index:Workspace");
  const atDefault = declared.flatMap((r) => Object.entries(WORKSPACE_OMITTED)
    .filter(([key, o]) => o.means === "value" && !key.includes(".") && JSON.stringify(r.properties[key]) === JSON.stringify(o.value))
    .map(([key]) => `${String(r.properties["name"])}.${key}`));
  expect(atDefault).toEqual([]);
  const lines = text.split("\n").length;
  console.log(`adopt, stack ${stack}: Pulumi.yaml has ${lines} lines for ${declared.length} workspaces and what hangs off them (${(lines / declared.length).toFixed(1)} per workspace)`);
  const expected = adoptable(estate, selected);
  const consumers = adoptableConsumers(estate, selected);
  const up = await project.ok(["up", "--stack", stack, "--yes", "--skip-preview"]);
  const total = expected.length + Object.keys(consumers).length;
  expect(resourceSummary(up.stdout)).toEqual(["+ 1 created", `= ${total} imported`, `${total + 1} changes`]);
  const preview = await project.ok(["preview", "--stack", stack, "--expect-no-changes"]);
  expect(resourceSummary(preview.stdout)).toEqual([`${total + 1} unchanged`]);
  expect(e2e.writes()).toEqual([]);

  const state = await project.exportState(stack);
  expect(stateObjects(state).filter((o) => !o.startsWith("RemoteStateConsumers "))).toEqual(expected);
  expect(consumersInState(state)).toEqual(consumers);
  expect(project.allStoredText()).not.toContain(estate.tokens.readOnly);

  // Adopt again, now that the stack owns the estate: the same program, byte for byte.
  const again = path.join(project.dir, `again-${stack}`);
  expect((await adoptReadOnly(e2e, estate, ["--out", again, "--project-name", project.name, ...args])).code).toBe(0);
  expect(fs.readFileSync(path.join(again, "Pulumi.yaml"), "utf8")).toBe(fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8"));
}

describe.each(["self-managed", "hosted"] as const)("the %s edition", (edition) => {
  const e2e = useEmulatorAndCli({ edition, quiet: true });
  const adopted = {} as Adopted;

  beforeAll(async () => {
    adopted.estate = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: WORKSPACES, edition });
    adopted.project = emptyProject(e2e, `${adopted.estate.organization}-estate`);
  }, LONG_MS);
  afterAll(() => adopted.project?.dispose());

  test(`the whole organization (${WORKSPACES} workspaces): adopt, one \`pulumi up\`, and the next preview shows no change; GETs only, every object in the state once`, () =>
    adoptAndPreview(e2e, adopted, "dev", [], () => true), LONG_MS);

  if (edition === "hosted") return;

  test("the table form says the same estate in fewer lines than blocks, in TypeScript, Python and Go (printed)", async () => {
    // One discovery, then each language's writers in this process (each form is run on the engine in adopt-forms.test.ts).
    const { estate } = adopted;
    const client = new WsbridgeClient({ address: e2e.emulator.url, token: estate.tokens.readOnly });
    const plan = planAdoption(await discover(client, { organization: estate.organization, selection: EVERYTHING, modules: true, concurrency: 8 }));
    const schema = JSON.parse(packageSchemaText()) as PackageSchema;
    const context = (form: Form): ProjectContext => ({ projectName: "sizes", selection: "the whole organization", version: "0.1.0", schema, form });
    const workspaces = plan.resources.filter((r) => r.kind === "Workspace").length;
    const sizes = (["typescript", "python", "go"] as const).map((language) => {
      const lines = (form: Form): number => (projectFiles(plan, language, context(form)).get(batchFile(language, 0)) ?? "").split("\n").length;
      const [table, blocks] = [lines("table"), lines("blocks")];
      expect([language, table < blocks]).toEqual([language, true]);
      return `${language}: table ${table} lines (${(table / workspaces).toFixed(1)} per workspace), blocks ${blocks} (${(blocks / workspaces).toFixed(1)})`;
    });
    console.log(`adopt, ${workspaces} workspaces and what hangs off them: ${sizes.join("; ")}`);
  }, LONG_MS);

  test("a selection (--project and --tag): only its workspaces' objects are adopted, a consumer outside it stays a literal id with why, and the preview is clean", async () => {
    const { estate } = adopted;
    const counts = new Map<string, number>();
    estate.workspaces.forEach((w) => counts.set(w.projectId, (counts.get(w.projectId) ?? 0) + 1));
    const projectId = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
    const inProject = estate.workspaces.filter((w) => w.projectId === projectId);
    const tag = Object.entries(inProject.find((w) => Object.keys(w.tags).length > 0)?.tags ?? {})[0] ?? ["", ""];
    const tagOf = (w: EstateManifest["workspaces"][number]): string | undefined =>
      w.tags[tag[0]] ?? estate.projectTags.find((p) => p.projectId === w.projectId)?.tags[tag[0]];
    const ids = new Set(inProject.filter((w) => tagOf(w) === tag[1]).map((w) => w.id));
    const selection = { project: emptyProject(e2e, "selection"), estate };
    try {
      await adoptAndPreview(e2e, selection, "dev", ["--project", projectId, "--tag", `${tag[0]}=${tag[1]}`], (id) => ids.has(id));
      const outside = estate.consumers.filter((c) => ids.has(c.workspaceId)).flatMap((c) => c.consumerIds)
        .filter((id) => !ids.has(id) && id !== estate.unreadableWorkspaceId);
      expect(outside.length).toBeGreaterThan(0);
      const program = fs.readFileSync(path.join(selection.project.dir, "Pulumi.yaml"), "utf8");
      for (const id of outside) expect(program).toMatch(new RegExp(`# \\S+: outside the selection, so not a resource of this program\\n\\s+- ${id}\\n`));
    } finally {
      selection.project.dispose();
    }
  }, LONG_MS);
});

// `wsbridge adopt --split-by project` (and, once, `--split-by tag:team`) on the real Pulumi CLI (issue 41, its split): an estate seeded
// over several projects, with remote-state consumers across them, adopted as one Pulumi project per
// project of the organization plus one for the registry's deprecations. Every stack's adoption step
// runs side by side (one read-only token, one file backend), every stack's preview is clean, the
// emulator sees GETs only, and the states of all stacks together hold each adoptable object exactly
// once. A consumer another project adopts is a literal id naming that folder. A later run with no
// flags keeps the split and changes no file. The same in TypeScript and Go (table programs that compile);
// Python's split: adopt-python.test.ts. Both editions, each its own emulator and organization.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt } from "../support/adopt-run";
import { adoptable, adoptableConsumers, consumersInState, stateObjects } from "../support/adoptable";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { goDriverOfFolders, runAdoptedGo, runCommand } from "../support/adopted-go";
import { projectsWithAConsumerAcross } from "../support/split-pair";
import { programFromTypeScriptFiles, resourceSummary, typeErrorsOfFiles, YamlProject, type Deployment } from "../support/yaml-import-project";

const LONG_MS = 15 * 60_000;
const STACK = "dev";

describe.each(["self-managed", "hosted"] as const)("the %s edition", (edition) => {
  const e2e = useEmulatorAndCli({ edition, quiet: true });
  let estate: EstateManifest;
  /** Its environment (file backend, PULUMI_HOME with the plugin installed, the secrets provider, the CLI on PATH), shared by every stack. */
  let shared: YamlProject;
  let out: string;

  beforeAll(async () => {
    estate = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: 24, edition, projects: 2 });
    shared = YamlProject.create(e2e.cli, "shared-env");
    out = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-adopt-split-"));
  }, LONG_MS);

  afterAll(() => {
    shared?.dispose();
    if (out !== undefined) fs.rmSync(out, { recursive: true, force: true });
  });

  /** `pulumi …` in a folder of the split, with the shared environment. */
  function pulumi(folder: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(e2e.cli.command, args, { cwd: path.join(out, folder), env: shared.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }));
    });
  }
  async function ok(folder: string, args: string[]): Promise<string> {
    const run = await pulumi(folder, args);
    expect([folder, args.join(" "), run.code, run.code === 0 ? "" : `${run.stdout}\n${run.stderr}`]).toEqual([folder, args.join(" "), 0, ""]);
    return run.stdout;
  }

  const readOnly = (): NodeJS.ProcessEnv => ({
    WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization,
  });

  /** The split's folders, as its record names them. */
  function folders(dir = out): string[] {
    const record = JSON.parse(fs.readFileSync(path.join(dir, "adoption-split.json"), "utf8")) as { folders: Record<string, string> };
    return Object.values(record.folders).sort();
  }

  /** Every file adopt wrote below --out, by path, with its text. */
  function written(): Record<string, string> {
    const files: Record<string, string> = {};
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (!entry.name.startsWith("Pulumi.") || entry.name === "Pulumi.yaml") files[path.relative(out, full)] = fs.readFileSync(full, "utf8");
      }
    };
    walk(out);
    return files;
  }

  test("adopt --split-by project writes one project per project of the organization and one for the registry, and a README listing them", async () => {
    e2e.emulator.clearRequests();
    const run = await runAdopt(["--out", out, "--split-by", "project"], readOnly());
    expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
    expect(e2e.writes()).toEqual([]);
    const projectsWithWorkspaces = new Set(estate.workspaces.map((w) => w.projectId)).size;
    expect(folders()).toHaveLength(projectsWithWorkspaces + 1);
    expect(folders()).toContain("registry");
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    for (const folder of folders()) {
      expect(fs.readFileSync(path.join(out, folder, "Pulumi.yaml"), "utf8")).toContain("wsbridge:readOnly: true");
      expect(readme).toContain(`| [\`${folder}/\`](${folder}/) |`);
    }
    // A consumer in another project's stack: a literal id that names the folder adopting it.
    const programs = folders().map((folder) => fs.readFileSync(path.join(out, folder, "Pulumi.yaml"), "utf8")).join("\n");
    expect(programs).toMatch(/# [^\n]+: adopted by the stack of \.\.\/[^ ]+ \(wsbridge adopt --split-by project\), so a literal id here\n\s+- ws-/);
  }, LONG_MS);

  test("every stack's adoption step side by side (one read-only token), every preview clean, GETs only; together the stacks hold each adoptable object exactly once", async () => {
    for (const folder of folders()) {
      await ok(folder, shared.stackInit(STACK));
      await ok(folder, ["config", "set-all", "--stack", STACK, "--plaintext", `wsbridge:address=${e2e.emulator.url}`,
        "--plaintext", `wsbridge:organization=${estate.organization}`, "--secret", `wsbridge:token=${estate.tokens.readOnly}`]);
    }
    e2e.emulator.clearRequests();
    const ups = await Promise.all(folders().map((folder) => ok(folder, ["up", "--stack", STACK, "--yes", "--skip-preview"])));
    for (const stdout of ups) expect(resourceSummary(stdout).join(" ")).toMatch(/= \d+ imported/);
    const previews = await Promise.all(folders().map((folder) => ok(folder, ["preview", "--stack", STACK, "--expect-no-changes"])));
    for (const preview of previews) expect(resourceSummary(preview).join(" ")).toMatch(/^\d+ unchanged$/);
    expect(e2e.writes()).toEqual([]);

    const states = await Promise.all(folders().map(async (folder) => JSON.parse(await ok(folder, ["stack", "export", "--stack", STACK])) as Deployment));
    const held = states.flatMap(stateObjects).sort();
    const everyWorkspace = (): boolean => true;
    expect(held.filter((o) => !o.startsWith("RemoteStateConsumers "))).toEqual(adoptable(estate, everyWorkspace));
    expect(Object.assign({}, ...states.map(consumersInState))).toEqual(adoptableConsumers(estate, everyWorkspace));
    expect(held.filter((o) => o.startsWith("RemoteStateConsumers ")).length).toBe(Object.keys(adoptableConsumers(estate, everyWorkspace)).length);
  }, LONG_MS);

  /** The TypeScript files of a folder adopt wrote, by relative path. */
  function typescriptFiles(dir: string): Map<string, string> {
    const names = ["index.ts", ...fs.readdirSync(path.join(dir, "adopted")).map((f) => `adopted/${f}`)].filter((f) => f.endsWith(".ts"));
    return new Map(names.map((name) => [name, fs.readFileSync(path.join(dir, name), "utf8")]));
  }

  /**
   * One operation of a split folder's program on its stack, read-only as the adoption step is: its change
   * counts. TypeScript runs inline in this process, Go as its own module (test/support/adopted-go.ts).
   */
  async function operation(
    language: "typescript" | "go", dir: string, stack: string, action: "up" | "preview", go?: { path: string; index: number },
  ): Promise<Record<string, number>> {
    const project = shared.another(dir, YamlProject.nameIn(dir), { WSBRIDGE_READ_ONLY: "true" });
    if (go !== undefined) {
      return runAdoptedGo(dir, action, { project: project.name, name: stack, workDir: path.join(dir, "go-stacks"), secrets: project.secrets, env: project.env },
        { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization }, go);
    }
    const inline = await project.inlineStack(stack, programFromTypeScriptFiles(typescriptFiles(dir), "index.ts"));
    if (action === "preview") return (await inline.preview()).changeSummary as Record<string, number>;
    return (await inline.up()).summary.resourceChanges as Record<string, number>;
  }

  test.each(["typescript", "go"] as const)("in %s, two projects with a consumer across them: the split's programs are tables that compile; every stack's adoption step side by side, every preview clean, GETs only; together the stacks hold each selected object exactly once", async (language) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wsbridge-adopt-split-${language}-`));
    // The YAML split's stacks are `dev` of the same project names, in the same backend.
    const stack = language;
    try {
      // Two projects with a consumer across them, as the YAML split above found them (a stack per project
      // costs an engine run each; every project's stack ran in Pulumi YAML above).
      const chosen = projectsWithAConsumerAcross(out, "Pulumi.yaml");
      expect(chosen).toHaveLength(2);
      const projectOf = new Map(estate.workspaces.map((w) => [w.id, w.projectId]));
      const selected = (id: string): boolean => chosen.includes(projectOf.get(id) ?? "");
      e2e.emulator.clearRequests();
      const run = await runAdopt(["--out", dir, "--split-by", "project", "--language", language, ...chosen.flatMap((p) => ["--project", p])], readOnly());
      expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
      const split = folders(dir).map((folder) => path.join(dir, folder));
      expect(split).toHaveLength(3);
      for (const folder of split) {
        if (language === "typescript") {
          expect(typeErrorsOfFiles(typescriptFiles(folder), "index.ts")).toEqual([]);
          await shared.another(folder, YamlProject.nameIn(folder)).initStack(stack, { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization });
        } else {
          expect(await runCommand("gofmt", ["-l", "."], folder)).toBe("");
        }
      }
      const programs = split.map((folder) => fs.readFileSync(path.join(folder, language === "go" ? "main.go" : "index.ts"), "utf8")).join("\n");
      expect(programs).toMatch(/\/\/ [^\n]+: adopted by the stack of \.\.\/[^ ]+ \(wsbridge adopt --split-by project\), so a literal id here\n\s+"ws-/);

      // Go: one build for every folder's program (test/support/adopted-go.ts).
      const driver = language === "go" ? await goDriverOfFolders(split, dir) : undefined;
      const go = (index: number): { path: string; index: number } | undefined => (driver === undefined ? undefined : { path: driver, index });
      const ups = await Promise.all(split.map((folder, i) => operation(language, folder, stack, "up", go(i))));
      for (const up of ups) expect(up).toEqual({ create: 1, import: (up["import"] ?? 0) });
      const previews = await Promise.all(split.map((folder, i) => operation(language, folder, stack, "preview", go(i))));
      for (const [i, preview] of previews.entries()) expect(preview).toEqual({ same: (ups[i]?.["import"] ?? 0) + 1 });
      expect(e2e.writes()).toEqual([]);

      const states = await Promise.all(split.map((folder) => shared.another(folder, YamlProject.nameIn(folder)).exportState(stack)));
      const held = states.flatMap(stateObjects).sort();
      expect(held.filter((o) => !o.startsWith("RemoteStateConsumers "))).toEqual(adoptable(estate, selected));
      expect(Object.assign({}, ...states.map(consumersInState))).toEqual(adoptableConsumers(estate, selected));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, LONG_MS);

  // Later runs decide nothing by edition: once is enough.
  if (edition === "self-managed") {
    test("a later run with no flags keeps the split, reads each stack, and changes no file", async () => {
      const before = written();
      const run = await runAdopt(["--out", out, "--stack", STACK], { ...shared.env, ...readOnly() });
      expect(run.code).toBe(0);
      expect(written()).toEqual(before);
    }, LONG_MS);

    test("a workspace moved to another project after the adoption stays with the stack that holds it: adopt again adds it nowhere else, and its folder's report names the move", async () => {
      const moved = estate.workspaces.find((w) => w.id !== estate.unreadableWorkspaceId && !estate.consumers.some((c) => c.workspaceId === w.id)) ?? estate.workspaces[0];
      const target = estate.workspaces.find((w) => w.projectId !== moved?.projectId)?.projectId;
      expect([moved, target].every((x) => x !== undefined)).toBe(true);
      const reply = await e2e.api("PATCH", `/workspaces/${moved?.id}`, { data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: target } } } } });
      expect(reply.status).toBe(200);
      const before = written();
      const run = await runAdopt(["--out", out, "--stack", STACK], { ...shared.env, ...readOnly() });
      expect(run.code).toBe(0);
      const after = written();
      const programs = Object.entries(after).filter(([file]) => file.endsWith("Pulumi.yaml"));
      // Declared by one program only, the one whose stack holds it; no program changed.
      expect(programs.filter(([, text]) => text.includes(`import: ${moved?.id}`)).length).toBe(1);
      for (const [file, text] of programs) expect([file, text]).toEqual([file, before[file]]);
      const reports = Object.entries(after).filter(([file]) => file.endsWith("adoption-report.json"));
      const naming = reports.filter(([, text]) => (JSON.parse(text) as { changed?: { subject: string; differences: { property: string }[] }[] }).changed
        ?.some((c) => c.subject === moved?.id && c.differences.some((d) => d.property === "projectId")));
      expect(naming.length).toBe(1);
    }, LONG_MS);

    test("--split-by tag:team: one stack per team and one for the workspaces without it, adopted side by side, each object in exactly one stack; a later run keeps the split", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-adopt-split-tag-"));
      try {
        const teams = [...new Set(estate.workspaces.filter((w) => w.id !== estate.unreadableWorkspaceId).map((w) => w.tags["team"] ?? "(none)"))];
        // Its own project names, beside the project split's stacks in the same backend; no registry stack (the project split has one).
        const adopt = (): Promise<{ code: number; stderr: string }> =>
          runAdopt(["--out", dir, "--split-by", "tag:team", "--project-name", "by-team", "--no-modules", "--stack", STACK], { ...shared.env, ...readOnly() });
        e2e.emulator.clearRequests();
        const run = await adopt();
        expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
        const split = folders(dir);
        expect(split).toEqual(teams.map((t) => (t === "(none)" ? "no-team" : t)).sort());
        expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toContain("adopted by tag:team");
        const project = (folder: string): YamlProject => shared.another(path.join(dir, folder), YamlProject.nameIn(path.join(dir, folder)));
        for (const folder of split) await project(folder).initStack(STACK, { address: e2e.emulator.url, token: estate.tokens.readOnly, organization: estate.organization });
        const ups = await Promise.all(split.map((folder) => project(folder).ok(["up", "--stack", STACK, "--yes", "--skip-preview"])));
        for (const up of ups) expect(resourceSummary(up.stdout).join(" ")).toMatch(/= \d+ imported/);
        const previews = await Promise.all(split.map((folder) => project(folder).ok(["preview", "--stack", STACK, "--expect-no-changes"])));
        for (const preview of previews) expect(resourceSummary(preview.stdout).join(" ")).toMatch(/^\d+ unchanged$/);
        expect(e2e.writes()).toEqual([]);

        const states = await Promise.all(split.map((folder) => project(folder).exportState(STACK)));
        const held = states.flatMap(stateObjects).sort();
        const everyWorkspace = (): boolean => true;
        const expected = adoptable(estate, everyWorkspace).filter((o) => !o.startsWith("ModuleVersionDeprecation "));
        expect(held.filter((o) => !o.startsWith("RemoteStateConsumers "))).toEqual(expected);
        expect(Object.assign({}, ...states.map(consumersInState))).toEqual(adoptableConsumers(estate, everyWorkspace));

        const files = (): string[] => split.map((folder) => fs.readFileSync(path.join(dir, folder, "Pulumi.yaml"), "utf8"));
        const before = files();
        expect((await adopt()).code).toBe(0);
        expect(files()).toEqual(before);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, LONG_MS);
  }
});

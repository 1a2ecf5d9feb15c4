// `wsbridge adopt` on the real Pulumi CLI, against an estate seeded through the emulator's API (200
// workspaces over five projects, with every kind and references between them): the program it writes
// (Pulumi YAML, run by the YAML language host with the plugin installed as users install it) adopts
// every object in one `pulumi up` of its `import` options, the next preview shows no change, nothing
// but GETs reached the server, and every object is in the state exactly once. On the self-managed
// edition also: a selection, and the TypeScript and Go programs it writes, each run as the program of
// the stack that adopted the estate, previewing every resource unchanged. Adopting again afterwards
// writes the same program, byte for byte.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { useEmulatorAndCli, type RealCliEmulator } from "../support/real-cli-stack";
import {
  YamlProject, programFromTypeScript, resourceSummary, typeErrorsOf, type Deployment, type ExportedResource,
} from "../support/yaml-import-project";
import { repoRoot } from "../../scripts/lib/stack-harness";

const WORKSPACES = 200;
const LONG_MS = 20 * 60_000;

/** Every wsbridge resource of the state as `<Kind> <id>`, sorted (duplicates kept, so "exactly once" can be checked). */
function stateObjects(state: Deployment): string[] {
  return (state.deployment.resources ?? [])
    .filter((r: ExportedResource) => r.type.startsWith("wsbridge:index:"))
    .map((r) => `${r.type.replace("wsbridge:index:", "")} ${r.id ?? ""}`)
    .sort();
}

/** What a command printed on stdout; its stderr in the error when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      (error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`))));
  });
}

/**
 * A Go module in `dir`/go-module holding test/go/_adopt/main.go and `program` (the adopted Program
 * function), over test/go's module and the Go SDK by replace directives, with test/go's go.sum.
 */
function goModuleBeside(dir: string, program: string): string {
  const goDir = path.join(repoRoot, "test", "go");
  const module = path.join(dir, "go-module");
  fs.mkdirSync(module, { recursive: true });
  const goVersion = /^go (\S+)$/m.exec(fs.readFileSync(path.join(goDir, "go.mod"), "utf8"))?.[1] ?? "1.25";
  fs.writeFileSync(path.join(module, "go.mod"), [
    "module wsbridge.test/adopt", "", `go ${goVersion}`, "",
    "require github.com/pulumi-wsbridge/pulumi-wsbridge/test/go v0.0.0", "",
    `replace github.com/pulumi-wsbridge/pulumi-wsbridge/test/go => ${goDir}`, "",
    `replace github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go => ${path.join(repoRoot, "sdk", "go")}`, "",
  ].join("\n"));
  fs.copyFileSync(path.join(goDir, "go.sum"), path.join(module, "go.sum"));
  fs.copyFileSync(path.join(goDir, "_adopt", "main.go"), path.join(module, "main.go"));
  fs.writeFileSync(path.join(module, "program.go"), program);
  return module;
}

/** The objects of the estate the read-only token can adopt, as stateObjects spells them, for the workspaces `selected`. */
function adoptable(estate: EstateManifest, selected: (workspaceId: string) => boolean): string[] {
  const readable = (id: string): boolean => id !== estate.unreadableWorkspaceId;
  const mine = (id: string): boolean => readable(id) && selected(id);
  return [
    ...estate.workspaces.filter((w) => mine(w.id)).map((w) => `Workspace ${w.id}`),
    ...estate.locks.filter((l) => mine(l.workspaceId)).map((l) => `WorkspaceLock ${l.workspaceId}`),
    ...estate.sshKeys.filter((k) => mine(k.workspaceId)).map((k) => `SshKeyAssignment ${k.workspaceId}`),
    ...estate.retentionPolicies.filter((p) => mine(p.workspaceId)).map((p) => `DataRetentionPolicy ${p.workspaceId}`),
    ...estate.modules.flatMap((m) => m.versions.filter((v) => v.deprecation !== undefined)
      .map((v) => `ModuleVersionDeprecation ${estate.organization}/${m.name}/${m.provider}/${v.version}`)),
  ].sort();
}

/** The consumers adopted per subject, as the estate holds them (those the read-only token can read). */
function adoptableConsumers(estate: EstateManifest, selected: (workspaceId: string) => boolean): Record<string, string[]> {
  return Object.fromEntries(estate.consumers
    .filter((c) => c.workspaceId !== estate.unreadableWorkspaceId && selected(c.workspaceId))
    .map((c) => [c.workspaceId, c.consumerIds.filter((id) => id !== estate.unreadableWorkspaceId).sort()] as const)
    .filter(([, ids]) => ids.length > 0));
}

function consumersInState(state: Deployment): Record<string, string[]> {
  return Object.fromEntries((state.deployment.resources ?? [])
    .filter((r) => r.type === "wsbridge:index:RemoteStateConsumers")
    .map((r) => [String(r.outputs?.workspaceId), [...(r.outputs?.consumerIds as string[])].sort()]));
}

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

  test("the TypeScript program it writes type-checks against the SDK and, as the same stack's program, previews every resource unchanged with no request", async () => {
    const { project, estate } = adopted;
    const out = path.join(project.dir, "typescript");
    expect((await adoptReadOnly(e2e, estate, ["--out", out, "--language", "typescript"])).code).toBe(0);
    const source = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    expect(typeErrorsOf(source)).toEqual([]);
    e2e.emulator.clearRequests();
    const stack = await project.inlineStack("dev", programFromTypeScript(source));
    const result = await stack.preview();
    const total = adoptable(estate, () => true).length + Object.keys(adoptableConsumers(estate, () => true)).length;
    expect(result.changeSummary).toEqual({ same: total + 1 });
    expect(e2e.writes()).toEqual([]);
  }, LONG_MS);

  test("the Go program it writes is gofmt's formatting, builds against the Go SDK and, as the same stack's program, previews every resource unchanged", async () => {
    const { project, estate } = adopted;
    const out = path.join(project.dir, "go");
    expect((await adoptReadOnly(e2e, estate, ["--out", out, "--language", "go"])).code).toBe(0);
    const source = fs.readFileSync(path.join(out, "main.go"), "utf8");
    expect(await run("gofmt", ["-l", path.join(out, "main.go")], out)).toBe("");
    // Its Program function beside test/go/_adopt/main.go, which previews it inline (no Go language host
    // here), in a module of their own: nothing is written into test/go, which other tests build at the same time.
    const module = goModuleBeside(project.dir, source.replace(/\nfunc main\(\) \{\n\tpulumi\.Run\(Program\)\n\}\n/, "\n"));
    const workDir = path.join(project.dir, "go-stacks");
    fs.mkdirSync(path.join(workDir, `${project.name}.dev`), { recursive: true });
    fs.copyFileSync(path.join(project.dir, "Pulumi.dev.yaml"), path.join(workDir, `${project.name}.dev`, "Pulumi.dev.yaml"));
    e2e.emulator.clearRequests();
    // HOME stays the user's: Go keeps its build and module caches below it (the stack folder's HOME is
    // empty, and with it Go would download and compile the Pulumi SDK afresh: minutes).
    const printed = await run("go", ["run", ".", project.name, "dev"], module, {
      ...project.env, HOME: os.homedir(), GOFLAGS: "-mod=mod", WSBRIDGE_GO_ADDRESS: e2e.emulator.url, WSBRIDGE_GO_TOKEN: estate.tokens.readOnly,
      WSBRIDGE_GO_ORGANIZATION: estate.organization, WSBRIDGE_GO_WORKDIR: workDir,
    });
    const total = adoptable(estate, () => true).length + Object.keys(adoptableConsumers(estate, () => true)).length;
    expect(JSON.parse(printed.trim().split("\n").at(-1) ?? "{}")).toEqual({ same: total + 1 });
    expect(e2e.writes()).toEqual([]);
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

// `wsbridge adopt` after the first day, on the real Pulumi CLI against the emulator: an adoption step that
// cannot change the server (a change made between adopt and the up is named, and nothing is imported or
// written), and adopt run again on a stack the team owns (renamed a resource, moved two under a parent
// or into a component, changed a setting and applied it, deleted every `import` option) while others
// created, deleted and changed workspaces: exactly the new objects are added, each with its `import`
// option and references to what the stack holds, the team's text is intact byte for byte, the report
// names what is gone (with the command that makes the stack forget it) and what changed, the next
// preview shows only those imports, and a run that finds nothing new changes no file.
//
// Each flow seeds an organization of its own in one emulator per edition, so they never see each
// other's changes. Pulumi YAML runs as users run it (`pulumi up` through the YAML language host, the
// plugin installed from its archive); TypeScript and Go run inline through the Automation API (no
// language host for them here), each program loaded from the files adopt wrote.
import * as fs from "node:fs";
import * as path from "node:path";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt, type AdoptRun } from "../support/adopt-run";
import { adoptable, adoptableConsumers, stateObjects } from "../support/adoptable";
import { EstateChanges, plainWorkspaces } from "../support/estate-changes";
import { useEmulatorAndCli, type RealCliEmulator } from "../support/real-cli-stack";
import { goModuleOf, runAdoptedGo, runCommand } from "../support/adopted-go";
import {
  YamlProject, programFromTypeScriptFiles, resourceSummary, typeErrorsOfFiles, type Deployment,
} from "../support/yaml-import-project";

const WORKSPACES = 40;
const LONG_MS = 20 * 60_000;

/** Every file below `dir` except the project harness's own (backend, home), by relative path. */
function programFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (!entry.isFile() || /^(backend|home|inline-|go-|Pulumi\.dev\.yaml)/.test(relative)) continue;
    files.set(relative, fs.readFileSync(full, "utf8"));
  }
  return files;
}

interface Flow {
  e2e: RealCliEmulator;
  estate: EstateManifest;
  project: YamlProject;
  changes: EstateChanges;
}

async function newFlow(e2e: RealCliEmulator, edition: "self-managed" | "hosted", organization: string): Promise<Flow> {
  const estate = await seedEstate(e2e.emulator.url, e2e.emulator.token, { workspaces: WORKSPACES, edition, organization });
  const project = YamlProject.create(e2e.cli, `${organization}-estate`);
  fs.rmSync(path.join(project.dir, "Pulumi.yaml"));
  return { e2e, estate, project, changes: new EstateChanges((m, p, b, t) => e2e.api(m, p, b, t), estate) };
}

/**
 * `wsbridge adopt` with the read-only token, as a user runs it in the project folder (its `pulumi`,
 * backend and home), without what unlocks the stack's secrets: reading the stack needs none.
 */
function adopt(flow: Flow, args: string[] = []): Promise<AdoptRun> {
  const { project, estate, e2e } = flow;
  const env = project.envWithoutSecrets;
  return runAdopt(["--out", project.dir, "--project-name", project.name, ...args], {
    ...env, WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization,
  });
}

function ok(run: AdoptRun): AdoptRun {
  expect({ code: run.code, stderr: run.stderr.split("\n").filter((l) => !l.startsWith("reading ")).join("\n") }).toEqual({ code: 0, stderr: "" });
  return run;
}

/** The stack's config, as docs/adopt.md says: the address, the organization and (here) the read-only token. */
async function initStack(flow: Flow): Promise<void> {
  await flow.project.initStack("dev", { address: flow.e2e.emulator.url, token: flow.estate.tokens.readOnly, organization: flow.estate.organization });
}

function wsbridgeObjects(state: Deployment): string[] {
  return stateObjects(state);
}

type Workspace = EstateManifest["workspaces"][number];

/**
 * Meanwhile, in the UI: three new workspaces (ui-locked, locked by a user; ui-tagged, with tags and an
 * SSH key; ui-consumer, a new consumer of `consumed`), `deleted` deleted and `byHand`'s description
 * changed. Resolves to ui-consumer's id.
 */
async function meanwhileInTheUi(flow: Flow, which: { consumed: Workspace; deleted: Workspace; byHand: Workspace }): Promise<string> {
  const { changes, estate } = flow;
  const locked = await changes.createWorkspace("ui-locked");
  await changes.lockAsUser(locked, "held by alice");
  const tagged = await changes.createWorkspace("ui-tagged", { env: "prod", team: "search" });
  await changes.assignSshKey(tagged, estate.sshKeyIds[0] ?? "");
  const consumer = await changes.createWorkspace("ui-consumer");
  await changes.addConsumers(which.consumed.id, [consumer]);
  await changes.deleteWorkspace(which.deleted.id);
  await changes.setDescription(which.byHand.id, "changed by hand");
  return consumer;
}

/** Replaces `from` by `to` in `text`, which must hold `from` exactly `times` times (an edit that finds nothing fails the test). */
function edit(text: string, from: string, to: string, times = 1): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`expected ${times} × ${JSON.stringify(from)} in the program, found ${found}`);
  return text.split(from).join(to);
}

/** Lines added to the options of resource `key` of a Pulumi YAML program (after its `protect: true`). */
function addOptions(text: string, key: string, lines: string): string {
  const start = text.indexOf(`\n  ${key}:\n`);
  if (start < 0) throw new Error(`no resource ${key} in the program`);
  const at = text.indexOf("      protect: true\n", start) + "      protect: true\n".length;
  return text.slice(0, at) + lines + text.slice(at);
}

/** `pulumi preview --json`: each step's op by resource name (wsbridge resources only). */
async function previewSteps(project: YamlProject): Promise<Record<string, string>> {
  const { stdout } = await project.ok(["preview", "--stack", "dev", "--json"]);
  const preview = JSON.parse(stdout) as { steps?: { op: string; urn: string }[] };
  return Object.fromEntries((preview.steps ?? []).filter((s) => s.urn.includes("::wsbridge:index:")).map((s) => [s.urn.split("::").pop() ?? "", s.op]));
}

describe.each(["self-managed", "hosted"] as const)("the %s edition", (edition) => {
  const e2e = useEmulatorAndCli({ edition, quiet: true });

  if (edition === "self-managed") {
    test("a change made between adopt and the up: the up's preview names the object, the property and both values, and nothing is imported or written; adopt again, and the up imports cleanly", async () => {
      const flow = await newFlow(e2e, edition, "between-org");
      try {
        const { project, estate, changes } = flow;
        ok(await adopt(flow));
        const program = fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8");
        expect(program).toContain("\nconfig:\n");
        expect(program).toContain("\n  wsbridge:readOnly: true\n");
        await initStack(flow);
        const changed = plainWorkspaces(estate)[0] ?? estate.workspaces[0];
        if (changed === undefined) throw new Error("no workspace");
        const before = await changes.description(changed.id);
        await changes.setDescription(changed.id, "changed after adopt");
        e2e.emulator.clearRequests();

        // What Pulumi itself does, without the read-only project: import, then update in the same up.
        await project.ok(["config", "set", "--stack", "dev", "wsbridge:readOnly", "false"]);
        const unguarded = await project.ok(["preview", "--stack", "dev", "--diff"]);
        expect(unguarded.stdout).toContain(`~ description: "changed after adopt" => ${JSON.stringify(before)}`);
        expect(resourceSummary(unguarded.stdout)).toContain("~ 1 to update");
        await project.ok(["config", "rm", "--stack", "dev", "wsbridge:readOnly"]);

        const up = await project.run(["up", "--stack", "dev", "--yes"]);
        expect(up.code).not.toBe(0);
        expect(`${up.stdout}${up.stderr}`).toContain(
          `Workspace ${changed.id} differs from the program: description: the program declares ${JSON.stringify(before)}, the server held "changed after adopt" at its last read.`,
        );
        expect(`${up.stdout}${up.stderr}`).toContain("The provider is read-only (wsbridge:readOnly), so nothing was sent to the server.");
        expect(e2e.writes()).toEqual([]);
        expect(wsbridgeObjects(await project.exportState("dev"))).toEqual([]);

        // The program is still adopt's (the stack holds none of it): a second run rewrites it from the server.
        ok(await adopt(flow));
        expect(fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8")).toContain("description: \"changed after adopt\"\n");
        const total = adoptable(estate, () => true).length + Object.keys(adoptableConsumers(estate, () => true)).length;
        expect(resourceSummary((await project.ok(["up", "--stack", "dev", "--yes"])).stdout)).toEqual(["+ 1 created", `= ${total} imported`, `${total + 1} changes`]);
        await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
        expect(e2e.writes()).toEqual([]);
      } finally {
        flow.project.dispose();
      }
    }, LONG_MS);
  }

  if (edition === "self-managed") {
    test("a change that lands after the preview (here: `up --skip-preview`): the object is imported as the server has it, its update is refused, nothing is written, and the message says which value the program should hold", async () => {
      const flow = await newFlow(e2e, edition, "skipped-org");
      try {
        const { project, estate, changes } = flow;
        ok(await adopt(flow));
        await initStack(flow);
        const changed = plainWorkspaces(estate)[0];
        if (changed === undefined) throw new Error("no workspace");
        await changes.setDescription(changed.id, "changed after adopt");
        e2e.emulator.clearRequests();
        const up = await project.run(["up", "--stack", "dev", "--yes", "--skip-preview"]);
        expect(up.code).not.toBe(0);
        expect(`${up.stdout}${up.stderr}`).toContain(`Workspace ${changed.id} differs from the program: description: the program declares "estate workspace ${changed.name}", the server held "changed after adopt" at its last read.`);
        expect(`${up.stdout}${up.stderr}`).toContain("once the stack holds it, write the server's value into the program");
        expect(e2e.writes()).toEqual([]);
        const held = (await project.exportState("dev")).deployment.resources?.find((r) => r.id === changed.id);
        expect(held?.inputs?.description).toBe("changed after adopt");
        expect(await changes.description(changed.id)).toBe("changed after adopt");
      } finally {
        flow.project.dispose();
      }
    }, LONG_MS);
  }

  test("day two in Pulumi YAML: after the team's edits and others' changes, adopt adds exactly the new objects into the team's Pulumi.yaml without touching their text, reports the gone and the changed one, and the next preview shows only those imports", async () => {
    const flow = await newFlow(e2e, edition, `yaml-${edition}-org`);
    try {
      const { project, estate, changes } = flow;
      const file = path.join(project.dir, "Pulumi.yaml");
      const urn = (type: string, name: string): string => `urn:pulumi:dev::${project.name}::wsbridge:index:${type}::${name}`;

      // Day one: adopt, the adoption step, a clean preview.
      ok(await adopt(flow));
      await initStack(flow);
      e2e.emulator.clearRequests();
      const total = adoptable(estate, () => true).length + Object.keys(adoptableConsumers(estate, () => true)).length;
      expect(resourceSummary((await project.ok(["up", "--stack", "dev", "--yes"])).stdout)).toEqual(["+ 1 created", `= ${total} imported`, `${total + 1} changes`]);
      await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
      expect(e2e.writes()).toEqual([]);

      // The team's edits: read-only off, a rename with an alias, two workspaces moved under a parent (Pulumi
      // YAML declares no components), a description changed, every import option deleted; applied with a
      // token that may write.
      const deleted = plainWorkspaces(estate, { consumed: false })[0];
      const plain = plainWorkspaces(estate).filter((w) => w.id !== deleted?.id);
      const [parent, moved1, moved2, described, byHand] = plain;
      // A workspace whose consumers the stack holds: a new consumer of it refers to it under its new name.
      const renamed = estate.consumers.map((c) => estate.workspaces.find((w) => w.id === c.workspaceId))
        .find((w) => w !== undefined && /^[a-z]+-\d{4}$/.test(w.name));
      if (renamed === undefined || byHand === undefined || parent === undefined || moved1 === undefined || moved2 === undefined || described === undefined || deleted === undefined) {
        throw new Error(`the estate has too few plain workspaces (${plain.length})`);
      }
      let text = fs.readFileSync(file, "utf8");
      text = edit(text, "config:\n  # The adoption step only reads: read-only, the provider refuses any change (an object that changed\n  # since adopt read it is named, and nothing is sent). Delete these lines once `pulumi preview` shows\n  # no change, to let this stack change the server.\n  wsbridge:readOnly: true\n", "");
      text = addOptions(text, renamed.name, `      aliases:\n        - ${urn("Workspace", renamed.name)}\n`);
      text = edit(text, `\n  ${renamed.name}:\n`, `\n  ${renamed.name}-renamed:\n`);
      text = edit(text, `\${${renamed.name}.id}`, `\${${renamed.name}-renamed.id}`, text.split(`\${${renamed.name}.id}`).length - 1);
      for (const moved of [moved1, moved2]) {
        text = addOptions(text, moved.name, `      parent: \${${parent.name}}\n      aliases:\n        - ${urn("Workspace", moved.name)}\n`);
      }
      text = edit(text, `description: \"estate workspace ${described.name}\"\n`, "description: owned by the platform team now\n");
      text = text.replace(/\n {6}import: \S+\n/g, "\n");
      expect(text).not.toContain("import:");
      fs.writeFileSync(file, text);
      await project.ok(["config", "set", "--stack", "dev", "--secret", "wsbridge:token", estate.tokens.admin]);
      await project.ok(["up", "--stack", "dev", "--yes"]);
      expect(await changes.description(described.id)).toBe("owned by the platform team now");
      await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
      const teams = fs.readFileSync(file, "utf8");

      const consumer = await meanwhileInTheUi(flow, { consumed: renamed, deleted, byHand });

      // Adopt again: reads only, adds exactly the new objects as one block, leaves the team's text as it was.
      e2e.emulator.clearRequests();
      const again = ok(await adopt(flow));
      expect(e2e.writes()).toEqual([]);
      const after = fs.readFileSync(file, "utf8");
      const begin = after.indexOf("  # ---- wsbridge adopt, batch 1: ");
      const endMarker = "  # ---- end of wsbridge adopt, batch 1 ----\n";
      const end = after.indexOf(endMarker) + endMarker.length;
      expect(begin).toBeGreaterThan(0);
      expect(after.slice(0, begin) + after.slice(end)).toBe(teams);
      const block = after.slice(begin, end);
      expect(block).toContain(`  ${renamed.name}-consumers-2:\n    type: wsbridge:index:RemoteStateConsumers\n    properties:\n      workspaceId: \${${renamed.name}-renamed.id}\n      consumerIds:\n        - \${ui-consumer.id}\n    options:\n      import: ${renamed.id}/${consumer}\n      protect: true\n`);
      const newNames = ["ui-consumer", "ui-locked", "ui-tagged", "ui-locked-lock", "ui-tagged-ssh-key", `${renamed.name}-consumers-2`];
      const report = JSON.parse(fs.readFileSync(path.join(project.dir, "adoption-report.json"), "utf8")) as {
        gone: { name: string; urn: string; forget: string }[]; changed: { name: string; differences: { property: string; held: unknown; server: unknown }[] }[];
        written: { batches: { batch: number; resources: { name: string }[] }[] };
      };
      expect(report.written.batches.map((b) => [b.batch, b.resources.map((r) => r.name).sort()])).toEqual([
        [0, expect.any(Array)], [1, [...newNames].sort()],
      ]);
      expect(report.gone.map((g) => [g.name, g.forget])).toEqual([
        [deleted.name, `pulumi state delete --stack dev --force --yes --target-dependents '${urn("Workspace", deleted.name)}'`],
      ]);
      expect(report.changed.map((c) => [c.name, c.differences])).toEqual([
        [byHand.name, [{ property: "description", held: `estate workspace ${byHand.name}`, server: "changed by hand" }]],
      ]);
      expect(again.stdout).toContain("New in ");
      expect(again.stdout).toContain(`  Workspace ${deleted.name}: workspace ${deleted.id} is not in the organization any more`);
      expect(again.stdout).toContain("Next: `WSBRIDGE_READ_ONLY=true pulumi up` imports the new objects");

      // The preview shows their imports and nothing else; the adoption step imports them read-only.
      project.env["WSBRIDGE_READ_ONLY"] = "true";
      try {
        const steps = await previewSteps(project);
        expect(Object.entries(steps).filter(([, op]) => op !== "same").sort()).toEqual(newNames.map((n) => [n, "import"]).sort());
        e2e.emulator.clearRequests();
        expect(resourceSummary((await project.ok(["up", "--stack", "dev", "--yes"])).stdout)).toEqual([`= ${newNames.length} imported`, expect.stringMatching(/^\d+ unchanged$/)]);
        expect(e2e.writes()).toEqual([]);
      } finally {
        delete project.env["WSBRIDGE_READ_ONLY"];
      }
      await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);

      // Nothing new: no file changes.
      const files = programFiles(project.dir);
      ok(await adopt(flow));
      expect(programFiles(project.dir)).toEqual(files);

      // The gone workspace: out of the program, then the report's command; the stack forgets it.
      const entry = new RegExp(`\\n  ${deleted.name}:\\n(?: {4}.*\\n)+`);
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(entry, "\n"));
      const [command, ...args] = (report.gone[0]?.forget ?? "").split(" ");
      expect(command).toBe("pulumi");
      await project.ok(args.map((a) => a.replace(/^'(.*)'$/, "$1")));
      expect(wsbridgeObjects(await project.exportState("dev"))).not.toContain(`Workspace ${deleted.id}`);
      await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
    } finally {
      flow.project.dispose();
    }
  }, LONG_MS);

  if (edition === "hosted") return;

  test.each(["typescript", "go"] as const)("day two in %s: the team's edits stay byte for byte, the new objects come as a batch file of their own with literal ids for what the stack holds, and the next preview shows only their imports", async (language) => {
    const flow = await newFlow(e2e, edition, `${language === "go" ? "go" : "ts"}-org`);
    try {
      await programmingLanguageDayTwo(flow, language === "go" ? goProgram(flow) : typescriptProgram(flow));
    } finally {
      flow.project.dispose();
    }
  }, LONG_MS);
});

/** How the TypeScript and Go flows run and edit their program (the flow itself is the same). */
interface ProgramDriver {
  readonly language: "typescript" | "go";
  /** The program file and the batch files, by relative path. */
  readonly programFile: string;
  batchFile(n: number): string;
  /** Checks the program compiles (tsc strict; `go build` through the run). */
  check(): Promise<void>;
  /** An operation on the stack, read-only through WSBRIDGE_READ_ONLY or not: its change summary. */
  run(action: "preview" | "up", readOnly: boolean): Promise<Record<string, number>>;
  /** From now on, runs with a token that may write (the team's). */
  grantWrite(): Promise<void>;
  rename(text: string, name: string, id: string): string;
  intoComponent(text: string, names: readonly { name: string; id: string }[]): string;
  describe(text: string, name: string, description: string): string;
  withoutImports(text: string): string;
}

function settingsOf(flow: Flow, token: string): { address: string; token: string; organization: string } {
  return { address: flow.e2e.emulator.url, token, organization: flow.estate.organization };
}

function withEnv<T>(project: YamlProject, readOnly: boolean, work: () => Promise<T>): Promise<T> {
  if (readOnly) project.env["WSBRIDGE_READ_ONLY"] = "true";
  return work().finally(() => { delete project.env["WSBRIDGE_READ_ONLY"]; });
}

function typescriptProgram(flow: Flow): ProgramDriver {
  const { project } = flow;
  const sources = (): Map<string, string> => new Map([...programFiles(project.dir)].filter(([name]) => name.endsWith(".ts")));
  return {
    language: "typescript", programFile: "index.ts", batchFile: (n) => `adopted/${n}.ts`,
    async grantWrite() {
      await project.ok(["config", "set", "--stack", "dev", "--secret", "wsbridge:token", flow.estate.tokens.admin]);
    },
    async check() {
      expect(typeErrorsOfFiles(sources(), "index.ts")).toEqual([]);
    },
    run(action, readOnly) {
      return withEnv(project, readOnly, async () => {
        const stack = await project.inlineStack("dev", programFromTypeScriptFiles(sources(), "index.ts"));
        if (action === "preview") return (await stack.preview()).changeSummary as Record<string, number>;
        return (await stack.up()).summary.resourceChanges as Record<string, number>;
      });
    },
    rename(text, name, id) {
      const start = text.indexOf(`new wsbridge.Workspace(${JSON.stringify(name)}, {`);
      const options = `}, { import: ${JSON.stringify(id)}, protect: true });`;
      const at = text.indexOf(options, start);
      if (start < 0 || at < 0) throw new Error(`no workspace ${name} in index.ts`);
      return text.slice(0, start) + text.slice(start, at).replace(JSON.stringify(name), JSON.stringify(`${name}-renamed`)) +
        `}, { import: ${JSON.stringify(id)}, protect: true, aliases: [{ name: ${JSON.stringify(name)} }] });` + text.slice(at + options.length);
    },
    intoComponent(text, names) {
      const moved: string[] = [];
      for (const { name, id } of names) {
        const head = text.lastIndexOf("\n", text.indexOf(`new wsbridge.Workspace(${JSON.stringify(name)}, {`)) + 1;
        const options = `}, { import: ${JSON.stringify(id)}, protect: true });\n`;
        const end = text.indexOf(options, head) + options.length;
        moved.push(text.slice(head, end).replace(options, `}, { import: ${JSON.stringify(id)}, protect: true, parent: this, aliases: [{ parent: pulumi.rootStackResource }] });\n`));
        text = text.slice(0, head) + text.slice(end);
      }
      text = edit(text, 'import * as wsbridge from "@pulumi-wsbridge/wsbridge";\n', 'import * as pulumi from "@pulumi/pulumi";\nimport * as wsbridge from "@pulumi-wsbridge/wsbridge";\n');
      return `${text}\nclass Team extends pulumi.ComponentResource {\n    constructor(name: string) {\n        super("acme:index:Team", name);\n${moved.map((m) => m.replace(/^/gm, "        ")).join("")}    }\n}\nnew Team("platform-team");\n`;
    },
    describe(text, name, description) {
      return edit(text, `description: ${JSON.stringify(`estate workspace ${name}`)},`, `description: ${JSON.stringify(description)},`);
    },
    withoutImports(text) {
      return text.replace(/\{ import: "[^"]+", /g, "{ ");
    },
  };
}

function goProgram(flow: Flow): ProgramDriver {
  const { project, estate } = flow;
  const workDir = path.join(project.dir, "go-stacks");
  let token = estate.tokens.readOnly;
  return {
    language: "go", programFile: "main.go", batchFile: (n) => `adopted_${n}.go`,
    async grantWrite() {
      token = estate.tokens.admin;
    },
    async check() {
      expect(await runCommand("go", ["vet", "."], goModuleOf(project.dir, project.dir, "go-vet"), { ...process.env, GOFLAGS: "-mod=mod -trimpath" })).toBe("");
    },
    run(action, readOnly) {
      return withEnv(project, readOnly, () => runAdoptedGo(goModuleOf(project.dir, project.dir), action,
        { project: project.name, name: "dev", workDir, settingsFrom: project.dir, env: project.env }, settingsOf(flow, token)));
    },
    rename(text, name, id) {
      const start = text.indexOf(`wsbridge.NewWorkspace(ctx, ${JSON.stringify(name)}, &wsbridge.WorkspaceArgs{`);
      const options = `pulumi.Import(pulumi.ID(${JSON.stringify(id)})), pulumi.Protect(true))`;
      const at = text.indexOf(options, start);
      if (start < 0 || at < 0) throw new Error(`no workspace ${name} in main.go`);
      return text.slice(0, start) + text.slice(start, at).replace(JSON.stringify(name), JSON.stringify(`${name}-renamed`)) +
        `pulumi.Import(pulumi.ID(${JSON.stringify(id)})), pulumi.Protect(true), pulumi.Aliases([]pulumi.Alias{{Name: pulumi.String(${JSON.stringify(name)})}}))` +
        text.slice(at + options.length);
    },
    intoComponent(text, names) {
      const moved: string[] = [];
      for (const { name, id } of names) {
        const call = text.indexOf(`wsbridge.NewWorkspace(ctx, ${JSON.stringify(name)}, &wsbridge.WorkspaceArgs{`);
        const head = text.lastIndexOf("\n", call) + 1;
        const options = `pulumi.Import(pulumi.ID(${JSON.stringify(id)})), pulumi.Protect(true)`;
        const end = text.indexOf("\t}\n", text.indexOf(options, head)) + 3;
        moved.push(text.slice(head, end).replace(options, `${options}, pulumi.Parent(&team), pulumi.Aliases([]pulumi.Alias{{NoParent: pulumi.Bool(true)}})`));
        text = text.slice(0, head) + text.slice(end);
      }
      const close = text.lastIndexOf("\treturn nil\n}\n");
      return `${text.slice(0, close)}\tif err := platformTeam(ctx); err != nil {\n\t\treturn err\n\t}\n${text.slice(close)}\n` +
        "type Team struct{ pulumi.ResourceState }\n\nfunc platformTeam(ctx *pulumi.Context) error {\n\tvar team Team\n" +
        "\tif err := ctx.RegisterComponentResource(\"acme:index:Team\", \"platform-team\", &team); err != nil {\n\t\treturn err\n\t}\n" +
        `${moved.join("")}\treturn nil\n}\n`;
    },
    describe(text, name, description) {
      const pattern = new RegExp(`(Description:\\s+)pulumi\\.String\\(${JSON.stringify(`estate workspace ${name}`)}\\)`);
      if (!pattern.test(text)) throw new Error(`no description of ${name} in main.go`);
      return text.replace(pattern, `$1pulumi.String(${JSON.stringify(description)})`);
    },
    withoutImports(text) {
      return text.replace(/pulumi\.Import\(pulumi\.ID\("[^"]+"\)\), /g, "");
    },
  };
}

/** The day-two flow in a language adopt writes directly: the same story as the Pulumi YAML one. */
async function programmingLanguageDayTwo(flow: Flow, driver: ProgramDriver): Promise<void> {
  const { project, estate, changes, e2e } = flow;
  const total = adoptable(estate, () => true).length + Object.keys(adoptableConsumers(estate, () => true)).length;
  // The block form: the team's edits below (a rename, a component) are made in its per-object declarations.
  ok(await adopt(flow, ["--language", driver.language, "--form", "blocks"]));
  await initStack(flow);
  await driver.check();
  e2e.emulator.clearRequests();
  expect(await driver.run("up", true)).toEqual({ create: 1, import: total });
  expect(await driver.run("preview", false)).toEqual({ same: total + 1 });
  expect(e2e.writes()).toEqual([]);

  // The team's edits, applied with a token that may write. The two moved into a component are nobody's
  // consumers, so no other declaration refers to them.
  const [deleted, moved1, moved2] = plainWorkspaces(estate, { consumed: false });
  const [described, byHand] = plainWorkspaces(estate).filter((w) => ![deleted, moved1, moved2].some((o) => o?.id === w.id));
  const renamed = estate.consumers.map((c) => estate.workspaces.find((w) => w.id === c.workspaceId))
    .find((w) => w !== undefined && /^[a-z]+-\d{4}$/.test(w.name));
  if (deleted === undefined || moved1 === undefined || moved2 === undefined || described === undefined || byHand === undefined || renamed === undefined) {
    throw new Error("the estate has too few plain workspaces");
  }
  const file = path.join(project.dir, driver.programFile);
  let text = fs.readFileSync(file, "utf8");
  text = driver.rename(text, renamed.name, renamed.id);
  text = driver.intoComponent(text, [moved1, moved2]);
  text = driver.describe(text, described.name, "owned by the platform team now");
  text = driver.withoutImports(text);
  fs.writeFileSync(file, text);
  await driver.check();
  await driver.grantWrite();
  // One update (the description), one create (the component); the renamed and the moved are the same resources.
  expect(await driver.run("up", false)).toEqual({ update: 1, same: total, create: 1 });
  expect(await changes.description(described.id)).toBe("owned by the platform team now");
  expect(await driver.run("preview", false)).toEqual({ same: total + 2 });
  const teams = programFiles(project.dir);

  const consumer = await meanwhileInTheUi(flow, { consumed: renamed, deleted, byHand });

  // Adopt again: the team's files as they were, one new batch file, adopt's index of batches rewritten.
  e2e.emulator.clearRequests();
  ok(await adopt(flow));
  expect(e2e.writes()).toEqual([]);
  const after = programFiles(project.dir);
  const index = driver.language === "typescript" ? "adopted/index.ts" : "adopted.go";
  const added = [...after.keys()].filter((name) => !teams.has(name));
  expect(added).toEqual([driver.batchFile(1)]);
  const changedFiles = [...teams.keys()].filter((name) => after.get(name) !== teams.get(name)).sort();
  expect(changedFiles).toEqual(["adoption-report.json", "adoption-report.md", index].sort());
  const batch = after.get(driver.batchFile(1)) ?? "";
  expect(batch).toContain(`${renamed.name}-renamed: held by this stack, declared in your program`);
  expect(batch).toContain(JSON.stringify(`${renamed.id}/${consumer}`));
  if (driver.language === "go") expect(await runCommand("gofmt", ["-l", index, driver.batchFile(1)], project.dir)).toBe("");
  await driver.check();

  // The preview shows the six imports and nothing else; the adoption step imports them read-only.
  expect(await driver.run("preview", true)).toEqual({ import: 6, same: total + 2 });
  e2e.emulator.clearRequests();
  expect(await driver.run("up", true)).toEqual({ import: 6, same: total + 2 });
  expect(e2e.writes()).toEqual([]);
  expect(await driver.run("preview", false)).toEqual({ same: total + 8 });

  // Nothing new: no file changes.
  const files = programFiles(project.dir);
  ok(await adopt(flow));
  expect(programFiles(project.dir)).toEqual(files);
}

// The table form of `wsbridge adopt` (provider/adopt/program/table.ts and its three writers), without the
// engine: the settings most workspaces share are written once, a workspace that differs in one setting
// keeps it, what hangs off a workspace sits in its row, a name another resource took stays in the row,
// names any language would refuse as a variable are only string keys, and the loops declare exactly the
// plan's resources (names, import ids, inputs), so a stack can switch between the forms with no change.
// The real CLI runs of these programs: test/cli/adopt-forms.test.ts, adopt-python.test.ts.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Owned } from "../../provider/adopt/plan";
import { planAdoption } from "../../provider/adopt/plan";
import type { PackageSchema } from "../../provider/adopt/program/go";
import { goTableBatch, goTableProgram } from "../../provider/adopt/program/go-table";
import { pythonTableProgram } from "../../provider/adopt/program/python-table";
import { beyondShared, resourcesOfTable, sharedSettings, tableOf } from "../../provider/adopt/program/table";
import { typescriptTableBatch, typescriptTableProgram } from "../../provider/adopt/program/typescript-table";
import { packageSchemaText } from "../../provider/runtime/package-files";
import { tableEstate } from "../support/table-estate";
import { typeErrorsOfFiles } from "../support/yaml-import-project";

const schema = JSON.parse(packageSchemaText()) as PackageSchema;

describe("the table", () => {
  test("settings most workspaces hold alike are written once; a workspace that differs in one setting keeps it, and one left at its default says so", () => {
    const table = tableOf(planAdoption(tableEstate()));
    expect(table.shared).toMatchObject({
      organization: "org", engineVersion: "1.9.5", autoApply: true, globalRemoteState: false,
      projectId: { kind: "project", name: "platform", id: "prj-1" },
    });
    // Each project once, by name, where blocks write the id with a comment on every workspace.
    expect(table.projects).toEqual([{ name: "platform", id: "prj-1" }]);
    const settings = Object.fromEntries(table.workspaces.map((r) => [r.key, r.settings]));
    expect(settings).toEqual({ "9-lives": {}, "a-b-c": {}, "a-bc": {}, class: {}, "class-lock": { engineVersion: "1.8.0", autoApply: false } });
  });

  test("a value held by half the workspaces or fewer, or by one, stays in the rows; a default is never shared", () => {
    expect(sharedSettings([{ description: "a" }, { description: "a" }, { description: "b" }, { description: "c" }])).toEqual({});
    expect(sharedSettings([{ description: "a" }])).toEqual({});
    expect(sharedSettings([{ autoApply: false }, { autoApply: false }, {}])).toEqual({});
    // An input some workspace leaves out with no fixed value cannot be shared: the row could not un-set it.
    expect(sharedSettings([{ engineVersion: "1" }, { engineVersion: "1" }, {}])).toEqual({});
    expect(beyondShared({ queueAllRuns: true }, { autoApply: true })).toEqual({ queueAllRuns: true, autoApply: false });
  });

  test("what hangs off a workspace is in its row; a consumer of the table by key, one outside it by id with why; a taken name stays in the row", () => {
    const rows = Object.fromEntries(tableOf(planAdoption(tableEstate())).workspaces.map((r) => [r.key, r]));
    expect(rows["a-b-c"]?.lock).toEqual({ reason: "change freeze" });
    expect(rows["a-bc"]?.sshKeyId).toBe("sshkey-1");
    expect(rows["class"]?.consumers).toEqual(["9-lives"]);
    expect(rows["class"]?.consumerIds).toEqual([{ kind: "literal", value: "ws-00000000000000ff", comment: "outside: outside the selection, so not a resource of this program" }]);
    // The workspace class-lock took the name `class-lock`, so the lock on class is numbered: its row says so.
    expect(rows["class"]?.names).toEqual({ lock: "class-lock-2" });
    expect(Object.values(rows).filter((r) => Object.keys(r.names).length > 0).map((r) => r.key)).toEqual(["class"]);
  });

  test("the loops declare exactly the plan's resources: every name, import id and input", () => {
    const plan = planAdoption(tableEstate());
    const table = tableOf(plan);
    const resourceOf = new Map(table.workspaces.map((r) => [r.key, r.names.workspace ?? r.key]));
    const declared = resourcesOfTable(table, (key) => resourceOf.get(key) ?? key);
    expect(declared.map((r) => `${r.kind} ${r.name} ${r.importId}`).sort()).toEqual(plan.resources.map((r) => `${r.kind} ${r.name} ${r.importId}`).sort());
  });
});

describe("each language", () => {
  const plan = planAdoption(tableEstate());

  test("names no language may use as a variable (a leading digit, a reserved word, two that meet in camel case) are only string keys", () => {
    const ts = typescriptTableProgram(plan, "the whole organization");
    for (const key of ["9-lives", "a-b-c", "a-bc", "class-lock"]) expect(ts).toContain(`    ${JSON.stringify(key)}: {`);
    expect(ts).toContain("    class: {");
    expect(ts).not.toMatch(/const (ws9Lives|classResource|aBc)/);
    const py = pythonTableProgram(plan, "the whole organization", schema);
    for (const key of ["9-lives", "a-b-c", "a-bc", "class", "class-lock"]) expect(py).toContain(`    ${JSON.stringify(key)}: {`);
    const go = goTableProgram(plan, "the whole organization", schema);
    for (const key of ["9-lives", "a-b-c", "a-bc", "class", "class-lock"]) expect(go).toMatch(new RegExp(`\\t\\t\\tName: +${JSON.stringify(key)},`));
  });

  test("the shared settings appear once in each language, and a row's own setting beside its key", () => {
    const ts = typescriptTableProgram(plan, "all");
    expect(ts.match(/engineVersion: "1\.9\.5"/g)).toHaveLength(1);
    expect(ts).toContain('    "class-lock": {\n        id: "ws-000000000000000d",\n        settings: { engineVersion: "1.8.0", autoApply: false },\n    },');
    // A short row is one line, as a person writes it.
    expect(ts).toContain('    "a-b-c": { id: "ws-000000000000000a", lock: { reason: "change freeze" } },');
    const py = pythonTableProgram(plan, "all", schema);
    expect(py.match(/"engine_version": "1\.9\.5"/g)).toHaveLength(1);
    expect(py).toContain('    "class-lock": {\n        "id": "ws-000000000000000d",\n        "settings": {"engine_version": "1.8.0", "auto_apply": False},\n    },');
    expect(py).toContain('    "a-bc": {"id": "ws-000000000000000b", "ssh_key_id": "sshkey-1"},');
    const go = goTableProgram(plan, "all", schema);
    expect(go.match(/pulumi\.String\("1\.9\.5"\)/g)).toHaveLength(1);
    expect(go).toContain("\t\tif args.EngineVersion == nil {\n\t\t\targs.EngineVersion = pulumi.String(\"1.9.5\")\n\t\t}");
  });
});

/** The estate of a later run: the stack holds 9-lives and class (and class's lock), declared in the team's program. */
function laterPlan(): ReturnType<typeof planAdoption> {
  const held = new Map([["ws-0000000000000009", "9-lives"], ["ws-000000000000000c", "class"]]);
  const owned: Owned = {
    declared: new Set(["Workspace ws-0000000000000009", "Workspace ws-000000000000000c", "WorkspaceLock ws-000000000000000c"]),
    consumers: new Map(), names: new Set(["9-lives", "class", "class-lock-2"]),
    workspaceRef: (id) => {
      const name = held.get(id);
      return name === undefined ? undefined : { kind: "literal", value: id, comment: `${name}: held by this stack, declared in your program` };
    },
  };
  return planAdoption(tableEstate(), owned);
}

describe("a later run's batch", () => {
  test("a workspace the stack holds is a row declared elsewhere: it adds only what hangs off it, with the workspace's id; a held consumer is an id with why", () => {
    const table = tableOf(laterPlan());
    const row = table.workspaces.find((r) => r.key === "class");
    expect(row).toMatchObject({ id: "ws-000000000000000c", declaredElsewhere: "class: held by this stack, declared in your program", settings: {}, consumers: [] });
    expect(row?.lock).toBeUndefined();
    expect(row?.consumerIds.map((c) => [c.value, c.comment])).toEqual([
      ["ws-0000000000000009", "9-lives: held by this stack, declared in your program"],
      ["ws-00000000000000ff", "outside: outside the selection, so not a resource of this program"],
    ]);
    expect(table.workspaces.map((r) => r.key)).toEqual(["a-b-c", "a-bc", "class-lock", "class"]);
  });

  test("TypeScript: the program and a batch type-check (strict) against the SDK", () => {
    const plan = planAdoption(tableEstate());
    const files = new Map([
      ["index.ts", typescriptTableProgram(plan, "all")], ["adopted/index.ts", 'import "./1";\n'], ["adopted/1.ts", typescriptTableBatch(laterPlan(), "all", 1)],
    ]);
    expect(typeErrorsOfFiles(files, "index.ts")).toEqual([]);
    expect(files.get("adopted/1.ts")).toContain('    // class: held by this stack, declared in your program\n    class: {\n        id: "ws-000000000000000c",\n        declaredElsewhere: true,');
  });

  test("Go: the program and a batch are gofmt's own layout", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-go-table-"));
    try {
      fs.writeFileSync(path.join(dir, "main.go"), goTableProgram(planAdoption(tableEstate()), "all", schema));
      fs.writeFileSync(path.join(dir, "adopted_1.go"), goTableBatch(laterPlan(), "all", schema, 1));
      expect(execFileSync("gofmt", ["-l", "main.go", "adopted_1.go"], { cwd: dir, encoding: "utf8" })).toBe("");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

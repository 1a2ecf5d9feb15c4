// The pure parts of `wsbridge adopt`: names that are readable and stable, the selection, the plan's
// references and literal ids, and each language's spelling of values a program could misread.
import { workspace } from "../support/workspace-fixture";
import type { Estate } from "../../provider/adopt/model";
import type { Workspace } from "../../provider/runtime/api";
import { camelCase, uniqueNames, variableNames } from "../../provider/adopt/names";
import { planAdoption } from "../../provider/adopt/plan";
import { globPattern, selector, EVERYTHING } from "../../provider/adopt/selection";
import { yamlProgram } from "../../provider/adopt/program/yaml";
import { typescriptProgram } from "../../provider/adopt/program/typescript";
import { goProgram, type PackageSchema } from "../../provider/adopt/program/go";
import { pythonName, pythonProgram } from "../../provider/adopt/program/python";
import { packageSchemaText } from "../../provider/runtime/package-files";


function estate(workspaces: Estate["workspaces"], unselected: [string, string][] = []): Estate {
  return {
    address: "https://example.test", organization: "org", edition: "hosted", workspaces,
    unselected: new Map(unselected), projects: new Map([["prj-1", "platform"]]),
  };
}

describe("names", () => {
  test("collisions are numbered in the order of the key, so the same estate gets the same names on every run, whatever order it is listed in", () => {
    const requests = [{ key: "ws-b", base: "app" }, { key: "ws-a", base: "app" }, { key: "ws-c", base: "app-2" }];
    const forward = uniqueNames(requests);
    expect(Object.fromEntries(forward)).toEqual({ "ws-a": "app", "ws-c": "app-2", "ws-b": "app-3" });
    expect(uniqueNames([...requests].reverse())).toEqual(forward);
  });

  test("variables: camel case, a prefix before a digit, reserved words avoided, and api-prod/api_prod kept apart", () => {
    const names = variableNames(["api-prod", "api_prod", "9-lives", "class"], new Set(["class"]), "ws");
    expect(Object.fromEntries(names)).toEqual({ "api-prod": "apiProd", "api_prod": "apiProd2", "9-lives": "ws9Lives", class: "classResource" });
    expect(camelCase("net-eu_west.1")).toBe("netEuWest1");
  });
});

describe("selection", () => {
  test("globs match the whole name: * any run, ? one character, anything else literally", () => {
    expect(globPattern("app-*").test("app-0001")).toBe(true);
    expect(globPattern("app-*").test("my-app-0001")).toBe(false);
    expect(globPattern("a?c").test("abc")).toBe(true);
    expect(globPattern("a.c").test("abc")).toBe(false);
  });

  test("projects, names, tags (direct or inherited, all of them) and exclusions combine", () => {
    const tagged = workspace("ws-1", "app-1", {
      projectId: "prj-1",
      effectiveTagBindings: [
        { id: "t1", key: "env", value: "prod", inheritedFrom: { id: "prj-1", link: "" } },
        { id: "t2", key: "team", value: "", inheritedFrom: null },
      ],
    });
    const select = (s: Partial<typeof EVERYTHING>, ids: string[] = []): boolean => selector({ ...EVERYTHING, ...s }, new Set(ids))(tagged);
    expect(select({})).toBe(true);
    expect(select({}, ["prj-2"])).toBe(false);
    expect(select({ tags: [{ key: "env", value: "prod" }, { key: "team" }] })).toBe(true);
    expect(select({ tags: [{ key: "env", value: "dev" }] })).toBe(false);
    expect(select({ workspaces: ["web-*", "app-*"], excludes: ["*-1"] })).toBe(false);
  });
});

describe("the plan", () => {
  test("a consumer outside the selection is a literal id with why, one in another organization is not adopted (with why), the others are references", () => {
    const subject = workspace("ws-s", "subject");
    const inside = workspace("ws-i", "inside");
    const outside = workspace("ws-o", "outside");
    const foreign = workspace("ws-f", "theirs", { organization: "other-org" });
    const plan = planAdoption(estate([{ workspace: subject, consumers: [inside, outside, foreign] }, { workspace: inside }], [["ws-o", "outside"]]));
    const consumers = plan.resources.find((r) => r.kind === "RemoteStateConsumers");
    expect(consumers).toEqual({
      kind: "RemoteStateConsumers", name: "subject-consumers", importId: "ws-s/ws-i,ws-o",
      inputs: {
        workspaceId: { kind: "ref", resource: "subject" },
        consumerIds: [{ kind: "ref", resource: "inside" }, { kind: "literal", value: "ws-o", comment: "outside: outside the selection, so not a resource of this program" }],
      },
    });
    expect(plan.skipped).toEqual([{
      kind: "RemoteStateConsumers", object: "consumer theirs (ws-f) of workspace subject (ws-s)",
      reason: "it is in organization other-org; a consumer is adopted only from the workspace's own organization, and the others are left as they are",
    }]);
  });

  test("a resource name another object's suffix would take is numbered, not shared", () => {
    const plan = planAdoption(estate([
      { workspace: workspace("ws-a", "app", { locked: true, lockedBy: { type: "users", id: "user-1" } }) },
      { workspace: workspace("ws-b", "app-lock") },
    ]));
    expect(plan.resources.map((r) => `${r.kind}:${r.name}`)).toEqual(["Workspace:app", "Workspace:app-lock", "WorkspaceLock:app-lock-2"]);
  });
});

describe("the programs' spelling", () => {
  const plan = planAdoption(estate([{
    workspace: workspace("ws-a", "9-lives", { description: "costs ${x}: yes", tagNames: ["true"], projectId: "prj-1" }),
  }]));

  test("YAML: `${` stays literal ($${), words YAML would read as booleans or numbers are quoted, ids of other things carry a comment", () => {
    const text = yamlProgram(plan, "p", "the whole organization");
    expect(text).toContain('  "9-lives":\n');
    expect(text).toContain('      description: "costs $${x}: yes"\n');
    expect(text).toContain('        - "true"\n');
    expect(text).toContain("      # project platform: projects are not resources of this package\n      projectId: prj-1\n");
  });

  test("TypeScript and Go: names that are no identifiers become variables, strings are quoted once", () => {
    const ts = typescriptProgram(plan, "the whole organization");
    expect(ts).toContain('const ws9Lives = new wsbridge.Workspace("9-lives", {');
    expect(ts).toContain('    description: "costs ${x}: yes",');
    const go = goProgram(plan, "the whole organization", JSON.parse(packageSchemaText()) as PackageSchema);
    expect(go).toContain('if _, err := wsbridge.NewWorkspace(ctx, "9-lives", &wsbridge.WorkspaceArgs{');
    expect(go).toContain('\t\tTagNames: pulumi.StringArray{\n\t\t\tpulumi.String("true"),\n\t\t},');
  });

  test("Python: the SDK's snake_case names, dict keys for schema objects, a map's keys as found, references by variable, literal ids with a comment", () => {
    const schema = JSON.parse(packageSchemaText()) as PackageSchema;
    const subject = workspace("ws-s", "class", {
      vcsRepo: { identifier: "acme/app", oauthTokenId: "ot-1", branch: "main", ingressSubmodules: true } as Workspace["vcsRepo"],
      autoApply: true,
    } as Partial<Workspace>);
    const reader = workspace("ws-r", "9-lives");
    const py = pythonProgram(planAdoption(estate([{ workspace: subject, consumers: [reader, workspace("ws-o", "outside")] }, { workspace: reader }], [["ws-o", "outside"]])), "the whole organization", schema);
    // A reserved word and a leading digit: variables Python accepts, the resource names as found.
    expect(py).toContain('class_resource = wsbridge.Workspace(\n    "class",\n');
    expect(py).toContain('ws9_lives = wsbridge.Workspace(\n    "9-lives",\n');
    expect(py).toContain("    auto_apply=True,\n");
    expect(py).toContain('    vcs_repo={\n        "identifier": "acme/app",\n        "oauth_token_id": "ot-1",\n        "branch": "main",\n        "ingress_submodules": True,\n    },\n');
    expect(py).toContain("    workspace_id=class_resource.id,\n");
    expect(py).toContain('    consumer_ids=[\n        # outside: outside the selection, so not a resource of this program\n        "ws-o",\n        ws9_lives.id,\n    ],\n');
    expect(py).toContain('    opts=pulumi.ResourceOptions(import_="ws-s", protect=True),\n)');
    const tagged = pythonProgram(plan, "the whole organization", schema);
    expect(tagged).toContain('    description="costs ${x}: yes",\n');
    expect(tagged).toContain('    tag_names=[\n        "true",\n    ],\n');
    // Two camel-case variables that meet in snake case are numbered apart.
    const a = workspace("ws-x", "a-b-c");
    const b = workspace("ws-y", "a-bc");
    const both = pythonProgram(planAdoption(estate([{ workspace: a, consumers: [b] }, { workspace: b, consumers: [a] }])), "the whole organization", schema);
    expect(both).toContain('a_bc = wsbridge.Workspace(\n    "a-b-c",\n');
    expect(both).toContain('a_bc_2 = wsbridge.Workspace(\n    "a-bc",\n');
    expect(pythonName("deleteOlderThanNDays")).toBe("delete_older_than_n_days");
    expect(pythonName("githubAppInstallationId")).toBe("github_app_installation_id");
  });
});

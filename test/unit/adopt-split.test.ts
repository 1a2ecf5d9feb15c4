// `--split-by project`'s and `tag:<key>`'s grouping (provider/adopt/split.ts), without the engine: one group per project
// with its workspaces, one for the registry, references across groups as literal ids naming the folder,
// folder names a folder can have, kept between runs, and a workspace held by a stack kept with it.
import type { Estate } from "../../provider/adopt/model";
import { planAdoption } from "../../provider/adopt/plan";
import { folderName, groupsOf, parseSplitBy, stayingWorkspaces } from "../../provider/adopt/split";
import { describeSelection, EVERYTHING, selector } from "../../provider/adopt/selection";
import { workspace } from "../support/workspace-fixture";

function estate(): Estate {
  const web = workspace("ws-web", "web", { projectId: "prj-a" });
  const api = workspace("ws-api", "api", { projectId: "prj-b" });
  return {
    address: "https://example.test", organization: "org", edition: "self-managed",
    workspaces: [{ workspace: api }, { workspace: web, consumers: [api] }],
    unselected: new Map([["ws-old", "old"]]),
    projects: new Map([["prj-a", "Team A / web"], ["prj-b", "platform"]]),
    modules: [],
  };
}

test("one group per project with its own workspaces, and one for the registry's deprecations", () => {
  const groups = groupsOf(estate(), "project", EVERYTHING, {}, new Map());
  expect(groups.map((g) => [g.key, g.folder, g.estate.workspaces.map((w) => w.workspace.name), g.modules])).toEqual([
    ["prj-b", "platform", ["api"], false],
    ["prj-a", "Team-A-web", ["web"], false],
    ["registry", "registry", [], true],
  ]);
  // A run of one folder alone selects its project, or (the registry's) no workspace at all.
  expect(groups.map((g) => g.selection)).toEqual([
    { ...EVERYTHING, projects: ["prj-b"] }, { ...EVERYTHING, projects: ["prj-a"] }, { projects: [], workspaces: [], tags: [], excludes: ["*"] },
  ]);
  expect(groups.map((g) => g.estate.modules === undefined)).toEqual([true, true, false]);
});

test("a consumer another group adopts is a literal id naming that group's folder", () => {
  const web = groupsOf(estate(), "project", EVERYTHING, {}, new Map()).find((g) => g.key === "prj-a");
  const consumers = planAdoption(web?.estate as Estate).resources.find((r) => r.kind === "RemoteStateConsumers");
  expect(consumers?.inputs["consumerIds"]).toEqual([
    { kind: "literal", value: "ws-api", comment: "api: adopted by the stack of ../platform (wsbridge adopt --split-by project), so a literal id here" },
  ]);
});

test("folders earlier runs gave are kept (a renamed project keeps its own); a new one avoids them", () => {
  const groups = groupsOf(estate(), "project", EVERYTHING, { "prj-a": "web-team", "prj-x": "platform" }, new Map());
  expect(groups.map((g) => [g.key, g.folder])).toEqual([["prj-b", "platform-2"], ["prj-a", "web-team"], ["registry", "registry"]]);
});

test("a workspace a folder's stack holds stays in that folder's group, wherever its project is now", () => {
  const groups = groupsOf(estate(), "project", EVERYTHING, { "prj-a": "web-team", "prj-b": "platform" }, new Map([["ws-api", "web-team"]]));
  expect(groups.map((g) => [g.folder, g.estate.workspaces.map((w) => w.workspace.name)])).toEqual([
    ["web-team", ["api", "web"]], ["registry", []],
  ]);
});

test("folder names: letters, digits, -, _ and . kept; anything else one -", () => {
  expect(folderName("Default Project")).toBe("Default-Project");
  expect(folderName("team/α β")).toBe("team");
  expect(folderName("..")).toBe("project");
  expect(folderName("v1.2_x")).toBe("v1.2_x");
});

describe("--split-by tag:<key>", () => {
  const tag = (key: string, value: string, from?: string): { id: string; key: string; value: string; inheritedFrom: { id: string | null; link: string } | null } =>
    ({ id: `tb-${key}-${value}`, key, value, inheritedFrom: from === undefined ? null : { id: from, link: `/api/v2/projects/${from}` } });
  function tagged(): Estate {
    const pay = workspace("ws-pay", "pay", { projectId: "prj-a", effectiveTagBindings: [tag("team", "payments")] } as never);
    const search = workspace("ws-search", "search", { projectId: "prj-a", effectiveTagBindings: [tag("team", "search", "prj-a"), tag("env", "prod")] } as never);
    const loose = workspace("ws-loose", "loose", { projectId: "prj-b", effectiveTagBindings: [tag("env", "prod")] } as never);
    return { ...estate(), workspaces: [{ workspace: loose }, { workspace: pay, consumers: [search] }, { workspace: search }] };
  }

  test("parses tag:<key>, and refuses an empty key, one with = and anything else", () => {
    expect(parseSplitBy("tag:team")).toBe("tag:team");
    expect(parseSplitBy("tag:")).toEqual({ refusal: expect.stringContaining("the key must be 1 to 128 characters") });
    expect(parseSplitBy("tag:team=a")).toEqual({ refusal: expect.stringContaining('without "="') });
    expect(parseSplitBy("owner")).toEqual({ refusal: '--split-by must be project or tag:<key>, got "owner".' });
  });

  test("one group per value of the key, direct or inherited from the project, one for the workspaces without it, and the registry's", () => {
    const groups = groupsOf(tagged(), "tag:team", EVERYTHING, {}, new Map());
    expect(groups.map((g) => [g.key, g.folder, g.title, g.estate.workspaces.map((w) => w.workspace.name)])).toEqual([
      ["tag:team", "no-team", "the workspaces without tag team", ["loose"]],
      ["tag:team=payments", "payments", "tag team=payments", ["pay"]],
      ["tag:team=search", "search", "tag team=search", ["search"]],
      ["registry", "registry", "the registry's module deprecations", []],
    ]);
    // A run of one folder alone selects its value, or the workspaces without the key.
    expect(groups.slice(0, 2).map((g) => g.selection.tags)).toEqual([[{ key: "team", absent: true }], [{ key: "team", value: "payments" }]]);
    expect(groups.map((g) => describeSelection(g.selection))).toEqual(["without tag team", "--tag team=payments", "--tag team=search", "--exclude *"]);
  });

  test("a group's own selection picks exactly its workspaces", () => {
    const all = tagged().workspaces.map((w) => w.workspace);
    for (const group of groupsOf(tagged(), "tag:team", EVERYTHING, {}, new Map()).filter((g) => g.key !== "registry")) {
      const selects = selector(group.selection, new Set());
      expect(all.filter(selects).map((w) => w.name)).toEqual(group.estate.workspaces.map((w) => w.workspace.name));
    }
  });

  test("a consumer in another tag's group is a literal id naming its folder", () => {
    const payments = groupsOf(tagged(), "tag:team", EVERYTHING, {}, new Map()).find((g) => g.key === "tag:team=payments");
    const consumers = planAdoption(payments?.estate as Estate).resources.find((r) => r.kind === "RemoteStateConsumers");
    expect(consumers?.inputs["consumerIds"]).toEqual([
      { kind: "literal", value: "ws-search", comment: "search: adopted by the stack of ../search (wsbridge adopt --split-by tag:team), so a literal id here" },
    ]);
  });

  test("a workspace whose value changed stays with the stack that holds it, and is reported", () => {
    const folders = { "tag:team=payments": "payments", "tag:team=search": "search", "tag:team": "no-team" };
    const held = new Map([["ws-search", "payments"]]);
    const groups = groupsOf(tagged(), "tag:team", EVERYTHING, folders, held);
    expect(groups.find((g) => g.folder === "payments")?.estate.workspaces.map((w) => w.workspace.name)).toEqual(["pay", "search"]);
    expect(groups.some((g) => g.folder === "search")).toBe(false);
    expect(stayingWorkspaces(tagged(), "tag:team", folders, held)).toEqual([{ workspace: "search (ws-search)", folder: "payments", now: "tag team=search" }]);
  });
});

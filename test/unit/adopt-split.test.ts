// `--split-by project`'s grouping (provider/adopt/split.ts), without the engine: one group per project
// with its workspaces, one for the registry, references across groups as literal ids naming the folder,
// folder names a folder can have, kept between runs, and a workspace held by a stack kept with it.
import type { Estate } from "../../provider/adopt/model";
import { planAdoption } from "../../provider/adopt/plan";
import { folderName, groupsOf } from "../../provider/adopt/split";
import { EVERYTHING } from "../../provider/adopt/selection";
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

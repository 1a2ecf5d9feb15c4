// Bulk adoption: `pulumi import --file` of 100 workspaces made by hand (the emulator's fixture), on the
// real Pulumi CLI with the provider plugin installed as users install it, in a YAML project (see
// support/yaml-import-project.ts). The import reads each workspace once at its preview and once at
// the import itself; the YAML program it prints previews with no change and no request.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Fixtures } from "../../emulator";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { YamlProject, printedProgram, resourceSummary, resourcesByName } from "../support/yaml-import-project";

const ORG = "example-org";
const COUNT = 100;
const number = (i: number): string => String(i).padStart(3, "0");
const workspaces = Array.from({ length: COUNT }, (_, i) => ({
  id: `ws-bulk${number(i)}`, name: `service-${number(i)}`, description: `service ${i}, made by hand`,
}));

const fixtures: Fixtures = {
  organizations: [{
    name: ORG,
    projects: [{ id: "prj-default01", name: "Default Project" }],
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, attributes: { description: w.description, "engine-version": "1.9.8" } })),
  }],
};

const e2e = useEmulatorAndCli({ fixtures, quiet: true });
let project: YamlProject;
let printed = "";

beforeAll(async () => {
  project = YamlProject.create(e2e.cli, "wsbridge-bulk-import");
  await project.initStack("dev", { address: e2e.emulator.url, token: e2e.emulator.token, organization: ORG });
});

afterAll(() => project?.dispose());

/** The requests since the last call, as `METHOD path?query` below /api/v2; clears the log. */
function takeRequests(): string[] {
  const lines = e2e.emulator.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v2(?=\/)/, "")}${r.query === "" ? "" : `?${r.query}`}`);
  e2e.emulator.clearRequests();
  return lines;
}

test("`pulumi import --file` adopts 100 workspaces with one read of each at the preview and one at the import", async () => {
  const file = path.join(project.dir, "import.json");
  fs.writeFileSync(file, JSON.stringify({ resources: workspaces.map((w) => ({ type: "wsbridge:index:Workspace", name: w.name, id: w.id })) }));
  e2e.emulator.clearRequests();
  const { stdout } = await project.ok(["import", "--file", file, "--stack", "dev", "--yes"]);
  expect(takeRequests().sort()).toEqual(workspaces.flatMap((w) => Array(2).fill(`GET /workspaces/${w.id}?include=effective_tag_bindings`)).sort());
  expect(resourceSummary(stdout)).toEqual(["+ 1 created", `= ${COUNT} imported`, `${COUNT + 1} changes`]);
  printed = printedProgram(stdout);
  const state = resourcesByName(await project.exportState("dev"));
  expect([...state.keys()].sort()).toEqual(workspaces.map((w) => w.name));
  expect(Object.fromEntries([...state].map(([name, r]) => [name, r.id]))).toEqual(Object.fromEntries(workspaces.map((w) => [w.name, w.id])));
});

test("the printed program declares each workspace with the inputs that reproduce it and differ from what leaving them out means, protected", () => {
  const declaration = (w: (typeof workspaces)[number]): string => `  ${w.name}:
    type: wsbridge:Workspace
    properties:
      description: ${w.description}
      engineVersion: 1.9.8
      executionMode: remote
      globalRemoteState: false
      name: ${w.name}
      organization: ${ORG}
      projectId: prj-default01
    options:
      protect: true
`;
  expect(printed).toBe(`resources:\n${workspaces.map(declaration).join("")}`);
});

test("written into Pulumi.yaml, the program previews on the YAML host with no change and no request", async () => {
  project.writeProgram(printed);
  e2e.emulator.clearRequests();
  const { stdout } = await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
  expect(resourceSummary(stdout)).toEqual([`${COUNT + 1} unchanged`]);
  expect(takeRequests()).toEqual([]);
});

test("the token is in nothing the CLI printed, and in no state, backup or setting", () => {
  expect(project.printed).toContain("Importing (dev)");
  expect(project.printed).not.toContain(e2e.emulator.token);
  expect(project.allStoredText()).not.toContain(e2e.emulator.token);
});

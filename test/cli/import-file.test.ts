// Bulk adoption: `pulumi import --file` of 100 workspaces made by hand (the emulator's fixture), on the
// real Pulumi CLI in a YAML project (see support/yaml-import-project.ts), with an empty plugin cache and
// no Node.js on PATH: the import file names the plugin's version and release (as the SDKs do), so the
// engine downloads the plugin executable from a local stand-in for the release
// (support/plugin-release-server.ts) and runs it. The import reads each workspace once at its preview
// and once at the import itself; the YAML program it prints previews with no change and no request.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Fixtures } from "../../emulator";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { releaseAssetPath, servePluginReleases, type PluginReleaseServer } from "../support/plugin-release-server";
import { nodeOnPath } from "../../scripts/lib/without-node";
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
let releases: PluginReleaseServer;
let printed = "";
/** What every SDK's registration carries (the package schema's version and pluginDownloadURL). */
const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "schema", "schema.json"), "utf8")) as { version: string; pluginDownloadURL: string };

beforeAll(async () => {
  releases = await servePluginReleases();
  project = YamlProject.create(e2e.cli, "wsbridge-bulk-import", { fetchFrom: releases, withoutNode: true });
  await project.initStack("dev", { address: e2e.emulator.url, token: e2e.emulator.token, organization: ORG });
});

afterAll(async () => {
  project?.dispose();
  await releases?.close();
});

/** The requests since the last call, as `METHOD path?query` below /api/v2; clears the log. */
function takeRequests(): string[] {
  const lines = e2e.emulator.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v2(?=\/)/, "")}${r.query === "" ? "" : `?${r.query}`}`);
  e2e.emulator.clearRequests();
  return lines;
}

test("the CLI's PATH has no Node.js on it, and no plugin is installed", () => {
  expect(nodeOnPath(process.env.PATH ?? "")).toBeDefined();
  expect(nodeOnPath(project.env.PATH!)).toBeUndefined();
  expect(fs.existsSync(path.join(project.env.PULUMI_HOME!, "plugins"))).toBe(false);
});

test("`pulumi import --file` downloads the plugin once and adopts 100 workspaces with one read of each at the preview and one at the import", async () => {
  const file = path.join(project.dir, "import.json");
  fs.writeFileSync(file, JSON.stringify({
    resources: workspaces.map((w) => ({ type: "wsbridge:index:Workspace", name: w.name, id: w.id, version: schema.version, pluginDownloadUrl: schema.pluginDownloadURL })),
  }));
  e2e.emulator.clearRequests();
  const { stdout } = await project.ok(["import", "--file", file, "--stack", "dev", "--yes"]);
  expect(takeRequests().sort()).toEqual(workspaces.flatMap((w) => Array(2).fill(`GET /workspaces/${w.id}?include=effective_tag_bindings`)).sort());
  expect(resourceSummary(stdout)).toEqual(["+ 1 created", `= ${COUNT} imported`, `${COUNT + 1} changes`]);
  expect(releases.requests).toEqual([releaseAssetPath()]);
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
  expect(releases.requests).toEqual([releaseAssetPath()]);
});

test("the token is in nothing the CLI printed, and in no state, backup or setting", () => {
  expect(project.printed).toContain("Importing (dev)");
  expect(project.printed).not.toContain(e2e.emulator.token);
  expect(project.allStoredText()).not.toContain(e2e.emulator.token);
});

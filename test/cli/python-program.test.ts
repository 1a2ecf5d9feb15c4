// A Python program through the provider plugin on the real Pulumi CLI: the Python test program in
// test/python runs inline Python programs with Pulumi's Python Automation API (no language host), using the
// generated Python SDK (sdk/python) as a user installs it: a wheel, in a virtual environment of its own (made
// once for the suite, test/support/python-env.ts), with the Pulumi SDK of the CLI's release from PyPI. Its
// steps are those of the Go program (test/go): all seven kinds and the four lookups in one program, an
// explicit provider, up, a no-op preview, one change previewed exactly, refresh after drift, `pulumi import`
// of a workspace, bad inputs failing the preview with the TypeScript route's messages, destroy
// (test/python/test_every_kind.py lists them).
//
// The plugin is not installed: PULUMI_HOME starts empty and the engine downloads the plugin the first time
// the program needs it, from the release the SDK names (pulumi-plugin.json's "server"), which a local
// server stands in for (test/support/plugin-release-server.ts). No Node.js is on PATH: the plugin is one
// executable.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pluginArchive, pulumiCli, repoRoot } from "../../scripts/lib/stack-harness";
import { fetchingEnvironment, releaseAssetPath, servePluginReleases, type PluginReleaseServer } from "../support/plugin-release-server";
import { nodeOnPath, pathWithoutNode } from "../../scripts/lib/without-node";
import { pulumiRelease, pythonEnvironmentWithSdk, runCommand, testRequirements, type Printed, type PythonEnvironment } from "../support/python-env";

const PYTHON_TEST_DIR = path.join(repoRoot, "test", "python");
/** A first run downloads the Pulumi Python SDK and its dependencies from PyPI. */
const LONG_MS = 15 * 60_000;
const VERSION = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

// What test/python/program/fixtures.py says the emulator holds.
const FIXTURES = {
  organizations: [
    {
      name: "example-org",
      sshKeys: [{ id: "sshkey-pytest0000001", name: "deploy" }],
      workspaces: [{ name: "py-lookup-network" }, { name: "py-lookup-dns" }],
      registryModules: [
        { name: "vpc", provider: "aws", versions: ["1.0.0", { version: "1.1.0", deprecation: { reason: "use 1.2.0" } }, "1.2.0"] },
        { name: "dns", provider: "aws", versions: ["2.0.0", "2.1.0"] },
      ],
    },
    { name: "py-explicit-org" },
  ],
};

let emulator: RunningEmulator;
let releases: PluginReleaseServer;
/** Answers the release server's request log, so that the Python program can tell which operation downloaded. */
let downloads: http.Server;
let python: PythonEnvironment;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const cli = await pulumiCli();
  pluginArchive(); // the archive the release server serves exists (`npm run build:plugin` writes it)
  emulator = await startEmulator({ port: 0, quiet: true, edition: "self-managed", fixtures: FIXTURES });
  releases = await servePluginReleases();
  downloads = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(releases.requests));
  });
  await new Promise<void>((resolve) => downloads.listen(0, "127.0.0.1", resolve));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-py-"));
  fs.mkdirSync(path.join(dir, "stacks"));
  python = await pythonEnvironmentWithSdk({ shared: true, requirements: testRequirements() });
  // An empty PULUMI_HOME, and the engine's automatic plugin acquisition left on (the CLI's default).
  const pulumiEnv = fetchingEnvironment(cli, dir, releases);
  env = {
    ...process.env,
    ...pulumiEnv,
    // Nothing compiled is written into test/python.
    PYTHONDONTWRITEBYTECODE: "1",
    WSBRIDGE_PY_ADDRESS: emulator.url,
    WSBRIDGE_PY_TOKEN: emulator.token,
    WSBRIDGE_PY_ORGANIZATION: emulator.organization,
    WSBRIDGE_PY_WORKDIR: path.join(dir, "stacks"),
    WSBRIDGE_PY_CLI_ROOT: path.dirname(path.dirname(cli.command)),
    WSBRIDGE_PY_DOWNLOADS: `http://127.0.0.1:${(downloads.address() as AddressInfo).port}/`,
    // The plugin is one executable: nothing the program, the CLI or the plugin runs may need Node.js.
    PATH: pathWithoutNode(pulumiEnv.PATH!, dir),
  };
  delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION; // even if this process has it
}, LONG_MS);

afterAll(async () => {
  await emulator?.close();
  await releases?.close();
  await new Promise<void>((resolve) => (downloads === undefined ? resolve() : downloads.close(() => resolve())));
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

const runPython = (args: string[]): Promise<Printed> => runCommand(python.python, args, { cwd: PYTHON_TEST_DIR, env });

test("the Python program's PATH has no Node.js on it", () => {
  expect(nodeOnPath(process.env.PATH ?? "")).toBeDefined();
  expect(nodeOnPath(env.PATH!)).toBeUndefined();
});

test("the virtual environment holds the SDK's wheel and the Pulumi SDK of the CLI's release, and PULUMI_HOME no plugin", async () => {
  expect(path.basename(python.wheel)).toBe(`pulumi_wsbridge-${VERSION}-py3-none-any.whl`);
  const installed = await runPython(["-c", [
    "import importlib.metadata as m, json, pulumi_wsbridge",
    "print(json.dumps([m.version('pulumi_wsbridge'), m.version('pulumi'), pulumi_wsbridge.__file__.startswith(__import__('sys').prefix)]))",
  ].join("\n")]);
  expect(installed.status).toBe(0);
  // The SDK's version, the Pulumi SDK's, and whether the SDK is the venv's (not test/python's or the repository's).
  expect(JSON.parse(installed.printed)).toEqual([VERSION, pulumiRelease(), true]);
  expect(fs.existsSync(path.join(env.PULUMI_HOME!, "plugins"))).toBe(false);
}, LONG_MS);

test("the Python program passes every step on the real CLI, the engine downloads the plugin once, and no token is printed", async () => {
  const { status, printed } = await runPython(["-m", "unittest", "-v", "-f", "test_every_kind"]);
  // Shown when a step fails: which one, and what the CLI printed.
  if (status !== 0) console.log(printed);
  expect(status).toBe(0);
  expect(printed).toMatch(/\nRan 9 tests in [\d.]+s\n\nOK\n/);
  expect(printed).not.toMatch(/\bskipped\b/);
  expect(releases.requests).toEqual([
    releaseAssetPath(),
  ]);
  expect(printed).not.toContain(emulator.token);
}, LONG_MS);

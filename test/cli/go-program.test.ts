// A Go program through the provider plugin on the real Pulumi CLI: `go test` in test/go runs inline Go
// programs with Pulumi's Go Automation API (no language host), using the generated Go SDK (sdk/go):
// all seven kinds and the four lookups in one program, an explicit provider, up, a no-op preview, one
// change previewed exactly, refresh after drift, `pulumi import` of a workspace, bad inputs failing the
// preview with the TypeScript route's messages, destroy (test/go/every_kind_test.go lists the steps).
// This file starts the emulator and a stand-in for the project's GitHub releases, and runs it with an
// empty plugin cache and automatic plugin acquisition on, so the engine fetches the plugin itself the
// first time the program needs it, as it will for users (the Go SDK names the release in every
// registration), with no Node.js on PATH (the plugin is one executable); `go vet` of the Go test
// program runs here too.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pulumiCli, repoRoot } from "../../scripts/lib/stack-harness";
import { fetchingEnvironment, servePluginReleases, type PluginReleaseServer } from "../support/plugin-release-server";
import { nodeOnPath, pathWithoutNode } from "../../scripts/lib/without-node";

const GO_TEST_DIR = path.join(repoRoot, "test", "go");
/** The first run builds the Pulumi Go SDK and the test (minutes with an empty Go build cache). */
const LONG_MS = 25 * 60_000;

// What test/go/program/fixtures.go says the emulator holds.
const FIXTURES = {
  organizations: [
    {
      name: "example-org",
      sshKeys: [{ id: "sshkey-gotest0000001", name: "deploy" }],
      workspaces: [{ name: "go-lookup-network" }, { name: "go-lookup-dns" }],
      registryModules: [
        { name: "vpc", provider: "aws", versions: ["1.0.0", { version: "1.1.0", deprecation: { reason: "use 1.2.0" } }, "1.2.0"] },
        { name: "dns", provider: "aws", versions: ["2.0.0", "2.1.0"] },
      ],
    },
    { name: "go-explicit-org" },
  ],
};

let emulator: RunningEmulator;
let releases: PluginReleaseServer;
let dir: string;
let env: NodeJS.ProcessEnv;

/**
 * Runs a command (go, gofmt) in test/go and collects what it printed. Asynchronously: the emulator serves from this
 * process, so its event loop must keep running while the Go program calls it.
 */
function run(command: string, args: string[]): Promise<{ status: number | null; printed: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: GO_TEST_DIR, env, stdio: ["ignore", "pipe", "pipe"] });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => { printed += chunk.toString(); });
    child.stderr.on("data", (chunk: Buffer) => { printed += chunk.toString(); });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, printed }));
  });
}

const go = (args: string[]): Promise<{ status: number | null; printed: string }> => run("go", args);

beforeAll(async () => {
  const cli = await pulumiCli();
  emulator = await startEmulator({ port: 0, quiet: true, edition: "self-managed", fixtures: FIXTURES });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-go-"));
  fs.mkdirSync(path.join(dir, "stacks"));
  // HOME stays the user's: Go keeps its build cache below it, and an empty one means minutes of building.
  releases = await servePluginReleases();
  const pulumiEnv = fetchingEnvironment(cli, dir, releases, { HOME: os.homedir() });
  env = {
    ...process.env,
    ...pulumiEnv,
    // go.mod and go.sum are committed: a build must not change them.
    CGO_ENABLED: "0",
    GOFLAGS: "-mod=readonly -buildvcs=false -trimpath",
    WSBRIDGE_GO_ADDRESS: emulator.url,
    WSBRIDGE_GO_TOKEN: emulator.token,
    WSBRIDGE_GO_ORGANIZATION: emulator.organization,
    WSBRIDGE_GO_WORKDIR: path.join(dir, "stacks"),
    // The plugin is one executable: nothing the program, the CLI or the plugin runs may need Node.js.
    PATH: pathWithoutNode(pulumiEnv.PATH!, dir),
  };
}, LONG_MS);

afterAll(async () => {
  await emulator?.close();
  await releases?.close();
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

test("the Go program's PATH has no Node.js on it", () => {
  expect(nodeOnPath(process.env.PATH ?? "")).toBeDefined();
  expect(nodeOnPath(env.PATH!)).toBeUndefined();
});

test("go vet and gofmt find nothing in the Go test programs", async () => {
  const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "" && !l.startsWith("go: downloading"));
  const vet = await go(["vet", "./..."]);
  expect({ status: vet.status, printed: lines(vet.printed) }).toEqual({ status: 0, printed: [] });
  const unformatted = await run("gofmt", ["-l", "."]);
  expect({ status: unformatted.status, printed: lines(unformatted.printed) }).toEqual({ status: 0, printed: [] });
}, LONG_MS);

test("the Go program passes every step on the real CLI with the plugin fetched by the engine once, and no token is printed", async () => {
  const { status, printed } = await go(["test", "-count=1", "-v", "-timeout", "20m", "./..."]);
  // Shown when a step fails: which one, and what the CLI printed.
  if (status !== 0) console.log(printed);
  expect(status).toBe(0);
  expect(printed).toMatch(/--- PASS: TestEveryKindAndTheLookupsRunThroughThePluginOnTheRealCLI/);
  expect(printed).not.toContain(emulator.token);
  // The first operation downloaded the plugin's archive for this platform; none after it did.
  expect(releases.requests).toHaveLength(1);
  expect(releases.requests[0]).toMatch(/\/releases\/download\/v[^/]+\/pulumi-resource-wsbridge-v[^/]+-[a-z]+-[a-z0-9]+\.tar\.gz$/);
}, LONG_MS);

// The engine installs the plugin itself, as for any Pulumi provider: the package schema names the
// GitHub releases (pluginDownloadURL, carried by every SDK into each registration), and with an empty
// plugin cache the real CLI downloads the archive for its platform the first time a program needs it.
// A local server stands in for GitHub (test/support/plugin-release-server.ts) and
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sends the engine there. The program is TypeScript through the
// plugin's Node.js SDK, inline through the Automation API; test/cli/go-program.test.ts and
// test/cli/python-program.test.ts run the Go and Python SDKs the same way.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import * as wsbridge from "@pulumi-wsbridge/wsbridge";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pulumiCli } from "../../scripts/lib/stack-harness";
import { fetchingEnvironment, releaseAssetPath, servePluginReleases, type PluginReleaseServer } from "../support/plugin-release-server";

const LONG_MS = 5 * 60_000;
const VERSION = (JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }).version;
/** The asset the engine asks for on this machine. */
const ASSET = releaseAssetPath();

let cli: PulumiCommand;
let emulator: RunningEmulator;
const folders: string[] = [];

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({ port: 0, quiet: true });
}, LONG_MS);

afterAll(async () => {
  await emulator?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

interface FetchingStack {
  stack: Stack;
  /** PULUMI_HOME's plugins folder. */
  plugins: string;
  printed: string[];
}

/** A stack whose CLI has an empty plugin cache and fetches the plugin from `server`. */
async function fetchingStack(server: PluginReleaseServer, workspaceName: string): Promise<FetchingStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-download-"));
  folders.push(dir);
  const env = fetchingEnvironment(cli, dir, server);
  const program = async (): Promise<Record<string, unknown>> => {
    const workspace = new wsbridge.Workspace("app", { name: workspaceName, description: "fetched" });
    return { id: workspace.id };
  };
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", projectName: "wsbridge-download", program },
    { pulumiCommand: cli, envVars: env, workDir: dir },
  );
  await stack.setAllConfig({
    "wsbridge:address": { value: emulator.url },
    "wsbridge:organization": { value: emulator.organization },
    "wsbridge:token": { value: emulator.token, secret: true },
  });
  return { stack, plugins: path.join(env.PULUMI_HOME!, "plugins"), printed: [] };
}

const entries = (folder: string): string[] => (fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []);
const workspaceNames = (): Promise<string[]> =>
  fetch(`${emulator.url}/api/v2/organizations/${emulator.organization}/workspaces`, { headers: { authorization: `Bearer ${emulator.token}` } })
    .then(async (response) => ((await response.json()) as { data: { attributes: { name: string } }[] }).data.map((w) => w.attributes.name));

test("with an empty plugin cache, the first up downloads the plugin's archive for this platform once; preview, a second up and destroy download nothing", async () => {
  const server = await servePluginReleases();
  try {
    const { stack, plugins } = await fetchingStack(server, "downloaded-app");
    expect(entries(plugins)).toEqual([]);

    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(server.requests).toEqual([ASSET]);
    expect(entries(plugins)).toEqual([`resource-wsbridge-v${VERSION}`, `resource-wsbridge-v${VERSION}.lock`]);
    expect(await workspaceNames()).toContain("downloaded-app");

    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    const again = await stack.up();
    expect(again.summary.resourceChanges).toEqual({ same: 2 });
    await stack.destroy();
    expect(server.requests).toEqual([ASSET]);
    expect(await workspaceNames()).not.toContain("downloaded-app");
  } finally {
    await server.close();
  }
}, LONG_MS);

test("a release without the asset fails the up with the engine's own message, installs nothing and sends the API no request", async () => {
  const server = await servePluginReleases({ assets: fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-no-assets-")) });
  try {
    const { stack, plugins } = await fetchingStack(server, "never-made");
    emulator.clearRequests();
    const failure = await stack.up().then(() => undefined, (error: unknown) => String(error));
    expect(failure).toContain(`Could not automatically download and install resource plugin 'pulumi-resource-wsbridge' at version v${VERSION}`);
    expect(failure).toContain(`404 HTTP error fetching plugin from ${server.origin}${ASSET}`);
    expect(server.requests).toEqual([ASSET]);
    expect(entries(plugins)).toEqual([]);
    expect(emulator.requests()).toEqual([]);
  } finally {
    await server.close();
  }
}, LONG_MS);

test("a corrupt asset fails with the engine's message and leaves only a folder marked partial, which the next up with a good asset replaces", async () => {
  const corrupt = await servePluginReleases({ corruptWith: Buffer.from("not a gzip archive") });
  let stack: Stack;
  let plugins: string;
  try {
    ({ stack, plugins } = await fetchingStack(corrupt, "after-a-corrupt-download"));
    emulator.clearRequests();
    const failure = await stack.up().then(() => undefined, (error: unknown) => String(error));
    expect(failure).toContain("error installing provider wsbridge: uncompressing: gzip: invalid header");
    // The engine's own marker: a folder with `.partial` beside it is not an installed plugin.
    expect(entries(plugins)).toEqual([`resource-wsbridge-v${VERSION}`, `resource-wsbridge-v${VERSION}.lock`, `resource-wsbridge-v${VERSION}.partial`]);
    expect(emulator.requests()).toEqual([]);
  } finally {
    await corrupt.close();
  }

  const good = await servePluginReleases();
  try {
    stack!.workspace.envVars.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = good.overrides;
    const up = await stack!.up();
    // The failed up recorded the stack itself; the workspace is made now.
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 1 });
    expect(good.requests).toEqual([ASSET]);
    expect(entries(plugins!)).toEqual([`resource-wsbridge-v${VERSION}`, `resource-wsbridge-v${VERSION}.lock`]);
    await stack!.destroy();
  } finally {
    await good.close();
  }
}, LONG_MS);

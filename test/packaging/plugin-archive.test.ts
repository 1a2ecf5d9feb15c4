// The provider plugin as the engine meets it: the archive `npm run build:plugin` writes for this machine
// holds one executable (Node.js with the plugin injected, and the code cache) and the licence notices;
// it starts with nothing on PATH, prints the port on its first stdout line and nothing before; over gRPC
// the plugin names its version, serves the committed package schema byte for byte, checks its own
// configuration (naming the setting, the token kept secret), and refuses bad inputs and lookup
// arguments naming the property without a request. It ends when the process that started it is gone.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pluginArchive, pulumiCli, repoRoot } from "../../scripts/lib/stack-harness";
import { BLOB_FILES } from "../../scripts/plugin-executable/executable";
import { inspectExecutable } from "../../scripts/plugin-executable/inspect";
import { hostPlatform } from "../../scripts/plugin-executable/node-runtime";

const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

let dir: string;
let plugin: ChildProcess;
let client: ResourceProviderClient;
let emulator: RunningEmulator;
let firstLine: string;

/** A unary call as a promise. */
function call<Req, Res>(method: (req: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => unknown, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => method.call(client, req, (e: grpc.ServiceError | null, r: Res) => (e ? reject(e) : resolve(r))));
}

const struct = (value: Record<string, unknown>): Struct => Struct.fromJavaScript(value as Parameters<typeof Struct.fromJavaScript>[0]);

/** The first `count` lines a process prints on stdout. */
function linesOf(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const lines = text.split("\n");
      if (lines.length > count) resolve(lines.slice(0, count));
    });
    child.once("exit", (code) => reject(new Error(`the process exited (${code}) before printing ${count} line(s)`)));
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, edition: "self-managed" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-plugin-"));
  execFileSync("tar", ["-xzf", pluginArchive(), "-C", dir]);
  // The engine passes its own address last; no engine listens there, and none is needed to serve.
  plugin = spawn(path.join(dir, "pulumi-resource-wsbridge"), ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
  [firstLine = ""] = await linesOf(plugin, 1);
  client = new ResourceProviderClient(`127.0.0.1:${firstLine}`, grpc.credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  plugin?.kill();
  await emulator?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the archive holds the executable and the licence notices, and the executable is this platform's Node.js with the plugin and its code cache injected", () => {
  expect(fs.readdirSync(dir).sort()).toEqual(["pulumi-resource-wsbridge", "pulumi-resource-wsbridge.NOTICES.txt"]);
  const executable = path.join(dir, "pulumi-resource-wsbridge");
  expect(fs.statSync(executable).mode & 0o111).not.toBe(0);
  expect(path.basename(pluginArchive())).toBe(`pulumi-resource-wsbridge-v${version}-${hostPlatform()}.tar.gz`);
  const blob = fs.readFileSync(path.join(repoRoot, "dist", "plugin", "bin", BLOB_FILES.codeCache));
  expect(inspectExecutable(fs.readFileSync(executable), blob)).toMatchObject({ platform: hostPlatform(), fuse: "flipped", holdsBlob: true });
  const notices = fs.readFileSync(path.join(dir, "pulumi-resource-wsbridge.NOTICES.txt"), "utf8");
  expect(notices).toContain("long/umd/index.js");
  expect(notices).toContain("Node.js is licensed for use as follows:");
});

test("the executable starts and serves with an empty environment: no node, nothing on PATH", async () => {
  const bare = spawn(path.join(dir, "pulumi-resource-wsbridge"), ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"], env: {} });
  try {
    const [port] = await linesOf(bare, 1);
    const bareClient = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const info = await new Promise<PluginInfo>((resolve, reject) => bareClient.getPluginInfo(new Empty(), (e, r) => (e ? reject(e) : resolve(r))));
    bareClient.close();
    expect(info.getVersion()).toBe(version);
  } finally {
    bare.kill();
  }
});

test("scripts/check-plugin-archive.js, which CI runs on macOS and Windows runners, installs this machine's archive and runs a YAML program's up, preview and destroy with no node on PATH", async () => {
  const cli = await pulumiCli();
  const checked = await new Promise<{ code: number | null; printed: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts", "check-plugin-archive.js"), pluginArchive(), "--pulumi-bin", path.dirname(cli.command)], { stdio: ["ignore", "pipe", "pipe"] });
    let printed = "";
    child.stdout?.on("data", (chunk: Buffer) => { printed += chunk.toString(); });
    child.stderr?.on("data", (chunk: Buffer) => { printed += chunk.toString(); });
    child.once("close", (code) => resolve({ code, printed }));
  });
  expect(checked).toEqual({
    code: 0,
    printed: `${path.basename(pluginArchive())}: installed, and up, preview (no changes) and destroy of a YAML program ran with no node on PATH\n`,
  });
}, 120_000);

test("beside the archive, the SDK's npm tarball names the plugin, its version and its release, with the compiled classes and their types", () => {
  const tarball = path.join(path.dirname(pluginArchive()), `pulumi-wsbridge-wsbridge-${version}.tgz`);
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
  expect(files).toEqual(expect.arrayContaining(["package/package.json", "package/index.js", "package/index.d.ts", "package/workspace.js", "package/workspace.d.ts"]));
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as Record<string, unknown>;
  expect({ name: manifest.name, version: manifest.version, pulumi: manifest.pulumi }).toEqual({
    name: "@pulumi-wsbridge/wsbridge", version, pulumi: { resource: true, name: "wsbridge", version, server: "github://api.github.com/pulumi-wsbridge/pulumi-wsbridge" },
  });
});

test("the first line on stdout is the port, with nothing before it", () => {
  expect(firstLine).toMatch(/^\d+$/);
});

test("GetPluginInfo names the package's version, and GetSchema serves the committed schema byte for byte", async () => {
  const info = await call<Empty, PluginInfo>(client.getPluginInfo, new Empty());
  expect(info.getVersion()).toBe(version);
  const schema = await call<pb.GetSchemaRequest, pb.GetSchemaResponse>(client.getSchema, new pb.GetSchemaRequest());
  expect(schema.getSchema()).toBe(fs.readFileSync(path.join(repoRoot, "schema", "schema.json"), "utf8"));
});

test("CheckConfig names a setting that cannot work, and keeps the token secret even when it came in plain", async () => {
  const req = new pb.CheckRequest()
    .setUrn("urn:pulumi:dev::p::pulumi:providers:wsbridge::eu")
    .setNews(struct({ address: "ftp://example.com", token: "plain-token", edition: "cloud", maxRetries: "many" }));
  const res = await call<pb.CheckRequest, pb.CheckResponse>(client.checkConfig, req);
  expect(res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`).sort()).toEqual([
    expect.stringMatching(/^address: /),
    'edition: must be "hosted" or "self-managed", got "cloud"',
    'maxRetries: must be a whole number from 0 to 50, got "many"',
  ]);
  expect(res.getInputs()?.toJavaScript().token).toEqual({ ...SECRET_SIG, value: "plain-token" });
});

test("Configure accepts secrets and answers previews itself", async () => {
  const req = new pb.ConfigureRequest().setArgs(struct({
    address: emulator.url, token: { ...SECRET_SIG, value: emulator.token }, organization: emulator.organization,
  })).setAcceptsecrets(true);
  const res = await call<pb.ConfigureRequest, pb.ConfigureResponse>(client.configure, req);
  expect({ secrets: res.getAcceptsecrets(), preview: res.getSupportspreview() }).toEqual({ secrets: true, preview: true });
});

test("Check refuses bad inputs naming the property and the rule, without a request", async () => {
  emulator.clearRequests();
  const req = new pb.CheckRequest()
    .setUrn("urn:pulumi:dev::p::wsbridge:index:Workspace::net").setType("wsbridge:index:Workspace")
    .setOlds(struct({})).setNews(struct({ name: "has space", organization: "example-org", autoDestroyActivityDuration: "0d" }));
  const res = await call<pb.CheckRequest, pb.CheckResponse>(client.check, req);
  expect(res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`)).toEqual([
    "name: must contain only letters, digits, '-' and '_' (and not be empty)",
    "autoDestroyActivityDuration: must be 1 to 4 digits (greater than 0) followed by d or h, e.g. 14d",
  ]);
  expect(emulator.requests()).toEqual([]);
});

test("Invoke answers a lookup's bad arguments as failures naming each, without a request", async () => {
  emulator.clearRequests();
  const req = new pb.InvokeRequest().setTok("wsbridge:index:getWorkspace").setArgs(struct({ name: "x", id: "ws-1" }));
  const res = await call<pb.InvokeRequest, pb.InvokeResponse>(client.invoke, req);
  expect(res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`)).toEqual([
    "id: id and name must not both be given (give exactly one of them)",
  ]);
  expect(emulator.requests()).toEqual([]);
});

test("a type the package does not have is an error naming the ones it has", async () => {
  const req = new pb.CheckRequest().setUrn("urn:pulumi:dev::p::wsbridge:index:Nope::x").setType("wsbridge:index:Nope")
    .setOlds(struct({})).setNews(struct({}));
  await expect(call(client.check, req)).rejects.toThrow(/unknown resource type wsbridge:index:Nope; this provider serves wsbridge:index:Workspace, /);
});

test("the plugin ends when the process that started it is gone", async () => {
  // A shell starts a second plugin in the background (printing its pid, then the plugin its port) and is
  // killed once the plugin serves, as an engine killed during a deployment would be.
  const shell = spawn("sh", ["-c", `"${path.join(dir, "pulumi-resource-wsbridge")}" 127.0.0.1:1 & echo $!; wait`], { stdio: ["ignore", "pipe", "ignore"] });
  const [pid] = await linesOf(shell, 2);
  shell.kill("SIGKILL");
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      try {
        process.kill(Number(pid), 0);
      } catch {
        clearInterval(poll);
        resolve();
      }
    }, 200);
  });
});

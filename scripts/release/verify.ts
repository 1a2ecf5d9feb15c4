// Checks of the written artifacts before the release calls them ready: each names the release's
// version where its registry and its users read it; every plugin archive holds an executable of its
// platform's format and architecture with the plugin injected (signed ad hoc on macOS, no stale
// certificate on Windows) within the size budget, and the one for this machine starts and reports that
// version and its schema over gRPC, as the engine would ask.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { artifactNames, type Release } from "./artifacts";
import { log, run } from "./run";
import { BLOB_FILES, executableName } from "../plugin-executable/executable";
import { inspectExecutable } from "../plugin-executable/inspect";
import { hostPlatform, PLATFORMS, type Platform } from "../plugin-executable/node-runtime";

/** docs/plugin.md's promise: each archive at most 45 MB (Node.js is nearly all of it). */
export const ARCHIVE_BUDGET_BYTES = 45_000_000;

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
}

async function tarJson(tarball: string, member: string): Promise<Record<string, unknown>> {
  return JSON.parse(await run("tar", ["-xzOf", tarball, member])) as Record<string, unknown>;
}

async function tarList(tarball: string): Promise<string[]> {
  return (await run("tar", ["-tzf", tarball])).split("\n").filter((line) => line !== "").map((line) => line.replace(/^\.\//, "")).sort();
}

export async function verifyNpmPackages(release: Release, schema: Record<string, unknown>): Promise<void> {
  const names = artifactNames(release.version);
  const npmPackage = path.join(release.out, names.npmPackage);
  const manifest = await tarJson(npmPackage, "package/package.json");
  expectEqual(`${names.npmPackage}: package.json name and version`, [manifest.name, manifest.version], ["pulumi-wsbridge", release.version]);
  const files = await tarList(npmPackage);
  for (const file of ["package/dist/provider/index.js", "package/dist/provider/index.d.ts", "package/bin/wsbridge.js", "package/schema/Workspace.json"]) {
    if (!files.includes(file)) throw new Error(`${names.npmPackage} lacks ${file}`);
  }
  expectEqual(`${names.npmPackage}: schema/schema.json version`, (await tarJson(npmPackage, "package/schema/schema.json")).version, release.version);

  const sdk = path.join(release.out, names.sdkTarball);
  const sdkManifest = await tarJson(sdk, "package/package.json");
  const pulumi = sdkManifest.pulumi as Record<string, unknown> | undefined;
  expectEqual(`${names.sdkTarball}: package.json name, version and plugin`, [sdkManifest.name, sdkManifest.version, pulumi?.name, pulumi?.version], [
    "@pulumi-wsbridge/wsbridge", release.version, "wsbridge", release.version,
  ]);
  if (schema.pluginDownloadURL !== undefined) {
    expectEqual(`${names.sdkTarball}: package.json pulumi.server`, pulumi?.server, schema.pluginDownloadURL);
  }
  if (!(await tarList(sdk)).includes("package/index.js")) throw new Error(`${names.sdkTarball} lacks index.js`);
}

/** Checks one platform's archive (throwing a sentence naming what does not hold); returns the executable and a line of its facts. */
export async function checkPluginArchive(archive: string, platform: Platform, blob: Buffer, into: string): Promise<{ executable: string; facts: string }> {
  const name = executableName(platform);
  expectEqual(`${path.basename(archive)}: its files`, await tarList(archive), [name, "pulumi-resource-wsbridge.NOTICES.txt"].sort());
  const size = fs.statSync(archive).size;
  if (size > ARCHIVE_BUDGET_BYTES) throw new Error(`${path.basename(archive)} is ${size} bytes, over the ${ARCHIVE_BUDGET_BYTES} budget`);
  fs.mkdirSync(into, { recursive: true });
  await run("tar", ["-xzf", archive, "-C", into]);
  const executable = path.join(into, name);
  const facts = inspectExecutable(fs.readFileSync(executable), blob);
  expectEqual(`${path.basename(archive)}: the executable's platform, fuse and blob`, [facts.platform, facts.fuse, facts.holdsBlob], [platform, "flipped", true]);
  if (facts.format === "macho") {
    expectEqual(`${path.basename(archive)}: the ad-hoc signature (identifier, valid)`, [facts.signature?.identifier, facts.signature?.valid], ["pulumi-resource-wsbridge", true]);
  }
  if (facts.format === "pe") {
    expectEqual(`${path.basename(archive)}: certificate entry size and header checksum`, [facts.certificateSize, facts.checksumValid], [0, true]);
  }
  const format = { elf: "ELF", macho: "Mach-O", pe: "PE" }[facts.format];
  const extra = facts.format === "macho" ? ", signed ad hoc (every page hash valid)" : facts.format === "pe" ? ", no certificate, checksum right" : "";
  return {
    executable,
    facts: `${platform}: ${format} ${platform.split("-")[1]}, fuse flipped, blob inside${extra}, archive ${(size / 1e6).toFixed(1)} MB (budget ${ARCHIVE_BUDGET_BYTES / 1e6} MB)`,
  };
}

/**
 * Every archive passes checkPluginArchive against the blob build-plugin.js injected (the one with the
 * code cache for this machine's platform); the one for this machine starts and answers with the version.
 */
export async function verifyPluginArchives(release: Release): Promise<string[]> {
  const bin = path.join(release.work, "plugin", "bin");
  const host = hostPlatform();
  const found: string[] = [];
  for (const platform of PLATFORMS) {
    const blob = fs.readFileSync(path.join(bin, platform === host ? BLOB_FILES.codeCache : BLOB_FILES.portable));
    const archive = path.join(release.out, `pulumi-resource-wsbridge-v${release.version}-${platform}.tar.gz`);
    const into = path.join(release.work, "plugin-check", platform);
    const { executable, facts } = await checkPluginArchive(archive, platform, blob, into);
    log(facts);
    found.push(facts);
    if (platform === host) {
      const { version, schemaVersion } = await askPlugin(executable);
      expectEqual("the plugin's GetPluginInfo version", version, release.version);
      expectEqual("the version of the schema the plugin serves", schemaVersion, release.version);
    }
    // 130 MB each unpacked: not kept once checked.
    fs.rmSync(into, { recursive: true, force: true });
  }
  return found;
}

/** Starts the plugin as the engine does and asks its version and schema. */
async function askPlugin(executable: string): Promise<{ version: string; schemaVersion: unknown }> {
  // The engine passes its own address last; no engine listens there, and none is needed to serve.
  const plugin = spawn(executable, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let text = "";
      plugin.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("\n")) resolve(text.split("\n")[0] ?? "");
      });
      plugin.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port`)));
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const info = await new Promise<PluginInfo>((resolve, reject) => client.getPluginInfo(new Empty(), (e, r) => (e ? reject(e) : resolve(r))));
      const schema = await new Promise<pb.GetSchemaResponse>((resolve, reject) =>
        client.getSchema(new pb.GetSchemaRequest(), (e, r) => (e ? reject(e) : resolve(r))));
      return { version: info.getVersion(), schemaVersion: (JSON.parse(schema.getSchema()) as { version?: unknown }).version };
    } finally {
      client.close();
    }
  } finally {
    plugin.kill();
  }
}

const READ_PYTHON_DISTRIBUTIONS = `
import json, sys, tarfile, zipfile
wheel, sdist = sys.argv[1:3]
with zipfile.ZipFile(wheel) as z:
    names = z.namelist()
    metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    plugin = json.loads(z.read("pulumi_wsbridge/pulumi-plugin.json"))
with tarfile.open(sdist) as t:
    pkg_info = t.extractfile(next(m for m in t.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO"))).read().decode()
field = lambda text, name: next((l.split(": ", 1)[1] for l in text.splitlines() if l.startswith(name + ": ")), None)
print(json.dumps({"wheel": [field(metadata, "Name"), field(metadata, "Version")], "plugin": plugin.get("version"),
                  "sdist": [field(pkg_info, "Name"), field(pkg_info, "Version")]}))
`;

export async function verifyPython(release: Release, venv: string): Promise<void> {
  const names = artifactNames(release.version);
  const read = JSON.parse(await run(path.join(venv, "bin", "python"), ["-c", READ_PYTHON_DISTRIBUTIONS, names.wheel, names.sdist], { cwd: release.out })) as {
    wheel: [string, string]; plugin: string; sdist: [string, string];
  };
  expectEqual(`${names.wheel}: METADATA name and version`, read.wheel, ["pulumi_wsbridge", release.version]);
  expectEqual(`${names.wheel}: pulumi_wsbridge/pulumi-plugin.json version`, read.plugin, release.version);
  expectEqual(`${names.sdist}: PKG-INFO name and version`, read.sdist, ["pulumi_wsbridge", release.version]);
}

export function verifyGoAndDotnet(release: Release, goModulePath: string): void {
  const names = artifactNames(release.version);
  const readJson = (...parts: string[]) => JSON.parse(fs.readFileSync(path.join(release.out, ...parts), "utf8")) as Record<string, unknown>;
  expectEqual("go/module/wsbridge/pulumi-plugin.json version", readJson(names.goModule, "wsbridge", "pulumi-plugin.json").version, release.version);
  const versions = path.join(release.out, names.goProxy, ...goModulePath.split("/"), "@v");
  for (const file of ["list", `v${release.version}.info`, `v${release.version}.mod`, `v${release.version}.zip`]) {
    if (!fs.existsSync(path.join(versions, file))) throw new Error(`the GOPROXY layout lacks ${path.relative(release.out, path.join(versions, file))}`);
  }
  const project = fs.readFileSync(path.join(release.out, names.dotnetProject), "utf8");
  expectEqual(`${names.dotnetProject} <Version>`, /<Version>([^<]*)<\/Version>/.exec(project)?.[1], release.version);
  expectEqual("dotnet/version.txt", fs.readFileSync(path.join(release.out, names.dotnet, "version.txt"), "utf8").trim(), release.version);
  expectEqual("dotnet/pulumi-plugin.json version", readJson(names.dotnet, "pulumi-plugin.json").version, release.version);
}

#!/usr/bin/env node
// `npm run build:plugin`: builds the provider plugin as one executable per platform and packs each as
// the archive the engine downloads and `pulumi plugin install resource wsbridge <version> --file
// <archive>` accepts:
//
//   dist/plugin/pulumi-resource-wsbridge-v<version>-<os>-<arch>.tar.gz, for linux-amd64, linux-arm64,
//   darwin-amd64, darwin-arm64 and windows-amd64:
//     pulumi-resource-wsbridge (.exe on Windows)   the plugin: Node.js with the bundle injected as a
//                                                  single-executable application; nothing else needed
//     pulumi-resource-wsbridge.NOTICES.txt         the licences of the bundled packages and of Node.js
//
// How (scripts/plugin-executable/): esbuild bundles the plugin, its dependencies (gRPC, protobuf,
// undici, zod) and the package schema into one file; Node.js 22's own single-executable route makes it
// a preparation blob (with V8's code cache for this machine's platform) and postject injects that into
// the official Node.js binary of each platform, fetched once from the npm registry into the per-user
// cache; the macOS executables are then signed ad hoc, the Windows one loses the certificate the
// injection invalidated. Why one executable: Go, Python and .NET users need no Node.js, and Windows
// works (docs/plugin.md); why a bundle: one file to compile, which the code cache then skips.
//
// Beside the archives it writes the plugin's Node.js SDK as an npm tarball,
// dist/plugin/pulumi-wsbridge-wsbridge-<version>.tgz (`npm install` it; it names plugin wsbridge <version>),
// compiled from sdk/nodejs by scripts/build-nodejs-sdk.sh.
//
//   --platform P      only the archive for P (repeatable; `this` is this machine's platform): the test
//                     suite builds only the one it runs
//   --only archives|sdk   one of the two parts (the test command builds the SDK first, whose types its
//                     type-check needs, then the archive beside the type-check)
// For a release (scripts/release.js), without touching the repository's files:
//   --version X.Y.Z   the plugin's version, in the bundle, its package schema's `version` and the archives'
//                     names, instead of package.json's; no SDK tarball is written then (sdk/nodejs carries
//                     package.json's version: scripts/release.js packs the SDK generated for X.Y.Z)
//   --out DIR         DIR instead of dist/plugin (DIR/bin holds the bundle and the preparation blobs)
"use strict";
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { pipeline } = require("node:stream/promises");
const { parseArgs } = require("node:util");
const zlib = require("node:zlib");
const esbuild = require("esbuild");
require("./lib/register-ts");
const { PLATFORMS, hostPlatform, nodeLicense } = require("./plugin-executable/node-runtime.ts");
const { BLOB_FILES, executableName, preparationBlob, writeExecutable } = require("./plugin-executable/executable.ts");

const root = path.resolve(__dirname, "..");
const options = parseArgs({
  options: { version: { type: "string" }, out: { type: "string" }, platform: { type: "string", multiple: true }, only: { type: "string" } },
}).values;
const outDir = options.out === undefined ? path.join(root, "dist", "plugin") : path.resolve(options.out);
const binDir = path.join(outDir, "bin");
const BUNDLE = "pulumi-resource-wsbridge.bundle.js";

function platforms() {
  const asked = (options.platform ?? [...PLATFORMS]).map((p) => (p === "this" ? hostPlatform() ?? p : p));
  for (const p of asked) if (!PLATFORMS.includes(p)) throw new Error(`--platform ${p}: the plugin is built for ${PLATFORMS.join(", ")}`);
  return [...new Set(asked)];
}

async function bundle() {
  const version = options.version ?? JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  const schema = schemaOfVersion(fs.readFileSync(path.join(root, "schema", "schema.json"), "utf8"), options.version);
  fs.rmSync(binDir, { recursive: true, force: true });
  fs.mkdirSync(binDir, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(root, "provider", "plugin", "pulumi-resource-wsbridge.ts")],
    outfile: path.join(binDir, BUNDLE),
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    minify: true,
    legalComments: "linked",
    logLevel: "warning",
    define: {
      WSBRIDGE_PLUGIN_VERSION: JSON.stringify(version),
      WSBRIDGE_PACKAGE_SCHEMA: JSON.stringify(schema),
    },
  });
  return version;
}

/**
 * The package schema the plugin serves: the committed one byte for byte, or with --version the same
 * with that `version` (as scripts/release.js stages it for the SDKs).
 */
function schemaOfVersion(text, version) {
  if (version === undefined) return text;
  const schema = JSON.parse(text);
  schema.version = version;
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/**
 * The executables of `wanted` platforms, each packed with the notices as its archive; run side by side
 * (postject and gzip are most of the time). The blob with the code cache serves only this machine's
 * platform: a V8 code cache is valid only on the platform that made it.
 */
async function archives(version, wanted) {
  const host = hostPlatform();
  // Archives of an earlier build (another version or platform) would be served as this one's.
  for (const old of fs.readdirSync(outDir)) if (/^pulumi-resource-wsbridge-v.*\.tar\.gz$/.test(old)) fs.rmSync(path.join(outDir, old));
  const blob = preparationBlob(path.join(binDir, BUNDLE), false);
  fs.writeFileSync(path.join(binDir, BLOB_FILES.portable), blob);
  const cached = wanted.includes(host) ? preparationBlob(path.join(binDir, BUNDLE), true) : undefined;
  if (cached !== undefined) fs.writeFileSync(path.join(binDir, BLOB_FILES.codeCache), cached);
  const bundleNotices = fs.readFileSync(path.join(binDir, `${BUNDLE}.LEGAL.txt`), "utf8");
  return Promise.all(wanted.map(async (platform) => {
    const stage = path.join(binDir, platform);
    fs.rmSync(stage, { recursive: true, force: true });
    fs.mkdirSync(stage);
    await writeExecutable(platform, platform === host && cached !== undefined ? cached : blob, path.join(stage, executableName(platform)));
    fs.writeFileSync(path.join(stage, "pulumi-resource-wsbridge.NOTICES.txt"), notices(bundleNotices, nodeLicense(platform)));
    const archive = path.join(outDir, `pulumi-resource-wsbridge-v${version}-${platform}.tar.gz`);
    await tarGz(stage, fs.readdirSync(stage).sort(), archive);
    fs.rmSync(stage, { recursive: true, force: true });
    return path.relative(root, archive);
  }));
}

function notices(bundleNotices, nodeLicenseText) {
  return [
    "pulumi-resource-wsbridge is Apache-2.0 (see the project's LICENSE). It contains the JavaScript packages",
    "below (their notices, as esbuild collected them) and runs on Node.js, whose licence follows them.",
    "",
    bundleNotices.trimEnd(),
    "",
    "=".repeat(80),
    "Node.js",
    "=".repeat(80),
    nodeLicenseText.trimEnd(),
    "",
  ].join("\n");
}

/**
 * `tar -cf - <files>` compressed by Node.js's zlib (level 6) into `archive`. zlib takes about half the
 * CPU of GNU gzip -6 for these executables (2.6 s against 4.8 s for linux-amd64, 1 MB larger), runs on
 * libuv's threads, so the five archives compress side by side, and the release writes five.
 */
function tarGz(folder, files, archive) {
  return new Promise((resolve, reject) => {
    const child = spawn("tar", ["-cf", "-", "-C", folder, ...files], { stdio: ["ignore", "pipe", "inherit"] });
    child.once("error", reject);
    const exited = new Promise((done) => child.once("exit", done));
    pipeline(child.stdout, zlib.createGzip({ level: 6 }), fs.createWriteStream(archive))
      .then(() => exited)
      .then((code) => (code === 0 ? resolve() : reject(new Error(`tar -cf - ${files.join(" ")} exited ${code}`))), reject);
  });
}

async function main() {
  if (options.only !== undefined && options.only !== "archives" && options.only !== "sdk") throw new Error(`--only ${options.only}: archives or sdk`);
  if (options.only !== "sdk") {
    const wanted = platforms();
    const version = await bundle();
    for (const archive of await archives(version, wanted)) console.log(archive);
  }
  if (options.version === undefined && options.only !== "archives") console.log(sdkTarball());
}

/** The SDK compiled and packed as users install it. */
function sdkTarball() {
  fs.mkdirSync(outDir, { recursive: true });
  execFileSync("bash", [path.join(root, "scripts", "build-nodejs-sdk.sh")], { stdio: ["ignore", "ignore", "inherit"] });
  const packed = execFileSync("npm", ["pack", path.join(root, "sdk", "nodejs", "bin"), "--pack-destination", outDir, "--silent"], {
    cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"],
  });
  return path.relative(root, path.join(outDir, packed.trim().split("\n").pop() ?? ""));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

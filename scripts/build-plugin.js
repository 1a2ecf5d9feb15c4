#!/usr/bin/env node
// `npm run build:plugin`: bundles the provider plugin into one JavaScript file and packs it as an
// archive that `pulumi plugin install resource wsbridge <version> --file <archive>` accepts:
//
//   dist/plugin/pulumi-resource-wsbridge-v<version>-<os>-<arch>.tar.gz
//     pulumi-resource-wsbridge               a #!/bin/sh launcher: exec node on the loader beside it
//     pulumi-resource-wsbridge.js            the loader (scripts/plugin-loader.js): runs the bundle
//                                            with V8's code cache
//     pulumi-resource-wsbridge.bundle.js     the plugin, its dependencies (gRPC, protobuf, undici, zod)
//                                            and the package schema inside; Node.js is all it needs
//     pulumi-resource-wsbridge.bundle.js.cache   the bundle compiled by this Node.js (V8 code cache)
//     pulumi-resource-wsbridge.bundle.js.LEGAL.txt   the bundled packages' licence notices
//
// Why a bundle: the engine starts one plugin process per provider, and resolving and reading hundreds
// of files of node_modules costs more start time than parsing one file; compiling that file was then
// most of the rest, hence the code cache (docs/performance.md). The plugin is plain JavaScript, so the
// same archive serves every OS and architecture with a POSIX shell; one is written per Pulumi platform
// name, since the CLI looks for `<os>-<arch>` in the file name.
//
// Beside the archives it writes the plugin's Node.js SDK as an npm tarball,
// dist/plugin/pulumi-wsbridge-wsbridge-<version>.tgz (`npm install` it; it names plugin wsbridge <version>),
// compiled from sdk/nodejs by scripts/build-nodejs-sdk.sh.
//
// `--only-bundle` writes dist/plugin/bin/ (launcher and bundle) without archives or SDK.
//
// For a release (scripts/release.js), without touching the repository's files:
//   --version X.Y.Z   the plugin's version, in the bundle, its package schema's `version` and the archives'
//                     names, instead of package.json's; no SDK tarball is written then (sdk/nodejs carries
//                     package.json's version: scripts/release.js packs the SDK generated for X.Y.Z)
//   --out DIR         DIR instead of dist/plugin (DIR/bin holds the bundle)
"use strict";
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { parseArgs } = require("node:util");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const options = parseArgs({
  options: { version: { type: "string" }, out: { type: "string" }, "only-bundle": { type: "boolean" } },
}).values;
const outDir = options.out === undefined ? path.join(root, "dist", "plugin") : path.resolve(options.out);
const binDir = path.join(outDir, "bin");
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"];

const LAUNCHER = `#!/bin/sh
# pulumi-resource-wsbridge: starts the plugin with the Node.js on PATH (20.18.1 or newer).
exec node "$(dirname "$0")/pulumi-resource-wsbridge.js" "$@"
`;
const BUNDLE = "pulumi-resource-wsbridge.bundle.js";

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
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "linked",
    logLevel: "warning",
    define: {
      WSBRIDGE_PLUGIN_VERSION: JSON.stringify(version),
      WSBRIDGE_PACKAGE_SCHEMA: JSON.stringify(schema),
    },
  });
  fs.copyFileSync(path.join(__dirname, "plugin-loader.js"), path.join(binDir, "pulumi-resource-wsbridge.js"));
  fs.writeFileSync(path.join(binDir, "pulumi-resource-wsbridge"), LAUNCHER, { mode: 0o755 });
  await writeCodeCache();
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
 * Starts the plugin once, as the engine would, so the loader writes the code cache of what starting
 * compiles; then stops it. No engine is needed to start.
 */
async function writeCodeCache() {
  const cache = path.join(binDir, `${BUNDLE}.cache`);
  const plugin = spawn(process.execPath, [path.join(binDir, "pulumi-resource-wsbridge.js"), "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise((resolve, reject) => {
      plugin.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before it wrote its code cache`)));
      const poll = setInterval(() => {
        if (!fs.existsSync(cache)) return;
        clearInterval(poll);
        resolve();
      }, 50);
    });
  } finally {
    plugin.kill();
  }
}

function archives(version) {
  const written = [];
  for (const platform of PLATFORMS) {
    const archive = path.join(outDir, `pulumi-resource-wsbridge-v${version}-${platform}.tar.gz`);
    const files = fs.readdirSync(binDir).sort();
    execFileSync("tar", ["-czf", archive, "-C", binDir, ...files]);
    written.push(path.relative(root, archive));
  }
  return written;
}

async function main() {
  const version = await bundle();
  if (options["only-bundle"] === true) {
    console.log(path.relative(root, binDir));
    return;
  }
  for (const archive of archives(version)) console.log(archive);
  if (options.version === undefined) console.log(sdkTarball());
}

/** The SDK compiled and packed as users install it. */
function sdkTarball() {
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

#!/usr/bin/env node
// `node scripts/check-plugin-archive.js <archive> [--pulumi-bin DIR]`: installs a plugin archive as a
// user does and runs a Pulumi YAML program with it against the emulator, with nothing but the Pulumi
// CLI on PATH (no Node.js): `up` (a workspace and a lock on it), `preview --expect-no-changes`,
// `destroy`, checking the emulator after each. Any OS: the repository's CI runs it on macOS and Windows
// runners for their archives (.github/workflows/ci.yml); test/packaging/plugin-archive.test.ts runs it
// here for linux-amd64. The emulator runs in this process (node), the CLI and the plugin without it.
"use strict";
const { execFile } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { parseArgs } = require("node:util");
require("./lib/register-ts");
const { startEmulator } = require("../emulator/index.ts");
const { nodeOnPath, pathWithoutNode } = require("./lib/without-node.ts");

const { values, positionals } = parseArgs({ options: { "pulumi-bin": { type: "string" } }, allowPositionals: true });
const archive = positionals[0];
if (archive === undefined) {
  console.error("usage: node scripts/check-plugin-archive.js <archive> [--pulumi-bin DIR]");
  process.exit(2);
}
const version = /-v([^-]+)-[a-z]+-[a-z0-9]+\.tar\.gz$/.exec(archive)?.[1];
const exe = process.platform === "win32" ? ".exe" : "";

/** The folder of the `pulumi` to use: --pulumi-bin, else the one on PATH. */
function pulumiBin() {
  if (values["pulumi-bin"] !== undefined) return path.resolve(values["pulumi-bin"]);
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && fs.existsSync(path.join(dir, `pulumi${exe}`))) return dir;
  }
  throw new Error("no pulumi on PATH (or give --pulumi-bin)");
}

/** PATH for the CLI: its own folder and the system's, any holding node mirrored without it below `scratch`. */
function barePath(bin, scratch) {
  const system = process.platform === "win32"
    ? [path.join(process.env.SystemRoot ?? "C:\\Windows", "System32")]
    : ["/usr/bin", "/bin"];
  const bare = pathWithoutNode([bin, ...system].join(path.delimiter), scratch);
  if (process.platform !== "win32" && nodeOnPath(bare) !== undefined) throw new Error(`node is still on ${bare}`);
  return bare;
}

function pulumi(bin, args, env, cwd) {
  return new Promise((resolve, reject) => {
    execFile(path.join(bin, `pulumi${exe}`), args, { env, cwd, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

async function main() {
  if (version === undefined) throw new Error(`${archive} is not named pulumi-resource-wsbridge-v<version>-<os>-<arch>.tar.gz`);
  const bin = pulumiBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-archive-check-"));
  const emulator = await startEmulator({ port: 0, quiet: true });
  try {
    fs.mkdirSync(path.join(dir, "backend"));
    const env = {
      PATH: barePath(bin, path.join(dir, "path")),
      HOME: dir,
      USERPROFILE: dir,
      ...(process.platform === "win32" ? { SystemRoot: process.env.SystemRoot ?? "C:\\Windows", TEMP: os.tmpdir(), TMP: os.tmpdir() } : { TMPDIR: os.tmpdir() }),
      PULUMI_HOME: path.join(dir, ".pulumi"),
      // file:///tmp/… here, file:///C:/Users/… on Windows (gocloud's fileblob form for a drive letter).
      PULUMI_BACKEND_URL: `file://${path.join(dir, "backend").replace(/\\/g, "/").replace(/^(?!\/)/, "/")}`,
      PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    await pulumi(bin, ["plugin", "install", "resource", "wsbridge", version, "--file", path.resolve(archive)], env, dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), [
      "name: archive-check",
      "runtime: yaml",
      "resources:",
      "  app:",
      "    type: wsbridge:Workspace",
      "    properties:",
      "      name: archive-check",
      "      description: made by the plugin executable",
      "  freeze:",
      "    type: wsbridge:WorkspaceLock",
      "    properties:",
      "      workspaceId: ${app.id}",
      "      reason: archive check",
      "outputs:",
      "  id: ${app.id}",
      "",
    ].join("\n"));
    await pulumi(bin, ["stack", "init", "dev", "--non-interactive"], env, dir);
    await pulumi(bin, ["config", "set-all", "--plaintext", `wsbridge:address=${emulator.url}`, "--plaintext", `wsbridge:organization=${emulator.organization}`, "--secret", `wsbridge:token=${emulator.token}`], env, dir);
    await pulumi(bin, ["up", "--yes", "--non-interactive"], env, dir);
    const made = await workspaceNamed(emulator, "archive-check");
    if (made?.attributes.locked !== true) throw new Error("after up, the emulator holds no locked workspace archive-check");
    await pulumi(bin, ["preview", "--expect-no-changes", "--non-interactive"], env, dir);
    await pulumi(bin, ["destroy", "--yes", "--non-interactive"], env, dir);
    if ((await workspaceNamed(emulator, "archive-check")) !== undefined) throw new Error("after destroy, the workspace archive-check is still there");
    console.log(`${path.basename(archive)}: installed, and up, preview (no changes) and destroy of a YAML program ran with no node on PATH`);
  } finally {
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function workspaceNamed(emulator, name) {
  const response = await fetch(`${emulator.url}/api/v2/organizations/${emulator.organization}/workspaces`, { headers: { authorization: `Bearer ${emulator.token}` } });
  const body = await response.json();
  return body.data.find((w) => w.attributes.name === name);
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});

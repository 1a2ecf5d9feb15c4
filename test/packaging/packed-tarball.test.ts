// What a user installs is what this proves: `npm pack` of a copy of the sources (as in a fresh clone,
// so the package must build itself), the tarball installed with @pulumi/pulumi into new projects
// outside the repository (no link back to it), the emulator started with `npx wsbridge-emulator` from
// there, and programs run through the installed package with the real CLI: up, no-op preview,
// destroy. A CommonJS program and an ES module together in one stack (each its own workspace), and
// the CommonJS one again with the lowest @pulumi/pulumi the peer range allows.
//
// Where the time goes, and what is spared: the copy gets the repository's node_modules (hard links,
// the stamp of scripts/ensure-deps.sh removed), so the prepack build still runs `npm install` (which
// finds the lock's packages there) and a full `tsc` of the never-built sources, without unpacking 500
// packages from npm's cache. `npm publish --dry-run` runs with --ignore-scripts: its prepack would
// only rebuild what `npm pack` just built, and npm's check of the manifest does not depend on it.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { CREDENTIAL_VARIABLES, pulumiCliRoot } from "../../scripts/lib/stack-harness";
import { copyWorkingTree, repoRoot } from "../support/packed-package";

const projectFiles = path.join(__dirname, "..", "support", "packed-project");
const packageJson = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** The SDK the repository is built and tested with, and the bottom of the declared peer range. */
const testedSdk = packageJson.devDependencies["@pulumi/pulumi"] as string;
const lowestSdk = /^>=(\d+\.\d+\.\d+)\s/.exec(packageJson.peerDependencies["@pulumi/pulumi"] ?? "")?.[1];

let work: string;
let tarball: string;
let packedFiles: string[];
/** Whether the prepack script's ensure-deps ran `npm install` in the copy. */
let prepackInstalled: boolean;
/** What `npm publish --dry-run` printed in the never-built copy, stdout and stderr. */
let publishDryRun: { status: number | null; output: string };
let emulator: ChildProcess | undefined;
let emulatorSettings: { url: string; token: string; organization: string };
let cliRoot: string;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 2 ** 20 });
}

/**
 * A new project that installs the tarball and the given SDK from the registry, with the programs and
 * the driver. With `from`, it starts as a copy of that project (its lock and packages), and npm moves
 * it to `sdk`, as in a user's project that changes its @pulumi/pulumi.
 */
function newProject(name: string, sdk: string, from?: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  if (from !== undefined) {
    execFileSync("cp", ["-a", path.join(from, "node_modules"), path.join(from, "package-lock.json"), dir]);
  }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({
    name, private: true,
    dependencies: { "pulumi-wsbridge": `file:${tarball}`, "@pulumi/pulumi": sdk },
  }, null, 2));
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir);
  fs.cpSync(projectFiles, dir, { recursive: true });
  return dir;
}

interface Report {
  sdkVersion: string;
  packageDir: string;
  up: Record<string, number>;
  outputs: Record<string, unknown>;
  preview: Record<string, number>;
  destroy: Record<string, number>;
}

/** Runs the programs (module → its workspace's name) together in one stack of `project` with the driver. */
function runPrograms(project: string, programs: Record<string, string>): Report {
  const stackName = Object.values(programs).join("+");
  const settingsFile = path.join(project, `${stackName}.settings.json`);
  const stateDir = path.join(project, `${stackName}.state`);
  // The harness's list of variables that must not reach the stack (the driver cannot import it).
  const blankedVariables = [...CREDENTIAL_VARIABLES];
  fs.writeFileSync(settingsFile, JSON.stringify({
    cliRoot, ...emulatorSettings, stateDir, blankedVariables,
    programs: Object.entries(programs).map(([module, workspaceName]) => ({ module, workspaceName })),
  }));
  const printed = run(process.execPath, ["driver.cjs", settingsFile], project);
  const storedText = fs.readdirSync(stateDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile()).map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8")).join("\n");
  expect(storedText).not.toContain(emulatorSettings.token);
  return JSON.parse(printed.trim().split("\n").pop() ?? "") as Report;
}

async function workspaceStatus(name: string): Promise<number> {
  const res = await request(`${emulatorSettings.url}/api/v2/organizations/${emulatorSettings.organization}/workspaces/${name}`, {
    headers: { authorization: `Bearer ${emulatorSettings.token}` },
  });
  await res.body.dump();
  return res.statusCode;
}

/** up creates the stack and one workspace per program, the preview after it changes nothing, destroy deletes them. */
function expectLifecycle(report: Report, workspaceNames: string[], project: string): void {
  // The package came from the tarball in this project, not from the repository.
  expect(report.packageDir).toBe(fs.realpathSync(path.join(project, "node_modules", "pulumi-wsbridge")));
  expect(report.packageDir.startsWith(repoRoot)).toBe(false);
  const resources = workspaceNames.length + 1;
  expect(report.up).toEqual({ create: resources });
  expect(Object.keys(report.outputs).sort()).toEqual([...workspaceNames].sort());
  for (const name of workspaceNames) {
    expect({ name, workspaceId: outputsOf(report, name)["workspaceId"] }).toEqual({ name, workspaceId: expect.stringMatching(/^ws-/) });
    expect(outputsOf(report, name)["htmlUrl"]).toBe(`${emulatorSettings.url}/app/${emulatorSettings.organization}/workspaces/${name}`);
  }
  expect(report.preview).toEqual({ same: resources });
  expect(report.destroy).toEqual({ delete: resources });
}

function outputsOf(report: Report, workspaceName: string): Record<string, unknown> {
  return (report.outputs[workspaceName] ?? {}) as Record<string, unknown>;
}

beforeAll(async () => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-packed-")));
  cliRoot = pulumiCliRoot();

  // npm pack from sources that were never built: the prepack script installs and builds. The copy
  // starts with the repository's packages but without ensure-deps' stamp, so the prepack's `npm
  // install` runs and checks them against the lock. Hard links, except for the two files written in
  // place there (npm's hidden lockfile, ensure-deps' stamp): npm replaces or removes what it changes.
  const source = path.join(work, "source");
  copyWorkingTree(".", source);
  expect(fs.existsSync(path.join(source, "dist"))).toBe(false);
  const modules = path.join(source, "node_modules");
  execFileSync("cp", ["-al", path.join(repoRoot, "node_modules"), modules]);
  fs.rmSync(path.join(modules, ".wsbridge-lock.sha256"), { force: true });
  const hiddenLock = path.join(modules, ".package-lock.json");
  fs.rmSync(hiddenLock, { force: true });
  fs.copyFileSync(path.join(repoRoot, "node_modules", ".package-lock.json"), hiddenLock);
  const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: source, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  prepackInstalled = pack.stderr.includes("ensure-deps: installing npm dependencies");
  const packed = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, packed[0]?.filename ?? "");
  packedFiles = (packed[0]?.files ?? []).map((f) => f.path).sort();

  // Without the prepack script: it would rebuild dist/ exactly as `npm pack` just did.
  const publish = spawnSync("npm", ["publish", "--dry-run", "--ignore-scripts"], { cwd: source, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  publishDryRun = { status: publish.status, output: `${publish.stdout}\n${publish.stderr}` };

  const app = newProject("app", testedSdk);
  // `npx` from the project runs the installed bin, as a user would.
  const child = spawn("npx", ["--no-install", "wsbridge-emulator", "--port", "0", "--edition", "self-managed"], {
    cwd: app, stdio: ["ignore", "pipe", "inherit"], detached: true,
  });
  emulator = child;
  emulatorSettings = await new Promise((resolve, reject) => {
    let text = "";
    child.on("exit", (code) => reject(new Error(`npx wsbridge-emulator exited with ${String(code)} before printing its address`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const value = (name: string) => new RegExp(`^${name}=(.*)$`, "m").exec(text)?.[1];
      const url = value("WSBRIDGE_EMULATOR_URL");
      const token = value("WSBRIDGE_EMULATOR_TOKEN");
      const organization = value("WSBRIDGE_EMULATOR_ORGANIZATION");
      if (url && token && organization) resolve({ url, token, organization });
    });
  });
}, 600_000);

afterAll(() => {
  // npx starts the emulator as a child of its own: end the whole group.
  if (emulator?.pid !== undefined) {
    try {
      process.kill(-emulator.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("npm pack builds first and ships exactly the compiled JavaScript, its type declarations, the schemas, README and LICENSE", () => {
  expect(prepackInstalled).toBe(true);
  expect(tarball).toMatch(new RegExp(`pulumi-wsbridge-${packageJson.version.replace(/\./g, "\\.")}\\.tgz$`));
  for (const entry of ["dist/provider/index.js", "dist/provider/index.d.ts", "dist/provider/runtime/index.js", "dist/emulator/cli.js",
    "bin/wsbridge.js", "bin/wsbridge-emulator.js", "schema/Workspace.json", "schema/schema.json", "README.md", "LICENSE", "package.json"]) {
    expect(packedFiles).toContain(entry);
  }
  const unexpected = packedFiles.filter((f) =>
    !/^dist\/.+\.(js|d\.ts)$/.test(f) && !/^schema\/[A-Za-z]+\.json$/.test(f) && !["bin/wsbridge.js", "bin/wsbridge-emulator.js", "README.md", "LICENSE", "package.json"].includes(f));
  expect(unexpected).toEqual([]);
  // No source maps: the TypeScript sources they would point to are not shipped.
  expect(packedFiles.filter((f) => f.endsWith(".map"))).toEqual([]);
  // Every kind's runtime module is there (the serialized provider loads them by name): a file, or a
  // folder with its index.
  const kindModules = packedFiles.map((f) => /^dist\/provider\/runtime\/kinds\/([a-z-]+)(?:\.js|\/index\.js)$/.exec(f)?.[1]).filter((k) => k !== undefined);
  expect(kindModules.sort()).toEqual(["data-retention-policy", "module-version-deprecation", "remote-state-consumers", "ssh-key-assignment",
    "workspace", "workspace-lock", "workspace-tag-bindings"]);
});

test("npm publish --dry-run is clean: nothing for npm to correct, the emulator's command kept", () => {
  expect(publishDryRun.status).toBe(0);
  const warnings = publishDryRun.output.split("\n").filter((line) => /^npm warn/i.test(line))
    // Not about the package: a dry run without a registry login, and this machine's own npm settings.
    .filter((line) => !/requires you to be logged in/.test(line) && !/Unknown (user|env|project|global) config/.test(line));
  expect(warnings).toEqual([]);
  expect(publishDryRun.output).toContain("bin/wsbridge-emulator.js");
  expect(publishDryRun.output).toMatch(/total files: \d+/);
});

test("a CommonJS program and the same program as an ES module (\"type\": \"module\", import { Workspace } from \"pulumi-wsbridge\") run through the installed package: up, a no-op preview, destroy", async () => {
  const app = path.join(work, "app");
  const report = runPrograms(app, { "program.cjs": "packed-commonjs", "esm/program.js": "packed-esm" });
  expect(report.sdkVersion).toBe(testedSdk);
  expectLifecycle(report, ["packed-commonjs", "packed-esm"], app);
  expect(outputsOf(report, "packed-commonjs")["description"]).toBe("installed from the tarball");
  expect(outputsOf(report, "packed-esm")["description"]).toBe("installed from the tarball, as an ES module");
  expect(await workspaceStatus("packed-commonjs")).toBe(404);
  expect(await workspaceStatus("packed-esm")).toBe(404);
}, 300_000);

test("the installed package exports the JSON Schema of every kind's inputs", () => {
  const app = path.join(work, "app");
  const printed = run(process.execPath, ["-e", 'console.log(require("pulumi-wsbridge/schema/Workspace.json").properties.name.type)'], app);
  expect(printed.trim()).toBe("string");
});

test("the installed `wsbridge adopt` command reads the emulator the tarball started and writes a program (npx, as a user runs it)", () => {
  const app = path.join(work, "app");
  const out = path.join(work, "adopted");
  const printed = execFileSync("npx", ["--no-install", "wsbridge", "adopt", "--out", out], {
    cwd: app, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WSBRIDGE_ADDRESS: emulatorSettings.url, WSBRIDGE_TOKEN: emulatorSettings.token, WSBRIDGE_ORGANIZATION: emulatorSettings.organization },
  });
  expect(printed).toContain(`Adopted from ${emulatorSettings.organization} at ${emulatorSettings.url}`);
  expect(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toMatch(/^# Written by `wsbridge adopt`/);
});

test("the lowest @pulumi/pulumi of the peer range runs the same lifecycle against the same CLI", async () => {
  expect(lowestSdk).toBeDefined();
  const lowest = newProject("lowest", lowestSdk as string, path.join(work, "app"));
  const report = runPrograms(lowest, { "program.cjs": "packed-lowest-sdk" });
  expect(report.sdkVersion).toBe(lowestSdk);
  expectLifecycle(report, ["packed-lowest-sdk"], lowest);
  expect(await workspaceStatus("packed-lowest-sdk")).toBe(404);
}, 600_000);

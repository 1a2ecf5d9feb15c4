// What a user installs is what this proves: `npm pack` of a copy of the sources (as in a fresh clone,
// so the package must build itself), the tarball installed with @pulumi/pulumi into new projects
// outside the repository (no link back to it), the emulator started with `npx wsbridge-emulator` from
// there, and a program run through the installed package with the real CLI: up, no-op preview,
// destroy. Once as CommonJS, once as an ES module, and once more with the lowest @pulumi/pulumi the
// peer range allows.
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
/** What `npm publish --dry-run` printed in the never-built copy, stdout and stderr. */
let publishDryRun: { status: number | null; output: string };
let emulator: ChildProcess | undefined;
let emulatorSettings: { url: string; token: string; organization: string };
let cliRoot: string;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 2 ** 20 });
}

/** A new project that installs the tarball and the given SDK from the registry, with the programs and the driver. */
function newProject(name: string, sdk: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
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

function runProgram(project: string, programModule: string, workspaceName: string): Report {
  const settingsFile = path.join(project, `${workspaceName}.settings.json`);
  const stateDir = path.join(project, `${workspaceName}.state`);
  // The harness's list of variables that must not reach the stack (the driver cannot import it).
  const blankedVariables = [...CREDENTIAL_VARIABLES];
  fs.writeFileSync(settingsFile, JSON.stringify({ cliRoot, ...emulatorSettings, workspaceName, stateDir, blankedVariables }));
  const printed = run(process.execPath, ["driver.cjs", programModule, settingsFile], project);
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

function expectLifecycle(report: Report, workspaceName: string, project: string): void {
  // The package came from the tarball in this project, not from the repository.
  expect(report.packageDir).toBe(fs.realpathSync(path.join(project, "node_modules", "pulumi-wsbridge")));
  expect(report.packageDir.startsWith(repoRoot)).toBe(false);
  expect(report.up).toEqual({ create: 2 });
  expect(report.outputs["workspaceId"]).toMatch(/^ws-/);
  expect(report.outputs["htmlUrl"]).toContain(`/workspaces/${workspaceName}`);
  expect(report.preview).toEqual({ same: 2 });
  expect(report.destroy).toEqual({ delete: 2 });
}

beforeAll(async () => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-packed-")));
  cliRoot = pulumiCliRoot();

  // npm pack from sources that were never built: the prepack script installs and builds.
  const source = path.join(work, "source");
  copyWorkingTree(".", source);
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], source)) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, packed[0]?.filename ?? "");
  packedFiles = (packed[0]?.files ?? []).map((f) => f.path).sort();

  const publish = spawnSync("npm", ["publish", "--dry-run"], { cwd: source, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
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
  expect(tarball).toMatch(new RegExp(`pulumi-wsbridge-${packageJson.version.replace(/\./g, "\\.")}\\.tgz$`));
  for (const entry of ["dist/provider/index.js", "dist/provider/index.d.ts", "dist/provider/runtime/index.js", "dist/emulator/cli.js",
    "bin/wsbridge-emulator.js", "schema/Workspace.json", "README.md", "LICENSE", "package.json"]) {
    expect(packedFiles).toContain(entry);
  }
  const unexpected = packedFiles.filter((f) =>
    !/^dist\/.+\.(js|d\.ts)$/.test(f) && !/^schema\/[A-Za-z]+\.json$/.test(f) && !["bin/wsbridge-emulator.js", "README.md", "LICENSE", "package.json"].includes(f));
  expect(unexpected).toEqual([]);
  // No source maps: the TypeScript sources they would point to are not shipped.
  expect(packedFiles.filter((f) => f.endsWith(".map"))).toEqual([]);
  // Every kind's runtime module is there (the serialized provider loads them by name).
  expect(packedFiles.filter((f) => /^dist\/provider\/runtime\/kinds\/[a-z-]+\.js$/.test(f))).toHaveLength(7);
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

test("a CommonJS program runs through the installed package: up, a no-op preview, destroy", async () => {
  const app = path.join(work, "app");
  const report = runProgram(app, "program.cjs", "packed-commonjs");
  expect(report.sdkVersion).toBe(testedSdk);
  expectLifecycle(report, "packed-commonjs", app);
  expect(report.outputs["description"]).toBe("installed from the tarball");
  expect(await workspaceStatus("packed-commonjs")).toBe(404);
}, 300_000);

test("the installed package exports the JSON Schema of every kind's inputs", () => {
  const app = path.join(work, "app");
  const printed = run(process.execPath, ["-e", 'console.log(require("pulumi-wsbridge/schema/Workspace.json").properties.name.type)'], app);
  expect(printed.trim()).toBe("string");
});

test("the same program as an ES module (\"type\": \"module\", import { Workspace } from \"pulumi-wsbridge\") runs too", async () => {
  const app = path.join(work, "app");
  const report = runProgram(app, "esm/program.js", "packed-esm");
  expectLifecycle(report, "packed-esm", app);
  expect(report.outputs["description"]).toBe("installed from the tarball, as an ES module");
  expect(await workspaceStatus("packed-esm")).toBe(404);
}, 300_000);

test("the lowest @pulumi/pulumi of the peer range runs the same lifecycle against the same CLI", async () => {
  expect(lowestSdk).toBeDefined();
  const lowest = newProject("lowest", lowestSdk as string);
  const report = runProgram(lowest, "program.cjs", "packed-lowest-sdk");
  expect(report.sdkVersion).toBe(lowestSdk);
  expectLifecycle(report, "packed-lowest-sdk", lowest);
  expect(await workspaceStatus("packed-lowest-sdk")).toBe(404);
}, 600_000);

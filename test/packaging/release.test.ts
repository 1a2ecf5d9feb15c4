// `npm run release -- --version X.Y.Z --out DIR` (scripts/release.js): run once, at a version other than
// package.json's, into a temporary folder, it writes every artifact with that version, changes no
// tracked file, and each artifact installs the way its users install it: the two npm tarballs into a new
// project, a plugin archive with `pulumi plugin install` into an empty PULUMI_HOME (and the CLI then gets
// the schema from the installed plugin), the wheel and the sdist with pip into fresh virtual
// environments, the Go module with `go get` from the release's GOPROXY layout into a new module that
// builds, and the .NET project names the version. SHA256SUMS covers every file. A version that is not
// MAJOR.MINOR.PATCH, or of major version 2 and later, is refused with a sentence and nothing written.
//
// The slow installs (npm, pip, go) start together once the release is written, and each test waits for
// its own. With WSBRIDGE_RELEASE_DIR and WSBRIDGE_RELEASE_VERSION set, the file checks that release
// instead of writing one (.github/workflows/release.yml does, before publishing).
import { createHash } from "node:crypto";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiCli, repoRoot } from "../../scripts/lib/stack-harness";
import { pulumiRelease, runCommand, type Printed } from "../support/python-env";
import { PLATFORMS } from "../../scripts/plugin-executable/node-runtime";
import { ARCHIVE_BUDGET_BYTES } from "../../scripts/release/verify";

const GO_MODULE = "github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go";
const given = process.env.WSBRIDGE_RELEASE_DIR;
const packageVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
/** package.json's version with the patch number raised (0.1.1 for 0.1.0): each check proves the given version reached the artifact. */
const version = given === undefined
  ? packageVersion.replace(/\d+$/, (patch) => String(Number(patch) + 1))
  : (process.env.WSBRIDGE_RELEASE_VERSION ?? "");

const ARTIFACTS = [
  `pulumi-wsbridge-${version}.tgz`,
  `pulumi-wsbridge-wsbridge-${version}.tgz`,
  ...PLATFORMS.map((p) => `pulumi-resource-wsbridge-v${version}-${p}.tar.gz`),
  `pulumi_wsbridge-${version}-py3-none-any.whl`,
  `pulumi_wsbridge-${version}.tar.gz`,
];

let tmp: string;
let out: string;
let released: Released;
/** Hashes of the tracked files that carry a version, before and after the release ran. */
let trackedBefore: Record<string, string>;
let trackedAfter: Record<string, string>;
let npmProject: Promise<Printed>;
let pythonEnvironments: Promise<{ wheel: Printed; sdist: Printed }>;
let goConsumer: Promise<Printed>;

interface Released {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node scripts/release.js …`, its stdout and stderr apart. */
function release(args: string[]): Promise<Released> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts", "release.js"), ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

function trackedVersionFiles(): Record<string, string> {
  const files = execFileSync("git", ["ls-files", "-z", "package.json", "package-lock.json", "schema", "sdk"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0").filter((f) => f !== "");
  return Object.fromEntries(files.map((f) => {
    const full = path.join(repoRoot, f);
    return [f, fs.existsSync(full) ? createHash("sha1").update(fs.readFileSync(full)).digest("hex") : "missing"];
  }));
}

/** Runs a command that must succeed; its output on failure. */
async function mustRun(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Printed> {
  const result = await runCommand(command, args, options);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.printed}`);
  return result;
}

/** Both npm tarballs with the @pulumi/pulumi they are built with, installed into a new project. */
async function installNpmTarballs(): Promise<Printed> {
  const project = path.join(tmp, "npm-project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "release-check", private: true }));
  const sdk = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies["@pulumi/pulumi"];
  await mustRun("npm", [
    "install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error",
    path.join(out, `pulumi-wsbridge-${version}.tgz`), path.join(out, `pulumi-wsbridge-wsbridge-${version}.tgz`), `@pulumi/pulumi@${sdk}`,
  ], { cwd: project });
  return mustRun(process.execPath, ["-e", `
    const dynamic = require("pulumi-wsbridge");
    const sdk = require("@pulumi-wsbridge/wsbridge");
    console.log(JSON.stringify({
      dynamic: { version: require("pulumi-wsbridge/package.json").version, Workspace: typeof dynamic.Workspace },
      sdk: { version: require("@pulumi-wsbridge/wsbridge/package.json").version, plugin: require("@pulumi-wsbridge/wsbridge/package.json").pulumi, Workspace: typeof sdk.Workspace },
    }));
  `], { cwd: project });
}

/** A fresh virtual environment with one Python distribution (and the Pulumi SDK the repository uses) installed; what importing it says. */
async function installPython(name: string, distribution: string): Promise<Printed> {
  const venv = path.join(tmp, name);
  await mustRun("python3", ["-m", "venv", venv], { cwd: tmp });
  const python = path.join(venv, "bin", "python");
  await mustRun(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", path.join(out, distribution), `pulumi==${pulumiRelease()}`], { cwd: tmp });
  return mustRun(python, ["-c", `
import json, os, pulumi_wsbridge
plugin = json.load(open(os.path.join(os.path.dirname(pulumi_wsbridge.__file__), "pulumi-plugin.json")))
print(json.dumps({"plugin": plugin, "Workspace": pulumi_wsbridge.Workspace.__name__}))
`], { cwd: tmp });
}

/**
 * Removes the release's version of the Go module from the module cache (it is shared with the rest of
 * the suite, whose builds this test reuses), so that `go get` takes it from the release folder.
 */
function forgetGoModuleVersion(modcache: string): void {
  const extracted = path.join(modcache, ...GO_MODULE.split("/")) + `@v${version}`;
  if (fs.existsSync(extracted)) {
    execFileSync("chmod", ["-R", "u+w", extracted]);
    fs.rmSync(extracted, { recursive: true, force: true });
  }
  const downloads = path.join(modcache, "cache", "download", ...GO_MODULE.split("/"), "@v");
  if (fs.existsSync(downloads)) {
    // The version's files, and the cached list of versions that names it.
    for (const file of fs.readdirSync(downloads).filter((f) => f.startsWith(`v${version}.`) || f === "list")) fs.rmSync(path.join(downloads, file), { force: true });
  }
}

/** A new Go module that `go get`s the SDK from the release's GOPROXY layout and builds a program using it. */
async function buildGoConsumer(): Promise<Printed> {
  const modcache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  forgetGoModuleVersion(modcache);
  const dir = path.join(tmp, "go-consumer");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "go.mod"), "module example.com/releasecheck\n\ngo 1.25\n");
  // The module's own go.sum: its dependencies are checked against the hashes it was built with, and only
  // the module itself, not yet in the checksum database, goes unchecked (GONOSUMDB).
  fs.copyFileSync(path.join(out, "go", "module", "go.sum"), path.join(dir, "go.sum"));
  fs.writeFileSync(path.join(dir, "main.go"), `package main

import (
	"fmt"

	"${GO_MODULE}/wsbridge"
)

func main() {
	fmt.Printf("%T\\n", wsbridge.NewWorkspace)
}
`);
  const env = {
    ...process.env,
    GOPROXY: `file://${path.join(out, "go", "proxy")},https://proxy.golang.org`,
    GONOSUMDB: GO_MODULE,
    GOFLAGS: "-mod=mod -buildvcs=false -trimpath",
    GOWORK: "off",
    CGO_ENABLED: "0",
  };
  try {
    await mustRun("go", ["get", `${GO_MODULE}@v${version}`], { cwd: dir, env });
    await mustRun("go", ["build", "-o", "releasecheck", "."], { cwd: dir, env });
    return await mustRun("go", ["list", "-m", "-json", GO_MODULE], { cwd: dir, env });
  } finally {
    forgetGoModuleVersion(modcache);
  }
}

/** A promise a later test awaits: no unhandled rejection before it does. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-release-"));
  if (given !== undefined) {
    if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error("WSBRIDGE_RELEASE_DIR needs WSBRIDGE_RELEASE_VERSION, the release's X.Y.Z");
    out = path.resolve(given);
    released = { status: 0, stdout: fs.readFileSync(path.join(out, "RELEASE.md"), "utf8"), stderr: "" };
  } else {
    out = path.join(tmp, "release");
    trackedBefore = trackedVersionFiles();
    // The suite checks the committed schemas itself (unit/input-schemas, plugin/package-schema).
    released = await release(["--version", version, "--out", out, "--skip-schema-check"]);
    trackedAfter = trackedVersionFiles();
    if (released.status !== 0) throw new Error(`the release failed:\n${released.stderr}`);
  }
  npmProject = later(installNpmTarballs());
  pythonEnvironments = later(Promise.all([
    installPython("venv-wheel", `pulumi_wsbridge-${version}-py3-none-any.whl`),
    installPython("venv-sdist", `pulumi_wsbridge-${version}.tar.gz`),
  ]).then(([wheel, sdist]) => ({ wheel, sdist })));
  goConsumer = later(buildGoConsumer());
}, 600_000);

afterAll(async () => {
  // The installs still running when a test failed are waited for before their folder goes.
  await Promise.allSettled([npmProject, pythonEnvironments, goConsumer]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test("a version that is not MAJOR.MINOR.PATCH is refused with a sentence, and nothing is written", async () => {
  const refused = path.join(tmp, "refused");
  const result = await release(["--version", "1.2", "--out", refused]);
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: "" });
  expect(result.stderr).toBe(
    'release: refused: --version must be three whole numbers MAJOR.MINOR.PATCH without leading zeros (e.g. 0.2.0), got "1.2"; ' +
    "pre-release and build suffixes are not supported, as npm, Python and Go spell them differently. Nothing was written.\n",
  );
  expect(fs.existsSync(refused)).toBe(false);
});

test("a major version of 2 or more is refused, as the Go module path would need /v2, and nothing is written", async () => {
  const refused = path.join(tmp, "refused-v2");
  const result = await release(["--version", "2.0.0", "--out", refused]);
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: "" });
  expect(result.stderr).toMatch(/^release: refused: version 2\.0\.0 has major version 2, which the Go module github\.com\/pulumi-wsbridge\/pulumi-wsbridge\/sdk\/go cannot carry: from v2 on its module path would need the suffix \/v2 .* Nothing was written\.\n$/);
  expect(fs.existsSync(refused)).toBe(false);
});

test("the release writes every artifact named with the version given, and changes no tracked file", () => {
  expect(version).not.toBe(packageVersion);
  const top = fs.readdirSync(out).sort();
  expect(top).toEqual([...ARTIFACTS, "RELEASE.md", "SHA256SUMS", "dotnet", "go"].sort());
  if (given === undefined) expect(trackedAfter).toEqual(trackedBefore);
});

test("SHA256SUMS lists every file of the release, and every sum matches", () => {
  const listed = fs.readFileSync(path.join(out, "SHA256SUMS"), "utf8").trimEnd().split("\n").map((line) => {
    expect(line).toMatch(/^[0-9a-f]{64} {2}\S+$/);
    return line.slice(66);
  });
  const files = fs.readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => path.relative(out, path.join(e.parentPath, e.name))).filter((f) => f !== "SHA256SUMS" && f !== "RELEASE.md").sort();
  expect(listed).toEqual(files);
  expect(listed).toEqual(expect.arrayContaining(ARTIFACTS));
  expect(execFileSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: out, encoding: "utf8" }).split("\n").filter((l) => l !== "" && !l.endsWith(": OK"))).toEqual([]);
});

test("RELEASE.md, also printed, names each artifact, the Go tag and where each is published, and says the .NET package is not packed here", () => {
  const notes = fs.readFileSync(path.join(out, "RELEASE.md"), "utf8");
  expect(released.stdout).toContain(notes);
  for (const artifact of ARTIFACTS) expect(notes).toContain(`\`${artifact}\``);
  expect(notes).toContain(`the tag \`sdk/go/v${version}\``);
  expect(notes).toContain("`dotnet pack -c Release dotnet/PulumiWsbridge.Wsbridge.csproj");
  expect(notes).toMatch(/no `dotnet` on this machine|`dotnet` is on PATH/);
});

test("the npm package and the plugin SDK tarball install into a new project and load, each with the version", async () => {
  const loaded = JSON.parse((await npmProject).printed) as Record<string, unknown>;
  expect(loaded).toEqual({
    dynamic: { version, Workspace: "function" },
    sdk: {
      version,
      plugin: { resource: true, name: "wsbridge", version, server: "github://api.github.com/pulumi-wsbridge/pulumi-wsbridge" },
      Workspace: "function",
    },
  });
}, 300_000);

test("each of the five archives holds its platform's executable with the plugin injected, within 45 MB: macOS ones signed ad hoc page by page, the Windows one without the certificate the injection broke", () => {
  // What scripts/release/verify.ts found unpacking each archive (it fails the release when one does not
  // hold), as RELEASE.md lists it.
  const facts = released.stdout.split("\n").map((line) => /^- ((?:linux|darwin|windows)-\w+: .*)$/.exec(line)?.[1]).filter((line) => line !== undefined);
  expect(facts.map((line) => line.replace(/archive [\d.]+ MB/, "archive N MB"))).toEqual([
    "linux-amd64: ELF amd64, fuse flipped, blob inside, archive N MB (budget 45 MB)",
    "linux-arm64: ELF arm64, fuse flipped, blob inside, archive N MB (budget 45 MB)",
    "darwin-amd64: Mach-O amd64, fuse flipped, blob inside, signed ad hoc (every page hash valid), archive N MB (budget 45 MB)",
    "darwin-arm64: Mach-O arm64, fuse flipped, blob inside, signed ad hoc (every page hash valid), archive N MB (budget 45 MB)",
    "windows-amd64: PE amd64, fuse flipped, blob inside, no certificate, checksum right, archive N MB (budget 45 MB)",
  ]);
  for (const platform of PLATFORMS) {
    expect(fs.statSync(path.join(out, `pulumi-resource-wsbridge-v${version}-${platform}.tar.gz`)).size).toBeLessThanOrEqual(ARCHIVE_BUDGET_BYTES);
  }
});

test("a plugin archive installs with `pulumi plugin install` into an empty PULUMI_HOME, and the installed plugin serves the version's schema", async () => {
  const cli = await pulumiCli();
  const home = path.join(tmp, "pulumi-home");
  fs.mkdirSync(home);
  const env = { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };
  const platform = `${process.platform === "darwin" ? "darwin" : "linux"}-${process.arch === "arm64" ? "arm64" : "amd64"}`;
  const archive = path.join(out, `pulumi-resource-wsbridge-v${version}-${platform}.tar.gz`);
  execFileSync(cli.command, ["plugin", "install", "resource", "wsbridge", version, "--file", archive], { env, stdio: ["ignore", "ignore", "pipe"] });
  const plugins = JSON.parse(execFileSync(cli.command, ["plugin", "ls", "--json"], { env, encoding: "utf8" })) as { name: string; kind: string; version: string }[];
  expect(plugins.map((p) => ({ name: p.name, kind: p.kind, version: p.version }))).toEqual([{ name: "wsbridge", kind: "resource", version }]);
  // The CLI starts the installed plugin and asks it for its schema.
  const schema = JSON.parse(execFileSync(cli.command, ["package", "get-schema", `wsbridge@${version}`], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as Record<string, unknown>;
  expect({ name: schema.name, version: schema.version }).toEqual({ name: "wsbridge", version });
});

test("the wheel and the sdist install with pip into fresh virtual environments, and pulumi_wsbridge carries the version", async () => {
  const { wheel, sdist } = await pythonEnvironments;
  for (const installed of [wheel, sdist]) {
    expect(JSON.parse(installed.printed.trim().split("\n").pop() ?? "")).toEqual({
      plugin: { resource: true, name: "wsbridge", version, server: "github://api.github.com/pulumi-wsbridge/pulumi-wsbridge" },
      Workspace: "Workspace",
    });
  }
}, 300_000);

test("the Go module is fetched with `go get` from the release's GOPROXY layout, a program importing it builds, and go.sum records the hashes RELEASE.md gives", async () => {
  const listed = JSON.parse((await goConsumer).printed) as { Path: string; Version: string; Dir: string };
  expect({ path: listed.Path, version: listed.Version }).toEqual({ path: GO_MODULE, version: `v${version}` });
  const goSum = fs.readFileSync(path.join(tmp, "go-consumer", "go.sum"), "utf8");
  const notes = fs.readFileSync(path.join(out, "RELEASE.md"), "utf8");
  const recorded = goSum.split("\n").filter((line) => line.startsWith(`${GO_MODULE} v${version}`));
  expect(recorded).toHaveLength(2);
  for (const line of recorded) expect(notes).toContain(line);
  expect(fs.existsSync(path.join(tmp, "go-consumer", "releasecheck"))).toBe(true);
  // The tree to tag is the module that was served.
  expect(fs.readFileSync(path.join(out, "go", "module", "go.mod"), "utf8")).toMatch(new RegExp(`^module ${GO_MODULE}$`, "m"));
  expect((JSON.parse(fs.readFileSync(path.join(out, "go", "module", "wsbridge", "pulumi-plugin.json"), "utf8")) as { version: string }).version).toBe(version);
}, 300_000);

test("the .NET project carries the version in its csproj, version.txt and pulumi-plugin.json", () => {
  const project = fs.readFileSync(path.join(out, "dotnet", "PulumiWsbridge.Wsbridge.csproj"), "utf8");
  expect(project.match(/<Version>[^<]*<\/Version>/g)).toEqual([`<Version>${version}</Version>`]);
  expect(fs.readFileSync(path.join(out, "dotnet", "version.txt"), "utf8").trim()).toBe(version);
  expect((JSON.parse(fs.readFileSync(path.join(out, "dotnet", "pulumi-plugin.json"), "utf8")) as { version: string }).version).toBe(version);
});

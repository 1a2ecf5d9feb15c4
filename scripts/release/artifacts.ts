// The release's build steps. Each reads the repository and writes only below the out folder: the
// sources it needs are staged in <out>/work (the schema with the release's version, the SDKs generated
// from it, the npm package's files), and each artifact lands in <out>.
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot } from "../lib/cache-root";
import { PLATFORMS } from "../plugin-executable/node-runtime";
import { GO_MODULE } from "./options";
import { log, run } from "./run";


/** Where one release run reads and writes. */
export interface Release {
  version: string;
  repoRoot: string;
  out: string;
  /** <out>/work: staged sources, removed after a successful run. */
  work: string;
}

/** The artifacts' paths, relative to the out folder. */
export function artifactNames(version: string) {
  return {
    npmPackage: `pulumi-wsbridge-${version}.tgz`,
    sdkTarball: `pulumi-wsbridge-wsbridge-${version}.tgz`,
    archives: PLATFORMS.map((platform) => `pulumi-resource-wsbridge-v${version}-${platform}.tar.gz`),
    wheel: `pulumi_wsbridge-${version}-py3-none-any.whl`,
    sdist: `pulumi_wsbridge-${version}.tar.gz`,
    goModule: path.join("go", "module"),
    goProxy: path.join("go", "proxy"),
    goTag: `sdk/go/v${version}`,
    dotnet: "dotnet",
    dotnetProject: path.join("dotnet", "PulumiWsbridge.Wsbridge.csproj"),
  };
}


const node = process.execPath;

function tsc(release: Release): string {
  return path.join(release.repoRoot, "node_modules", "typescript", "bin", "tsc");
}

/** The committed package schema with the release's version: the one source of the SDKs and the plugin. */
export function stageSchema(release: Release): { path: string; schema: Record<string, unknown> } {
  const schema = JSON.parse(fs.readFileSync(path.join(release.repoRoot, "schema", "schema.json"), "utf8")) as Record<string, unknown>;
  schema.version = release.version;
  const file = path.join(release.work, "schema.json");
  // The same text scripts/build-plugin.js --version embeds in the plugin.
  fs.writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  return { path: file, schema };
}

/** The committed schemas are what the sources make (the release builds everything from them). */
export async function checkSchemasAreCurrent(release: Release): Promise<void> {
  await Promise.all([
    run(node, [path.join(release.repoRoot, "scripts", "generate-package-schema.js"), "--check"], { cwd: release.repoRoot }),
    run(node, [path.join(release.repoRoot, "scripts", "generate-schema.js"), "--check"], { cwd: release.repoRoot }),
  ]);
}

/** Every SDK, written by Pulumi's generators from the staged schema into <work>/sdk/<language>. */
export async function generateSdks(release: Release, schemaFile: string): Promise<void> {
  await run("bash", [path.join(release.repoRoot, "scripts", "generate-sdks.sh"), "--schema", schemaFile, "--out", path.join(release.work, "sdk")], {
    cwd: release.repoRoot,
  });
}

/**
 * The dynamic route's npm package: the sources compiled into a staged copy of the package's files with
 * package.json's version set, packed by `npm pack` (its prepack build is what the compile did).
 */
export async function npmPackage(release: Release, schemaFile: string): Promise<string> {
  const stage = path.join(release.work, "npm");
  await run(node, [tsc(release), "-p", path.join(release.repoRoot, "tsconfig.json"), "--outDir", path.join(stage, "dist")], { cwd: release.repoRoot });
  const manifest = JSON.parse(fs.readFileSync(path.join(release.repoRoot, "package.json"), "utf8")) as Record<string, unknown>;
  manifest.version = release.version;
  fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of ["README.md", "LICENSE", path.join("bin", "wsbridge.js"), path.join("bin", "wsbridge-emulator.js")]) {
    fs.cpSync(path.join(release.repoRoot, file), path.join(stage, file));
  }
  fs.mkdirSync(path.join(stage, "schema"));
  for (const file of fs.readdirSync(path.join(release.repoRoot, "schema")).filter((f) => f.endsWith(".json"))) {
    fs.cpSync(file === "schema.json" ? schemaFile : path.join(release.repoRoot, "schema", file), path.join(stage, "schema", file));
  }
  return pack(stage, release.out);
}

/** `npm pack` of a folder into the out folder; the tarball's name. */
async function pack(folder: string, destination: string): Promise<string> {
  const printed = await run("npm", ["pack", folder, "--pack-destination", destination, "--ignore-scripts", "--silent"], {
    cwd: folder,
    // Not the release's own npm settings (`npm run release` passes its arguments on as npm_config_*).
    env: { npm_config_dry_run: undefined, npm_config_version: undefined },
  });
  return printed.trim().split("\n").pop() ?? "";
}

/** The plugin archives, by scripts/build-plugin.js with the release's version (its bundle serves the staged schema). */
export async function pluginArchives(release: Release): Promise<string[]> {
  const stage = path.join(release.work, "plugin");
  await run(node, [path.join(release.repoRoot, "scripts", "build-plugin.js"), "--version", release.version, "--out", stage], { cwd: release.repoRoot });
  const names = artifactNames(release.version).archives;
  for (const name of names) fs.renameSync(path.join(stage, name), path.join(release.out, name));
  return names;
}

/**
 * The plugin's Node.js SDK as users install it: the generated SDK compiled as scripts/build-nodejs-sdk.sh
 * compiles sdk/nodejs (with the repository's TypeScript and @pulumi/pulumi, reached through a link), with
 * its package.json and README beside the JavaScript, packed.
 */
export async function sdkTarball(release: Release): Promise<string> {
  const link = path.join(release.work, "node_modules");
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(release.repoRoot, "node_modules"), link, "dir");
  const sdk = path.join(release.work, "sdk", "nodejs");
  await run(node, [tsc(release), "-p", path.join(sdk, "tsconfig.json")], { cwd: sdk });
  for (const file of ["package.json", "README.md"]) fs.cpSync(path.join(sdk, file), path.join(sdk, "bin", file));
  return pack(path.join(sdk, "bin"), release.out);
}

/** What the cached Python environment holds: `build` and the SDK's build backend, and twine to check. */
const PYTHON_TOOLS = ["build==1.6.1", "setuptools==84.2.1", "twine==7.0.0"];

/**
 * A virtual environment with PYTHON_TOOLS, made once per user (from PyPI) and reused while the list is
 * the same: <cache>/release-python.
 */
export async function pythonTools(): Promise<string> {
  const venv = path.join(cacheRoot(), "release-python");
  const stamp = path.join(venv, "wsbridge-tools.txt");
  const want = `${PYTHON_TOOLS.join("\n")}\n`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want) return venv;
  log(`python: making ${venv} with ${PYTHON_TOOLS.join(", ")} from PyPI (once)`);
  const partial = `${venv}.${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(venv), { recursive: true });
  await run(process.env.PYTHON ?? "python3", ["-m", "venv", partial]);
  await run(path.join(partial, "bin", "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...PYTHON_TOOLS]);
  fs.writeFileSync(path.join(partial, "wsbridge-tools.txt"), want);
  // Made under another name and renamed into place, so a run never sees half an environment (the tools
  // are run as `python -m`, which a renamed environment still runs).
  fs.rmSync(venv, { recursive: true, force: true });
  try {
    fs.renameSync(partial, venv);
  } catch (error) {
    // Another release run put its own in place first.
    if (!(fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want)) throw error;
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return venv;
}

/**
 * The Python sdist and wheel: `python -m build` of the generated SDK (the sdist first, the wheel built
 * from it), with the project's README where pyproject.toml names it, then `twine check`.
 */
export async function pythonDistributions(release: Release, venv: string): Promise<string[]> {
  const sdk = path.join(release.work, "sdk", "python");
  fs.cpSync(path.join(sdk, "pulumi_wsbridge", "README.md"), path.join(sdk, "README.md"));
  const python = path.join(venv, "bin", "python");
  // --no-isolation: the build backend is the cached environment's pinned setuptools, not a fresh download.
  await run(python, ["-m", "build", "--no-isolation", "--outdir", release.out, sdk], { cwd: sdk });
  const names = artifactNames(release.version);
  const files = [names.sdist, names.wheel];
  for (const file of files) {
    if (!fs.existsSync(path.join(release.out, file))) throw new Error(`python -m build did not write ${file}`);
  }
  await run(python, ["-m", "twine", "check", "--strict", ...files], { cwd: release.out });
  return files;
}

/** What gomodzip wrote: the module's path and the go.sum hashes of the version. */
export interface GoProxyResult {
  module: string;
  version: string;
  files: string[];
  zipHash: string;
  modHash: string;
  omitted: string[];
}

/**
 * The Go module: the generated tree (what the tag sdk/go/vX.Y.Z must hold) and the same module in the
 * GOPROXY file layout, zipped by scripts/release/gomodzip with golang.org/x/mod/zip.
 */
export async function goModule(release: Release): Promise<GoProxyResult> {
  const names = artifactNames(release.version);
  const tree = path.join(release.out, names.goModule);
  fs.cpSync(path.join(release.work, "sdk", "go"), tree, { recursive: true });
  const declared = /^module\s+(\S+)/m.exec(fs.readFileSync(path.join(tree, "go.mod"), "utf8"))?.[1];
  if (declared !== GO_MODULE) throw new Error(`the generated go.mod declares module ${declared}, not ${GO_MODULE}`);
  const printed = await run("go", [
    "run", ".", "--dir", tree, "--version", `v${release.version}`, "--time", await versionTime(release), "--out", path.join(release.out, names.goProxy),
  ], { cwd: path.join(release.repoRoot, "scripts", "release", "gomodzip"), env: { CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false -trimpath" } });
  const result = JSON.parse(printed) as GoProxyResult;
  if (result.omitted.length > 0) throw new Error(`the Go module zip leaves out files of the tree: ${result.omitted.join("; ")}`);
  return result;
}

/** The time the proxy records for the version: the commit's (the tag will point at it), else now. */
async function versionTime(release: Release): Promise<string> {
  const committed = await run("git", ["log", "-1", "--format=%cI"], { cwd: release.repoRoot }).catch(() => "");
  const time = committed.trim() === "" ? new Date() : new Date(committed.trim());
  return time.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The .NET project, ready for `dotnet pack` (which needs the .NET SDK, not on this machine). */
export function dotnetProject(release: Release): string {
  const names = artifactNames(release.version);
  fs.cpSync(path.join(release.work, "sdk", "dotnet"), path.join(release.out, names.dotnet), { recursive: true });
  return names.dotnetProject;
}

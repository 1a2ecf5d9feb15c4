// `npm run release -- --version X.Y.Z [--out DIR]` (scripts/release.js): every artifact of version X.Y.Z,
// built from the working tree without changing a tracked file, checked, with SHA256SUMS and RELEASE.md.
//
// The version is given here only: the committed schema is staged with it (<out>/work/schema.json), and
// the SDKs, the plugin and the npm package are made from that copy. Independent steps run at once; the
// SDK generation gates the steps that package an SDK. CONTRIBUTING.md, "Releasing", describes the output
// and .github/workflows/release.yml publishes it.
import * as fs from "node:fs";
import * as path from "node:path";
import {
  artifactNames, checkSchemasAreCurrent, dotnetProject, generateSdks, goModule, npmPackage, pluginArchives, pythonDistributions,
  pythonTools, sdkTarball, stageSchema, type Release,
} from "./artifacts";
import { releaseNotes, writeChecksums, type Provenance } from "./manifest";
import { parseOptions, Refusal, USAGE } from "./options";
import { elapsed, log, run, step } from "./run";

const repoRoot = path.resolve(__dirname, "..", "..");

export async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseOptions(argv, repoRoot);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    process.stderr.write(`release: refused: ${error.message} Nothing was written.\n`);
    return 2;
  }
  if (options === "help") {
    console.log(USAGE);
    return 0;
  }
  const release: Release = { version: options.version, repoRoot, out: options.out, work: path.join(options.out, "work") };
  try {
    await build(release, options.skipSchemaCheck);
  } catch (error) {
    process.stderr.write(`release: failed after ${elapsed()}: ${(error as Error).message}\n` +
      `release: ${release.out} is incomplete (it has no SHA256SUMS); its work/ is kept for a look, and a new run empties the folder first.\n`);
    return 1;
  }
  if (!options.keepWork) fs.rmSync(release.work, { recursive: true, force: true });
  return 0;
}

/** Waits for every promise, then rethrows the first failure (so no step is left running behind it). */
async function all<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  // A step that others wait on fails them all with its one message: each message once.
  if (failed.length > 0) throw new Error([...new Set(failed.map((f) => (f.reason as Error).message))].join("\n"));
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

async function build(release: Release, skipSchemaCheck: boolean): Promise<void> {
  // Empty what an earlier run left (parseOptions refused any other non-empty folder).
  fs.rmSync(release.out, { recursive: true, force: true });
  fs.mkdirSync(release.work, { recursive: true });
  log(`version ${release.version} into ${release.out}`);
  const { path: schemaFile, schema } = stageSchema(release);

  const sdks = step("SDKs generated from the staged schema", () => generateSdks(release, schemaFile));
  const venv = step("Python build tools", () => pythonTools());
  const [, , , , pythonEnv, go] = await all([
    skipSchemaCheck
      ? Promise.resolve(log("committed schemas match the sources: not checked (--skip-schema-check)"))
      : step("committed schemas match the sources", () => checkSchemasAreCurrent(release)),
    step("npm package", () => npmPackage(release, schemaFile)),
    step("plugin archives", () => pluginArchives(release)),
    sdks.then(() => step("plugin SDK npm tarball", () => sdkTarball(release))),
    all([sdks, venv] as const).then(([, env]) => step("Python sdist and wheel", () => pythonDistributions(release, env)).then(() => env)),
    sdks.then(() => step("Go module", () => goModule(release))),
    sdks.then(() => dotnetProject(release)),
    provenance(release),
  ] as const);

  // Loaded here, not at the top: it loads gRPC and Pulumi's protocol, which a refused run does not need.
  const { verifyGoAndDotnet, verifyNpmPackages, verifyPluginArchives, verifyPython } = await import("./verify");
  const [, pluginFacts] = await step("checks of every artifact", () => all([
    verifyNpmPackages(release, schema),
    verifyPluginArchives(release),
    verifyPython(release, pythonEnv),
    Promise.resolve().then(() => verifyGoAndDotnet(release, go.module)),
  ] as const));

  const checksummed = writeChecksums(release.out);
  const notes = releaseNotes(release, go, await provenance(release), checksummed, pluginFacts);
  fs.writeFileSync(path.join(release.out, "RELEASE.md"), notes);
  log(`done: ${checksummed} files checksummed in SHA256SUMS`);
  const names = artifactNames(release.version);
  process.stdout.write(`${notes}\nWritten to ${release.out} in ${elapsed()}. The Go tag: ${names.goTag}\n`);
}

let provenanceOnce: Promise<Provenance> | undefined;

/** The commit the release is built from, whether tracked files differ from it, whether dotnet is here. */
function provenance(release: Release): Promise<Provenance> {
  provenanceOnce ??= (async () => {
    const [commit, status, dotnet] = await Promise.all([
      run("git", ["rev-parse", "HEAD"], { cwd: release.repoRoot }).catch(() => "(not a git checkout)"),
      run("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: release.repoRoot }).catch(() => ""),
      run("sh", ["-c", "command -v dotnet"]).then(() => true, () => false),
    ]);
    return { commit: commit.trim(), uncommitted: status.trim() !== "", dotnetOnPath: dotnet };
  })();
  return provenanceOnce;
}

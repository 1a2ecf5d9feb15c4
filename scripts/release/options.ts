// The release command's options, checked before anything is written: a refused option is a sentence on
// stderr and exit code 2, with the out folder untouched.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";

/** The Go SDK's module: one level above the package the schema's language.go.importBasePath names. */
export const GO_MODULE = path.posix.dirname(
  (JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "schema", "schema.json"), "utf8")) as { language: { go: { importBasePath: string } } }).language.go.importBasePath,
);

export interface ReleaseOptions {
  /** X.Y.Z */
  version: string;
  /** Absolute path of the out folder. */
  out: string;
  /** Keep <out>/work (the staged sources) after a successful run. */
  keepWork: boolean;
  /** Leave out the check that the committed schemas match the sources (the test suite makes it already). */
  skipSchemaCheck: boolean;
}

export class Refusal extends Error {}

export const USAGE = `usage: npm run release -- --version X.Y.Z [--out DIR] [--keep-work] [--skip-schema-check]

Writes every artifact of version X.Y.Z into DIR (default dist/release), without changing tracked files:
the npm package, the plugin archives and the plugin SDK's npm tarball, the Python sdist and wheel, the
Go module (tree, GOPROXY layout, tag name), the .NET project, SHA256SUMS and RELEASE.md.

--skip-schema-check leaves out the check that the committed JSON Schemas and package schema match the
sources; the test suite makes it (test/unit/input-schemas.test.ts, test/plugin/package-schema.test.ts),
and its release test passes this so that a run of the suite does not make it twice.`;

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Why `version` cannot be released, or undefined when it can. */
export function versionRefusal(version: string | undefined): string | undefined {
  if (version === undefined || version === "") return "--version is required: the release's version, e.g. --version 0.2.0.";
  if (/^v\d/.test(version)) return `--version takes the version without the tag's "v": --version ${version.slice(1)}, not ${version}.`;
  if (!SEMVER.test(version)) {
    return `--version must be three whole numbers MAJOR.MINOR.PATCH without leading zeros (e.g. 0.2.0), got ${JSON.stringify(version)}; ` +
      "pre-release and build suffixes are not supported, as npm, Python and Go spell them differently.";
  }
  const major = Number(version.split(".")[0]);
  if (major >= 2) {
    return `version ${version} has major version ${major}, which the Go module ${GO_MODULE} cannot carry: ` +
      `from v2 on its module path would need the suffix /v${major} (sdk/go's go.mod and the schema's language.go.importBasePath).`;
  }
  return undefined;
}

/** Whether `dir` may be (re)filled: missing, empty, or what an earlier release run left. */
function reusableOut(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  if (!fs.statSync(dir).isDirectory()) return false;
  const entries = fs.readdirSync(dir);
  return entries.length === 0 || entries.includes("SHA256SUMS") || entries.includes("work");
}

export function parseOptions(argv: string[], repoRoot: string): ReleaseOptions | "help" {
  let values: { version?: string; out?: string; "keep-work"?: boolean; "skip-schema-check"?: boolean; help?: boolean };
  try {
    values = parseArgs({
      args: argv,
      options: {
        version: { type: "string" }, out: { type: "string" }, "keep-work": { type: "boolean" }, "skip-schema-check": { type: "boolean" }, help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    throw new Refusal(`${(error as Error).message}.`);
  }
  if (values.help === true) return "help";
  const refusal = versionRefusal(values.version);
  if (refusal !== undefined) throw new Refusal(refusal);
  const shown = values.out ?? "dist/release";
  const out = values.out === undefined ? path.join(repoRoot, "dist", "release") : path.resolve(values.out);
  const relative = path.relative(repoRoot, out);
  const insideRepository = !relative.startsWith("..") && !path.isAbsolute(relative);
  if (insideRepository && !/^dist[/\\]./.test(relative)) {
    throw new Refusal(`--out ${shown} is in the repository but not under dist/ (which git ignores); name a folder under dist/ or outside the repository.`);
  }
  if (!reusableOut(out)) {
    throw new Refusal(`--out ${shown} exists and holds files that no earlier release wrote (it has no SHA256SUMS or work/); ` +
      "name a new or empty folder.");
  }
  return { version: values.version as string, out, keepWork: values["keep-work"] === true, skipSchemaCheck: values["skip-schema-check"] === true };
}

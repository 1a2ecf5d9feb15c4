/**
 * The package as a user installs it: a tarball from `npm pack`, and folders copied out of the working
 * tree (tracked files and new ones not ignored, as a fresh clone with uncommitted work would hold).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const repoRoot = path.resolve(__dirname, "../..");

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 2 ** 20 });
}

/** Copies the working tree's files below `folder` (relative to the repository; "." for all) to `to`. */
export function copyWorkingTree(folder: string, to: string): void {
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", folder], repoRoot)
    .split("\0").filter((f) => f !== "");
  for (const file of files) {
    const from = path.join(repoRoot, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    const target = path.join(to, path.relative(folder, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(from, target);
  }
}

/**
 * `npm pack` of the repository as it is built now (dist/ from `npx tsc -p tsconfig.json`, which
 * scripts/test.sh runs before jest), into `destination`; returns the tarball's path. Without the
 * prepack build, which would delete dist/ under tests that are loading it (the packed-tarball test
 * proves that a never-built copy packs and builds itself).
 */
export function packBuiltTree(destination: string): string {
  const packed = JSON.parse(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], repoRoot)) as
    { filename: string }[];
  const file = packed[0]?.filename;
  if (file === undefined) throw new Error("npm pack printed no file name");
  return path.join(destination, file);
}

// The build outputs every test file reads while others run beside it (CONTRIBUTING.md, "Tests": "No
// test changes what another test may be reading"). scripts/test.sh builds them before jest starts; a
// test that rebuilt one in place (as `rm -rf sdk/nodejs/bin && tsc` once did) made the files loading it
// fail at random. The suite's global set-up records each entry's identity, its global teardown compares:
// an entry removed, replaced (a new inode) or rewritten (a new mtime or size) fails the run, naming it.
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot } from "../../scripts/lib/cache-root";

/** One guarded tree and how far down it is recorded. */
export interface SharedOutput {
  /** Absolute path. */
  readonly root: string;
  /** Levels of entries below the root that are recorded (Infinity: all of them). */
  readonly depth: number;
  /**
   * Whether a test may add entries. A tool's per-user cache grows (the release fetches the Node.js
   * binaries of other platforms into it, under a lock) but never changes what it already holds.
   */
  readonly mayGrow: boolean;
}

/** An entry's identity: the same inode, mtime and size mean nobody replaced or rewrote it. */
export type Identities = Record<string, string>;

/** The shared outputs of the repository at `repoRoot`, and the per-user cache the project's tools share. */
export function sharedOutputs(repoRoot: string): SharedOutput[] {
  return [
    { root: path.join(repoRoot, "dist"), depth: Infinity, mayGrow: false },
    { root: path.join(repoRoot, "sdk", "nodejs", "bin"), depth: Infinity, mayGrow: false },
    // Its top two levels: an `npm install` or a relinked package replaces entries there. Below them, tens
    // of thousands of files would make each run slower for nothing more.
    { root: path.join(repoRoot, "node_modules"), depth: 2, mayGrow: false },
    { root: cacheRoot(), depth: 3, mayGrow: true },
  ];
}

/** lstat's identity of each entry of `output` (links not followed), keyed by absolute path. */
export function identities(output: SharedOutput): Identities {
  const found: Identities = {};
  const visit = (entry: string, level: number): void => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (stat === undefined) return;
    found[entry] = `inode ${stat.ino}, mtime ${stat.mtimeMs}, size ${stat.isDirectory() ? "-" : stat.size}`;
    if (!stat.isDirectory() || level >= output.depth) return;
    for (const name of fs.readdirSync(entry)) visit(path.join(entry, name), level + 1);
  };
  visit(output.root, 0);
  return found;
}

/**
 * What changed in `output` between two records, one sentence per entry. A directory's own mtime changes
 * whenever an entry is added or removed, so for a tree that may grow it is left out; the entries say it.
 */
export function changes(output: SharedOutput, before: Identities, after: Identities): string[] {
  const found: string[] = [];
  for (const [entry, identity] of Object.entries(before)) {
    const now = after[entry];
    if (now === undefined) found.push(`${entry} was removed`);
    else if (now !== identity && !(output.mayGrow && sameInode(now, identity) && isDirectory(now))) {
      found.push(`${entry} was replaced or rewritten (${identity} before, ${now} after)`);
    }
  }
  if (!output.mayGrow) {
    for (const entry of Object.keys(after)) if (!(entry in before)) found.push(`${entry} was added`);
  }
  return found;
}

function sameInode(a: string, b: string): boolean {
  return a.split(",")[0] === b.split(",")[0];
}

/** Whether an identity is a directory's (its size is not recorded). */
function isDirectory(identity: string): boolean {
  return identity.endsWith("size -");
}

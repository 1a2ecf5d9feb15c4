// Writing the program: every file is written beside its final name and then renamed over it, and only
// after discovery ended, so a failure leaves either the previous files or the new ones, never half a file.
// A folder holding a Pulumi project `adopt` did not write is refused (it would be overwritten).
import * as fs from "node:fs";
import * as path from "node:path";

/** The first line of every Pulumi.yaml `adopt` writes: how a re-run knows the folder is its own. */
export const MARKER = "# Written by `wsbridge adopt`; running it again rewrites this folder's program.";

export class ForeignProjectError extends Error {}

export function assertWritable(out: string): void {
  const project = path.join(out, "Pulumi.yaml");
  if (!fs.existsSync(project)) return;
  const first = fs.readFileSync(project, "utf8").split("\n", 1)[0];
  if (first !== MARKER) {
    throw new ForeignProjectError(`${project} exists and was not written by \`wsbridge adopt\`: choose an empty folder with --out (nothing was written).`);
  }
}

export function writeFiles(out: string, files: ReadonlyMap<string, string>): void {
  fs.mkdirSync(out, { recursive: true });
  const staged: [string, string][] = [];
  try {
    for (const [name, text] of files) {
      const target = path.join(out, name);
      const temporary = `${target}.adopt-${process.pid}.tmp`;
      fs.writeFileSync(temporary, text);
      staged.push([temporary, target]);
    }
    for (const [temporary, target] of staged) fs.renameSync(temporary, target);
  } catch (error) {
    for (const [temporary] of staged) fs.rmSync(temporary, { force: true });
    throw error;
  }
}

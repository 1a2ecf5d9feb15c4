// Writing the program: every file is written beside its final name and then renamed over it, and only
// after discovery ended, so a failure leaves either the previous files or the new ones, never half a
// file. A file whose text would not change is not touched, so a run that finds nothing new changes no
// file. A folder holding a Pulumi project adopt did not write is refused (record.ts says what is adopt's).
import * as fs from "node:fs";
import * as path from "node:path";

export class ForeignProjectError extends Error {}

/** Writes each file (`null`: removes it); files already holding that text are left alone. */
export function writeFiles(out: string, files: ReadonlyMap<string, string | null>): void {
  fs.mkdirSync(out, { recursive: true });
  const staged: [string, string][] = [];
  const removed: string[] = [];
  try {
    for (const [name, text] of files) {
      const target = path.join(out, name);
      if (text === null) {
        if (fs.existsSync(target)) removed.push(target);
        continue;
      }
      if (fs.existsSync(target) && fs.readFileSync(target, "utf8") === text) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const temporary = `${target}.adopt-${process.pid}.tmp`;
      fs.writeFileSync(temporary, text);
      staged.push([temporary, target]);
    }
    for (const [temporary, target] of staged) fs.renameSync(temporary, target);
    for (const target of removed) fs.rmSync(target, { force: true });
  } catch (error) {
    for (const [temporary] of staged) fs.rmSync(temporary, { force: true });
    throw error;
  }
}

// A HOME of the test file's own (no credentials file of the developer's may answer for a missing
// setting), removed after the file's tests. Each test file has its own module registry, so the hook
// below is registered once per file that imports this module, at the file's top level.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const made: string[] = [];

if (typeof afterAll === "function") {
  afterAll(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
}

/** A new empty folder for HOME, removed after this test file. */
export function isolatedHome(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-home-"));
  made.push(dir);
  return dir;
}

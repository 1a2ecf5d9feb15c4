/**
 * Atomic persistence of the whole state to one JSON file: write a temporary file next to it,
 * flush it, then rename over the target, so a crash leaves either the old or the new file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import type { State } from "../store/model";
import { upgradeState } from "./upgrade";

/** Removes temporary files a killed write left beside the state file (they are never the state). */
function removeStaleTemporaries(file: string): void {
  const dir = path.dirname(path.resolve(file));
  const prefix = `.${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith(".tmp")) fs.rmSync(path.join(dir, name), { force: true });
  }
}

export function loadState(file: string): State | null {
  removeStaleTemporaries(file);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  const parsed = JSON.parse(text) as { format?: string; state?: State };
  if (parsed.format !== "wsbridge-emulator-state" || !parsed.state || parsed.state.schema !== 1) {
    throw new Error(`${file} is not a wsbridge emulator state file`);
  }
  return upgradeState(parsed.state);
}

export function saveState(file: string, state: State): void {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = fs.openSync(tmp, "w", 0o600);
  try {
    fs.writeSync(fd, JSON.stringify({ format: "wsbridge-emulator-state", state }));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

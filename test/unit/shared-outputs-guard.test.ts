// The suite's guard (jest.config.js globalSetup/globalTeardown, test/support/shared-outputs.ts): what it
// records of a shared build output, and which changes it reports, on trees made here.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changes, identities, type SharedOutput } from "../support/shared-outputs";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-guard-"));
  fs.mkdirSync(path.join(dir, "bin", "types"), { recursive: true });
  fs.writeFileSync(path.join(dir, "bin", "index.js"), "module.exports = {};\n");
  fs.writeFileSync(path.join(dir, "bin", "types", "input.js"), "module.exports = {};\n");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const tree = (mayGrow: boolean): SharedOutput => ({ root: path.join(dir, "bin"), depth: Infinity, mayGrow });

/** Lets the clock move past the mtime resolution, so that a rewrite cannot keep the same mtime by chance. */
const later = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

test("a folder deleted and built again in place (rm -rf bin, then tsc) is reported, though it holds the same files", async () => {
  const output = tree(false);
  const before = identities(output);
  await later();
  fs.rmSync(path.join(dir, "bin"), { recursive: true });
  fs.mkdirSync(path.join(dir, "bin", "types"), { recursive: true });
  fs.writeFileSync(path.join(dir, "bin", "index.js"), "module.exports = {};\n");
  fs.writeFileSync(path.join(dir, "bin", "types", "input.js"), "module.exports = {};\n");
  const found = changes(output, before, identities(output));
  expect(found).toHaveLength(4);
  expect(found[0]).toBe(`${path.join(dir, "bin")} was replaced or rewritten (${before[path.join(dir, "bin")]} before, ${identities(output)[path.join(dir, "bin")]} after)`);
});

test("a file removed, rewritten or added is named", async () => {
  const output = tree(false);
  const before = identities(output);
  await later();
  fs.rmSync(path.join(dir, "bin", "types", "input.js"));
  fs.writeFileSync(path.join(dir, "bin", "index.js"), "module.exports = { changed: true };\n");
  fs.writeFileSync(path.join(dir, "bin", "extra.js"), "\n");
  const found = changes(output, before, identities(output)).map((line) => line.replace(/ \(.*\)$/, ""));
  expect(found.sort()).toEqual([
    `${path.join(dir, "bin")} was replaced or rewritten`,
    `${path.join(dir, "bin", "extra.js")} was added`,
    `${path.join(dir, "bin", "index.js")} was replaced or rewritten`,
    `${path.join(dir, "bin", "types")} was replaced or rewritten`,
    `${path.join(dir, "bin", "types", "input.js")} was removed`,
  ].sort());
});

test("a cache may grow (its folders' mtimes move with new entries) but not change what it held", async () => {
  const output = tree(true);
  const before = identities(output);
  await later();
  fs.mkdirSync(path.join(dir, "bin", "linux-arm64"));
  fs.writeFileSync(path.join(dir, "bin", "linux-arm64", "node"), "binary");
  expect(changes(output, before, identities(output))).toEqual([]);
  fs.writeFileSync(path.join(dir, "bin", "index.js"), "rewritten\n");
  expect(changes(output, before, identities(output)).map((line) => line.replace(/ \(.*\)$/, ""))).toEqual([`${path.join(dir, "bin", "index.js")} was replaced or rewritten`]);
});

test("nothing changed, nothing reported; a tree that does not exist records nothing", () => {
  const output = tree(false);
  expect(changes(output, identities(output), identities(output))).toEqual([]);
  expect(identities({ root: path.join(dir, "missing"), depth: Infinity, mayGrow: false })).toEqual({});
});

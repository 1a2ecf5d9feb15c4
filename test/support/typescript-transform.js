// jest's transform for the TypeScript of the tests and of the sources they import: esbuild strips the
// types, file by file (tsconfig.base.json sets isolatedModules, so no file needs another to compile),
// with an inline source map for stack traces. Type checking is not its job: `tsc -p tsconfig.test.json`
// checks everything once before jest starts (scripts/test.sh).
//
// Why not ts-jest: jest keys its transform cache by the file's absolute path, so every fresh clone (CI's)
// transforms everything again, and ts-jest's TypeScript took about 3 s of CPU more than esbuild per test
// file's imports (CONTRIBUTING.md, "Time"). esbuild is already the plugin's bundler.
"use strict";
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const tsconfig = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "tsconfig.base.json"), "utf8"));
const { target } = tsconfig.compilerOptions;

const options = {
  loader: "ts",
  format: "cjs",
  target: target.toLowerCase(),
  // TypeScript's CommonJS output turns `import()` into a `require`; jest's sandbox cannot run a real
  // dynamic import without --experimental-vm-modules.
  supported: { "dynamic-import": false },
  sourcemap: "inline",
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, esModuleInterop: tsconfig.compilerOptions.esModuleInterop } },
};

const version = createHash("sha256").update(`${esbuild.version}\0${JSON.stringify(options)}\0${fs.readFileSync(__filename, "utf8")}`).digest("hex");

module.exports = {
  process(source, filename) {
    return { code: esbuild.transformSync(source, { ...options, sourcefile: filename }).code };
  },
  getCacheKey(source, filename) {
    return createHash("sha256").update(`${version}\0${filename}\0${source}`).digest("hex");
  },
};

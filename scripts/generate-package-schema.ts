// Writes schema/schema.json, the Pulumi package schema of the wsbridge provider plugin, from the one
// source of each part (scripts/package-schema/sources.ts names them). `--check` compares instead of
// writing and fails on any drift. Run it with `node scripts/generate-package-schema.js`.
import * as fs from "node:fs";
import * as path from "node:path";
import { buildPackageSchema, repoRoot } from "./package-schema/build";
import { stableJson } from "./package-schema/json";

export const PACKAGE_SCHEMA_FILE = "schema/schema.json";

/** The text schema/schema.json must have. */
export function generatePackageSchema(): string {
  return stableJson(buildPackageSchema());
}

/** Writes (or with `check`, compares) the file; returns the process exit code. */
export function main(check: boolean): number {
  const text = generatePackageSchema();
  const file = path.join(repoRoot, PACKAGE_SCHEMA_FILE);
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  if (current === text) return 0;
  if (check) {
    console.error(`${PACKAGE_SCHEMA_FILE} is out of date with its sources; run: npm run schema`);
    return 1;
  }
  fs.writeFileSync(file, text);
  console.log(`wrote ${PACKAGE_SCHEMA_FILE}`);
  return 0;
}

#!/usr/bin/env node
// Writes each resource page's table of what an omitted input means (docs/resources/*.md, between the
// `<!-- omitted-inputs -->` markers) from the kinds' omission tables (provider/schemas/*.ts, through
// the build in dist/). test/unit/omission-docs.test.ts fails when a page and its table disagree.
// Usage: npm run build && node scripts/omission-tables.js
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const schemas = path.join(root, "dist", "provider", "schemas");
const { omissionTable } = require(path.join(schemas, "omission.js"));
const { OMISSION_PAGES, replaceOmissionSection } = require(path.join(schemas, "omission-pages.js"));

for (const [page, table] of Object.entries(OMISSION_PAGES)) {
  const file = path.join(root, "docs", "resources", page);
  const before = fs.readFileSync(file, "utf8");
  const after = replaceOmissionSection(before, omissionTable(table));
  if (after !== before) {
    fs.writeFileSync(file, after);
    console.log(`wrote ${path.relative(root, file)}`);
  }
}

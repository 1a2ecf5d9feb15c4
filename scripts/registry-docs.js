#!/usr/bin/env node
// Writes docs/_index.md and docs/installation-configuration.md, the pages the Pulumi Registry lists the
// package from (and `pulumi package publish` takes), from schema/schema.json (scripts/lib/registry-docs.ts).
// test/unit/registry-docs.test.ts fails when a committed page differs.
// Usage: node -r ./scripts/lib/register-ts.js scripts/registry-docs.js
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { indexPage, installationPage } = require("./lib/registry-docs.ts");

const docs = path.join(__dirname, "..", "docs");
for (const [file, text] of [["_index.md", indexPage()], ["installation-configuration.md", installationPage()]]) {
  const target = path.join(docs, file);
  if (fs.existsSync(target) && fs.readFileSync(target, "utf8") === text) continue;
  fs.writeFileSync(target, text);
  console.log(`wrote ${path.relative(path.join(__dirname, ".."), target)}`);
}

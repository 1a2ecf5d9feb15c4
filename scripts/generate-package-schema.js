#!/usr/bin/env node
// Entry point of scripts/generate-package-schema.ts (plain `node` loads TypeScript through
// scripts/lib/register-ts.js, as scripts/generate-schema.js loads the zod schemas).
"use strict";
require("./lib/register-ts");
process.exit(require("./generate-package-schema.ts").main(process.argv.includes("--check")));

#!/usr/bin/env node
// `npm run release -- --version X.Y.Z [--out DIR]`: every artifact of a release, checked, into DIR
// (default dist/release). Plain `node` runs scripts/release/main.ts through scripts/lib/register-ts.js,
// as scripts/generate-package-schema.js runs its TypeScript. CONTRIBUTING.md, "Releasing".
"use strict";
require("./lib/register-ts");
require("./release/main.ts")
  .main(process.argv.slice(2))
  .then((code) => process.exit(code), (error) => {
    console.error(error);
    process.exit(1);
  });

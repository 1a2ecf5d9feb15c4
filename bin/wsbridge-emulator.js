#!/usr/bin/env node
// The `wsbridge-emulator` command. Its code is compiled from emulator/cli.ts into dist/ (`npm pack`
// builds first); this file exists before that build, so npm finds the command when it reads the
// package's manifest, and `npm publish --dry-run` in a fresh clone has nothing to correct.
"use strict";
require("../dist/emulator/cli.js").runCli();

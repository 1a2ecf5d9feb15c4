#!/usr/bin/env node
// The `wsbridge` command (`wsbridge adopt`). Its code is compiled from provider/adopt/cli.ts into
// dist/; this file exists before that build, so npm finds the command when it reads the manifest.
"use strict";
require("../dist/provider/adopt/cli.js").runCli();

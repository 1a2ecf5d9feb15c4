// A workspace with a description. Run `pulumi up` here with the stack config set (see README.md), or
// `npm run demo` at the repository root to run it against the local emulator. The body is in
// program.ts, so the repository's tests run the very same code.
import * as pulumi from "@pulumi/pulumi";
import { program, readConfig } from "./program";

// `export =` makes every field of the returned object a stack output.
export = program(readConfig(new pulumi.Config()));

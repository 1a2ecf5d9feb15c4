// The Pulumi program: the settings come from stack config, the resources from program.ts (kept apart
// so tests can run the same body inline). Run `pulumi up` here after the setup in README.md.
import * as pulumi from "@pulumi/pulumi";
import { program, readConfig } from "./program";

// `export =` makes every field of the returned object a stack output.
export = program(readConfig(new pulumi.Config(), new pulumi.Config("wsbridge")));

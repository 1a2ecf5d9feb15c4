// The Pulumi program pull-request.yml previews and deploys: the settings come from stack config, the
// resources from program.ts (kept apart so tests can run the same body inline). The API address,
// token and organization come from the environment in CI (see README.md).
import * as pulumi from "@pulumi/pulumi";
import { program, readConfig } from "./program";

// `export =` makes every field of the returned object a stack output.
export = program(readConfig(new pulumi.Config()));

// The `wsbridge` command: `wsbridge adopt …` (see arguments.ts for its flags). The third door over the
// runtime, beside the dynamic resources and the plugin: it reads with the runtime's client and asks
// each kind what its import adopts, and writes a program for either door's users (plugin types).
import * as path from "node:path";
import { clientSettingsFor, resolveSettingsFrom } from "../runtime/config";
import { WsbridgeClient } from "../runtime/api";
import { packageSchemaText, pluginVersion } from "../runtime/package-files";
import { parseAdoptArguments, USAGE, UsageError, type AdoptArguments } from "./arguments";
import { failureSentence } from "./failure";
import type { PackageSchema } from "./program/go";
import { progressLine } from "./progress";
import { runAdoption } from "./run";

export interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

const COMMANDS = `Usage: wsbridge <command>

Commands:
  adopt     write a Pulumi program that adopts an organization's workspaces and what hangs off them
            (wsbridge adopt --help)
  --version the package's version`;

/** Runs the command; resolves to the exit code (0 done, 1 failed, 2 bad usage). */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version") {
    io.stdout.write(`${pluginVersion()}\n`);
    return 0;
  }
  if (command !== "adopt") {
    io.stderr.write(`${command === undefined || command === "--help" || command === "-h" ? "" : `Unknown command "${command}".\n`}${COMMANDS}\n`);
    return command === "--help" || command === "-h" ? 0 : 2;
  }
  let args: AdoptArguments;
  try {
    args = parseAdoptArguments(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  return adopt(args, io);
}

async function adopt(args: AdoptArguments, io: Io): Promise<number> {
  const settings = resolveSettingsFrom({ get: (key) => args.settings[key.replace(/^wsbridge:/, "") as keyof typeof args.settings] }, io.env);
  const organization = settings.organization ?? "";
  const context = { address: settings.address, organization };
  if (settings.invalid !== undefined && settings.invalid.length > 0) {
    io.stderr.write(`Invalid settings: ${settings.invalid.map((i) => `${i.key} ${i.reason}`).join("; ")}. Nothing was written.\n`);
    return 2;
  }
  if (organization === "") {
    io.stderr.write("No organization: pass --organization, or set WSBRIDGE_ORGANIZATION or TFE_ORGANIZATION. Nothing was written.\n");
    return 2;
  }
  const progress = progressLine(io.stderr);
  try {
    const summary = await runAdoption(args, {
      organization, out: path.resolve(io.cwd, args.out), env: io.env, progress, version: pluginVersion(),
      client: new WsbridgeClient(clientSettingsFor(settings)),
      schema: JSON.parse(packageSchemaText()) as PackageSchema,
    });
    io.stdout.write(summary);
    return 0;
  } catch (error) {
    progress.end();
    io.stderr.write(`${failureSentence(error, context)}\n`);
    return 1;
  }
}

function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** `bin/wsbridge.js`. */
export function runCli(): void {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

// The `wsbridge` command: `wsbridge adopt …` (see arguments.ts for its flags). The third door over the
// runtime, beside the dynamic resources and the plugin: it reads with the runtime's client and asks
// each kind what its import adopts, and writes a program for either door's users (plugin types).
import * as fs from "node:fs";
import * as path from "node:path";
import { clientSettingsFor, resolveSettingsFrom } from "../runtime/config";
import { WsbridgeClient } from "../runtime/api";
import { packageSchemaText, pluginVersion } from "../runtime/package-files";
import { parseAdoptArguments, USAGE, UsageError, type AdoptArguments } from "./arguments";
import { failureSentence } from "./failure";
import type { PackageSchema } from "./program/go";
import { progressLine } from "./progress";
import { runAdoption } from "./run";
import { checkReleasePlan, gateReport, PlanUnreadableError } from "./terraform/gate";
import { RELEASED_JSON, type ReleasedRecord } from "./terraform/handover";

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
  gate      wsbridge gate PLAN.json [--out DIR]: before Terraform applies the release adopt wrote into
            DIR (default: the current folder), check its plan (\`terraform show -json <planfile>\`):
            fails, naming each address, unless every released object is forgotten and none is
            deleted, replaced or updated
  --version the package's version`;

/** Runs the command; resolves to the exit code (0 done, 1 failed, 2 bad usage). */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version") {
    io.stdout.write(`${pluginVersion()}\n`);
    return 0;
  }
  if (command === "gate") return gate(rest, io);
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
  // A state file is read where the command runs, whatever --out says.
  const from = args.terraform?.from;
  if (args.terraform !== undefined && from !== undefined && "file" in from && from.file !== "-") {
    args = { ...args, terraform: { ...args.terraform, from: { file: path.resolve(io.cwd, from.file), shown: from.file } } };
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

/** `wsbridge gate PLAN.json [--out DIR]`: 0 the plan may be applied, 1 it may not, 2 bad usage or input. */
function gate(argv: readonly string[], io: Io): number {
  let plan: string | undefined;
  let out = ".";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--out" && argv[i + 1] !== undefined) out = argv[++i] ?? ".";
    else if (arg.startsWith("--out=")) out = arg.slice("--out=".length);
    else if (!arg.startsWith("-") && plan === undefined) plan = arg;
    else {
      io.stderr.write(`Unknown argument "${arg}".\nUsage: wsbridge gate PLAN.json [--out DIR]\n`);
      return 2;
    }
  }
  if (plan === undefined) {
    io.stderr.write("Usage: wsbridge gate PLAN.json [--out DIR]: PLAN.json is `terraform show -json <planfile>` of the release's plan.\n");
    return 2;
  }
  const recordFile = path.resolve(io.cwd, out, RELEASED_JSON);
  let record: ReleasedRecord;
  let text: string;
  try {
    record = JSON.parse(fs.readFileSync(recordFile, "utf8")) as ReleasedRecord;
  } catch {
    io.stderr.write(`${path.join(out, RELEASED_JSON)} cannot be read: run the gate with --out set to the folder \`wsbridge adopt --from-terraform\` wrote.\n`);
    return 2;
  }
  try {
    text = fs.readFileSync(path.resolve(io.cwd, plan), "utf8");
  } catch (error) {
    io.stderr.write(`${plan} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).\n`);
    return 2;
  }
  try {
    const findings = checkReleasePlan(text, plan, record.released);
    io.stdout.write(`${gateReport(findings)}\n`);
    return findings.length === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof PlanUnreadableError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 2;
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

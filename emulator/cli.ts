#!/usr/bin/env node
/**
 * `wsbridge-emulator`: starts the emulator and prints, first, three KEY=value lines scripts can parse:
 * WSBRIDGE_EMULATOR_URL, WSBRIDGE_EMULATOR_TOKEN, WSBRIDGE_EMULATOR_ORGANIZATION.
 * Runs until SIGINT/SIGTERM, then closes cleanly and exits 0.
 */
import { startEmulator } from "./index";
import type { EmulatorOptions, FaultSettings } from "./types";

const USAGE = `Usage: wsbridge-emulator [--port N] [--host H] [--edition hosted|self-managed]
  [--fixtures file.json] [--state-file file.json]
  [--version-attribute engine-version|terraform-version]
  [--latency-ms N] [--rate-limit N] [--error-rate X] [--drop-rate X] [--seed N] [--quiet]`;

export function parseArgs(argv: string[]): EmulatorOptions {
  const opts: EmulatorOptions = {};
  const faults: FaultSettings = {};
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || v === "" || !Number.isFinite(n)) throw new Error(`${flag} needs a number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    switch (flag) {
      case "--port":
        opts.port = num(flag, value());
        break;
      case "--host":
        opts.host = value();
        break;
      case "--edition": {
        const v = value();
        if (v !== "hosted" && v !== "self-managed") throw new Error("--edition must be hosted or self-managed");
        opts.edition = v;
        break;
      }
      case "--fixtures":
        opts.fixtures = value();
        break;
      case "--state-file":
        opts.stateFile = value();
        break;
      case "--version-attribute": {
        const v = value();
        if (v !== "engine-version" && v !== "terraform-version") {
          throw new Error("--version-attribute must be engine-version or terraform-version");
        }
        opts.versionAttribute = v;
        break;
      }
      case "--latency-ms":
        faults.latencyMs = num(flag, value());
        break;
      case "--rate-limit":
        faults.rateLimit = { limit: num(flag, value()) };
        break;
      case "--error-rate":
        faults.serverErrorRate = num(flag, value());
        break;
      case "--drop-rate":
        faults.dropRate = num(flag, value());
        break;
      case "--seed":
        faults.seed = num(flag, value());
        break;
      case "--quiet":
        opts.quiet = true;
        break;
      case "--help":
      case "-h":
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  if (Object.keys(faults).length > 0) opts.faults = faults;
  return opts;
}

async function main(): Promise<void> {
  let opts: EmulatorOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`wsbridge-emulator: ${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  // A reader that only wants the first lines (`| head -3`, a script) may close the pipe; the
  // server must keep serving, so a failed write to stdout is not fatal.
  process.stdout.on("error", () => undefined);
  const emu = await startEmulator(opts);
  process.stdout.write(
    `WSBRIDGE_EMULATOR_URL=${emu.url}\nWSBRIDGE_EMULATOR_TOKEN=${emu.token}\nWSBRIDGE_EMULATOR_ORGANIZATION=${emu.organization}\n`,
  );
  process.stdout.write(`# ${emu.edition} edition; API at ${emu.url}/api/v2; controls at ${emu.url}/_emulator/; Ctrl-C stops\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    emu.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`wsbridge-emulator: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`wsbridge-emulator: ${(e as Error).message}\n`);
    process.exit(1);
  });
}

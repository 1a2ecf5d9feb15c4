#!/usr/bin/env node
/**
 * `wsbridge-emulator`: starts the emulator and prints, first, three KEY=value lines scripts can parse:
 * WSBRIDGE_EMULATOR_URL, WSBRIDGE_EMULATOR_TOKEN, WSBRIDGE_EMULATOR_ORGANIZATION; with
 * `--tls-self-signed`, a fourth: WSBRIDGE_EMULATOR_CA_FILE, the certificate a client must trust.
 * Runs until SIGINT/SIGTERM, then closes cleanly and exits 0.
 */
import * as fs from "node:fs";
import { startEmulator } from "./index";
import { ensureSelfSignedCertificate } from "./tls";
import type { EmulatorOptions, FaultSettings, TlsOptions } from "./types";

const USAGE = `Usage: wsbridge-emulator [--port N] [--host H] [--edition hosted|self-managed]
  [--fixtures file.json] [--state-file file.json]
  [--version-attribute engine-version|terraform-version]
  [--tls-cert FILE --tls-key FILE | --tls-self-signed DIR]
  [--latency-ms N] [--rate-limit N] [--error-rate X] [--drop-rate X] [--seed N]
  [--keep-alive-timeout-ms N] [--quiet]`;

/** Emulator options plus where the TLS certificate comes from (files are read by `main`, not here). */
export interface CliOptions extends EmulatorOptions {
  /** PEM certificate file to serve HTTPS with; needs `tlsKey`. */
  tlsCert?: string;
  /** PEM private key file of `tlsCert`. */
  tlsKey?: string;
  /**
   * Directory holding a self-signed pair for local use (made there, or reused while still good).
   * The flag says "self-signed" so nobody mistakes it for a way to serve a real certificate.
   */
  tlsSelfSigned?: string;
}

export function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = {};
  const faults: FaultSettings = {};
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || v === "" || !Number.isFinite(n)) throw new Error(`${flag} needs a number`);
    return n;
  };
  const file = (flag: string, v: string | undefined): string => {
    if (v === undefined || v === "" || v.startsWith("--")) throw new Error(`${flag} needs a file`);
    return v;
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
      case "--tls-cert":
        opts.tlsCert = file(flag, value());
        break;
      case "--tls-key":
        opts.tlsKey = file(flag, value());
        break;
      case "--tls-self-signed":
        opts.tlsSelfSigned = file(flag, value());
        break;
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
      case "--keep-alive-timeout-ms": {
        const ms = num(flag, value());
        if (!Number.isInteger(ms) || ms <= 0) throw new Error("--keep-alive-timeout-ms must be a whole number above 0");
        opts.keepAliveTimeoutMs = ms;
        break;
      }
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
  if (opts.tlsCert !== undefined && opts.tlsKey === undefined) throw new Error("--tls-cert needs --tls-key (give both, or neither)");
  if (opts.tlsKey !== undefined && opts.tlsCert === undefined) throw new Error("--tls-key needs --tls-cert (give both, or neither)");
  if (opts.tlsSelfSigned !== undefined && opts.tlsCert !== undefined) {
    throw new Error("--tls-self-signed cannot be combined with --tls-cert and --tls-key");
  }
  return opts;
}

function readPem(flag: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new Error(`${flag}: cannot read ${file}: ${(e as Error).message}`);
  }
}

/** The emulator's TLS options from the flags, and the certificate file to announce (self-signed only). */
async function resolveTls(cli: CliOptions): Promise<{ tls?: TlsOptions; caFile?: string }> {
  if (cli.tlsCert !== undefined && cli.tlsKey !== undefined) {
    return { tls: { cert: readPem("--tls-cert", cli.tlsCert), key: readPem("--tls-key", cli.tlsKey) } };
  }
  if (cli.tlsSelfSigned !== undefined) {
    const pair = await ensureSelfSignedCertificate(cli.tlsSelfSigned, { host: cli.host });
    return { tls: { cert: pair.cert, key: pair.key }, caFile: pair.certFile };
  }
  return {};
}

async function main(): Promise<void> {
  let cli: CliOptions;
  try {
    cli = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`wsbridge-emulator: ${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const { tlsCert, tlsKey, tlsSelfSigned, ...opts } = cli;
  const { tls, caFile } = await resolveTls({ tlsCert, tlsKey, tlsSelfSigned, host: opts.host });
  if (tls) opts.tls = tls;
  // A reader that only wants the first lines (`| head -3`, a script) may close the pipe; the
  // server must keep serving, so a failed write to stdout is not fatal.
  process.stdout.on("error", () => undefined);
  const emu = await startEmulator(opts);
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
  // Before the lines: writes to a pipe are synchronous, so a script may signal as soon as it reads them.
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.stdout.write(
    `WSBRIDGE_EMULATOR_URL=${emu.url}\nWSBRIDGE_EMULATOR_TOKEN=${emu.token}\nWSBRIDGE_EMULATOR_ORGANIZATION=${emu.organization}\n`,
  );
  if (caFile !== undefined) process.stdout.write(`WSBRIDGE_EMULATOR_CA_FILE=${caFile}\n`);
  process.stdout.write(`# ${emu.edition} edition; API at ${emu.url}/api/v2; controls at ${emu.url}/_emulator/; Ctrl-C stops\n`);
}

/** Runs the command with the process's arguments (the package's `wsbridge-emulator` bin calls this). */
export function runCli(): void {
  main().catch((e: unknown) => {
    process.stderr.write(`wsbridge-emulator: ${(e as Error).message}\n`);
    process.exit(1);
  });
}

if (require.main === module) runCli();

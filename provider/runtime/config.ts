/**
 * Settings resolution: address, token, organization and edition, read at call time (never captured in
 * a serialized provider), in this order:
 *
 *   1. stack config recorded by `configure` (`wsbridge:address`, `wsbridge:token`, `wsbridge:organization`,
 *      `wsbridge:edition`);
 *   2. `WSBRIDGE_ADDRESS`, `WSBRIDGE_TOKEN`, `WSBRIDGE_ORGANIZATION`, `WSBRIDGE_EDITION`;
 *   3. what users of this API already set: `TFE_ADDRESS` (or `https://` + `TFE_HOSTNAME`), `TFE_TOKEN`,
 *      `TFE_ORGANIZATION`, and Terraform CLI's `TF_TOKEN_<host>`;
 *   4. the Terraform CLI credentials file (`~/.terraform.d/credentials.tfrc.json`) for the address's host.
 *
 * Nothing here throws: `check` calls resolveSettings during previews without credentials, and a missing
 * token is reported by the first request (MissingTokenError). Never log these settings.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { WsbridgeClient, type Edition } from "./api";

/** What Pulumi's dynamic ConfigureRequest.config offers. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

export interface ResolvedSettings {
  address: string;
  token?: string;
  organization?: string;
  edition?: Edition;
  /** Where the token came from, for messages (never the token itself). */
  tokenSource?: "config" | "env" | "credentials-file";
}

export const DEFAULT_ADDRESS = "https://app.terraform.io";

const KEYS = ["address", "token", "organization", "edition"] as const;
type Key = (typeof KEYS)[number];

/** Stack config captured by `configure`; module scope, process memory only. */
let stackConfig: Partial<Record<Key, string>> = {};

/** Records the `wsbridge:*` stack config. Missing values are fine; a throwing source is ignored. */
export function configure(config: ConfigSource | undefined): void {
  const next: Partial<Record<Key, string>> = {};
  for (const key of KEYS) {
    let value: string | undefined;
    try {
      value = config?.get(`wsbridge:${key}`);
    } catch {
      value = undefined; // some hosts throw for missing keys; a missing key is not an error here
    }
    if (typeof value === "string" && value.trim() !== "") next[key] = value.trim();
  }
  stackConfig = next;
}

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

function parseEdition(value: string | undefined): Edition | undefined {
  // An unknown value falls back to detection from ping, which is accurate anyway.
  return value === "hosted" || value === "self-managed" ? value : undefined;
}

function hostOf(address: string): string | undefined {
  try {
    return new URL(address).host;
  } catch {
    return undefined;
  }
}

/** Terraform CLI's `TF_TOKEN_<host>` variable: dots become `_`, dashes may be written as `__`. */
function tfTokenVariable(env: NodeJS.ProcessEnv, host: string): string | undefined {
  const hostname = host.replace(/:\d+$/, "");
  const plain = `TF_TOKEN_${hostname.replace(/\./g, "_")}`;
  const dashed = `TF_TOKEN_${hostname.replace(/\./g, "_").replace(/-/g, "__")}`;
  return nonEmpty(env[plain]) ?? nonEmpty(env[dashed]);
}

/** The credentials file: `%APPDATA%\terraform.d\…` on Windows, `~/.terraform.d/…` elsewhere. */
function credentialsFilePath(env: NodeJS.ProcessEnv): string {
  if (process.platform === "win32" && env["APPDATA"]) return path.join(env["APPDATA"], "terraform.d", "credentials.tfrc.json");
  const home = nonEmpty(env["HOME"]) ?? nonEmpty(env["USERPROFILE"]) ?? os.homedir();
  return path.join(home, ".terraform.d", "credentials.tfrc.json");
}

/** `{"credentials": {"<host>": {"token": "…"}}}`; unreadable or malformed files count as absent. */
function credentialsFileToken(env: NodeJS.ProcessEnv, host: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(credentialsFilePath(env), "utf8"));
  } catch {
    return undefined;
  }
  const credentials = (parsed as { credentials?: Record<string, { token?: unknown }> } | null)?.credentials;
  if (typeof credentials !== "object" || credentials === null) return undefined;
  const entry = credentials[host] ?? credentials[host.replace(/:443$/, "")];
  return typeof entry?.token === "string" ? nonEmpty(entry.token) : undefined;
}

/** Resolves the settings in the documented order. Never throws. */
export function resolveSettings(env: NodeJS.ProcessEnv = process.env): ResolvedSettings {
  const tfeHostname = nonEmpty(env["TFE_HOSTNAME"]);
  const address = (
    stackConfig.address ??
    nonEmpty(env["WSBRIDGE_ADDRESS"]) ??
    nonEmpty(env["TFE_ADDRESS"]) ??
    (tfeHostname ? (/^https?:\/\//.test(tfeHostname) ? tfeHostname : `https://${tfeHostname}`) : undefined) ??
    DEFAULT_ADDRESS
  ).replace(/\/+$/, "");

  const settings: ResolvedSettings = { address };
  const host = hostOf(address);
  if (stackConfig.token) {
    settings.token = stackConfig.token;
    settings.tokenSource = "config";
  } else {
    const fromEnv = nonEmpty(env["WSBRIDGE_TOKEN"]) ?? nonEmpty(env["TFE_TOKEN"]) ?? (host ? tfTokenVariable(env, host) : undefined);
    const fromFile = fromEnv === undefined && host ? credentialsFileToken(env, host) : undefined;
    if (fromEnv !== undefined) {
      settings.token = fromEnv;
      settings.tokenSource = "env";
    } else if (fromFile !== undefined) {
      settings.token = fromFile;
      settings.tokenSource = "credentials-file";
    }
  }
  const organization = stackConfig.organization ?? nonEmpty(env["WSBRIDGE_ORGANIZATION"]) ?? nonEmpty(env["TFE_ORGANIZATION"]);
  if (organization !== undefined) settings.organization = organization;
  const edition = parseEdition(stackConfig.edition) ?? parseEdition(nonEmpty(env["WSBRIDGE_EDITION"]));
  if (edition !== undefined) settings.edition = edition;
  return settings;
}

/** One client per (address, token, edition) per process, so pools, limiter and caches are shared. */
const clients = new Map<string, WsbridgeClient>();

export function sharedClient(): WsbridgeClient {
  const s = resolveSettings();
  const key = `${s.address}\u0000${s.token ?? ""}\u0000${s.edition ?? ""}`;
  let client = clients.get(key);
  if (!client) {
    client = new WsbridgeClient({
      address: s.address,
      ...(s.token === undefined ? {} : { token: s.token }),
      ...(s.edition === undefined ? {} : { edition: s.edition }),
    });
    clients.set(key, client);
  }
  return client;
}

/** Forgets the recorded stack config and the shared clients. */
export function resetConfigForTests(): void {
  stackConfig = {};
  clients.clear();
}

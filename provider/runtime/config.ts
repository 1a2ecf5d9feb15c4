/**
 * Settings resolution: each setting of settings.ts, read at call time (never captured in a serialized
 * provider), in this order:
 *
 *   1. stack config recorded by `configure` (`wsbridge:<name>`), or an explicit provider's inputs;
 *   2. the environment variables settings.ts names for it (`WSBRIDGE_*`, then what users of this API
 *      already set: `TFE_ADDRESS` or `https://` + `TFE_HOSTNAME`, `TFE_TOKEN`, `TFE_ORGANIZATION`), and
 *      for the token Terraform CLI's `TF_TOKEN_<host>`;
 *   3. for the token, the Terraform CLI credentials file (`~/.terraform.d/credentials.tfrc.json`) for
 *      the address's host.
 *
 * Nothing here throws: `check` calls resolveSettings during previews without credentials, and a missing
 * token or an unusable value is reported by the first request (MissingTokenError, InvalidConfigError).
 * Never log these settings.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_RETRY_OPTIONS, DEFAULT_TIMEOUT_MS, WsbridgeClient, addressProblem, type ClientSettings, type Edition } from "./api";
import type { CheckFailure, Props } from "./lifecycle";
import {
  DEFAULT_ADDRESS, LIMIT_NAMES, SETTINGS, SETTING_NAMES, fromEnvironment, resolveAddress, resolveOrganization,
  type LimitName, type ProviderConfig, type SettingName,
} from "./settings";
import type { Assert, Equals } from "../schemas/type-equality";

/** What Pulumi's dynamic ConfigureRequest.config offers. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** The settings in effect (each limit as settings.ts describes it). */
export type ResolvedSettings = {
  address: string;
  token?: string;
  organization?: string;
  edition?: Edition;
  /** Where the token came from, for messages (never the token itself). */
  tokenSource?: "config" | "env" | "credentials-file";
  /** Every change to the server is refused (read-only.ts); named as the user set it (`wsbridge:readOnly`, `WSBRIDGE_READ_ONLY`). */
  readOnly?: { readonly source: string };
  /** Settings whose value cannot be used, named as the user wrote them; the first request throws
   * InvalidConfigError for the first one (so that configure and check never throw). */
  invalid?: { key: string; reason: string }[];
} & { [K in LimitName]?: number };

export { DEFAULT_ADDRESS };

// The editions settings.ts accepts are the client's.
export type ProviderConfigEditionAgrees = Assert<Equals<NonNullable<ProviderConfig["edition"]>, Edition>>;

type StackConfig = Partial<Record<SettingName, string>>;

/** Stack config captured by `configure`; module scope, process memory only. */
let stackConfig: StackConfig = {};

/** Records the `wsbridge:*` stack config. Missing values are fine; a throwing source is ignored. */
export function configure(config: ConfigSource | undefined): void {
  stackConfig = readStackConfig(config);
}

/** The `wsbridge:*` keys of a config source, trimmed; empty values count as absent. */
function readStackConfig(config: ConfigSource | undefined): StackConfig {
  const next: StackConfig = {};
  for (const key of SETTING_NAMES) {
    let value: string | undefined;
    try {
      value = config?.get(`wsbridge:${key}`);
    } catch {
      value = undefined; // some hosts throw for missing keys; a missing key is not an error here
    }
    if (typeof value === "string" && value.trim() !== "") next[key] = value.trim();
  }
  return next;
}

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

function isEdition(value: string): value is Edition {
  return value === "hosted" || value === "self-managed";
}

/** The edition, when set; a value that is neither edition is reported, not silently replaced by detection. */
function resolveEdition(stack: StackConfig, env: NodeJS.ProcessEnv, settings: ResolvedSettings): void {
  const fromConfig = stack.edition;
  const raw = fromConfig ?? fromEnvironment(env, SETTINGS.edition.environment);
  if (raw === undefined) return;
  if (isEdition(raw)) {
    settings.edition = raw;
    return;
  }
  (settings.invalid ??= []).push({
    key: fromConfig !== undefined ? "wsbridge:edition" : SETTINGS.edition.environment[0],
    reason: `must be "hosted" or "self-managed", got "${raw}"`,
  });
}

/**
 * Read-only when the stack config or the variable says `true`: a safety switch, so one source cannot
 * loosen what the other tightened. Anything but `true`/`false` is reported, never read as `false`.
 */
function resolveReadOnly(stack: StackConfig, env: NodeJS.ProcessEnv, settings: ResolvedSettings): void {
  const sources: [string | undefined, string][] = [
    [stack.readOnly, "wsbridge:readOnly"],
    [fromEnvironment(env, SETTINGS.readOnly.environment), SETTINGS.readOnly.environment[0]],
  ];
  for (const [raw, key] of sources) {
    if (raw === undefined) continue;
    const value = raw.toLowerCase();
    if (value === "true") settings.readOnly ??= { source: key };
    else if (value !== "false") (settings.invalid ??= []).push({ key, reason: `must be "true" or "false", got "${raw}"` });
  }
}

/** An address must be an absolute http(s) URL; reported under the setting it came from. */
function checkAddress(stack: StackConfig, address: string, env: NodeJS.ProcessEnv, settings: ResolvedSettings): void {
  const problem = addressProblem(address);
  if (problem === undefined) return;
  const key = stack.address !== undefined ? "wsbridge:address"
    : SETTINGS.address.environment.find((name) => nonEmpty(env[name]) !== undefined) ?? "TFE_HOSTNAME";
  (settings.invalid ??= []).push({ key, reason: problem });
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

/** Reads one limit: stack config, then its environment variable. A value that is present but unusable is
 * reported (never silently replaced by the next source or the default). */
function resolveLimit(stack: StackConfig, key: LimitName, env: NodeJS.ProcessEnv, settings: ResolvedSettings): void {
  const rule = SETTINGS[key];
  const fromConfig = stack[key];
  const raw = fromConfig ?? fromEnvironment(env, rule.environment);
  if (raw === undefined) return;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (Number.isSafeInteger(n) && n >= rule.min && n <= rule.max) {
    settings[key] = n;
    return;
  }
  const what = rule.unit === "" ? "a whole number" : `a whole number of ${rule.unit}`;
  (settings.invalid ??= []).push({
    key: fromConfig !== undefined ? `wsbridge:${key}` : rule.environment[0],
    reason: `must be ${what} from ${rule.min} to ${rule.max}, got "${raw}"`,
  });
}

/** Resolves the settings in the documented order, from the stack config recorded by `configure`. Never throws. */
export function resolveSettings(env: NodeJS.ProcessEnv = process.env): ResolvedSettings {
  return resolveWith(stackConfig, env);
}

/**
 * The same resolution from a given config source instead of the recorded one, leaving `configure`'s
 * record alone: lookups run in the program process, where stack config comes from
 * `pulumi.runtime.getConfig`, and the provider's record must not be overwritten where both share a process.
 */
export function resolveSettingsFrom(config: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): ResolvedSettings {
  return resolveWith(readStackConfig(config), env);
}

function resolveWith(stack: StackConfig, env: NodeJS.ProcessEnv): ResolvedSettings {
  const address = resolveAddress(stack.address, env);

  const settings: ResolvedSettings = { address };
  checkAddress(stack, address, env, settings);
  const host = hostOf(address);
  if (stack.token) {
    settings.token = stack.token;
    settings.tokenSource = "config";
  } else {
    const fromEnv = fromEnvironment(env, SETTINGS.token.environment) ?? (host ? tfTokenVariable(env, host) : undefined);
    const fromFile = fromEnv === undefined && host ? credentialsFileToken(env, host) : undefined;
    if (fromEnv !== undefined) {
      settings.token = fromEnv;
      settings.tokenSource = "env";
    } else if (fromFile !== undefined) {
      settings.token = fromFile;
      settings.tokenSource = "credentials-file";
    }
  }
  const organization = resolveOrganization(stack.organization, env);
  if (organization !== undefined) settings.organization = organization;
  resolveEdition(stack, env, settings);
  resolveReadOnly(stack, env, settings);
  for (const key of LIMIT_NAMES) resolveLimit(stack, key, env, settings);
  return settings;
}

/**
 * The settings that cannot be used, as one message naming each (or undefined). `check` throws it so a
 * preview fails on a bad setting before anything is planned, rather than at the first API call of `up`.
 */
export function settingsProblem(settings: ResolvedSettings = resolveSettings()): string | undefined {
  if (!settings.invalid || settings.invalid.length === 0) return undefined;
  return `Invalid provider settings: ${settings.invalid.map((i) => `${i.key} ${i.reason}`).join("; ")}`;
}

/** What the client is built from. Unset limits keep the client's defaults (DEFAULT_TIMEOUT_MS,
 * DEFAULT_RETRY_OPTIONS). */
export function clientSettingsFor(s: ResolvedSettings): ClientSettings {
  const retry: NonNullable<ClientSettings["retry"]> = {};
  if (s.maxRetries !== undefined) retry.maxAttempts = s.maxRetries + 1;
  if (s.retryBudgetMs !== undefined) retry.budgetMs = s.retryBudgetMs;
  if (s.maxRateLimitRetries !== undefined) retry.maxRateLimitRetries = s.maxRateLimitRetries;
  if (s.rateLimitMaxWaitMs !== undefined) retry.rateLimitMaxWaitMs = s.rateLimitMaxWaitMs;
  if (s.unlockRetryPeriodMs !== undefined) retry.unlockRetryPeriodMs = s.unlockRetryPeriodMs;
  return {
    address: s.address,
    ...(s.token === undefined ? {} : { token: s.token }),
    ...(s.edition === undefined ? {} : { edition: s.edition }),
    ...(s.requestTimeoutMs === undefined ? {} : { timeoutMs: s.requestTimeoutMs }),
    ...(Object.keys(retry).length === 0 ? {} : { retry }),
    ...(s.invalid === undefined ? {} : { invalidSettings: s.invalid }),
  };
}

/** The defaults, for documentation and tests. */
export const DEFAULT_LIMITS: Readonly<Record<LimitName, number>> = Object.freeze({
  requestTimeoutMs: DEFAULT_TIMEOUT_MS,
  maxRetries: DEFAULT_RETRY_OPTIONS.maxAttempts - 1,
  retryBudgetMs: DEFAULT_RETRY_OPTIONS.budgetMs,
  maxRateLimitRetries: DEFAULT_RETRY_OPTIONS.maxRateLimitRetries,
  rateLimitMaxWaitMs: DEFAULT_RETRY_OPTIONS.rateLimitMaxWaitMs,
  unlockRetryPeriodMs: DEFAULT_RETRY_OPTIONS.unlockRetryPeriodMs,
});

/** One client per resolved settings per process (pools, limiter and edition cache are per address and
 * shared by all of them anyway). */
const clients = new Map<string, WsbridgeClient>();

export function sharedClient(): WsbridgeClient {
  return sharedClientFor(resolveSettings());
}

/** The shared client for settings resolved elsewhere (resolveSettingsFrom). */
export function sharedClientFor(s: ResolvedSettings): WsbridgeClient {
  const key = [
    s.address, s.token ?? "", s.edition ?? "", ...LIMIT_NAMES.map((k) => s[k] ?? ""), JSON.stringify(s.invalid ?? []),
  ].join("\u0000");
  let client = clients.get(key);
  if (!client) {
    client = new WsbridgeClient(clientSettingsFor(s));
    clients.set(key, client);
  }
  return client;
}

/** Forgets the recorded stack config and the shared clients. */
export function resetConfigForTests(): void {
  stackConfig = {};
  clients.clear();
}

/**
 * The inputs of a kind that lives in an organization, with the default organization applied (stack
 * config, then WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION), and the check failure when there is none.
 */
export function withDefaultOrganization(raw: Props): { inputs: Props; missing?: CheckFailure } {
  const organization = raw.organization ?? resolveSettings().organization;
  if (organization !== undefined) return { inputs: { ...raw, organization } };
  return {
    inputs: raw,
    missing: {
      property: "organization",
      reason: "is required: set it on the resource, or set the `wsbridge:organization` stack config " +
        "(or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)",
    },
  };
}

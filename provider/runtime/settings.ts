// The provider's settings, described once: each is the stack config key `wsbridge:<name>` (or the
// input of that name of an explicit provider), the environment variables it falls back to, its rule,
// and what it means. config.ts resolves them in this order; the package schema (and so every SDK)
// states them from this table (scripts/package-schema), and the README's configuration table is
// checked against it (test/unit/settings-resolution.test.ts).
//
// Pure and dependency-free, because the resource classes need the address and the organization in
// the program (to derive URLs and unique keys at preview) without loading the runtime's HTTP client.

/** A setting given as text: the address, the token, the organization, the edition. */
export interface TextSetting {
  readonly type: "string";
  /** What it is, a sentence or two. */
  readonly description: string;
  /** The environment variables it falls back to, in order. */
  readonly environment: readonly string[];
  /** What comes after the environment variables, as a sentence's end ("then …"). */
  readonly thenFrom?: string;
  /** A last sentence, after the fallbacks. */
  readonly note?: string;
  /** The values it accepts, when it is one of a few. */
  readonly values?: readonly string[];
  readonly secret?: true;
}

/**
 * A switch: `true` or `false`, from stack config and one environment variable. A switch that makes the
 * provider safer is on when either source says `true` (the variable can only tighten, never loosen).
 */
export interface SwitchSetting {
  readonly type: "boolean";
  readonly description: string;
  readonly environment: readonly [string];
  readonly note?: string;
}

/** A limit of the client: a whole number in a range, from stack config, then one environment variable. */
export interface LimitSetting {
  readonly type: "integer";
  readonly description: string;
  readonly environment: readonly [string];
  readonly min: number;
  readonly max: number;
  /** `milliseconds`, or "" for a count. */
  readonly unit: "milliseconds" | "";
}

export const DEFAULT_ADDRESS = "https://app.terraform.io";

export const SETTINGS = {
  address: {
    type: "string",
    description: "The API's address, an absolute http(s) URL.",
    environment: ["WSBRIDGE_ADDRESS", "TFE_ADDRESS"],
    thenFrom: "`https://` + `TFE_HOSTNAME`",
  },
  token: {
    type: "string",
    description: "The API token.",
    environment: ["WSBRIDGE_TOKEN", "TFE_TOKEN"],
    thenFrom: "Terraform CLI's `TF_TOKEN_<host>`, then the token for the address's host in the Terraform CLI " +
      "credentials file (`~/.terraform.d/credentials.tfrc.json`)",
    note: "Never logged; a token set in plaintext stack config is warned about.",
    secret: true,
  },
  organization: {
    type: "string",
    description: "The organization of resources and lookups that name none.",
    environment: ["WSBRIDGE_ORGANIZATION", "TFE_ORGANIZATION"],
  },
  edition: {
    type: "string",
    description: "The API's edition.",
    environment: ["WSBRIDGE_EDITION"],
    note: "Without either, it is detected once per process from the API's ping headers.",
    values: ["hosted", "self-managed"],
  },
  requestTimeoutMs: {
    type: "integer",
    description: "Milliseconds allowed per attempt for the response headers, and again for the body.",
    environment: ["WSBRIDGE_REQUEST_TIMEOUT_MS"], min: 1, max: 3_600_000, unit: "milliseconds",
  },
  maxRetries: {
    type: "integer",
    description: "Retries of a 5xx answer or a lost connection, for requests that are safe to repeat.",
    environment: ["WSBRIDGE_MAX_RETRIES"], min: 0, max: 50, unit: "",
  },
  retryBudgetMs: {
    type: "integer",
    description: "Wall-clock budget of one call in milliseconds, all attempts and waits included.",
    environment: ["WSBRIDGE_RETRY_BUDGET_MS"], min: 0, max: 3_600_000, unit: "milliseconds",
  },
  maxRateLimitRetries: {
    type: "integer",
    description: "How many 429 answers one call may wait out.",
    environment: ["WSBRIDGE_MAX_RATE_LIMIT_RETRIES"], min: 0, max: 100, unit: "",
  },
  rateLimitMaxWaitMs: {
    type: "integer",
    description: "The longest wait in milliseconds a 429 may ask for; a longer one fails at once.",
    environment: ["WSBRIDGE_RATE_LIMIT_MAX_WAIT_MS"], min: 0, max: 3_600_000, unit: "milliseconds",
  },
  unlockRetryPeriodMs: {
    type: "integer",
    description: "How long, in milliseconds, unlock's \"not finalized yet\" 503 is retried.",
    environment: ["WSBRIDGE_UNLOCK_RETRY_PERIOD_MS"], min: 0, max: 3_600_000, unit: "milliseconds",
  },
  readOnly: {
    type: "boolean",
    description: "Refuse every change to the server: a create, update, replacement or delete fails before any " +
      "request is sent, and a preview that would need one fails, naming the object and the properties. For " +
      "adoption steps (`wsbridge adopt` writes it into the project) and other runs that must only read.",
    environment: ["WSBRIDGE_READ_ONLY"],
    note: "`true` in either the stack config or the variable makes the provider read-only; `false` in one does not " +
      "override `true` in the other.",
  },
} as const satisfies Record<string, TextSetting | LimitSetting | SwitchSetting>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The client's limits: the settings that are whole numbers. */
export type LimitName = { [K in SettingName]: (typeof SETTINGS)[K] extends LimitSetting ? K : never }[SettingName];
export const LIMIT_NAMES = SETTING_NAMES.filter((name): name is LimitName => SETTINGS[name].type === "integer");

/** The settings as a program or an explicit provider gives them (every one optional: each falls back to the environment). */
export type ProviderConfig = {
  [K in SettingName]?: (typeof SETTINGS)[K] extends LimitSetting ? number
    : (typeof SETTINGS)[K] extends SwitchSetting ? boolean
    : (typeof SETTINGS)[K] extends { values: readonly (infer V)[] } ? V : string;
};

/** The provider's own description of its settings, as the package schema states it. */
export const SETTINGS_DESCRIPTION = "The settings of the wsbridge provider: the stack config `wsbridge:<setting>` for the default " +
  "provider, or the inputs of an explicit provider resource. Each falls back to the environment as described; none is " +
  "required to preview.";

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

/** The first of `names` set (non-empty, trimmed) in `env`. */
export function fromEnvironment(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = nonEmpty(env[name]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Stack config `wsbridge:address`, then WSBRIDGE_ADDRESS, TFE_ADDRESS, https:// + TFE_HOSTNAME, then the default; no trailing slash. */
export function resolveAddress(configured: string | undefined, env: NodeJS.ProcessEnv): string {
  const tfeHostname = nonEmpty(env["TFE_HOSTNAME"]);
  return (
    nonEmpty(configured) ??
    fromEnvironment(env, SETTINGS.address.environment) ??
    (tfeHostname ? (/^https?:\/\//.test(tfeHostname) ? tfeHostname : `https://${tfeHostname}`) : undefined) ??
    DEFAULT_ADDRESS
  ).replace(/\/+$/, "");
}

/** The organization of a resource that names none: stack config `wsbridge:organization`, then WSBRIDGE_ORGANIZATION, TFE_ORGANIZATION. */
export function resolveOrganization(configured: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return nonEmpty(configured) ?? fromEnvironment(env, SETTINGS.organization.environment);
}

/**
 * A setting's whole description, as the package schema states it: what it is, what it falls back to,
 * and its rule and default (`defaultValue`, where there is one).
 */
export function describeSetting(name: SettingName, defaultValue?: string | number | boolean): string {
  const setting: TextSetting | LimitSetting | SwitchSetting = SETTINGS[name];
  const sources = setting.environment.map((variable) => `\`${variable}\``);
  if ("thenFrom" in setting && setting.thenFrom !== undefined) sources.push(setting.thenFrom);
  const parts = [setting.description, setting.type === "boolean" ? `Also read from ${sources.join(", ")}.` : `Falls back to ${sources.join(", then ")}.`];
  if (setting.type === "integer") {
    parts.push(`A whole number from ${setting.min} to ${setting.max}${defaultValue === undefined ? "" : `; default ${defaultValue}`}.`);
  } else if (setting.type === "boolean") {
    if (setting.note !== undefined) parts.push(setting.note);
    parts.push(`\`true\` or \`false\`${defaultValue === undefined ? "" : `; default \`${defaultValue}\``}.`);
  } else {
    if (setting.note !== undefined) parts.push(setting.note);
    if (setting.values !== undefined) parts.push(`One of: ${setting.values.map((v) => `\`${v}\``).join(", ")}.`);
    if (defaultValue !== undefined) parts.push(`Default: \`${defaultValue}\`.`);
  }
  return parts.join(" ");
}

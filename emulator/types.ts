/**
 * Public types of the emulator. Everything a test or a user script needs to drive the
 * emulator programmatically is declared here and re-exported from `emulator/index.ts`.
 */

/** The two editions of the service. Data retention exists only in `self-managed`. */
export type Edition = "hosted" | "self-managed";

/** Wire name of the workspace version attribute. */
export type VersionAttribute = "engine-version" | "terraform-version";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to bind; default "127.0.0.1" (loopback only). */
  host?: string;
  /** Edition to emulate; default "hosted". */
  edition?: Edition;
  /** Fixtures object, or path to a JSON fixtures file; merged over the default fixture. Used only for a fresh state. */
  fixtures?: Fixtures | string;
  /** Persist state atomically to this file after every change; load it at start if present. */
  stateFile?: string;
  /** Wire name of the version attribute; default "engine-version". "terraform-version" also serves service discovery. */
  versionAttribute?: VersionAttribute;
  /** Faults active from the start. */
  faults?: FaultSettings;
  /** Suppress the log of unexpected errors on stderr. */
  quiet?: boolean;
  /**
   * How long an idle keep-alive connection stays open, in milliseconds; default 30 000. The server
   * then closes it (tests shorten it to reproduce a client reusing a connection the server closed).
   */
  keepAliveTimeoutMs?: number;
  /**
   * Serve HTTPS with this certificate and key instead of HTTP: {@link RunningEmulator.url}, links,
   * upload URLs and `/_emulator/*` are then `https://`. Clients such as go-tfe and the `tfe` provider
   * find the API only on an HTTPS host. `createSelfSignedCertificate()` makes a pair for local use.
   */
  tls?: TlsOptions;
}

/** A certificate and its private key, each PEM text (or the bytes of a PEM file). */
export interface TlsOptions {
  /** The server's certificate, optionally followed by its intermediates. */
  cert: string | Buffer;
  /** The certificate's private key, unencrypted. */
  key: string | Buffer;
}

/** Fault injection settings. Faults apply to API requests only, never to `/_emulator/*`. */
export interface FaultSettings {
  /** Milliseconds added before every API response. */
  latencyMs?: number;
  /** Requests allowed per window and per user, as the service counts (auth.ts rateLimitKey; default window 1000 ms); over it the answer is 429. */
  rateLimit?: { limit: number; windowMs?: number } | null;
  /** 0..1 share of API requests answered with `serverErrorStatus` without applying them. */
  serverErrorRate?: number;
  /** Status used by `serverErrorRate`; default 503. */
  serverErrorStatus?: number;
  /** 0..1 share of API requests whose connection is destroyed before they are handled. */
  dropRate?: number;
  /** Seed that makes the random shares deterministic. */
  seed?: number;
  /** Scripted faults, consumed in order, one per matching request, before the random shares. */
  script?: ScriptedFault[];
}

/** One scripted fault. */
export interface ScriptedFault {
  /** Which requests it applies to; default any API request. A string path matches exactly, or as a glob where `*` matches anything. */
  match?: { method?: string; path?: string | RegExp };
  /** Answer with this status and an error document; the request is NOT applied. */
  status?: number;
  /** Destroy the socket before handling, or after the request was fully applied (the client cannot know the outcome). */
  drop?: "before" | "after";
  /**
   * With `status`: apply the request first, then answer `status` instead of its own answer, as a
   * gateway does when it gives up on a slow request the service still completes (say 502 or 504).
   */
  afterApply?: boolean;
  /** With status 429: the value of Retry-After / X-RateLimit-Reset. */
  retryAfterSeconds?: number;
  /** How many matching requests it applies to; default 1. */
  times?: number;
}

/** One API request as the emulator saw it. */
export interface RequestLogEntry {
  /** Increasing sequence number, starting at 1. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Raw query string without the leading `?` ("" when none). */
  query: string;
  /** Status answered; null when the connection was dropped. */
  status: number | null;
  /** The fault that decided the outcome, if any. */
  fault?: "status" | "status-after-apply" | "drop-before" | "drop-after" | "rate-limit" | "server-error";
  /** Kind of the presented token: owner, user, team, organization, or "invalid"; absent without a token. */
  tokenKind?: string;
  /** When the request arrived (ISO 8601, UTC). */
  at: string;
}

/** Rights of a team, from weakest to strongest. */
export type TeamAccess = "read" | "lock" | "admin" | "manage-all-workspaces";

/** Token kinds the emulator issues. */
export type TokenKind = "owner" | "user" | "team" | "organization";

/**
 * What token to issue with {@link RunningEmulator.issueToken} or `POST /_emulator/tokens`.
 * `organization` defaults to the default organization; an owner token for an organization that does
 * not exist yet creates that organization (with its default project).
 */
/** What a team (and so its members' user tokens) may do on the organization's workspaces. */
export interface TeamRights {
  access: TeamAccess;
  /** Restrict read/lock/admin to these workspaces (ids or names); default every workspace. */
  workspaces?: string[];
  /** Restrict read/lock/admin to workspaces of these projects (ids or names); default every project. */
  projects?: string[];
  /** Whether the team may manage private registry modules (deprecate versions). */
  manageModules?: boolean;
}

export type TokenSpec =
  | {
      /** A user token of a member of the organization's owners team. */
      kind: "owner";
      organization?: string;
      /** Username of the owner; default a new user "owner-<n>". */
      username?: string;
      /** Use this token string instead of a random one. */
      token?: string;
    }
  | ({
      /** A team token: the team's rights on the organization's workspaces. */
      kind: "team";
      organization?: string;
      /** Team name; default "team-<n>". */
      team?: string;
      token?: string;
    } & TeamRights)
  | ({
      /** A user token of a member of a (new) team with the given rights. Locks are held by the user. */
      kind: "user";
      organization?: string;
      username?: string;
      token?: string;
    } & TeamRights)
  | {
      /** The organization token: creates and administers workspaces, cannot lock. */
      kind: "organization";
      organization?: string;
      token?: string;
    };

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. "http://127.0.0.1:41234" (or "https://…" with {@link EmulatorOptions.tls}); the API is under `${url}/api/v2`. */
  url: string;
  /** An owner token of the default organization. */
  token: string;
  /** The default organization's name ("example-org" unless fixtures change it). */
  organization: string;
  edition: Edition;
  /** Replaces the current faults. */
  setFaults(f: FaultSettings): void;
  clearFaults(): void;
  /** Every API request received since start or the last clear (admin routes excluded; the last 10,000 kept). */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  /** Creates a token (team tokens with rights, the organization token, other organizations' owners). */
  issueToken(spec: TokenSpec): string;
  /** Stops the server; with a state file, state is already persisted. */
  close(): Promise<void>;
}

/** Data retention policy as written in fixtures. */
export type DataRetentionFixture = { kind: "delete-older"; deleteOlderThanNDays: number } | { kind: "dont-delete" };

/** A key-value tag binding. */
export interface TagBindingFixture {
  key: string;
  value?: string;
}

/** A project of an organization in fixtures. */
export interface ProjectFixture {
  /** Fixed id (`prj-...`); default random. */
  id?: string;
  name: string;
  description?: string;
  tagBindings?: TagBindingFixture[];
}

/** A workspace in fixtures; created through the same validation as the create endpoint. */
export interface WorkspaceFixture {
  id?: string;
  name: string;
  /** Project name or id; default the organization's default project. */
  project?: string;
  /** Wire attributes exactly as in a create request (`auto-apply`, `execution-mode`, ...). */
  attributes?: Record<string, unknown>;
  /** Flat tag names. */
  tags?: string[];
  tagBindings?: TagBindingFixture[];
  /** Seeds a finalized current state version managing this many resources. */
  resourceCount?: number;
  /** SSH key name or id to assign. */
  sshKey?: string;
}

/** A registry module with its versions in fixtures. */
export interface RegistryModuleFixture {
  name: string;
  provider: string;
  description?: string;
  versions?: Array<string | { version: string; deprecation?: { reason?: string; link?: string } }>;
}

/** One organization in fixtures. Organizations are merged by name over the default fixture. */
export interface OrganizationFixture {
  name: string;
  email?: string;
  /** Owner token of this organization; default random (persisted with the state). */
  ownerToken?: string;
  ownerUsername?: string;
  /** Lets workspace admins force delete. Default false. */
  allowForceDeleteWorkspaces?: boolean;
  /** Default execution mode inherited by workspaces whose `setting-overwrites.execution-mode` is false. */
  defaultExecutionMode?: "remote" | "local" | "agent";
  /** Name or id of one of `agentPools`: the default pool when `defaultExecutionMode` is "agent". */
  defaultAgentPool?: string;
  /** Self-managed edition: the organization's default data retention policy. */
  dataRetentionPolicy?: DataRetentionFixture | null;
  /** Whether the organization may deprecate registry module versions (entitlement). Default true. */
  moduleDeprecations?: boolean;
  projects?: ProjectFixture[];
  sshKeys?: Array<{ id?: string; name: string; value?: string }>;
  agentPools?: Array<{ id?: string; name: string; organizationScoped?: boolean; allowedWorkspaces?: string[] }>;
  /** OAuth clients; each gets one OAuth token (fixed id with `oauthTokenId`). */
  oauthClients?: Array<{ name: string; serviceProvider?: string; httpUrl?: string; oauthTokenId?: string }>;
  registryModules?: RegistryModuleFixture[];
  workspaces?: WorkspaceFixture[];
}

/** The fixtures file format. */
export interface Fixtures {
  /** Versions of the engine the emulator knows; default a realistic list 0.10.0 ... 1.14.x. */
  engineVersions?: string[];
  /** Self-managed edition: default of `global-remote-state` when a create omits it. Default false. */
  defaultGlobalRemoteState?: boolean;
  organizations?: OrganizationFixture[];
  /** Extra tokens, issued after the organizations exist. */
  tokens?: TokenSpec[];
}

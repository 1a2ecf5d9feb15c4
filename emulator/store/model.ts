/**
 * Records the store keeps. They are plain JSON so the whole state can be persisted as one file.
 * Timestamps are ISO 8601 strings (UTC, milliseconds, `Z`).
 */
import type { TeamAccess, TokenKind } from "../types";

export type ExecutionMode = "remote" | "local" | "agent";

export type DrpRecord =
  | { id: string; kind: "delete-older"; deleteOlderThanNDays: number }
  | { id: string; kind: "dont-delete" };

/** Settings only stored and returned, by wire name; domain/organization-settings.ts holds each one's rule and default. */
export type SettingValue = boolean | number | string | null;
export type OrganizationSettings = Record<string, SettingValue>;

export interface OrganizationRecord {
  /** The organization's name; the service uses it as the id. */
  id: string;
  email: string;
  createdAt: string;
  allowForceDeleteWorkspaces: boolean;
  defaultExecutionMode: ExecutionMode;
  defaultAgentPoolId: string | null;
  defaultProjectId: string;
  dataRetentionPolicy: DrpRecord | null;
  moduleDeprecations: boolean;
  /** Settings only stored and returned (see domain/organization-settings.ts), by wire name. */
  settings: OrganizationSettings;
}

export interface UserRecord {
  id: string;
  username: string;
  email: string;
  /** Organizations whose owners team the user is on. */
  ownerOf: string[];
  /** Team ids the user belongs to. */
  teamIds: string[];
}

/** A level an emulator-issued team has on every workspace in its scope (manage-all is organization access). */
export type WorkspaceLevel = Exclude<TeamAccess, "manage-all-workspaces">;

export type TeamVisibility = "secret" | "organization";

/** The permissions of `organization-access`, as the service names them; all default to false. */
export const ORGANIZATION_ACCESS_KEYS = [
  "manage-policies",
  "manage-policy-overrides",
  "manage-run-tasks",
  "manage-workspaces",
  "manage-vcs-settings",
  "manage-agent-pools",
  "manage-providers",
  "manage-modules",
  "manage-projects",
  "read-projects",
  "read-workspaces",
  "manage-membership",
  "manage-teams",
  "manage-organization-access",
  "access-secret-teams",
] as const;

export type OrganizationAccessKey = (typeof ORGANIZATION_ACCESS_KEYS)[number];
export type OrganizationAccess = Record<OrganizationAccessKey, boolean>;

export interface TeamRecord {
  id: string;
  name: string;
  organization: string;
  /**
   * Emulator-issued teams (TokenSpec rights): this level on every workspace in scope. Null for
   * teams made through the API, whose rights come from organization access and team-workspaces.
   */
  access: WorkspaceLevel | null;
  /** Workspace ids or names the access is limited to; null = every workspace. */
  workspaces: string[] | null;
  /** Project ids or names the access is limited to; null = every project. */
  projects: string[] | null;
  /** By wire name; `manage-workspaces` is the manage-all-workspaces right, `manage-modules` module management. */
  organizationAccess: OrganizationAccess;
  visibility: TeamVisibility;
  /** The organization's owners team: its members are the owners (`UserRecord.ownerOf`), its tokens act as an owner. */
  owners: boolean;
  /** The team's legacy API token (the key of its TokenRecord); null when it has none. */
  tokenId: string | null;
}

export interface TokenRecord {
  /** The bearer token itself. */
  id: string;
  kind: TokenKind;
  organization: string;
  userId: string | null;
  teamId: string | null;
  createdAt: string;
  /** Tokens generated through the API: their public id (`at-…`), creator and expiry. */
  publicId?: string;
  createdBy?: { type: "users" | "teams"; id: string } | null;
  /** After this instant the token no longer authenticates; absent or null = never. */
  expiredAt?: string | null;
}

export type TeamWorkspaceAccess = "read" | "plan" | "write" | "admin" | "custom";

/** The permissions a team-workspace stands for (fixed per level, chosen with `custom`). */
export interface TeamWorkspacePermissions {
  runs: "read" | "plan" | "apply";
  variables: "none" | "read" | "write";
  stateVersions: "none" | "read-outputs" | "read" | "write";
  sentinelMocks: "none" | "read";
  workspaceLocking: boolean;
  runTasks: boolean;
}

/** A team's access to one workspace (`tws-…`). */
export interface TeamWorkspaceRecord extends TeamWorkspacePermissions {
  id: string;
  teamId: string;
  workspaceId: string;
  access: TeamWorkspaceAccess;
}

export interface TagBindingRecord {
  id: string;
  key: string;
  value: string;
  createdAt: string;
}

export interface ProjectRecord {
  id: string;
  organization: string;
  name: string;
  description: string | null;
  createdAt: string;
  tagBindings: TagBindingRecord[];
  /** Inherited by workspaces that set no auto-destroy of their own (`inherits-project-auto-destroy`). */
  autoDestroyActivityDuration: string | null;
  /** The project's own defaults; they apply only where `settingOverwrites` says so, else the organization's do. */
  defaultExecutionMode: ExecutionMode | null;
  defaultAgentPoolId: string | null;
  settingOverwrites: { executionMode: boolean; agentPool: boolean };
}

export interface FlatTagRecord {
  id: string;
  organization: string;
  name: string;
  createdAt: string;
}

export interface VcsRepoRecord {
  identifier: string;
  oauthTokenId: string | null;
  githubAppInstallationId: string | null;
  branch: string;
  ingressSubmodules: boolean;
  tagsRegex: string | null;
  webhookId: string;
}

export interface LockRecord {
  by: { type: "users" | "teams" | "runs"; id: string };
  reason: string;
  at: string;
}

export interface WorkspaceRecord {
  id: string;
  /** Creation sequence: the stable default order of lists. */
  seq: number;
  organization: string;
  name: string;
  projectId: string;
  description: string | null;
  executionMode: ExecutionMode;
  agentPoolId: string | null;
  allowDestroyPlan: boolean;
  assessmentsEnabled: boolean;
  autoApply: boolean;
  autoApplyRunTrigger: boolean;
  autoDestroyAt: string | null;
  autoDestroyActivityDuration: string | null;
  /** When true, the project's auto-destroy duration applies instead of the workspace's own settings. */
  inheritsProjectAutoDestroy: boolean;
  fileTriggersEnabled: boolean;
  globalRemoteState: boolean;
  /** Self-managed only: every workspace of the same project may read this one's state. */
  projectRemoteState: boolean;
  queueAllRuns: boolean;
  sourceName: string | null;
  sourceUrl: string | null;
  speculativeEnabled: boolean;
  structuredRunOutputEnabled: boolean;
  engineVersion: string;
  triggerPatterns: string[];
  triggerPrefixes: string[];
  workingDirectory: string | null;
  settingOverwrites: { executionMode: boolean; agentPool: boolean };
  vcsRepo: VcsRepoRecord | null;
  lock: LockRecord | null;
  sshKeyId: string | null;
  tagIds: string[];
  tagBindings: TagBindingRecord[];
  remoteStateConsumerIds: string[];
  currentStateVersionId: string | null;
  currentRunId: string | null;
  dataRetentionPolicy: DrpRecord | null;
  createdAt: string;
  updatedAt: string;
}

export interface SshKeyRecord {
  id: string;
  organization: string;
  name: string;
  createdAt: string;
}

export interface AgentPoolRecord {
  id: string;
  organization: string;
  name: string;
  organizationScoped: boolean;
  allowedWorkspaceIds: string[];
  createdAt: string;
}

export interface OAuthClientRecord {
  id: string;
  organization: string;
  name: string;
  serviceProvider: string;
  httpUrl: string;
  apiUrl: string;
  createdAt: string;
  oauthTokenId: string;
}

export interface OAuthTokenRecord {
  id: string;
  organization: string;
  oauthClientId: string;
  createdAt: string;
}

export interface RegistryModuleRecord {
  id: string;
  organization: string;
  name: string;
  provider: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export interface ModuleVersionRecord {
  id: string;
  moduleId: string;
  version: string;
  createdAt: string;
  providers: Array<{ name: string; version: string }>;
  deprecation: { id: string; reason: string; link: string } | null;
}

export interface StateOutputRecord {
  id: string;
  name: string;
  sensitive: boolean;
  /** The kind of the value as the service names it (`string`, `array`, ...). */
  type: string;
  value: unknown;
  /** The engine's type of the output as the state file writes it (`"string"`, `["tuple", [...]]`). */
  detailedType: unknown;
}

export interface StateVersionRecord {
  id: string;
  workspaceId: string;
  serial: number;
  lineage: string | null;
  md5: string | null;
  createdAt: string;
  /** Finalized = content uploaded and processed. */
  finalized: boolean;
  /** Intermediate versions become current only when the lock is released. */
  intermediate: boolean;
  /** Discarded intermediate versions never become current. */
  discarded: boolean;
  resourceCount: number;
  outputs: StateOutputRecord[];
  /** The uploaded state file exactly as sent (UTF-8 JSON); null for versions given no content. */
  content: string | null;
  /** From the content: its format version (`version`, 4 today) and the engine version that wrote it. */
  stateFormatVersion: number | null;
  terraformVersion: string | null;
}

export interface RunRecord {
  id: string;
  workspaceId: string;
  status: string;
  message: string;
  isDestroy: boolean;
  createdAt: string;
  statusChangedAt: string;
}

/** The whole persisted state. */
export interface State {
  schema: 1;
  seq: number;
  engineVersions: string[];
  defaultGlobalRemoteState: boolean;
  /** The default organization (returned by startEmulator) and its owner token. */
  defaultOrganization: string;
  defaultToken: string;
  organizations: OrganizationRecord[];
  users: UserRecord[];
  teams: TeamRecord[];
  /** Team access to workspaces; absent in state files written before it existed. */
  teamWorkspaces: TeamWorkspaceRecord[];
  tokens: TokenRecord[];
  projects: ProjectRecord[];
  workspaces: WorkspaceRecord[];
  tags: FlatTagRecord[];
  sshKeys: SshKeyRecord[];
  agentPools: AgentPoolRecord[];
  oauthClients: OAuthClientRecord[];
  oauthTokens: OAuthTokenRecord[];
  registryModules: RegistryModuleRecord[];
  moduleVersions: ModuleVersionRecord[];
  stateVersions: StateVersionRecord[];
  runs: RunRecord[];
}

/**
 * The typed client of the Workspace Management and Module Deprecation API.
 * See client.ts for the operations, errors.ts for what can go wrong.
 */
export { WsbridgeClient } from "./client";
export type { ClientSettings, Edition } from "./requester";
export { addressProblem } from "./requester";
export type { PingInfo } from "./operations/ping";
export type { WorkspaceReadOptions } from "./operations/workspaces";
export { DEFAULT_RETRY_OPTIONS, type RetryOptions } from "./retry";
export type { RateLimitOptions } from "./rate-limiter";
export { DEFAULT_TIMEOUT_MS, closeAllPools } from "./transport";
export { collect } from "./paginate";
export * from "./errors";

export type { ExecutionMode, LockHolder, VcsRepo, Workspace, WorkspacePermissions } from "./documents/workspaces";
export type {
  VcsRepoOptions, WorkspaceCreateOptions, WorkspaceListOptions, WorkspaceUpdateOptions, WorkspaceWritableOptions,
} from "./documents/workspace-requests";
export type { IncludedResource } from "./documents/common";
export type { Tag, TagRef } from "./documents/tags";
export type { EffectiveTagBinding, TagBinding, TagBindingInput } from "./documents/tag-bindings";
export type { DataRetentionPolicy, DataRetentionPolicyInput, DataRetentionPolicyKind } from "./documents/data-retention";
export type { Project } from "./documents/projects";
export { MAX_STATE_BYTES, type CurrentState, type CurrentStateReadOptions, type NoCurrentState } from "./documents/state-versions";
export type { DeprecationInput, ModuleVersionDeprecation, ModuleVersionRef } from "./documents/module-versions";
export type {
  Deprecation, RegistryModule, RegistryModuleRef, RegistryModuleVersion, RegistryModuleVersionRef, RegistryModuleVersionSummary,
} from "./documents/registry";

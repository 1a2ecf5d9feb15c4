// pulumi-wsbridge: Pulumi dynamic resources for the Workspace Management and Module Deprecation API.
// Loading this module loads only the resource classes; the runtime (HTTP client, validation) is
// loaded by the provider process when Pulumi calls it.
export { Workspace, type WorkspaceArgs } from "./resources/workspace";
export type { WorkspaceInputs } from "./schemas/workspace";
export { WorkspaceLock, type WorkspaceLockArgs } from "./resources/workspace-lock";
export type { WorkspaceLockInputs } from "./schemas/workspace-lock";
export { SshKeyAssignment, type SshKeyAssignmentArgs } from "./resources/ssh-key-assignment";
export type { SshKeyAssignmentInputs } from "./schemas/ssh-key-assignment";
export { DataRetentionPolicy, type DataRetentionPolicyArgs } from "./resources/data-retention-policy";
export type { DataRetentionPolicyInputs } from "./schemas/data-retention-policy";
export { WorkspaceTagBindings, type WorkspaceTagBindingsArgs } from "./resources/workspace-tag-bindings";
export type { WorkspaceTagBindingsInputs } from "./schemas/workspace-tag-bindings";
export { RemoteStateConsumers, type RemoteStateConsumersArgs } from "./resources/remote-state-consumers";
export type { RemoteStateConsumersInputs } from "./schemas/remote-state-consumers";
export { ModuleVersionDeprecation, type ModuleVersionDeprecationArgs } from "./resources/module-version-deprecation";
export type { ModuleVersionDeprecationInputs } from "./schemas/module-version-deprecation";
export {
  getWorkspace, getWorkspaceOutput, listWorkspaces, listWorkspacesOutput,
  type GetWorkspaceArgs, type GetWorkspaceOutputArgs, type ListWorkspacesArgs, type ListWorkspacesOutputArgs,
  type WorkspaceLookupResult, type WorkspaceLookupVcsRepo,
} from "./lookups/workspaces";
export {
  getModuleVersion, getModuleVersionOutput, listModuleVersions, listModuleVersionsOutput,
  type GetModuleVersionArgs, type GetModuleVersionOutputArgs, type ListModuleVersionsArgs, type ListModuleVersionsOutputArgs,
  type ModuleVersionLookupResult, type ModuleVersionsLookupResult, type ModuleVersionSummary, type ModuleVersionDeprecationNotice,
} from "./lookups/module-versions";

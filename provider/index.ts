// pulumi-wsbridge: Pulumi dynamic resources for the Workspace Management and Module Deprecation API.
// Loading this module loads only the resource classes; the runtime (HTTP client, validation) is
// loaded by the provider process when Pulumi calls it.
export { Workspace, type WorkspaceArgs } from "./dynamic/resources/workspace";
export type { WorkspaceInputs } from "./schemas/workspace";
export { WorkspaceLock, type WorkspaceLockArgs } from "./dynamic/resources/workspace-lock";
export type { WorkspaceLockInputs } from "./schemas/workspace-lock";
export { SshKeyAssignment, type SshKeyAssignmentArgs } from "./dynamic/resources/ssh-key-assignment";
export type { SshKeyAssignmentInputs } from "./schemas/ssh-key-assignment";
export { DataRetentionPolicy, type DataRetentionPolicyArgs } from "./dynamic/resources/data-retention-policy";
export type { DataRetentionPolicyInputs } from "./schemas/data-retention-policy";
export { WorkspaceTagBindings, type WorkspaceTagBindingsArgs } from "./dynamic/resources/workspace-tag-bindings";
export type { WorkspaceTagBindingsInputs } from "./schemas/workspace-tag-bindings";
export { RemoteStateConsumers, type RemoteStateConsumersArgs } from "./dynamic/resources/remote-state-consumers";
export type { RemoteStateConsumersInputs } from "./schemas/remote-state-consumers";
export { ModuleVersionDeprecation, type ModuleVersionDeprecationArgs } from "./dynamic/resources/module-version-deprecation";
export type { ModuleVersionDeprecationInputs } from "./schemas/module-version-deprecation";
export {
  getWorkspace, getWorkspaceOutput, listWorkspaces, listWorkspacesOutput,
  type GetWorkspaceArgs, type GetWorkspaceOutputArgs, type ListWorkspacesArgs, type ListWorkspacesOutputArgs,
  type WorkspaceLookupResult, type WorkspaceLookupVcsRepo,
} from "./dynamic/functions/workspaces";
export {
  getModuleVersion, getModuleVersionOutput, listModuleVersions, listModuleVersionsOutput,
  type GetModuleVersionArgs, type GetModuleVersionOutputArgs, type ListModuleVersionsArgs, type ListModuleVersionsOutputArgs,
  type ModuleVersionLookupResult, type ModuleVersionsLookupResult, type ModuleVersionSummary, type ModuleVersionDeprecationNotice,
} from "./dynamic/functions/module-versions";

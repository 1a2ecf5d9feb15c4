// STABLE CONTRACT. Serialized providers in users' state files call these names
// (`require("pulumi-wsbridge/runtime").<kind>.<method>(...)`) long after they were written, so
// exports may be added but never renamed or removed, and their signatures only widened.
import * as config from "./config";
import * as workspaceKind from "./kinds/workspace";
import * as workspaceLockKind from "./kinds/workspace-lock";
import * as sshKeyAssignmentKind from "./kinds/ssh-key-assignment";
import * as dataRetentionPolicyKind from "./kinds/data-retention-policy";
import * as workspaceTagBindingsKind from "./kinds/workspace-tag-bindings";
import * as remoteStateConsumersKind from "./kinds/remote-state-consumers";
import * as moduleVersionDeprecationKind from "./kinds/module-version-deprecation";

/** The part of Pulumi's dynamic `ConfigureRequest` the runtime reads. */
export interface ConfigureRequest {
  readonly config?: config.ConfigSource;
}

/**
 * Records the stack config (`wsbridge:address`, `wsbridge:token`, `wsbridge:organization`,
 * `wsbridge:edition`). Never throws for a missing value: previews without credentials still run
 * check and diff; the first API call reports what is missing.
 */
export async function configure(req: ConfigureRequest | undefined): Promise<void> {
  config.configure(req?.config);
}

export const workspace = {
  check: workspaceKind.check,
  diff: workspaceKind.diff,
  create: workspaceKind.create,
  read: workspaceKind.read,
  update: workspaceKind.update,
  delete: workspaceKind.remove,
};

export const workspaceLock = {
  check: workspaceLockKind.check,
  diff: workspaceLockKind.diff,
  create: workspaceLockKind.create,
  read: workspaceLockKind.read,
  update: workspaceLockKind.update,
  delete: workspaceLockKind.remove,
};

export const sshKeyAssignment = {
  check: sshKeyAssignmentKind.check,
  diff: sshKeyAssignmentKind.diff,
  create: sshKeyAssignmentKind.create,
  read: sshKeyAssignmentKind.read,
  update: sshKeyAssignmentKind.update,
  delete: sshKeyAssignmentKind.remove,
};

export const dataRetentionPolicy = {
  check: dataRetentionPolicyKind.check,
  diff: dataRetentionPolicyKind.diff,
  create: dataRetentionPolicyKind.create,
  read: dataRetentionPolicyKind.read,
  update: dataRetentionPolicyKind.update,
  delete: dataRetentionPolicyKind.remove,
};

export const workspaceTagBindings = {
  check: workspaceTagBindingsKind.check,
  diff: workspaceTagBindingsKind.diff,
  create: workspaceTagBindingsKind.create,
  read: workspaceTagBindingsKind.read,
  update: workspaceTagBindingsKind.update,
  delete: workspaceTagBindingsKind.remove,
};

export const remoteStateConsumers = {
  check: remoteStateConsumersKind.check,
  diff: remoteStateConsumersKind.diff,
  create: remoteStateConsumersKind.create,
  read: remoteStateConsumersKind.read,
  update: remoteStateConsumersKind.update,
  delete: remoteStateConsumersKind.remove,
};

export const moduleVersionDeprecation = {
  check: moduleVersionDeprecationKind.check,
  diff: moduleVersionDeprecationKind.diff,
  create: moduleVersionDeprecationKind.create,
  read: moduleVersionDeprecationKind.read,
  update: moduleVersionDeprecationKind.update,
  delete: moduleVersionDeprecationKind.remove,
};

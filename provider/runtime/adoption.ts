// What `pulumi import` of each kind adopts, from objects already read: the same functions each kind's
// importById uses, for `wsbridge adopt`, which reads a whole organization in bulk and must declare
// exactly the inputs the import will compare (so the first preview after adopting shows no change).
import type { Adoption, Props } from "./lifecycle";
import { reproducingInputs } from "./kinds/workspace/import";
import { adoptionOf as lockAdoption } from "./kinds/workspace-lock";
import { adoptionOf as sshKeyAdoption } from "./kinds/ssh-key-assignment";
import { adoptionOf as policyAdoption } from "./kinds/data-retention-policy";
import { adoptionOf as consumersAdoption } from "./kinds/remote-state-consumers";
import { adoptionOf as deprecationAdoption } from "./kinds/module-version-deprecation";
import type { Workspace } from "./api";
import { withOmissionsFilled } from "./kinds/workspace/check";
import { withFixedValues } from "../schemas/omission";
import { WORKSPACE_LOCK_OMITTED } from "../schemas/workspace-lock";
import { REMOTE_STATE_CONSUMERS_OMITTED } from "../schemas/remote-state-consumers";
import { WORKSPACE_TAG_BINDINGS_OMITTED } from "../schemas/workspace-tag-bindings";

export type { Adoption } from "./lifecycle";
export type { VersionKey } from "./kinds/module-version-deprecation";
/** A module version's import id, `<org>/<module>/<provider>/<version>`. */
export { idOf as moduleVersionImportId } from "./kinds/module-version-deprecation";

/** A workspace: every setting it holds of its own; one the import id `ws-…` adopts. */
export function workspaceAdoption(workspace: Workspace): Adoption & { readonly inputs: Props } {
  return { importId: workspace.id, inputs: reproducingInputs(workspace) };
}

/**
 * Inputs as each kind's check completes them (what the program leaves out filled in): adoption inputs
 * omit those values, so comparing them with a stack's inputs needs both sides in this form.
 */
export const withOmissionsFilledOf: Readonly<Record<string, (inputs: Props) => Props>> = {
  Workspace: withOmissionsFilled,
  WorkspaceLock: (inputs) => withFixedValues(WORKSPACE_LOCK_OMITTED, inputs),
  SshKeyAssignment: (inputs) => inputs,
  DataRetentionPolicy: (inputs) => inputs,
  RemoteStateConsumers: (inputs) => withFixedValues(REMOTE_STATE_CONSUMERS_OMITTED, inputs),
  WorkspaceTagBindings: (inputs) => withFixedValues(WORKSPACE_TAG_BINDINGS_OMITTED, inputs),
  ModuleVersionDeprecation: (inputs) => inputs,
};

export const adoptionOf = {
  workspace: workspaceAdoption,
  workspaceLock: lockAdoption,
  sshKeyAssignment: sshKeyAdoption,
  dataRetentionPolicy: policyAdoption,
  remoteStateConsumers: consumersAdoption,
  moduleVersionDeprecation: deprecationAdoption,
};

// Each resource kind's runtime check (the zod schema its provider applies at preview), by kind name
// as in scripts/generate-schema's KINDS: the tests that tie them to the JSON Schemas and to the
// examples share this one list.
import type { z } from "zod";
import { workspaceInputsSchema } from "../../provider/schemas/workspace";
import { workspaceLockInputsSchema } from "../../provider/schemas/workspace-lock";
import { sshKeyAssignmentInputsSchema } from "../../provider/schemas/ssh-key-assignment";
import { dataRetentionPolicyInputsSchema } from "../../provider/schemas/data-retention-policy";
import { workspaceTagBindingsInputsSchema } from "../../provider/schemas/workspace-tag-bindings";
import { remoteStateConsumersInputsSchema } from "../../provider/schemas/remote-state-consumers";
import { moduleVersionDeprecationInputsSchema } from "../../provider/schemas/module-version-deprecation";

export const inputSchemasByKind: Readonly<Record<string, z.ZodType>> = {
  Workspace: workspaceInputsSchema,
  WorkspaceLock: workspaceLockInputsSchema,
  SshKeyAssignment: sshKeyAssignmentInputsSchema,
  DataRetentionPolicy: dataRetentionPolicyInputsSchema,
  WorkspaceTagBindings: workspaceTagBindingsInputsSchema,
  RemoteStateConsumers: remoteStateConsumersInputsSchema,
  ModuleVersionDeprecation: moduleVersionDeprecationInputsSchema,
};

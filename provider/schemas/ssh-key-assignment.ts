// The one source of a SshKeyAssignment's inputs: the documented interface (docs and JSON Schema) and
// the zod schema the provider checks them with; a compile-time check keeps the two in agreement.
import { z } from "zod";
import { RULES, text } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";

/** What a {@link SshKeyAssignment} manages: which SSH key one workspace uses (one key per workspace). */
export interface SshKeyAssignmentInputs {
  /**
   * The workspace (`ws-…`) the key is assigned to. Changing it replaces the resource: the key is
   * assigned to the new workspace first, then unassigned from the old one.
   */
  workspaceId: string;
  /**
   * The SSH key (`sshkey-…`) of the workspace's organization. Changing it updates in place (one request).
   */
  sshKeyId: string;
}

export const sshKeyAssignmentInputsSchema = z.strictObject({
  workspaceId: text(RULES.workspaceId),
  sshKeyId: text(RULES.sshKeyId),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type SshKeyAssignmentInputsAgree = Assert<Equals<z.input<typeof sshKeyAssignmentInputsSchema>, SshKeyAssignmentInputs>>;

/** What each optional input means when the program leaves it out (schemas/omission.ts). */
export const SSH_KEY_ASSIGNMENT_OMITTED: OmissionTable<OptionalKeys<SshKeyAssignmentInputs>> = {};

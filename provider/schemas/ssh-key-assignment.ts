// The one source of a SshKeyAssignment's inputs: the documented interface (docs and JSON Schema) and
// the zod schema the provider checks them with; a compile-time check keeps the two in agreement.
import { z } from "zod";
import type { Equals, Assert } from "./type-equality";

/** What a {@link SshKeyAssignment} manages: which SSH key one workspace uses (one key per workspace). */
export interface SshKeyAssignmentInputs {
  /**
   * The workspace (`ws-…`) the key is assigned to. Changing it replaces the resource: the key is
   * assigned to the new workspace first, then unassigned from the old one.
   * @pattern ^ws-[A-Za-z0-9]+$
   */
  workspaceId: string;
  /**
   * The SSH key (`sshkey-…`) of the workspace's organization. Changing it updates in place (one request).
   * @pattern ^sshkey-[A-Za-z0-9]+$
   */
  sshKeyId: string;
}

export const sshKeyAssignmentInputsSchema = z.strictObject({
  workspaceId: z.string({ error: "must be a string" }).regex(/^ws-[A-Za-z0-9]+$/, 'must be a workspace id ("ws-…")'),
  sshKeyId: z.string({ error: "must be a string" }).regex(/^sshkey-[A-Za-z0-9]+$/, 'must be an SSH key id ("sshkey-…")'),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type SshKeyAssignmentInputsAgree = Assert<Equals<z.input<typeof sshKeyAssignmentInputsSchema>, SshKeyAssignmentInputs>>;

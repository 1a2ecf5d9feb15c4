// The one source of a WorkspaceLock's inputs: the documented interface (docs and JSON Schema) and the
// zod schema the provider checks them with; a compile-time check keeps the two in agreement.
import { z } from "zod";
import { RULES, text } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";

/**
 * What a {@link WorkspaceLock} manages: the lock of one workspace, held by the identity of the
 * provider's token (a user or a team) for as long as the resource exists.
 */
export interface WorkspaceLockInputs {
  /**
   * The workspace (`ws-…`) to lock. One lock per workspace: two WorkspaceLocks of one program may not
   * declare the same workspace. Changing it replaces the resource (the old workspace is unlocked first).
   */
  workspaceId: string;
  /**
   * Why the workspace is locked, shown by the service beside the lock. Default `""` (the service's).
   * The service cannot change the reason of a held lock, so a change replaces the resource: unlock,
   * then lock again with the new reason (the workspace is briefly unlocked in between).
   */
  reason?: string;
  /**
   * When true, destroying this resource uses force-unlock, which needs admin access on the workspace,
   * so a lock this resource took can be released by a token of another identity (a rotated CI token,
   * another team's token). Only a lock that is still this resource's is ever released. Default false:
   * a plain unlock, which only the identity that took the lock may do.
   */
  forceUnlockOnDestroy?: boolean;
}

export const workspaceLockInputsSchema = z.strictObject({
  workspaceId: text(RULES.workspaceId),
  reason: z.string({ error: "must be a string" }).optional(),
  forceUnlockOnDestroy: z.boolean({ error: "must be a boolean" }).optional(),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type WorkspaceLockInputsAgree = Assert<Equals<z.input<typeof workspaceLockInputsSchema>, WorkspaceLockInputs>>;

/** What each optional input means when the program leaves it out (schemas/omission.ts). */
export const WORKSPACE_LOCK_OMITTED: OmissionTable<OptionalKeys<WorkspaceLockInputs>> = {
  reason: { means: "value", value: "", basis: "the lock endpoint's reason is optional: none is an empty reason" },
  forceUnlockOnDestroy: { means: "value", value: false, basis: "the provider's switch" },
};

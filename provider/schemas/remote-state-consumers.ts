// The one source of a RemoteStateConsumers's inputs: the documented interface (docs and JSON Schema)
// and the zod schema the provider checks them with; a compile-time check keeps the two in agreement.
import { z } from "zod";
import { RULES, text } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";


/** What a {@link RemoteStateConsumers} manages: which workspaces may read one workspace's state. */
export interface RemoteStateConsumersInputs {
  /**
   * The workspace (`ws-…`) whose state the consumers may read. Its `global-remote-state` and
   * `project-remote-state` must be false. Changing it replaces the resource.
   */
  workspaceId: string;
  /**
   * The consumer workspaces (`ws-…`), each once, never `workspaceId` itself. Order does not matter.
   * Additive mode adds these and, on change or destroy, removes only those this resource added.
   */
  consumerIds: string[];
  /**
   * When true, the list is replaced by exactly `consumerIds` (consumers added outside Pulumi are
   * removed). Needs a token whose team may manage all workspaces of the organization. Default false.
   */
  exclusive?: boolean;
}

export const remoteStateConsumersInputsSchema = z.strictObject({
  workspaceId: text(RULES.workspaceId),
  consumerIds: z
    .array(text(RULES.workspaceId), {
      error: "must be a list of workspace ids",
    }),
  exclusive: z.boolean({ error: "must be a boolean" }).optional(),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type RemoteStateConsumersInputsAgree = Assert<Equals<z.input<typeof remoteStateConsumersInputsSchema>, RemoteStateConsumersInputs>>;

/** What each optional input means when the program leaves it out (schemas/omission.ts). */
export const REMOTE_STATE_CONSUMERS_OMITTED: OmissionTable<OptionalKeys<RemoteStateConsumersInputs>> = {
  exclusive: { means: "value", value: false, basis: "the provider's switch" },
};

/**
 * A workspace's current state version, as `GET /api/v2/workspaces/:workspace_id/current-state-version`
 * answers it, and the state it points to. Not in the spec; the service's endpoint, as the official Go
 * client reads it (go-tfe `state_version.go`, `StateVersions.ReadCurrent`, then `Download` of the
 * version's `hosted-state-download-url`). Read by `wsbridge adopt --from-terraform-workspace` to learn
 * which objects a Terraform configuration manages.
 */
import { z } from "zod";

/** Only what the read needs; the service sends many more attributes, some filled in asynchronously. */
export const stateVersionDocument = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal("state-versions"),
    attributes: z.object({
      serial: z.number().int(),
      status: z.string().optional(),
      // Filled in once the service has processed the version: null (or "") before that.
      "terraform-version": z.string().nullable().optional(),
      // Null until the version's state is uploaded.
      "hosted-state-download-url": z.string().nullable().optional(),
    }),
  }),
});

/** The current state of a workspace: what its latest finalized state version holds. */
export interface CurrentState {
  workspaceId: string;
  stateVersionId: string;
  serial: number;
  /** As the service recorded it; null while it has not processed the version (the state's own
   * `terraform_version`, in `content`, is the authority). */
  terraformVersion: string | null;
  /** The raw state as the download URL served it, decoded as UTF-8 (a leading byte-order mark dropped,
   * as for every response): Terraform's JSON state (format version 4 since Terraform 0.12). Not parsed
   * or checked here: `provider/adopt/terraform/state.ts` reads it and says what is wrong with it. */
  content: string;
}

/**
 * The workspace has no current state version: no state was ever applied or uploaded to it. A result
 * rather than an error: for adopt it is an answer ("Terraform manages nothing there"), not a failure of
 * the read, and the types make every caller decide what it means (`"none" in result`: a CurrentState has
 * no `none`).
 */
export interface NoCurrentState {
  none: true;
  workspaceId: string;
}

/** Options of `readCurrentState`. */
export interface CurrentStateReadOptions {
  /** The longest state read, in bytes (default MAX_STATE_BYTES); a longer one fails with ResponseShapeError. */
  maxStateBytes?: number;
}

/**
 * 256 MiB: the whole state is held in memory as one string (and adopt parses it), so a bound keeps a
 * broken or hostile server from exhausting memory. A state of that size is far beyond what a
 * configuration manages in practice, and below V8's longest string (about 512 MiB on 64-bit Node.js).
 */
export const MAX_STATE_BYTES = 256 * 1024 * 1024;

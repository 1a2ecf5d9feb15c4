// delete: safe delete unless forceDelete is declared; gone already is done.
import { ConflictError, ForbiddenError, NotFoundError } from "../../api";
import { sharedClient } from "../../config";
import { type Props, withStaleSettingsHint } from "../../lifecycle";
import { adoptedInThisRun } from "../../ownership";
import { KIND } from "./fields";
import { fromState } from "./state";

export async function remove(id: string, props: Props): Promise<void> {
  const state = fromState(props);
  // Taken over by a create of this run (see adoptedInThisRun): it is the new resource's now.
  if (adoptedInThisRun(id)) return;
  const force = state.forceDelete === true;
  const what = `${KIND} "${String(state.organization)}/${String(state.name)}" (${id})`;
  const client = sharedClient();
  try {
    // Both are retried by the client; gone already counts as done.
    if (force) await client.forceDeleteWorkspace(id);
    else await client.safeDeleteWorkspace(id);
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone: delete is idempotent
    if (error instanceof ConflictError && !force && error.reason === "locked-cannot-delete") {
      throw new Error(
        `${what} was not deleted because it is locked (${error.detail ?? error.message}). ` +
          "Unlock it (or let the run holding the lock finish), then try again. A force delete would also remove it.",
      );
    }
    if (error instanceof ConflictError && !force) {
      throw new Error(
        `${what} was not deleted because it still manages resources (${error.detail ?? error.message}). ` +
          "Destroy what it manages first, or set `forceDelete: true` on the Workspace, run `pulumi up`, then try again.",
      );
    }
    if (error instanceof ForbiddenError) {
      throw new Error(
        `${what} was not force-deleted: the token may not force delete (organization owners can; workspace admins only ` +
          `where the organization allows it). ${error.message}`,
      );
    }
    throw withStaleSettingsHint(error, "destroy");
  }
}

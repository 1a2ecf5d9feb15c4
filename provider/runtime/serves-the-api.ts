// A 404 from an address that serves no API at all says nothing about the object asked for: before a
// "not found" is believed (a resource dropped from the state, a lookup that fails), the ping tells
// "gone" from "wrong address".
import { NotFoundError, type Workspace, type WsbridgeClient } from "./api";
import { withStaleSettingsHint } from "./lifecycle";

/** Throws, naming the address, when it answers the ping with 404. `consequence` says what that means for the caller. */
export async function assertServesTheApi(client: WsbridgeClient, consequence = ""): Promise<void> {
  try {
    await client.ping();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new Error(
      `${client.address} does not serve the API (GET /api/v2/ping answered 404)${consequence}; check wsbridge:address ` +
        "(the service's base address, without /api/v2)",
      { cause: error },
    );
  }
}

/**
 * Refresh's read of a workspace: undefined when it is gone (after the ping above proves the address
 * serves the API), and a refused token or unreachable address explained with what to run.
 */
export async function readWorkspaceForRefresh(
  client: WsbridgeClient, id: string, options?: { include?: string[] },
): Promise<Workspace | undefined> {
  try {
    return await client.readWorkspace(id, options);
  } catch (error) {
    if (error instanceof NotFoundError) {
      await assertServesTheApi(client, ", so a workspace not found there is not known to be gone");
      return undefined;
    }
    throw withStaleSettingsHint(error, "refresh");
  }
}

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
 * A read that may find nothing: the object, or undefined when the answer is a 404 from an address that
 * serves the API (the ping proves it first; else the error names the address). `what` names the object
 * for that message ("a workspace"); for refresh and destroy, a refused token or an unreachable address
 * is explained with what to run (the settings recorded in the state may be stale).
 */
export async function readUnlessGone<T>(
  client: WsbridgeClient, what: string, read: () => Promise<T>, command?: "refresh" | "destroy", gone = "gone",
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw command === undefined ? error : withStaleSettingsHint(error, command);
    await assertServesTheApi(client, `, so ${what} not found there is not known to be ${gone}`);
    return undefined;
  }
}

/** Refresh's read of a workspace (see {@link readUnlessGone}). */
export async function readWorkspaceForRefresh(
  client: WsbridgeClient, id: string, options?: { include?: string[] },
): Promise<Workspace | undefined> {
  return readUnlessGone(client, "a workspace", () => client.readWorkspace(id, options), "refresh");
}

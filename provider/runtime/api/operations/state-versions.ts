/**
 * A workspace's current state (not in the spec; see documents/state-versions.ts). Three GETs, nothing
 * else, so a read-only token is enough:
 *
 * 1. the workspace by name (NotFoundError when there is none, or the token may not see it), whose
 *    `current-state-version` relationship says whether it has a current state version;
 * 2. `GET /api/v2/workspaces/:workspace_id/current-state-version` (go-tfe `StateVersions.ReadCurrent`);
 * 3. a GET of that version's `hosted-state-download-url` (go-tfe `StateVersions.Download`), through
 *    `Requester.download`, which sends the token to the configured address's origin only.
 */
import {
  MAX_STATE_BYTES, stateVersionDocument, type CurrentState, type CurrentStateReadOptions, type NoCurrentState,
} from "../documents/state-versions";
import { workspaceDocument } from "../documents/workspaces";
import { InvalidOptionsError, NotFoundError, ResponseShapeError } from "../errors";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

export async function readCurrentState(
  core: Requester, organization: string, workspaceName: string, options?: CurrentStateReadOptions,
): Promise<CurrentState | NoCurrentState> {
  requireId("readCurrentState", "organization", organization);
  requireId("readCurrentState", "workspaceName", workspaceName);
  const maxBytes = options?.maxStateBytes ?? MAX_STATE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new InvalidOptionsError("readCurrentState", "maxStateBytes", `must be a positive whole number of bytes, got ${String(maxBytes)}`);
  }

  const wsRes = await core.request({ method: "GET", path: `/api/v2/organizations/${seg(organization)}/workspaces/${seg(workspaceName)}` });
  const workspace = core.parse(workspaceDocument, wsRes).data;
  const workspaceId = workspace.id;
  // null: the service says there is none. undefined: it did not say (the relationship or its data left
  // out), and the current-state-version read below decides.
  const named = workspace.relationships["current-state-version"]?.data;
  if (named === null) return { none: true, workspaceId };

  let svRes;
  try {
    svRes = await core.request({ method: "GET", path: `/api/v2/workspaces/${seg(workspaceId)}/current-state-version` });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    // The service's answer for a workspace without a current state version.
    if (named === undefined) return { none: true, workspaceId };
    // The workspace names one, so the version is there: the token may not read state versions.
    throw new NotFoundError({
      method: err.method, path: err.path, status: 404, errors: [...err.errorDetails], attempts: err.attempts,
      ...(err.requestId === undefined ? {} : { requestId: err.requestId }),
      hint: `Workspace ${workspaceId} names current state version ${named.id}, but the token may not read it: ` +
        "reading a workspace's state needs permission to read its state versions (team access read or more)",
    });
  }
  const sv = core.parse(stateVersionDocument, svRes).data;
  const url = sv.attributes["hosted-state-download-url"];
  if (url === undefined || url === null || url === "") {
    throw new ResponseShapeError(svRes.context, [{
      path: "data.attributes.hosted-state-download-url",
      message: `state version ${sv.id}${sv.attributes.status ? ` (status ${sv.attributes.status})` : ""} has no download URL`,
    }]);
  }
  const text = await core.download({ url, describe: `(the download URL of state version ${sv.id})`, maxBytes });
  const engine = sv.attributes["terraform-version"];
  return {
    workspaceId,
    stateVersionId: sv.id,
    serial: sv.attributes.serial,
    terraformVersion: engine === undefined || engine === null || engine === "" ? null : engine,
    content: text,
  };
}

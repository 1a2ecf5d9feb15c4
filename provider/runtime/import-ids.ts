// The import ids of the kinds that belong to one workspace (Workspace, WorkspaceLock,
// SshKeyAssignment, DataRetentionPolicy): `pulumi import wsbridge:index:<Kind> <name> <import id>`
// takes the workspace's id (the resource's own id), or its organization and name.
import { RULES, brokenCheck } from "../schemas/rules";
import { NotFoundError, type Workspace, type WsbridgeClient } from "./api";
import { assertServesTheApi } from "./serves-the-api";

/** A workspace named by an import id. */
export type WorkspaceRef = { readonly id: string } | { readonly organization: string; readonly name: string };

/** The accepted forms, for messages and the README. */
export const WORKSPACE_IMPORT_ID_FORMATS = '"ws-<id>" (the workspace id) or "<organization>/<workspace name>"';

/** The workspace an import id names; an Error naming the accepted forms for any other id (no request). */
export function parseWorkspaceImportId(kind: string, importId: string): WorkspaceRef {
  if (brokenCheck(RULES.workspaceId, importId) === undefined) return { id: importId };
  const [organization = "", name = "", ...rest] = importId.split("/");
  if (rest.length === 0 && brokenCheck(RULES.organizationName, organization) === undefined && brokenCheck(RULES.workspaceName, name) === undefined) {
    return { organization, name };
  }
  throw new Error(`${kind}: cannot import ${JSON.stringify(importId)}: an import id is ${WORKSPACE_IMPORT_ID_FORMATS}.`);
}

/**
 * One read of the workspace, by id or by name; undefined when there is none. A 404 from an address
 * that serves no API at all is an error naming the address, not "nothing to import".
 */
export async function readWorkspaceForImport(
  client: WsbridgeClient, ref: WorkspaceRef, options?: { include?: string[] },
): Promise<Workspace | undefined> {
  try {
    return "id" in ref ? await client.readWorkspace(ref.id, options) : await client.readWorkspaceByName(ref.organization, ref.name, options);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await assertServesTheApi(client, ", so a workspace not found there is not known to be missing");
    return undefined;
  }
}

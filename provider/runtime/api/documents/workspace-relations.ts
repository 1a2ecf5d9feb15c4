/**
 * Request documents of the workspace's actions and relationships (spec B1, B4, C2–C4). Their responses
 * are workspace documents (workspaces.ts) or empty (204).
 */
import { z } from "zod";
import { bodyId, requestDocument, type RequestDocument } from "./common";

/** B1: `{ reason }` as the spec documents it (the service also accepts go-tfe's JSON:API form). */
export const lockRequest = z.strictObject({ reason: z.string() });

/** B4: `attributes.id` is the SSH key to assign, or null to unassign. */
export const sshKeyRequest = z.strictObject({
  data: z.strictObject({ type: z.literal("workspaces"), attributes: z.strictObject({ id: bodyId.nullable() }) }),
});

/** C2–C4: the workspaces to add, set or remove, by id only. */
export const remoteStateConsumersRequest = z.strictObject({
  data: z.array(z.strictObject({ type: z.literal("workspaces"), id: bodyId })),
});

export function lockBody(reason: string): RequestDocument {
  return requestDocument(lockRequest, { reason });
}

export function sshKeyBody(sshKeyId: string | null): RequestDocument {
  return requestDocument(sshKeyRequest, { data: { type: "workspaces", attributes: { id: sshKeyId } } });
}

export function remoteStateConsumersBody(workspaceIds: readonly string[]): RequestDocument {
  return requestDocument(remoteStateConsumersRequest, { data: workspaceIds.map((id) => ({ type: "workspaces" as const, id })) });
}

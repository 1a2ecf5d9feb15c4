/**
 * Data retention policy of a workspace (spec C11–C13, self-managed edition only). Two kinds:
 * `data-retention-policy-delete-olders` (delete-older-than-n-days) and `data-retention-policy-dont-deletes`.
 * The legacy type `data-retention-policies` (TFE v202311-1/v202312-1) reads as delete-older.
 */
import { z } from "zod";
import { RULES } from "../../../schemas/rules";
import { InvalidOptionsError } from "../errors";
import { requestDocument, type RequestDocument } from "./common";

const DELETE_OLDERS = "data-retention-policy-delete-olders";
const DONT_DELETES = "data-retention-policy-dont-deletes";

export const dataRetentionPolicyResource = z.object({
  id: z.string(),
  type: z.enum([DELETE_OLDERS, DONT_DELETES, "data-retention-policies"]),
  attributes: z.object({
    "delete-older-than-n-days": z.number().nullable().optional(),
    // Some documented request/response samples use camelCase.
    deleteOlderThanNDays: z.number().nullable().optional(),
  }).nullable().optional(),
  relationships: z.object({
    target: z.object({ data: z.object({ id: z.string(), type: z.string() }).nullable().optional() }).optional(),
  }).optional(),
});

export const dataRetentionPolicyDocument = z.object({ data: dataRetentionPolicyResource });

export type DataRetentionPolicyKind = "delete-older" | "dont-delete";

export interface DataRetentionPolicy {
  id: string;
  kind: DataRetentionPolicyKind;
  /** Set for `delete-older`. */
  deleteOlderThanNDays: number | null;
  /** What the policy applies to: the workspace, or the organization when the default is reported. */
  target: { id: string; type: string } | null;
}

export type DataRetentionPolicyInput =
  | { kind: "delete-older"; deleteOlderThanNDays: number }
  | { kind: "dont-delete" };

export function toDataRetentionPolicy(r: z.output<typeof dataRetentionPolicyResource>): DataRetentionPolicy {
  const days = r.attributes?.["delete-older-than-n-days"] ?? r.attributes?.deleteOlderThanNDays ?? null;
  return {
    id: r.id,
    kind: r.type === DONT_DELETES ? "dont-delete" : "delete-older",
    deleteOlderThanNDays: r.type === DONT_DELETES ? null : days,
    target: r.relationships?.target?.data ?? null,
  };
}

export function validateDataRetentionPolicyInput(operation: string, input: DataRetentionPolicyInput): void {
  if (input?.kind === "dont-delete") return;
  if (input?.kind !== "delete-older") throw new InvalidOptionsError(operation, "policy.kind", 'must be "delete-older" or "dont-delete"');
  const days = input.deleteOlderThanNDays;
  if (!Number.isInteger(days) || days < RULES.retentionDays.min || days > RULES.retentionDays.max) {
    throw new InvalidOptionsError(operation, "policy.deleteOlderThanNDays", `must be a whole number of days >= 1, got ${String(days)}`);
  }
}

/** C12 request document, one of the two kinds, in kebab-case (what go-tfe sends and the service accepts). */
export const dataRetentionPolicyRequest = z.strictObject({
  data: z.discriminatedUnion("type", [
    z.strictObject({
      type: z.literal(DELETE_OLDERS),
      attributes: z.strictObject({ "delete-older-than-n-days": z.number().int().min(RULES.retentionDays.min).max(RULES.retentionDays.max) }),
    }),
    z.strictObject({ type: z.literal(DONT_DELETES), attributes: z.strictObject({}) }),
  ]),
});

export function dataRetentionPolicyBody(input: DataRetentionPolicyInput): RequestDocument {
  if (input.kind === "dont-delete") return requestDocument(dataRetentionPolicyRequest, { data: { type: DONT_DELETES, attributes: {} } });
  return requestDocument(dataRetentionPolicyRequest, {
    data: { type: DELETE_OLDERS, attributes: { "delete-older-than-n-days": input.deleteOlderThanNDays } },
  });
}

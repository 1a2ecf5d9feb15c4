// The one source of a DataRetentionPolicy's inputs: the interface below carries the documentation (it
// becomes the public Args type and, through typescript-json-schema, schema/DataRetentionPolicy.json);
// the zod schema is the runtime check. A compile-time assertion keeps the two shapes identical. The
// rule that exactly one of the two forms is declared cannot be written in the generated JSON Schema; it
// lives in `policyRules` below, applied by the same zod schema.
import { z } from "zod";
import { RULES, text, wholeNumber } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";

/**
 * What a {@link DataRetentionPolicy} manages: the data retention policy set on one workspace (self-managed
 * edition only). Declare exactly one form: `deleteOlderThanNDays`, or `dontDelete: true`.
 */
export interface DataRetentionPolicyInputs {
  /**
   * The workspace (`ws-…`) the policy is set on. Changing it replaces the resource (the policy is removed
   * from the old workspace and set on the new one).
   */
  workspaceId: string;
  /**
   * Backing data (configuration and state version files) older than this many days is deleted: a whole
   * number, at least 1. Never together with `dontDelete`.
   * @TJS-type integer
   */
  deleteOlderThanNDays?: number;
  /**
   * `true`: backing data is never deleted. Only `true` is a form (leave it out to use
   * `deleteOlderThanNDays`). Never together with `deleteOlderThanNDays`.
   */
  dontDelete?: true;
}

const fields = z.strictObject({
  workspaceId: text(RULES.workspaceId),
  deleteOlderThanNDays: wholeNumber(RULES.retentionDays, "days").optional(),
  dontDelete: z.literal(true, {
    error: "must be true when given: it is the form that never deletes; leave it out and declare deleteOlderThanNDays instead",
  }).optional(),
});

type Fields = z.output<typeof fields>;

const ONE_FORM = "declare exactly one of deleteOlderThanNDays (a number of days) or dontDelete: true";

/** Exactly one form. Each issue names the property that breaks the rule. */
function policyRules(p: Fields, ctx: z.core.$RefinementCtx<Fields>): void {
  if (p.deleteOlderThanNDays !== undefined && p.dontDelete !== undefined) {
    ctx.addIssue({ code: "custom", path: ["dontDelete"], message: `must not be set together with deleteOlderThanNDays: ${ONE_FORM}` });
  }
}

/**
 * The runtime check. "Neither form" is checked by the provider (runtime/kinds/data-retention-policy.ts),
 * which can tell a form left out from one whose value is still unknown during a preview.
 */
export const dataRetentionPolicyInputsSchema = fields.superRefine(policyRules);

export const DATA_RETENTION_ONE_FORM = ONE_FORM;

// Fails to compile if the interface and the schema ever describe different shapes.
export type DataRetentionPolicyInputsAgree = Assert<Equals<z.input<typeof dataRetentionPolicyInputsSchema>, DataRetentionPolicyInputs>>;

/** What each optional input means when the program leaves it out (schemas/omission.ts). */
export const DATA_RETENTION_POLICY_OMITTED: OmissionTable<OptionalKeys<DataRetentionPolicyInputs>> = {
  deleteOlderThanNDays: { means: "other-form", rule: "the other form: `dontDelete: true`" },
  dontDelete: { means: "other-form", rule: "the other form: `deleteOlderThanNDays`" },
};

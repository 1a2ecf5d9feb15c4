// The one source of a WorkspaceTagBindings's inputs: the documented interface (docs and JSON Schema)
// and the zod schema the provider checks them with; a compile-time check keeps the two in agreement.
//
// The tag rules are the spec's Limits, shared with Workspace.tagBindings through rules.ts.
import { z } from "zod";
import { MAX_DIRECT_TAG_BINDINGS, MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH, RULES, TAG_TEXT, brokenCheck, text } from "./rules";
import type { Equals, Assert } from "./type-equality";
import type { OmissionTable, OptionalKeys } from "./omission";

/**
 * Key-value tags this resource binds directly on the workspace: tag key → value. Keys: 1–128
 * characters; values: up to 256 (`""` binds a key-only tag); both letters, digits and `_ . = + - @ :`;
 * keys must not start with `hc:` or `hcp:`. At most 10 (with, in additive mode, the keys already on the
 * workspace that this resource does not manage).
 * @inline
 */
export interface WorkspaceTagBindingsTags {
  [key: string]: WorkspaceTagBindingsValue;
}

/**
 * A tag value: up to 256 letters, digits and `_ . = + - @ :`, or `""` for a key-only tag.
 */
export type WorkspaceTagBindingsValue = string;

/** What a {@link WorkspaceTagBindings} manages: some (or, with `exclusive`, all) direct key-value tags of one workspace. */
export interface WorkspaceTagBindingsInputs {
  /**
   * The workspace (`ws-…`). Changing it replaces the resource: the tags are bound on the new
   * workspace, then the managed keys are removed from the old one.
   */
  workspaceId: string;
  /**
   * The tags this resource binds. Additive by default: keys bound by others (the UI, another stack)
   * are left alone; a key removed here is unbound. May be empty.
   */
  tags: WorkspaceTagBindingsTags;
  /**
   * When true, `tags` is the whole set of direct bindings: every other direct key is removed at `up`,
   * and a key added outside Pulumi shows as drift. Default false (additive). Only one exclusive
   * WorkspaceTagBindings, and no other WorkspaceTagBindings, may exist per workspace.
   */
  exclusive?: boolean;
}

export { MAX_DIRECT_TAG_BINDINGS, MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH, TAG_TEXT };

/** The rule a tag key breaks, or undefined: the spec's Limits (the same rules as Workspace.tagBindings). */
export function tagKeyProblem(key: string): string | undefined {
  const broken = brokenCheck(RULES.tagKey, key);
  if (broken === undefined || broken.check === "minLength") return broken?.message;
  if (broken.check === "maxLength") return `tag key "${key.slice(0, 40)}…" must be at most ${MAX_TAG_KEY_LENGTH} characters (it has ${key.length})`;
  return broken.message.replace(/^tag keys /, `tag key "${key}" `);
}

const tagsSchema = z.record(
  z.string({ error: "must be a string" }),
  text(RULES.tagValue, "may contain only letters, digits and _ . = + - @ : (or be \"\" for a key-only tag)"),
  { error: "must be a map of tag keys to values" },
).superRefine((tags, ctx) => {
  for (const key of Object.keys(tags)) {
    const problem = tagKeyProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: "custom", path: [key], message: problem });
  }
  const count = Object.keys(tags).length;
  if (count > MAX_DIRECT_TAG_BINDINGS) {
    ctx.addIssue({ code: "custom", message: `may bind at most ${MAX_DIRECT_TAG_BINDINGS} tags directly on a workspace, got ${count}` });
  }
});

export const workspaceTagBindingsInputsSchema = z.strictObject({
  workspaceId: text(RULES.workspaceId),
  tags: tagsSchema,
  exclusive: z.boolean({ error: "must be a boolean" }).optional(),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type WorkspaceTagBindingsInputsAgree = Assert<Equals<z.input<typeof workspaceTagBindingsInputsSchema>, WorkspaceTagBindingsInputs>>;

/** What each optional input means when the program leaves it out (schemas/omission.ts). */
export const WORKSPACE_TAG_BINDINGS_OMITTED: OmissionTable<OptionalKeys<WorkspaceTagBindingsInputs>> = {
  exclusive: { means: "value", value: false, basis: "the provider's switch" },
};

// The one source of a Workspace's inputs: the interface below carries the documentation (it becomes
// the public Args type and, through typescript-json-schema, schema/Workspace.json); the zod schema
// is the runtime check. A compile-time assertion keeps the two shapes identical, and
// test/schema-sources-agree.test.ts proves the rules (patterns, types, required keys) agree too.
import { z } from "zod";
import type { Equals, Assert } from "./type-equality";

/** What a {@link Workspace} manages. */
export interface WorkspaceInputs {
  /**
   * The workspace's name, unique in its organization: letters, digits, `-` and `_` only.
   * Renaming updates the workspace in place (its URL in the API and UI changes). At most 260 characters.
   * @pattern ^[A-Za-z0-9_-]+$
   * @maxLength 260
   */
  name: string;
  /**
   * Free-text description. Leave it out to not manage the description at all; set `""` to clear it.
   */
  description?: string;
  /**
   * The organization that owns the workspace. Defaults to the `wsbridge:organization` stack config
   * (else `WSBRIDGE_ORGANIZATION` / `TFE_ORGANIZATION`). Changing it replaces the workspace.
   * Letters, digits, `-` and `_`.
   * @pattern ^[A-Za-z0-9_-]+$
   */
  organization?: string;
  /**
   * When true, destroying this resource force-deletes the workspace even if it still manages
   * resources (needs the organization owner, or a workspace admin where the organization allows it).
   * When false (the default), destroy uses safe delete and fails while the workspace manages resources.
   */
  forceDelete?: boolean;
}

export const WORKSPACE_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const WORKSPACE_NAME_MAX_LENGTH = 260;
export const ORGANIZATION_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

export const workspaceInputsSchema = z.strictObject({
  name: z
    .string({ error: "must be a string" })
    .regex(WORKSPACE_NAME_PATTERN, "must contain only letters, digits, '-' and '_' (and not be empty)")
    .max(WORKSPACE_NAME_MAX_LENGTH, `must be at most ${WORKSPACE_NAME_MAX_LENGTH} characters`),
  description: z.string({ error: "must be a string" }).optional(),
  organization: z
    .string({ error: "must be a string" })
    .regex(ORGANIZATION_NAME_PATTERN, "must contain only letters, digits, '-' and '_' (and not be empty)")
    .optional(),
  forceDelete: z.boolean({ error: "must be a boolean" }).optional(),
});

// Fails to compile if the interface and the schema ever describe different shapes.
export type WorkspaceInputsAgree = Assert<Equals<z.input<typeof workspaceInputsSchema>, WorkspaceInputs>>;

// The spec's Limits for key-value tags, in one place for every input that binds them
// (Workspace.tagBindings and WorkspaceTagBindings.tags). Each schema words its own messages.

/** Letters, digits and `_ . = + - @ :`: the characters of tag keys and of non-empty values. */
export const TAG_TEXT = /^[A-Za-z0-9_.=+\-@:]+$/;
/** A value: `""` (a key-only tag) or tag text. */
export const TAG_VALUE = /^$|^[A-Za-z0-9_.=+\-@:]+$/;
/** Keys starting with these are the service's own. */
export const RESERVED_TAG_PREFIX = /^[Hh][Cc][Pp]?:/;
export const MAX_TAG_KEY_LENGTH = 128;
export const MAX_TAG_VALUE_LENGTH = 256;
/** Bound directly on a workspace; up to 10 more may come from its project. */
export const MAX_DIRECT_TAG_BINDINGS = 10;

// Which resource page (docs/resources/<page>) holds which kind's omission table, and where in the page:
// between two markers, so scripts/omission-tables.js can rewrite it and a test can compare it.
import type { Omission } from "./omission";
import { WORKSPACE_OMITTED } from "./workspace";
import { WORKSPACE_LOCK_OMITTED } from "./workspace-lock";
import { REMOTE_STATE_CONSUMERS_OMITTED } from "./remote-state-consumers";
import { WORKSPACE_TAG_BINDINGS_OMITTED } from "./workspace-tag-bindings";
import { SSH_KEY_ASSIGNMENT_OMITTED } from "./ssh-key-assignment";
import { DATA_RETENTION_POLICY_OMITTED } from "./data-retention-policy";
import { MODULE_VERSION_DEPRECATION_OMITTED } from "./module-version-deprecation";

export const OMISSION_PAGES: Readonly<Record<string, Readonly<Record<string, Omission>>>> = {
  "workspace.md": WORKSPACE_OMITTED,
  "workspace-lock.md": WORKSPACE_LOCK_OMITTED,
  "remote-state-consumers.md": REMOTE_STATE_CONSUMERS_OMITTED,
  "workspace-tag-bindings.md": WORKSPACE_TAG_BINDINGS_OMITTED,
  "ssh-key-assignment.md": SSH_KEY_ASSIGNMENT_OMITTED,
  "data-retention-policy.md": DATA_RETENTION_POLICY_OMITTED,
  "module-version-deprecation.md": MODULE_VERSION_DEPRECATION_OMITTED,
};

export const OMISSION_START = "<!-- omitted-inputs:start (scripts/omission-tables.js writes this table) -->";
export const OMISSION_END = "<!-- omitted-inputs:end -->";

/** The page's table between the markers, or undefined when the page has no markers. */
export function omissionSectionOf(page: string): string | undefined {
  const start = page.indexOf(OMISSION_START);
  const end = page.indexOf(OMISSION_END);
  if (start < 0 || end < start) return undefined;
  return page.slice(start + OMISSION_START.length, end).trim();
}

/** The page with `table` between its markers (the page must have them). */
export function replaceOmissionSection(page: string, table: string): string {
  const start = page.indexOf(OMISSION_START);
  const end = page.indexOf(OMISSION_END);
  if (start < 0 || end < start) throw new Error(`the page has no ${OMISSION_START} … ${OMISSION_END} markers`);
  return `${page.slice(0, start + OMISSION_START.length)}\n${table}\n${page.slice(end)}`;
}

// Where Terraform's recorded attributes differ from the server: the program is written from the server,
// so these are values Terraform would put back on its next apply if it still managed the object. The
// report lists each, so the user knows what the move changes in Terraform's eyes (nothing on the server).
import type { DiscoveredWorkspace, Estate } from "../model";
import type { TerraformInstance } from "./state";
import { workspaceIdOf } from "./takeover";

export interface Difference {
  readonly address: string;
  /** Terraform's attribute name. */
  readonly attribute: string;
  readonly terraform: unknown;
  readonly server: unknown;
}

type Reader = (found: DiscoveredWorkspace) => unknown;

/** tfe_workspace's attributes and where the server's workspace says the same thing. */
const WORKSPACE_ATTRIBUTES: readonly (readonly [string, Reader])[] = [
  ["name", (d) => d.workspace.name],
  ["description", (d) => d.workspace.description],
  ["project_id", (d) => d.workspace.projectId],
  ["auto_apply", (d) => d.workspace.autoApply],
  ["auto_apply_run_trigger", (d) => d.workspace.autoApplyRunTrigger],
  ["allow_destroy_plan", (d) => d.workspace.allowDestroyPlan],
  ["file_triggers_enabled", (d) => d.workspace.fileTriggersEnabled],
  ["queue_all_runs", (d) => d.workspace.queueAllRuns],
  ["speculative_enabled", (d) => d.workspace.speculativeEnabled],
  ["structured_run_output_enabled", (d) => d.workspace.structuredRunOutputEnabled],
  ["assessments_enabled", (d) => d.workspace.assessmentsEnabled],
  ["terraform_version", (d) => d.workspace.engineVersion],
  ["working_directory", (d) => d.workspace.workingDirectory],
  ["ssh_key_id", (d) => d.workspace.sshKeyId],
  ["tag_names", (d) => d.workspace.tagNames],
  ["tags", (d) => Object.fromEntries((d.workspace.effectiveTagBindings ?? []).filter((t) => t.inheritedFrom === null).map((t) => [t.key, t.value]))],
  ["trigger_prefixes", (d) => d.workspace.triggerPrefixes],
  ["trigger_patterns", (d) => d.workspace.triggerPatterns],
];

/** tfe_workspace_settings's attributes. */
const SETTINGS_ATTRIBUTES: readonly (readonly [string, Reader])[] = [
  ["execution_mode", (d) => d.workspace.executionMode],
  ["global_remote_state", (d) => d.workspace.globalRemoteState],
  ["remote_state_consumer_ids", (d) => (d.consumers === undefined || "unreadable" in d.consumers ? undefined : d.consumers.map((c) => c.id))],
];

/** The differences between each released instance's recorded attributes and what the server holds now. */
export function differencesOf(released: readonly TerraformInstance[], estate: Estate): Difference[] {
  const found = new Map(estate.workspaces.map((d) => [d.workspace.id, d]));
  const out: Difference[] = [];
  for (const instance of released) {
    const a = instance.attributes;
    const compare = (attribute: string, server: unknown): void => {
      if (!(attribute in a) || server === undefined) return;
      if (!same(a[attribute], server)) out.push({ address: instance.address, attribute, terraform: a[attribute], server });
    };
    const d = found.get(workspaceIdOf(instance));
    if (d === undefined) continue;
    if (instance.type === "tfe_workspace") {
      for (const [attribute, read] of WORKSPACE_ATTRIBUTES) compare(attribute, read(d));
    } else if (instance.type === "tfe_workspace_settings") {
      const overwritten = Array.isArray(a.overwrites) && (a.overwrites[0] as { execution_mode?: unknown } | undefined)?.execution_mode === true;
      for (const [attribute, read] of SETTINGS_ATTRIBUTES) if (attribute !== "execution_mode" || overwritten) compare(attribute, read(d));
    } else if (instance.type === "tfe_data_retention_policy") {
      const policy = d.policy;
      if (policy === undefined || "unreadable" in policy) continue;
      // A `dont_delete` policy is the absence of `delete_older_than`: one comparison says both.
      compare("delete_older_than", policy.kind === "delete-older" ? { days: policy.deleteOlderThanNDays } : null);
    }
  }
  return out;
}

/** Equal after the tfe provider's ways of saying "nothing": "" and null; null and []; lists as sets. */
function same(terraform: unknown, server: unknown): boolean {
  const t = normal(terraform);
  const s = normal(server);
  return JSON.stringify(t) === JSON.stringify(s);
}

function normal(value: unknown): unknown {
  if (value === "" || value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : [...value].map(String).sort();
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined);
    return entries.length === 0 ? null : Object.fromEntries(entries.sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, v]) => [k, normal(v)]));
  }
  return value;
}

// What `adopt` says at the end (stdout) and writes beside the program (adoption-report.md and .json):
// the resources per kind, what was not adopted with the reason, and the settings left to inherit.
import { ADOPTED_KINDS, type AdoptionPlan, type Skipped } from "./model";
import { countsByKind } from "./plan";

export interface ReportContext {
  readonly address: string;
  readonly selection: string;
  readonly language: string;
  readonly out: string;
}

/** Skipped objects grouped by reason: the summary names each reason once, with how many and a few examples. */
function byReason(items: readonly Skipped[]): Map<string, Skipped[]> {
  const groups = new Map<string, Skipped[]>();
  for (const item of items) {
    const reason = item.reason.replace(/\bws-[A-Za-z0-9]+\b/g, "ws-…").replace(/\b(run|user|team)-[A-Za-z0-9]+\b/g, "$1-…");
    const key = `${item.kind}: ${reason}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

export function summaryText(plan: AdoptionPlan, context: ReportContext): string {
  const counts = countsByKind(plan);
  const lines = [`Adopted from ${plan.organization} at ${context.address} (${plan.edition}), ${context.selection}:`];
  for (const kind of ADOPTED_KINDS) lines.push(`  ${kind.padEnd(26)} ${String(counts.get(kind) ?? 0).padStart(6)}`);
  lines.push(`  ${"total".padEnd(26)} ${String(plan.resources.length).padStart(6)}`);
  if (plan.skipped.length > 0) {
    lines.push(`Not adopted (${plan.skipped.length}):`);
    for (const [reason, items] of byReason(plan.skipped)) {
      const examples = items.slice(0, 3).map((i) => i.object).join("; ");
      lines.push(`  ${items.length} × ${reason}`, `      e.g. ${examples}${items.length > 3 ? "; …" : ""}`);
    }
  }
  if (plan.inherited.length > 0) lines.push(`Left to inherit: ${plan.inherited.length} settings and tags (the workspaces' projects or organization hold them).`);
  lines.push(`Wrote the ${context.language} program and adoption-report.md to ${context.out}.`);
  return `${lines.join("\n")}\n`;
}

export function reportMarkdown(plan: AdoptionPlan, context: ReportContext): string {
  const counts = countsByKind(plan);
  const lines = [
    `# Adoption of ${plan.organization}`,
    "",
    `Read from ${context.address} (${plan.edition} edition), ${context.selection}, by \`wsbridge adopt\`.`,
    "",
    "| Kind | Adopted |",
    "|---|---|",
    ...ADOPTED_KINDS.map((kind) => `| ${kind} | ${counts.get(kind) ?? 0} |`),
    "",
    `## Not adopted (${plan.skipped.length})`,
    "",
    ...(plan.skipped.length === 0 ? ["Nothing."] : ["| Kind | Object | Why |", "|---|---|---|", ...plan.skipped.map(row)]),
    "",
    `## Left to inherit (${plan.inherited.length})`,
    "",
    "The import declares only what each workspace holds of its own; these stay with its project or organization.",
    "",
    ...(plan.inherited.length === 0 ? ["Nothing."] : ["| What | Object | Why |", "|---|---|---|", ...plan.inherited.map(row)]),
  ];
  return `${lines.join("\n")}\n`;
}

function row(item: Skipped): string {
  const cell = (text: string): string => text.replace(/\|/g, "\\|");
  return `| ${cell(item.kind)} | ${cell(item.object)} | ${cell(item.reason)} |`;
}

/** The same facts for machines (CI, tests): counts per kind, skipped and inherited, resources by name. */
export function reportJson(plan: AdoptionPlan): string {
  const counts = countsByKind(plan);
  return `${JSON.stringify({
    organization: plan.organization,
    edition: plan.edition,
    counts: Object.fromEntries(ADOPTED_KINDS.map((kind) => [kind, counts.get(kind) ?? 0])),
    resources: plan.resources.map((r) => ({ kind: r.kind, name: r.name, importId: r.importId })),
    skipped: plan.skipped,
    inherited: plan.inherited,
  }, null, 2)}\n`;
}

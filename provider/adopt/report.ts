// What `adopt` says at the end (stdout) and writes beside the program (adoption-report.md and .json).
// The files describe the folder, not the run: every batch adopt wrote, what was not adopted and why,
// the settings left to inherit, and what the stack holds that is gone from the server or differs from
// it; so a run that finds nothing new writes the same bytes. What this run did is the summary's.
import type { Drift } from "./drift";
import { ADOPTED_KINDS, type AdoptedKind, type AdoptionPlan, type Skipped } from "./model";
import type { RecordedResource, WrittenRecord } from "./record";

export interface ReportContext {
  readonly address: string;
  readonly selection: string;
  readonly language: string;
  readonly out: string;
}

/** What this run did, for the summary. */
export interface RunOutcome {
  /** The batch this run wrote (0: the whole program), or undefined when it found nothing new. */
  readonly batch?: { readonly number: number; readonly file: string };
  /** The stack read (re-adoption), when there was one. */
  readonly stack?: string;
  /** Objects earlier runs declared that the stack does not hold yet. */
  readonly pending: readonly RecordedResource[];
}

/** Everything the report files state. */
export interface ReportFacts {
  readonly plan: AdoptionPlan;
  readonly record: WrittenRecord;
  readonly drift: Drift;
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

function counts(resources: readonly { kind: AdoptedKind }[]): Map<AdoptedKind, number> {
  const out = new Map<AdoptedKind, number>();
  for (const r of resources) out.set(r.kind, (out.get(r.kind) ?? 0) + 1);
  return out;
}

function countLines(resources: readonly { kind: AdoptedKind }[]): string[] {
  const n = counts(resources);
  return [
    ...ADOPTED_KINDS.map((kind) => `  ${kind.padEnd(26)} ${String(n.get(kind) ?? 0).padStart(6)}`),
    `  ${"total".padEnd(26)} ${String(resources.length).padStart(6)}`,
  ];
}

export function summaryText(facts: ReportFacts, outcome: RunOutcome, context: ReportContext): string {
  const { plan, drift } = facts;
  const where = `${plan.organization} at ${context.address} (${plan.edition}), ${context.selection}`;
  const lines: string[] = [];
  if (outcome.stack === undefined || outcome.batch?.number === 0) {
    lines.push(`Adopted from ${where}:`, ...countLines(plan.resources));
  } else if (outcome.batch === undefined) {
    lines.push(`Nothing new in ${where}: stack ${outcome.stack} and this folder's program already declare everything adopt can adopt.`);
  } else {
    lines.push(`New in ${where}, not held by stack ${outcome.stack}: batch ${outcome.batch.number}, in ${outcome.batch.file}:`, ...countLines(plan.resources));
  }
  if (plan.skipped.length > 0) {
    lines.push(`Not adopted (${plan.skipped.length}):`);
    for (const [reason, items] of byReason(plan.skipped)) {
      const examples = items.slice(0, 3).map((i) => i.object).join("; ");
      lines.push(`  ${items.length} × ${reason}`, `      e.g. ${examples}${items.length > 3 ? "; …" : ""}`);
    }
  }
  if (plan.inherited.length > 0) lines.push(`Left to inherit: ${plan.inherited.length} settings and tags (the workspaces' projects or organization hold them).`);
  if (outcome.pending.length > 0) {
    lines.push(`Declared by an earlier run, not in the stack yet: ${outcome.pending.length} (\`pulumi up\` imports them; removed from the program on purpose, they are not added again).`);
  }
  if (drift.gone.length > 0) {
    lines.push(`Held by the stack, gone from the server: ${drift.gone.length}. Remove each from the program, then run its \`pulumi state delete\` (adoption-report.md):`);
    lines.push(...drift.gone.map((g) => `  ${g.kind} ${g.name}: ${g.reason}`));
  }
  if (drift.changed.length > 0) {
    lines.push(`Held by the stack, changed on the server: ${drift.changed.length} (\`pulumi preview --refresh\` shows what \`pulumi up --refresh\` would put back):`);
    lines.push(...drift.changed.map((c) => `  ${c.kind} ${c.name}: ${c.differences.map((d) => d.property).join(", ")}`));
  }
  if (outcome.batch === undefined) {
    lines.push(`Wrote adoption-report.md to ${context.out}.`);
  } else {
    lines.push(`Wrote the ${context.language} program and adoption-report.md to ${context.out}.`);
    lines.push(outcome.batch.number === 0
      ? "Next: `pulumi up` imports every object, read-only (Pulumi.yaml sets wsbridge:readOnly), and changes nothing on the server."
      : "Next: `WSBRIDGE_READ_ONLY=true pulumi up` imports the new objects and changes nothing on the server.");
  }
  return `${lines.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function row(item: Skipped): string {
  return `| ${cell(item.kind)} | ${cell(item.object)} | ${cell(item.reason)} |`;
}

const shown = (value: unknown): string => (value === undefined ? "nothing" : JSON.stringify(value));

export function reportMarkdown(facts: ReportFacts, context: ReportContext): string {
  const { plan, record, drift } = facts;
  const all = record.batches.flatMap((b) => b.resources);
  const total = counts(all);
  const lines = [
    `# Adoption of ${plan.organization}`,
    "",
    `Read from ${context.address} (${plan.edition} edition), ${context.selection}, by \`wsbridge adopt\`.`,
    "",
    "| Kind | Declared |",
    "|---|---|",
    ...ADOPTED_KINDS.map((kind) => `| ${kind} | ${total.get(kind) ?? 0} |`),
    "",
    `## Batches (${record.batches.length})`,
    "",
    "Each run that found something new wrote one batch. A batch is adopt's until the stack holds one of its objects or its text is edited; then it is yours, and adopt never adds its objects again.",
    "",
    "| Batch | In | Objects |",
    "|---|---|---|",
    ...record.batches.map((b) => `| ${b.batch} | ${cell(b.file)} | ${b.resources.length} |`),
    "",
    `## Gone from the server (${drift.gone.length})`,
    "",
    ...(drift.gone.length === 0 ? ["Nothing."] : [
      "The stack holds these, and the server does not have them any more. Remove each from the program, then make the stack forget it with its command (a workspace's command takes what hangs off it too).",
      "",
      "| Object | Why | Command |", "|---|---|---|",
      ...drift.gone.map((g) => `| ${cell(`${g.kind} ${g.name} (${g.subject})`)} | ${cell(g.reason)} | \`${cell(g.forget)}\` |`),
    ]),
    "",
    `## Changed on the server (${drift.changed.length})`,
    "",
    ...(drift.changed.length === 0 ? ["Nothing."] : [
      "The server's value differs from what the stack last applied. `pulumi preview --refresh` shows it; `pulumi up --refresh` puts the program's value back; to keep the server's, write it into the program.",
      "",
      "| Object | Property | The stack holds | The server holds |", "|---|---|---|---|",
      ...drift.changed.flatMap((c) => c.differences.map((d) => `| ${cell(`${c.kind} ${c.name} (${c.subject})`)} | ${cell(d.property)} | ${cell(shown(d.held))} | ${cell(shown(d.server))} |`)),
    ]),
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

/** The same facts for machines (CI, tests), and the record of what adopt wrote (record.ts). */
export function reportJson(facts: ReportFacts): string {
  const { plan, record, drift } = facts;
  const all = record.batches.flatMap((b) => b.resources);
  const total = counts(all);
  return `${JSON.stringify({
    organization: plan.organization,
    edition: plan.edition,
    counts: Object.fromEntries(ADOPTED_KINDS.map((kind) => [kind, total.get(kind) ?? 0])),
    resources: all,
    gone: drift.gone,
    changed: drift.changed,
    skipped: plan.skipped,
    inherited: plan.inherited,
    written: record,
  }, null, 2)}\n`;
}

// The words every program `adopt` writes starts with, in each language's comment syntax.
import type { AdoptionPlan } from "../model";

/**
 * The first line of every Pulumi.yaml `adopt` writes. Adopt knows its own files by adoption-report.json's
 * record (record.ts); folders written before the record existed are known by this line (or the older one).
 */
export const MARKER = "# Written by `wsbridge adopt`. Adopt's until the stack holds what it declares or you edit it; then yours (docs/adopt.md).";
export const OLDER_MARKER = "# Written by `wsbridge adopt`; running it again rewrites this folder's program.";

export function headerLines(plan: AdoptionPlan, selection: string): string[] {
  return [
    `Adopted from organization ${plan.organization} (${plan.edition} edition), ${selection}, by \`wsbridge adopt\`.`,
    "Every resource carries the `import` option: the first `pulumi up` imports it (reads only) and changes",
    "nothing on the server; afterwards the option is ignored, and the resource is managed as any other.",
    "Resources are protected: `pulumi destroy` or removing one from the program fails until it is unprotected.",
    "What was not adopted, and why: adoption-report.md.",
  ];
}

/** The words a later run's batch starts with (TypeScript and Go: a file of its own). */
export function batchHeaderLines(plan: AdoptionPlan, selection: string, batch: number): string[] {
  return [
    `Batch ${batch} of \`wsbridge adopt\`: what it found in organization ${plan.organization} (${plan.edition} edition), ${selection},`,
    "that the stack did not hold yet. Each resource carries the `import` option: `WSBRIDGE_READ_ONLY=true pulumi up`",
    "imports them and changes nothing on the server. Until the stack holds one of them or you edit this file,",
    "running adopt again rewrites it; after that it is yours. What was found and not adopted: adoption-report.md.",
  ];
}

/** The package type token of a kind. */
export function typeToken(kind: string): string {
  return `wsbridge:index:${kind}`;
}

/**
 * The project config every adopted project starts with: the provider read-only (runtime/read-only.ts),
 * so the adoption step can only import; deleting these lines hands the stack over.
 */
export const READ_ONLY_CONFIG = [
  "config:",
  "  # The adoption step only reads: read-only, the provider refuses any change (an object that changed",
  "  # since adopt read it is named, and nothing is sent). Delete these lines once `pulumi preview` shows",
  "  # no change, to let this stack change the server.",
  "  wsbridge:readOnly: true",
];

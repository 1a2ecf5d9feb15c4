// The words every program `adopt` writes starts with, in each language's comment syntax.
import type { AdoptionPlan } from "../model";

export function headerLines(plan: AdoptionPlan, selection: string): string[] {
  return [
    `Adopted from organization ${plan.organization} (${plan.edition} edition), ${selection}, by \`wsbridge adopt\`.`,
    "Every resource carries the `import` option: the first `pulumi up` imports it (reads only) and changes",
    "nothing on the server; afterwards the option is ignored, and the resource is managed as any other.",
    "Resources are protected: `pulumi destroy` or removing one from the program fails until it is unprotected.",
    "What was not adopted, and why: adoption-report.md.",
  ];
}

/** The package type token of a kind. */
export function typeToken(kind: string): string {
  return `wsbridge:index:${kind}`;
}

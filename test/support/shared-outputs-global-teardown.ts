// jest's globalTeardown: fails the run when a test file removed, replaced or rewrote a shared build
// output that the global set-up recorded (test/support/shared-outputs.ts).
import { changes, identities, type Identities, type SharedOutput } from "./shared-outputs";
import { RECORD } from "./shared-outputs-global-setup";

export default function compareSharedOutputs(): void {
  const record = (globalThis as Record<symbol, unknown>)[RECORD] as [SharedOutput, Identities][] | undefined;
  if (record === undefined) throw new Error("the shared outputs were not recorded (test/support/shared-outputs-global-setup.ts did not run)");
  const found = record.flatMap(([output, before]) => changes(output, before, identities(output)));
  if (found.length === 0) return;
  // A folder rebuilt in place changes every entry below it: name the folder, and count the rest.
  const pathOf = (line: string): string => line.slice(0, line.indexOf(" was "));
  const top = found.filter((line) => !found.some((other) => other !== line && pathOf(line).startsWith(`${pathOf(other)}/`)));
  const below = (line: string): number => found.filter((other) => pathOf(other).startsWith(`${pathOf(line)}/`)).length;
  const shown = top.slice(0, 20).map((line) => `  - ${line}${below(line) > 0 ? `, and ${below(line)} entries below it` : ""}`).join("\n");
  const more = top.length > 20 ? `\n  … and ${top.length - 20} more` : "";
  throw new Error(
    `A test changed a shared build output in place, which other test files read while it runs (CONTRIBUTING.md, "Tests"):\n${shown}${more}\n` +
    "Build what a test needs in a temporary folder, or once in scripts/test.sh before jest starts.",
  );
}

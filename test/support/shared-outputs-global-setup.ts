// jest's globalSetup: records the identity of every shared build output before the first test file
// runs (test/support/shared-outputs.ts says why); the global teardown compares.
import * as path from "node:path";
import { identities, sharedOutputs, type Identities } from "./shared-outputs";

export const RECORD = Symbol.for("wsbridge.sharedOutputs");

export default function recordSharedOutputs(): void {
  const repoRoot = path.join(__dirname, "..", "..");
  const record: [ReturnType<typeof sharedOutputs>[number], Identities][] = sharedOutputs(repoRoot).map((output) => [output, identities(output)]);
  // globalSetup and globalTeardown run in jest's own process, one after the other: globalThis carries it.
  (globalThis as Record<symbol, unknown>)[RECORD] = record;
}

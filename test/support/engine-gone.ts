// When the engine stops a program part-way (a preview refused by a check, a failed `up`, an engine
// that could not be reached under load), the Pulumi SDK leaves some of that program's in-flight
// promises rejected with nobody to handle them: gRPC 14 UNAVAILABLE, or "Resource monitor is
// terminating". The operation itself reports its outcome to the test; these orphans say nothing more.
// Jest fails a whole file for any unhandled rejection, even when every test passed, so the setup
// module (engine-gone-setup.ts) marks these two, and only these, handled.
import * as vm from "node:vm";

/** Jest gives test code a copy of `process` whose listeners the real process never calls; this is the real one. */
export const realProcess = vm.runInThisContext("process") as NodeJS.Process;

const textOf = (reason: unknown): string => String((reason as { stack?: unknown } | null)?.stack ?? reason);

/** The engine could not be reached at all (any gRPC call of the SDK: the only gRPC a test process makes). */
export function engineUnreachable(reason: unknown): boolean {
  return textOf(reason).includes("14 UNAVAILABLE");
}

/** Whether a rejection is the SDK's report that the engine went away (any other rejection still fails the file). */
export function engineWentAway(reason: unknown): boolean {
  return engineUnreachable(reason) || textOf(reason).includes("Resource monitor is terminating");
}

/**
 * Marks handled, from now until the returned function is called, the unhandled rejections `orphaned`
 * accepts. A handler attached a tick later makes Node report the rejection handled
 * (rejectionHandled), and Jest then drops it from the file's errors.
 */
export function markRejectionsHandled(orphaned: (reason: unknown) => boolean): () => void {
  const markHandled = (reason: unknown, promise: Promise<unknown>): void => {
    if (orphaned(reason)) setImmediate(() => promise.catch(() => undefined));
  };
  realProcess.on("unhandledRejection", markHandled);
  return () => {
    realProcess.off("unhandledRejection", markHandled);
  };
}

/**
 * Marks handled the rejections whose text holds `failure`: for a test whose program is meant to fail,
 * where the SDK leaves the program's own error rejected on every promise that depended on it (the
 * test asserts the failure through the operation).
 */
export function markExpectedProgramFailureHandled(failure: string): () => void {
  return markRejectionsHandled((reason) => textOf(reason).includes(failure));
}

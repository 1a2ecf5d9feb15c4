// The SDK's cost of registering a resource, kept down for programs with hundreds of resources.
//
// For its promise-leak report the SDK records `new Error().stack` on every promise it makes while a
// resource registers: four per registered property. Workspace registers 61 properties (each output
// must be registered to exist on the resource), so those stack traces were about 70% of the program's
// time per resource (measured: 1,000 Workspaces' no-op preview, 15.2 s; without them, see README
// "Performance"). The traces are only ever shown when PULUMI_DEBUG_PROMISE_LEAKS is set, so the
// resource classes pause them for the synchronous span of their constructor, and leave them on
// whenever a user asked for that report.
import * as process from "node:process";

export interface PausedStackTraces {
  /** Restores the stack trace limit the program had; safe to call more than once. */
  resume(): void;
  /** For a failure inside the span: resumes, then gives the error the stack of this point, which names the caller. */
  rethrow(error: unknown): never;
}

export function pauseStackTraces(): PausedStackTraces {
  const limit = Error.stackTraceLimit;
  const paused = !process.env["PULUMI_DEBUG_PROMISE_LEAKS"];
  if (paused) Error.stackTraceLimit = 0;
  const resume = (): void => {
    if (paused) Error.stackTraceLimit = limit;
  };
  return {
    resume,
    rethrow(error: unknown): never {
      resume();
      // An error made while traces were off has only its message; capture the stack here instead.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    },
  };
}

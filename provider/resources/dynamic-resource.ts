// The base of every resource class: a dynamic resource that registers at a lower cost to the program.
//
// For its promise-leak report the SDK records `new Error().stack` on every promise it makes while a
// resource registers: four per registered property. Workspace registers 61 properties (each output
// must be registered to exist on the resource), so those stack traces were about 70% of the program's
// time per resource (1,000 Workspaces' no-op preview: 15.2 s with them, 8.4 s without; README
// "Performance"). The SDK shows them only when PULUMI_DEBUG_PROMISE_LEAKS is set, so registration
// pauses them for its synchronous span, and leaves them on whenever a user asked for that report.
import * as process from "node:process";
import * as pulumi from "@pulumi/pulumi";

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

/** A `pulumi.dynamic.Resource` whose registration runs with the SDK's promise stack traces paused. */
export abstract class WsbridgeResource extends pulumi.dynamic.Resource {
  protected constructor(
    provider: pulumi.dynamic.ResourceProvider, name: string, props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions | undefined, module: string, type: string,
  ) {
    const stackTraces = pauseStackTraces();
    try {
      super(provider, name, props, opts, module, type);
    } catch (error) {
      stackTraces.rethrow(error);
    } finally {
      stackTraces.resume();
    }
  }
}

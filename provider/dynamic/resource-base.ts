// The base of every resource class: a dynamic resource that registers at a lower cost to the program.
//
// For its promise-leak report the SDK records `new Error().stack` on every promise it makes while a
// resource registers: four per registered property. When Workspace registered 61 properties (each
// output must be registered to exist on the resource), those stack traces were about 70% of the
// program's time per resource (1,000 Workspaces' no-op preview: 15.2 s with them, 8.4 s without;
// docs/performance.md). The SDK shows them only when PULUMI_DEBUG_PROMISE_LEAKS is set, so registration
// pauses them for its synchronous span, and leaves them on whenever a user asked for that report.
// The rest of the SDK's cost per property remains, so a class with many outputs registers fewer of
// them (`outputsReadFrom`, below).
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

/**
 * Gives every instance of a resource class the outputs `keys`, read from one registered object output
 * (`aggregate`) on first use, so the class need not register a property for each. An instance that
 * registers one of `keys` itself (the SDK, or the constructor, assigns it) keeps its own output instead.
 *
 * Why: a property exists on a resource only if it was registered, and the SDK's cost per registered
 * property was most of the program's time per resource (Workspace: 61 properties; docs/performance.md).
 */
export function outputsReadFrom(aggregate: string, prototype: object, keys: readonly string[]): void {
  const own = (target: object, key: string, value: unknown): void => {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  };
  for (const key of keys) {
    Object.defineProperty(prototype, key, {
      configurable: true,
      get(this: Record<string, unknown>): pulumi.Output<unknown> {
        const all = this[aggregate] as pulumi.Output<Record<string, unknown> | undefined>;
        // Unknown while `aggregate` is (a preview of a create or an update), as a registered output would be.
        const output = all.apply((outputs) => outputs?.[key]);
        own(this, key, output);
        return output;
      },
      set(this: object, value: unknown): void {
        own(this, key, value);
      },
    });
  }
}

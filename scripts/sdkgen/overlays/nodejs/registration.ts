// Added to the generated SDK by scripts/sdkgen, not written by Pulumi's code generator: each resource's
// constructor registers with the Node.js SDK's promise stack traces paused. For its promise-leak report
// the SDK records `new Error().stack` on four promises per registered property, and a generated class
// registers every input and output (a Workspace: 61), so those traces were half of a program's time per
// resource (docs/performance.md). The SDK shows them only when PULUMI_DEBUG_PROMISE_LEAKS is set, so
// they stay on then. The dynamic resources of pulumi-wsbridge do the same.

/** @internal */
export interface PausedStackTraces {
    /** Restores the stack trace limit the program had; safe to call more than once. */
    resume(): void;
    /** For a failure inside the span: resumes, then gives the error the stack of this point. */
    rethrow(error: unknown): never;
}

/** @internal */
export function pauseStackTraces(): PausedStackTraces {
    const limit = Error.stackTraceLimit;
    const paused = !process.env["PULUMI_DEBUG_PROMISE_LEAKS"];
    if (paused) {
        Error.stackTraceLimit = 0;
    }
    const resume = (): void => {
        if (paused) {
            Error.stackTraceLimit = limit;
        }
    };
    return {
        resume,
        rethrow(error: unknown): never {
            resume();
            // An error made while traces were off has only its message; capture the stack here instead.
            if (error instanceof Error) {
                Error.captureStackTrace(error);
            }
            throw error;
        },
    };
}

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
import { KNOWN_OUTPUTS } from "../runtime/known-outputs";
import { resolveAddress } from "../runtime/settings";
import { claimOnePerKey, warnIfTokenInPlaintext } from "./program-checks";

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

/** What a kind's class tells its base. */
export interface KindRegistration {
  /** The kind (`Workspace`): the type `wsbridge:<kind>`, and its rows in the runtime's tables. */
  readonly kind: string;
  /** The serialized provider of the kind (serialized-providers.ts). */
  readonly provider: pulumi.dynamic.ResourceProvider;
  /**
   * The inputs as declared, with the organization default applied where the kind has an organization:
   * the key a kind holds one object per (runtime/one-per-key.ts) and the outputs a preview knows
   * (runtime/known-outputs.ts) are read from them.
   */
  readonly inputs: Readonly<Record<string, pulumi.Input<unknown> | undefined>>;
  /** The properties to register: the inputs, and the outputs the class registers by name. */
  readonly props: pulumi.Inputs;
}

/**
 * The base of the seven classes: a `pulumi.dynamic.Resource` that registers with the SDK's promise
 * stack traces paused, after the program-wide checks every kind has (the token's storage, one object
 * per key), and whose outputs a preview can know are derived from the id and the inputs.
 */
export abstract class WsbridgeResource extends pulumi.dynamic.Resource {
  protected constructor(name: string, registration: KindRegistration, opts: pulumi.CustomResourceOptions | undefined) {
    const { kind, provider, inputs, props } = registration;
    warnIfTokenInPlaintext();
    claimOnePerKey(kind, inputs, name);
    const stackTraces = pauseStackTraces();
    try {
      super(provider, name, props, opts, "wsbridge", kind);
      deriveKnownOutputs(this, kind, inputs);
    } catch (error) {
      stackTraces.rethrow(error);
    } finally {
      stackTraces.resume();
    }
  }
}

/**
 * During a preview the engine reports an updated dynamic resource's new inputs as its outputs and leaves
 * every other output unknown; the outputs an update cannot change (runtime/known-outputs.ts) are made
 * of what stays known, the id and the inputs, so dependents preview exactly. Each is built on the
 * resource's id (a dependent still waits for the resource), unless the table says it is known before a create.
 */
function deriveKnownOutputs(resource: WsbridgeResource, kind: string, inputs: KindRegistration["inputs"]): void {
  const table = Object.entries(KNOWN_OUTPUTS[kind] ?? {});
  if (table.length === 0) return;
  const address = resolveAddress(pulumi.runtime.getConfig("wsbridge:address"), process.env);
  const outputs = resource as unknown as Record<string, pulumi.Output<unknown>>;
  for (const [name, known] of table) {
    // Without an organization (none declared, no default) check fails the preview; nothing to derive.
    if (known.from.includes("organization") && inputs["organization"] === undefined) continue;
    const sources = known.from.map((key) => (key === "id" ? resource.id : inputs[key]));
    const values = known.beforeCreate ? pulumi.all(sources) : pulumi.all([resource.id, ...sources]).apply(([, ...rest]) => rest);
    outputs[name] = values.apply((resolved) => known.value(Object.fromEntries(known.from.map((key, i) => [key, resolved[i]])), address));
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

// What every lookup does before its first request: check the arguments against their zod schema,
// resolve the settings (the provider's precedence), and settle the organization (given, else the
// default, checked like an argument). Bad arguments throw here, so nothing is sent.
import type { z } from "zod";
import { ErrorCodes, WsbridgeError, type WsbridgeClient } from "../api";
import { resolveSettingsFrom, settingsProblem, sharedClientFor, type ConfigSource } from "../config";
import { propertyPath } from "../lifecycle";

export type { ConfigSource };

/** Where a lookup's settings come from; the defaults are those of the process. */
export interface LookupContext {
  /** Stack config (`wsbridge:*` keys). The program passes `pulumi.runtime.getConfig`. */
  config?: ConfigSource;
  /** Environment variables; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Bad lookup arguments, each named with the rule it breaks. Thrown before any request is sent. */
export class InvalidLookupArgumentsError extends WsbridgeError {
  readonly failures: readonly { property: string; reason: string }[];

  constructor(lookup: string, failures: { property: string; reason: string }[]) {
    super(ErrorCodes.invalidOptions, `${lookup}: invalid arguments: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
    this.failures = failures;
  }
}

/** The arguments after their schema, or an {@link InvalidLookupArgumentsError} with one reason per argument. */
export function parseLookupArgs<S extends z.ZodType>(lookup: string, schema: S, args: unknown): z.output<S> {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const failures = result.error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ property: propertyPath([...issue.path, key]), reason: `is not an argument of ${lookup}` }));
    }
    return [{ property: propertyPath(issue.path) || "arguments", reason: issue.message }];
  });
  // A string can break two rules at once ("" is empty and not a name): the first says enough.
  const firstPerProperty = failures.filter((f, i) => failures.findIndex((g) => g.property === f.property) === i);
  throw new InvalidLookupArgumentsError(lookup, firstPerProperty);
}

export interface LookupSettings {
  client: WsbridgeClient;
  /** The default organization (stack config, then WSBRIDGE_ORGANIZATION, then TFE_ORGANIZATION). */
  defaultOrganization: string | undefined;
}

/** The provider's settings precedence, from the given config source; a setting that cannot work fails here. */
export function resolveLookupSettings(context: LookupContext | undefined): LookupSettings {
  const settings = resolveSettingsFrom(context?.config, context?.env ?? process.env);
  const problem = settingsProblem(settings);
  if (problem !== undefined) throw new Error(problem);
  return { client: sharedClientFor(settings), defaultOrganization: settings.organization };
}

/**
 * The organization given, else the default. The default did not pass the argument schema, so it is
 * checked here with the same rule (`nameRule` returns the rule's message, or undefined when it holds).
 */
export function lookupOrganization(
  lookup: string, given: string | undefined, fallback: string | undefined, nameRule: (name: string) => string | undefined,
): string {
  const value = given ?? fallback;
  if (value === undefined) {
    throw new InvalidLookupArgumentsError(lookup, [{
      property: "organization",
      reason: "is required: give it, or set the `wsbridge:organization` stack config (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)",
    }]);
  }
  const broken = given === undefined ? nameRule(value) : undefined;
  if (broken !== undefined) {
    throw new InvalidLookupArgumentsError(lookup, [{
      property: "organization",
      reason: `${broken}; the default from wsbridge:organization (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION) is ${JSON.stringify(value)}`,
    }]);
  }
  return value;
}

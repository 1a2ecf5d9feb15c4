// The provider's own configuration on the plugin route: CheckConfig, DiffConfig and Configure. The
// default provider gets the stack config (`wsbridge:address`, `wsbridge:token`, …) and an explicit one
// (`new Provider("eu", { address, token, … })`) its arguments; both arrive as the same property map,
// which becomes the runtime's config source. Each provider resource is its own plugin process, so the
// runtime's module-level configuration is this provider's alone.
import { configure, resolveSettingsFrom, type ConfigSource } from "../runtime/config";
import type { CheckFailure, Props } from "../runtime/lifecycle";
import { UNKNOWN, isUnknown } from "../runtime/lifecycle";

/** The inputs of the provider that are its configuration (the engine adds `version`, and may add others). */
function configValue(value: unknown): string | undefined {
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  if (typeof value === "string") return value;
  // An explicit provider's non-string settings arrive as JSON text already; anything else is written as JSON.
  return JSON.stringify(value);
}

/** `wsbridge:<key>` lookups over the provider's inputs, as the runtime's config reader expects. */
export function configSourceOf(inputs: Props): ConfigSource {
  return {
    get(key: string): string | undefined {
      if (!key.startsWith("wsbridge:")) return undefined;
      return configValue(inputs[key.slice("wsbridge:".length)]);
    },
  };
}

/**
 * Settings that cannot work, as check failures naming the property: a preview fails on them before
 * any resource is planned. Problems of environment variables are the resources' checks to report
 * (as on the dynamic route), since no property of this provider holds them.
 */
export function configFailures(inputs: Props): CheckFailure[] {
  const settings = resolveSettingsFrom(configSourceOf(inputs));
  return (settings.invalid ?? [])
    .filter((problem) => problem.key.startsWith("wsbridge:"))
    .map((problem) => ({ property: problem.key.slice("wsbridge:".length), reason: problem.reason }));
}

/** The settings that differ between two configurations (never a replacement: see docs/plugin.md, "Explicit providers"). */
export function changedSettings(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)].filter((k) => k !== "version"));
  return [...keys].filter((key) => news[key] === UNKNOWN || configValue(olds[key]) !== configValue(news[key])).sort();
}

/** Records this provider's configuration for the runtime (never throws: a missing token is the first request's to report). */
export function configureRuntime(inputs: Props): void {
  configure(configSourceOf(inputs));
}


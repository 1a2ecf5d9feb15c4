// The lookups as the plugin's functions (Invoke): the same runtime as the dynamic route's lookups,
// with this provider's settings. A function answers with an object, so the workspace list is
// `{ workspaces: [...] }` (schema/schema.json); the module-version list already is an object.
import * as runtime from "../runtime";
import type { CheckFailure, Props } from "../runtime/lifecycle";
import type { ConfigSource } from "../runtime/config";

type Lookup = (args: Props, config: ConfigSource) => Promise<Props>;

const FUNCTIONS: Readonly<Record<string, Lookup>> = {
  "wsbridge:index:getWorkspace": async (args, config) =>
    runtime.lookups.workspaces().getWorkspace(args as never, { config }) as unknown as Promise<Props>,
  "wsbridge:index:listWorkspaces": async (args, config) =>
    ({ workspaces: await runtime.lookups.workspaces().listWorkspaces(args as never, { config }) }),
  "wsbridge:index:getModuleVersion": async (args, config) =>
    runtime.lookups.moduleVersions().getModuleVersion(args as never, { config }) as unknown as Promise<Props>,
  "wsbridge:index:listModuleVersions": async (args, config) =>
    runtime.lookups.moduleVersions().listModuleVersions(args as never, { config }) as unknown as Promise<Props>,
};

export interface InvokeResult {
  result?: Props;
  failures: CheckFailure[];
}

/**
 * Runs a lookup. Arguments that break a rule come back as failures naming each argument (nothing was
 * sent); any other error is thrown with its message.
 */
export async function invokeFunction(token: string, args: Props, config: ConfigSource): Promise<InvokeResult> {
  const lookup = FUNCTIONS[token];
  if (lookup === undefined) throw new Error(`unknown function ${token}; this provider serves ${Object.keys(FUNCTIONS).join(", ")}`);
  try {
    return { result: await lookup(args, config), failures: [] };
  } catch (error) {
    const failures = (error as { failures?: unknown }).failures;
    // The engine prints a failure as "<reason> (<property>)", so the reason is the whole sentence.
    if (Array.isArray(failures)) {
      return { failures: (failures as CheckFailure[]).map((f) => ({ property: f.property, reason: `${f.property} ${f.reason}` })) };
    }
    throw error;
  }
}

// What a preview knows of a kind's outputs without asking the server: the values an apply derives from
// the resource's id and its inputs alone, which an update cannot change. Both doors read this table:
// the dynamic classes make each such output a Pulumi Output of the id and those inputs (the dynamic
// provider host answers no preview, so dependents would otherwise see them unknown), and the plugin's
// previewCreate/previewUpdate answer with the same values. Pure and light: the program loads it.
import { UNKNOWN, isUnknown, type Props } from "./lifecycle";
import { workspaceApiUrl, workspaceHtmlUrl } from "./urls";

/** One output a preview knows. */
export interface KnownOutput {
  /** What it is derived from: inputs by name, and `id`, the resource's id (unknown before a create). */
  readonly from: readonly string[];
  /**
   * Its value. `values` holds each of `from`; where one is UNKNOWN (a preview on the plugin route),
   * the result is UNKNOWN, unless the output is `partial` and `value` decides.
   */
  readonly value: (values: Props, address: string) => unknown;
  /** `value` takes UNKNOWN among `values` and tells what is still certain. */
  readonly partial?: true;
  /**
   * The dynamic class makes the output of the inputs alone, not of the resource's id, so it is known
   * to dependents while the resource is being created too.
   */
  readonly beforeCreate?: true;
}

const input = (name: string): KnownOutput => ({ from: [name], value: (v) => v[name] });
const textOrNull = (name: string): KnownOutput => ({ from: [name], value: (v) => (typeof v[name] === "string" ? v[name] : null) });

/**
 * The form a retention policy's apply sets. Check lets both forms through only while one is unknown,
 * and refuses both at the apply: so the unknown one can only resolve to nothing, unless both are unknown.
 */
function retentionForm(v: Props): "delete-older" | "dont-delete" | typeof UNKNOWN {
  const days = v.deleteOlderThanNDays;
  const dontDelete = v.dontDelete;
  if (dontDelete === undefined) return "delete-older";
  if (days === undefined) return "dont-delete";
  if (!isUnknown(days)) return "delete-older";
  if (!isUnknown(dontDelete)) return "dont-delete";
  return UNKNOWN;
}

/** Kind → output → how a preview knows it. */
export const KNOWN_OUTPUTS: Readonly<Record<string, Readonly<Record<string, KnownOutput>>>> = {
  Workspace: {
    workspaceId: { from: ["id"], value: (v) => v.id },
    apiUrl: { from: ["id"], value: (v, address) => workspaceApiUrl(address, String(v.id)) },
    name: input("name"),
    organization: input("organization"),
    htmlUrl: { from: ["organization", "name"], value: (v, address) => workspaceHtmlUrl(address, String(v.organization), String(v.name)) },
  },
  // The lock's, the key assignment's and the policy's id is the workspace's.
  WorkspaceLock: { workspaceId: input("workspaceId") },
  SshKeyAssignment: { workspaceId: input("workspaceId") },
  DataRetentionPolicy: {
    workspaceId: input("workspaceId"),
    kind: { from: ["deleteOlderThanNDays", "dontDelete"], partial: true, value: retentionForm },
    dontDelete: {
      from: ["deleteOlderThanNDays", "dontDelete"], partial: true,
      value: (v) => { const form = retentionForm(v); return form === UNKNOWN ? UNKNOWN : form === "dont-delete"; },
    },
    deleteOlderThanNDays: {
      from: ["deleteOlderThanNDays", "dontDelete"], partial: true,
      value: (v) => {
        const form = retentionForm(v);
        if (form === "dont-delete") return null;
        return form === UNKNOWN || isUnknown(v.deleteOlderThanNDays) ? UNKNOWN : v.deleteOlderThanNDays ?? null;
      },
    },
  },
  WorkspaceTagBindings: {
    workspaceId: { ...input("workspaceId"), beforeCreate: true },
    exclusive: { from: ["exclusive"], value: (v) => v.exclusive === true, beforeCreate: true },
  },
  ModuleVersionDeprecation: {
    organization: input("organization"),
    moduleName: input("moduleName"),
    provider: input("provider"),
    version: input("version"),
    moduleSource: { from: ["organization", "moduleName", "provider"], value: (v) => `${String(v.organization)}/${String(v.moduleName)}/${String(v.provider)}` },
    reason: textOrNull("reason"),
    link: textOrNull("link"),
  },
};

/**
 * The outputs of `kind` a preview knows from its id (UNKNOWN before a create) and its inputs (which
 * may hold UNKNOWN), by {@link KNOWN_OUTPUTS}.
 */
export function knownOutputs(kind: string, id: unknown, inputs: Props, address: string): Props {
  const out: Props = {};
  for (const [name, known] of Object.entries(KNOWN_OUTPUTS[kind] ?? {})) {
    const values: Props = Object.fromEntries(known.from.map((key) => [key, key === "id" ? id : inputs[key]]));
    out[name] = !known.partial && Object.values(values).some(isUnknown) ? UNKNOWN : known.value(values, address);
  }
  return out;
}

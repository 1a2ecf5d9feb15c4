// The resource operations of the plugin route, on plain property maps: each calls the kind's runtime
// lifecycle (the one the dynamic route calls too) and adapts what differs between the two doors:
//
// - Outputs are stored flat, one property per output: the SDK's classes register every output by
//   name, so the dynamic route's aggregate `__outputs` (kinds/workspace.ts, toState) is spread out.
// - The kind gets the owner marker and the URN from the request (the dynamic classes pass the marker
//   as an input), and they never become stored inputs.
// - A preview's Create and Update answer with the outputs the apply will have (the kind's
//   previewCreate/previewUpdate), so dependents of an updated resource see known values.
// - A state written by the dynamic route (a stack moved to the plugin with aliases,
//   docs/plugin.md) is upgraded by one update that sends no request: its outputs take the plugin's shape.
import { INTERNAL_INPUTS, isUnknown, type CheckFailure, type PropertyChange, type Props } from "../runtime/lifecycle";
import { KeyClaims, ONE_PER_KEY } from "../runtime/one-per-key";
import { internalInputsOf, kindOf, parseUrn } from "./resource-kinds";

/** Keys of the dynamic route's state that the plugin's state does not hold. */
const DYNAMIC_ONLY = ["__provider", "__outputs", "__namedOutputs"] as const;

/** The outputs in the plugin's shape: every output by name, without the dynamic route's own keys. */
export function flatOutputs(outs: Props): Props {
  const aggregate = outs.__outputs;
  const flat: Props = aggregate !== null && typeof aggregate === "object" && !Array.isArray(aggregate)
    ? { ...(aggregate as Props), ...outs } : { ...outs };
  for (const key of DYNAMIC_ONLY) delete flat[key];
  return flat;
}

/** The inputs as the engine stores them: the user's, without what the kinds take for their own use. */
export function storedInputs(inputs: Props): Props {
  const rest = { ...inputs };
  for (const key of [...INTERNAL_INPUTS, "__provider"]) delete rest[key];
  return rest;
}

/** A state the dynamic route wrote (its inputs hold the serialized provider, its outputs the aggregate). */
export function writtenByTheDynamicRoute(olds: Props, oldInputs: Props): boolean {
  return oldInputs.__provider !== undefined || olds.__provider !== undefined || olds.__outputs !== undefined;
}

export interface CheckResult {
  inputs: Props;
  failures: CheckFailure[];
}

/** The keys of one-per-key objects the resources of this deployment declared (one plugin process per provider). */
const claims = new KeyClaims();

export async function checkResource(type: string, urn: string, olds: Props, news: Props): Promise<CheckResult> {
  const outcome = await kindOf(type).check(storedInputs(olds), { ...storedInputs(news), ...internalInputsOf(urn) });
  const inputs = storedInputs(outcome.inputs);
  const failures = [...outcome.failures];
  if (failures.length === 0) {
    const conflict = claimKey(type, urn, inputs);
    if (conflict !== undefined) failures.push(conflict);
  }
  return { inputs, failures };
}

/**
 * Two resources of the deployment declaring one key the server holds one object per: the second is
 * refused at preview, naming both (the dynamic route says the same from the program).
 */
function claimKey(type: string, urn: string, inputs: Props): CheckFailure | undefined {
  const kind = type.split(":").pop() ?? type;
  const rule = ONE_PER_KEY[kind];
  const name = parseUrn(urn)?.name;
  if (rule === undefined || name === undefined) return undefined;
  const parts = rule.fields.map((field) => inputs[field]);
  if (!parts.every((part): part is string => typeof part === "string" && part !== "" && !isUnknown(part))) return undefined;
  const conflict = claims.claim(kind, parts, name, urn);
  return conflict === undefined ? undefined : { property: rule.fields[rule.fields.length - 1] ?? "", reason: conflict };
}

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The changed top-level properties (the engine's `diffs`). */
  diffs: string[];
  detailedDiff: PropertyChange[];
}

/** `tagBindings` of `tagBindings["team"]`, `vcsRepo` of `vcsRepo.branch`, `a b` of `["a b"].c`. */
export function topLevelKey(path: string): string {
  if (path.startsWith("[")) {
    const end = path.indexOf("]");
    const inner = path.slice(1, end < 0 ? undefined : end);
    try {
      return String(JSON.parse(inner));
    } catch {
      return inner;
    }
  }
  const match = /^[^.[]+/.exec(path);
  return match ? match[0] : path;
}

export async function diffResource(type: string, urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<DiffResult> {
  const outcome = await kindOf(type).diff(id, olds, { ...storedInputs(news), ...internalInputsOf(urn) });
  const detailedDiff = [...outcome.detailedDiff];
  // Every replaced property has a path (the engine's invariant between diffs and detailedDiff).
  for (const key of outcome.replaces) {
    if (!detailedDiff.some((change) => change.replace && topLevelKey(change.path) === key)) {
      detailedDiff.push({ path: key, kind: "update", replace: true });
    }
  }
  const diffs = [...new Set(detailedDiff.map((change) => topLevelKey(change.path)))];
  // Nothing to change, but a state in the dynamic route's shape: one update without a request rewrites it.
  const upgrade = !outcome.changes && writtenByTheDynamicRoute(olds, oldInputs);
  return {
    changes: outcome.changes || upgrade,
    replaces: outcome.replaces,
    deleteBeforeReplace: outcome.deleteBeforeReplace,
    diffs,
    detailedDiff,
  };
}

export async function createResource(type: string, urn: string, news: Props, preview: boolean): Promise<{ id: string; props: Props }> {
  const kind = kindOf(type);
  const inputs = { ...storedInputs(news), ...internalInputsOf(urn) };
  if (preview) return { id: "", props: flatOutputs(await kind.previewCreate(inputs)) };
  const { id, outs } = await kind.create(inputs);
  return { id, props: flatOutputs(outs) };
}

export async function updateResource(
  type: string, urn: string, id: string, olds: Props, news: Props, oldInputs: Props, preview: boolean,
): Promise<Props> {
  const kind = kindOf(type);
  const inputs = { ...storedInputs(news), ...internalInputsOf(urn) };
  if (preview) return flatOutputs(await kind.previewUpdate(id, olds, inputs));
  if (writtenByTheDynamicRoute(olds, oldInputs) && !(await kind.diff(id, olds, inputs)).changes) return flatOutputs(olds);
  return flatOutputs((await kind.update(id, olds, inputs)).outs);
}

export interface ReadResult {
  /** Empty when the object is gone (refresh drops it) or, on import, when there is none. */
  id: string;
  props?: Props;
  inputs?: Props;
}

/**
 * Refresh, or `pulumi import` when the engine sends an id without a state: then the kind adopts the
 * object the id names and answers with the inputs that reproduce it.
 */
export async function readResource(type: string, urn: string, id: string, props: Props, inputs: Props): Promise<ReadResult> {
  const kind = kindOf(type);
  if (Object.keys(props).length === 0 && Object.keys(inputs).length === 0) {
    const imported = await kind.importById(id, internalInputsOf(urn));
    if (imported === undefined) return { id: "" };
    return { id: imported.id, props: flatOutputs(imported.props), inputs: storedInputs(imported.inputs) };
  }
  const read = await kind.read(id, props);
  if (read.id === "") return { id: "" };
  return {
    id: read.id,
    props: flatOutputs(read.props ?? props),
    inputs: storedInputs(read.inputs ?? inputs),
  };
}

export async function deleteResource(type: string, id: string, props: Props): Promise<void> {
  await kindOf(type).delete(id, props);
}

// Helpers every resource kind's check/diff share: Pulumi's preview sentinel, the `__provider` key,
// and turning zod issues into CheckFailures that name the property and the rule.
import type { z } from "zod";

/**
 * During preview, Pulumi passes this string in place of any value not known yet, whatever the
 * property's type (`pulumi.runtime.unknownValue`; copied so the runtime need not load the SDK).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export interface CheckOutcome<T> {
  readonly inputs: T;
  readonly failures: CheckFailure[];
}

export interface DiffOutcome {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
  /**
   * Each change as a property path (see property-paths.ts). The provider plugin answers
   * `pulumi preview --diff` with it; the dynamic-provider host has no detailed diff and ignores it.
   */
  readonly detailedDiff: PropertyChange[];
}

/** One change `pulumi preview --diff` shows on the plugin route. */
export interface PropertyChange {
  /** `description`, `vcsRepo.branch`, `tagBindings["team"]`, `triggerPrefixes[1]`. */
  readonly path: string;
  /** add: no value before; delete: no value after; update: another value. */
  readonly kind: "add" | "delete" | "update";
  /** The change replaces the resource. */
  readonly replace: boolean;
  /**
   * The change is between the old and the new *inputs* (a property the program stopped declaring),
   * not between the server's last report and the new inputs (the default).
   */
  readonly inputDiff?: boolean;
}

/**
 * What the plugin route needs of a kind beyond the dynamic lifecycle: the outputs an apply will
 * certainly produce (for `pulumi preview`), and the adoption of an object by import id.
 */
export interface Imported<O> {
  /** The resource's id (an import id in another accepted form is resolved to it). */
  readonly id: string;
  readonly props: O;
  /** The inputs a program must declare to reproduce the object: after declaring them, a preview shows no change. */
  readonly inputs: Props;
}

/**
 * What an import of a kind adopts from objects already read (`wsbridge adopt` reads them in bulk and
 * asks each kind, as its own `importById` does): the import id and the inputs that reproduce the
 * object, or why it cannot be adopted.
 */
export type Adoption =
  | { readonly importId: string; readonly inputs: Props }
  | { readonly refusal: string };

/**
 * THE lifecycle of a resource kind, as both doors call it: the dynamic route's serialized providers
 * (through runtime/index.ts) and the provider plugin (plugin/resource-kinds.ts). Each kind's module
 * implements it as {@link KindModule}.
 */
export interface KindLifecycle {
  check(olds: Props, news: Props): Promise<CheckOutcome<Props>>;
  diff(id: string, olds: Props, news: Props): Promise<DiffOutcome>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props | undefined): Promise<{ id: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
  /** The outputs a create will have, UNKNOWN where only the server can tell; no request (plugin previews). */
  previewCreate(news: Props): Promise<Props>;
  /** The outputs an update will have, UNKNOWN where only the server can tell; no request (plugin previews). */
  previewUpdate(id: string, olds: Props, news: Props): Promise<Props>;
  /** `pulumi import`: the state and inputs of the object an import id names; undefined when there is none. */
  importById(importId: string, internal: Props): Promise<Imported<Props> | undefined>;
}

/** A kind's module: the {@link KindLifecycle}, with `delete` exported as `remove` (a reserved word). */
export type KindModule = Omit<KindLifecycle, "delete"> & { remove: KindLifecycle["delete"] };

export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/** The engine adds `__provider` (the serialized shim) to every input set; it is not the user's. */
export function withoutProvider(props: Props | undefined): Props {
  const { __provider: _ignored, ...rest } = props ?? {};
  return rest;
}

/** `a.b[0].c`, the form Pulumi users write property paths in. */
export function propertyPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === "number") return `${acc}[${key}]`;
    return acc === "" ? String(key) : `${acc}.${String(key)}`;
  }, "");
}

/**
 * Validates `raw` with `schema`. Issues under a property whose value is still unknown (preview) are
 * dropped: the value will be checked again when it is known, before anything reaches the server.
 */
export function validate<S extends z.ZodType>(schema: S, raw: Props, kind: string): CheckOutcome<Props> {
  const result = schema.safeParse(raw);
  if (result.success) return { inputs: raw, failures: [] };
  const unknownKeys = new Set(Object.keys(raw).filter((key) => isUnknown(raw[key])));
  const failures: CheckFailure[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        failures.push({ property: propertyPath([...issue.path, key]), reason: `is not a property of ${kind}` });
      }
      continue;
    }
    const top = issue.path[0];
    if (typeof top === "string" && unknownKeys.has(top)) continue;
    const property = propertyPath(issue.path);
    failures.push({ property, reason: reasonOf(issue, raw) });
  }
  return { inputs: raw, failures };
}

function reasonOf(issue: z.core.$ZodIssue, raw: Props): string {
  // A map key that breaks a rule: the key's own issue says which rule.
  if (issue.code === "invalid_key" && issue.issues.length > 0) return issue.issues[0]?.message ?? issue.message;
  // A missing required property reads better as "is required" than as a type complaint.
  if (issue.code === "invalid_type" && issue.path.length === 1) {
    const key = issue.path[0];
    if (typeof key === "string" && raw[key] === undefined) return "is required";
  }
  return issue.message;
}

/** Values the API treats as "no description": absent, null and the empty string. */
export function normalizeOptionalText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * Inputs the resource classes add for the provider's own use; never the user's, never diffed.
 * `__namedOutputs`: see the Workspace class (which outputs its state holds by name). `__urn`: the
 * resource's URN, which the provider plugin knows (the dynamic host does not), for notes to the user.
 */
export const INTERNAL_INPUTS = ["__owner", "__namedOutputs", "__urn"] as const;

/** The user's inputs: without `__provider` and the internal ones. */
export function userInputs(props: Props | undefined): Props {
  const rest = withoutProvider(props);
  for (const key of INTERNAL_INPUTS) delete rest[key];
  return rest;
}

/**
 * What refresh and destroy should say when the API refuses the token or cannot be reached: they run
 * with the provider settings recorded in the state by the last `pulumi up`, so a token or address
 * changed since then is not seen yet. Returns undefined for other errors.
 */
export function staleSettingsHint(error: unknown, command: "refresh" | "destroy"): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const cause = (error as { causeCode?: unknown } | null)?.causeCode;
  const unauthorized = code === "WSB_UNAUTHORIZED";
  const unreachable = code === "WSB_TRANSPORT" && (cause === "ECONNREFUSED" || cause === "ENOTFOUND" || cause === "EAI_AGAIN");
  if (!unauthorized && !unreachable) return undefined;
  return `${command} uses the provider settings recorded in the state by the last \`pulumi up\`. If you changed ` +
    "wsbridge:token or wsbridge:address since (or the WSBRIDGE_*/TFE_* variables), run `pulumi up` first, or " +
    `run \`pulumi ${command} --run-program\`, which uses the current settings.`;
}

/** `error` with {@link staleSettingsHint} added to its message when there is one; else `error` itself. */
export function withStaleSettingsHint(error: unknown, command: "refresh" | "destroy"): unknown {
  const hint = staleSettingsHint(error, command);
  return hint === undefined ? error : new Error(`${(error as Error).message}. ${hint}`, { cause: error });
}

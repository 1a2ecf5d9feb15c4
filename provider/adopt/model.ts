// What `wsbridge adopt` found and what it will write: the estate as read (discover.ts), and the plan
// (plan.ts): one resource per object to adopt, with its import id, its inputs and the references
// between them, plus what it cannot adopt and why. The program writers (program/*) only print a plan.
import type { DataRetentionPolicy, RegistryModule, RegistryModuleVersionSummary, Workspace } from "../runtime/api";

/** What a read could not get, in a sentence (the token cannot read it, the edition has no such thing). */
export interface Unreadable {
  readonly unreadable: string;
}

export interface DiscoveredWorkspace {
  /** As the list returned it, with its effective tag bindings. */
  readonly workspace: Workspace;
  /** Its remote-state consumers (C1), when its state is not global. */
  readonly consumers?: readonly Workspace[] | Unreadable;
  /** Its own data-retention policy (C11), on the self-managed edition, when the workspace names one. */
  readonly policy?: DataRetentionPolicy | Unreadable;
}

export interface DiscoveredModule {
  readonly module: RegistryModule;
  /** Every version with its deprecation (D4). */
  readonly versions: readonly RegistryModuleVersionSummary[] | Unreadable;
}

export interface Estate {
  readonly address: string;
  readonly organization: string;
  readonly edition: "hosted" | "self-managed";
  /** The selected workspaces, in name order. */
  readonly workspaces: readonly DiscoveredWorkspace[];
  /** The organization's workspaces outside the selection, by id (for the comments of literal ids). */
  readonly unselected: ReadonlyMap<string, string>;
  /** Of those, the ones another project of a split adopts: id → where (the comment of their literal ids says it). */
  readonly elsewhere?: ReadonlyMap<string, string>;
  /** Undefined with --no-modules. */
  readonly modules?: readonly DiscoveredModule[] | Unreadable;
  /** Project id → name. */
  readonly projects: ReadonlyMap<string, string>;
}

/** The kinds `adopt` writes, in the order a program declares them. */
export const ADOPTED_KINDS = [
  "Workspace", "WorkspaceLock", "SshKeyAssignment", "DataRetentionPolicy", "RemoteStateConsumers", "ModuleVersionDeprecation",
] as const;
export type AdoptedKind = (typeof ADOPTED_KINDS)[number];

/**
 * `Workspace ws-…`: the object a resource manages, whatever its name. The subject is the workspace id
 * (for a deprecation, `org/module/provider/version`); a program declares at most one resource per
 * subject, consumer lists aside (additive: one more per run that finds new consumers).
 */
export function subjectKey(kind: AdoptedKind, subject: string): string {
  return `${kind} ${subject}`;
}

/** The subject of a resource by its import id (a consumer list's is the workspace before the `/`). */
export function subjectOfImportId(kind: AdoptedKind, importId: string): string {
  return kind === "RemoteStateConsumers" ? importId.split("/")[0] ?? importId : importId;
}

/** A value of an input: JSON, a reference to another resource's id, or a literal id with why it is one. */
export type InputValue =
  | string | number | boolean | null
  | readonly InputValue[]
  | { readonly [key: string]: InputValue }
  | ResourceRef
  | CommentedLiteral;

/** `<resource>.id`: the resource of the program that adopts that object. */
export interface ResourceRef {
  readonly kind: "ref";
  readonly resource: string;
}

/** A literal id, with the comment that says why it is not a reference. */
export interface CommentedLiteral {
  readonly kind: "literal";
  readonly value: string;
  readonly comment: string;
}

export function isRef(value: InputValue): value is ResourceRef {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as { kind?: unknown }).kind === "ref";
}

export function isCommentedLiteral(value: InputValue): value is CommentedLiteral {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as { kind?: unknown }).kind === "literal";
}

/** The names of the resources other resources of `resources` refer to (the ones a program needs a variable for). */
export function referencedResources(resources: readonly { readonly inputs: Readonly<Record<string, InputValue>> }[]): Set<string> {
  const referenced = new Set<string>();
  const collect = (value: InputValue): void => {
    if (isRef(value)) referenced.add(value.resource);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null && !isCommentedLiteral(value)) Object.values(value).forEach(collect);
  };
  resources.forEach((r) => Object.values(r.inputs).forEach(collect));
  return referenced;
}

export interface PlannedResource {
  readonly kind: AdoptedKind;
  /** The resource's name in the program (its URN's last part): readable and stable. */
  readonly name: string;
  /** The id `pulumi import` takes (the `import` resource option). */
  readonly importId: string;
  /** The inputs the import adopts, with references in place of the ids of resources of the program. */
  readonly inputs: Readonly<Record<string, InputValue>>;
}

/** An object found and not adopted, or a setting left where it is, and why. */
export interface Skipped {
  readonly kind: AdoptedKind | "Tag binding" | "Setting";
  /** What it is: `workspace app-prod (ws-…)`, `vpc/aws 1.2.0`. */
  readonly object: string;
  readonly reason: string;
}

export interface AdoptionPlan {
  readonly organization: string;
  readonly edition: "hosted" | "self-managed";
  readonly resources: readonly PlannedResource[];
  /** The name of every workspace found, by id (the table form keys its rows by them). */
  readonly workspaceNames: ReadonlyMap<string, string>;
  /** Project id → name (the table form names a workspace's project by it). */
  readonly projects: ReadonlyMap<string, string>;
  readonly skipped: readonly Skipped[];
  /** Settings the workspaces inherit (from their project or organization), left to inherit. */
  readonly inherited: readonly Skipped[];
}

// The table form of a program (TypeScript, Python, Go): the plan's resources as one table of workspaces
// (keyed by the workspace's name) and one of module deprecations, which a loop in the program declares.
// The settings most workspaces hold alike are written once (`shared`); each row holds what differs and
// what hangs off its workspace. The loop gives every resource the name, the inputs and the import id
// the block form gives it, so a stack can switch between the forms with no change: `tableOf` checks
// that by rebuilding each planned resource from the table, and fails loudly where one would differ.
import { adoptionOf, moduleVersionImportId } from "../../runtime/adoption";
import { withoutFixedValues } from "../../schemas/omission";
import { WORKSPACE_OMITTED } from "../../schemas/workspace";
import { isCommentedLiteral, isRef, type AdoptedKind, type AdoptionPlan, type CommentedLiteral, type InputValue, type PlannedResource } from "../model";

/** The parts of a row that are resources of their own, and the suffix their usual name adds to the key. */
export const ROW_PARTS = {
  workspace: { kind: "Workspace", suffix: "" },
  lock: { kind: "WorkspaceLock", suffix: "-lock" },
  sshKey: { kind: "SshKeyAssignment", suffix: "-ssh-key" },
  dataRetention: { kind: "DataRetentionPolicy", suffix: "-data-retention" },
  consumers: { kind: "RemoteStateConsumers", suffix: "-consumers" },
} as const satisfies Record<string, { kind: AdoptedKind; suffix: string }>;
export type RowPart = keyof typeof ROW_PARTS;

/**
 * A project by name: its id from the program's table of projects (`projects.app`), where the block form
 * writes the literal id with a comment on every workspace. Projects are not resources of this package.
 */
export interface ProjectRef {
  readonly kind: "project";
  readonly name: string;
  readonly id: string;
}

/** A value of a row: an input's, a project by name, or an object of them (a row's parts). */
export type TableValue = InputValue | ProjectRef | { readonly [key: string]: TableValue };

/** The literal id with its comment, where the value is one. */
export function literalOf(value: TableValue): CommentedLiteral | undefined {
  return isCommentedLiteral(value as InputValue) ? (value as CommentedLiteral) : undefined;
}

export function isProjectRef(value: unknown): value is ProjectRef {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "project";
}

export interface WorkspaceRow {
  /** The workspace's name: the row's key, the Workspace's `name`, and the base of its resources' names. */
  readonly key: string;
  /** The workspace's id: the import id of the row's resources. */
  readonly id: string;
  /** Set where the stack holds the workspace (declared elsewhere in the program): why, in words. The row only adds what hangs off it. */
  readonly declaredElsewhere?: string;
  /** The Workspace's inputs beyond `shared` and its name (a declared row only). */
  readonly settings: Readonly<Record<string, TableValue>>;
  /** The lock's inputs but its workspace. */
  readonly lock?: Readonly<Record<string, InputValue>>;
  readonly sshKeyId?: string;
  /** The policy's inputs but its workspace. */
  readonly dataRetention?: Readonly<Record<string, InputValue>>;
  /** Consumers the table declares, by key. */
  readonly consumers: readonly string[];
  /** Consumers it does not declare, as literal ids with why. */
  readonly consumerIds: readonly CommentedLiteral[];
  /** Resource names other than the usual ones (`<key>`, `<key>-lock`, …): where the usual one was taken. */
  readonly names: Readonly<Partial<Record<RowPart, string>>>;
}

export interface DeprecationRow {
  /** The resource's name: the row's key. */
  readonly name: string;
  /** Its inputs but the organization (`moduleName`, `provider`, `version`, and `reason`, `link` where declared). */
  readonly inputs: Readonly<Record<string, InputValue>>;
}

export interface ProgramTable {
  readonly organization: string;
  /** The Workspace inputs written once: each held by more than half of the declared workspaces (at least two). */
  readonly shared: Readonly<Record<string, TableValue>>;
  /** The projects the settings name, by name, in name order. */
  readonly projects: readonly { readonly name: string; readonly id: string }[];
  /** In the plan's order of workspaces (their names' order). */
  readonly workspaces: readonly WorkspaceRow[];
  readonly deprecations: readonly DeprecationRow[];
}

/** The import id of a row's consumer list, as the kind's own adoption makes it. */
function consumersImportId(workspaceId: string, consumerIds: readonly string[]): string {
  const adoption = adoptionOf.remoteStateConsumers(workspaceId, consumerIds);
  return adoption !== undefined && "importId" in adoption ? adoption.importId : workspaceId;
}

/** The import id of a deprecation, as the kind's import takes it. */
function deprecationImportId(organization: string, inputs: Readonly<Record<string, InputValue>>): string {
  return moduleVersionImportId({ organization, moduleName: String(inputs["moduleName"]), provider: String(inputs["provider"]), version: String(inputs["version"]) });
}

/** The plan as tables. Throws if a resource the loops would declare differed from the plan's (a defect, not a user error). */
export function tableOf(plan: AdoptionPlan): ProgramTable {
  const byKind = (kind: AdoptedKind): PlannedResource[] => plan.resources.filter((r) => r.kind === kind);
  const declared = byKind("Workspace");
  // The key of each Workspace resource (by resource name), for references.
  const keyOfResource = new Map(declared.map((r) => [r.name, String(r.inputs["name"])]));
  const rows = new Map<string, Draft>();
  const rowOf = (workspaceId: string, reference: InputValue | undefined): Draft => {
    const key = isRef(reference ?? null) ? keyOfResource.get((reference as { resource: string }).resource) : plan.workspaceNames.get(workspaceId);
    if (key === undefined) throw new Error(`adopt: no workspace ${workspaceId} in the plan for the table form`);
    const existing = rows.get(key);
    if (existing !== undefined) return existing;
    const row: Draft = {
      key, id: workspaceId, settings: {}, consumers: [], consumerIds: [], names: {},
      ...(isCommentedLiteral(reference ?? null) && { declaredElsewhere: (reference as CommentedLiteral).comment }),
    };
    rows.set(key, row);
    return row;
  };
  for (const resource of declared) {
    const { name, ...settings } = resource.inputs;
    const row = rowOf(resource.importId, { kind: "ref", resource: resource.name });
    const project = settings["projectId"];
    const projectName = isCommentedLiteral(project ?? null) ? plan.projects.get((project as CommentedLiteral).value) : undefined;
    row.settings = projectName === undefined ? settings : { ...settings, projectId: { kind: "project", name: projectName, id: (project as CommentedLiteral).value } };
    nameOf(row, "workspace", resource.name);
  }
  const attached = (resource: PlannedResource): { row: Draft; rest: Record<string, InputValue> } => {
    const { workspaceId, ...rest } = resource.inputs;
    const id = isCommentedLiteral(workspaceId ?? null) ? (workspaceId as CommentedLiteral).value : subjectOf(resource);
    return { row: rowOf(id, workspaceId), rest };
  };
  for (const resource of plan.resources) {
    if (resource.kind === "Workspace" || resource.kind === "ModuleVersionDeprecation") continue;
    const { row, rest } = attached(resource);
    if (resource.kind === "WorkspaceLock") { row.lock = rest; nameOf(row, "lock", resource.name); }
    if (resource.kind === "SshKeyAssignment") { row.sshKeyId = String(rest["sshKeyId"]); nameOf(row, "sshKey", resource.name); }
    if (resource.kind === "DataRetentionPolicy") { row.dataRetention = rest; nameOf(row, "dataRetention", resource.name); }
    if (resource.kind === "RemoteStateConsumers") {
      for (const consumer of (rest["consumerIds"] ?? []) as readonly InputValue[]) {
        if (isCommentedLiteral(consumer)) row.consumerIds = [...row.consumerIds, consumer];
        else if (isRef(consumer) && keyOfResource.has(consumer.resource)) row.consumers = [...row.consumers, keyOfResource.get(consumer.resource) ?? ""];
        else throw new Error(`adopt: consumer ${JSON.stringify(consumer)} of ${resource.name} is neither a workspace of the table nor a literal id`);
      }
      nameOf(row, "consumers", resource.name);
    }
  }
  const ordered = [...rows.values()];
  const shared = sharedSettings(ordered.filter((r) => r.declaredElsewhere === undefined).map((r) => r.settings));
  const workspaces = ordered.map((row) => (row.declaredElsewhere === undefined ? { ...row, settings: beyondShared(row.settings, shared) } : row));
  const deprecations = byKind("ModuleVersionDeprecation").map((r) => {
    const { organization: _organization, ...inputs } = r.inputs;
    return { name: r.name, inputs };
  });
  const projects = new Map<string, string>();
  for (const value of [...Object.values(shared), ...workspaces.flatMap((w) => Object.values(w.settings))]) if (isProjectRef(value)) projects.set(value.name, value.id);
  const table: ProgramTable = {
    organization: plan.organization, shared, workspaces, deprecations,
    projects: [...projects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, id]) => ({ name, id })),
  };
  assertSameResources(plan, table);
  return table;
}

type Draft = { -readonly [K in keyof WorkspaceRow]: WorkspaceRow[K] } & { names: Partial<Record<RowPart, string>> };

function subjectOf(resource: PlannedResource): string {
  return resource.kind === "RemoteStateConsumers" ? resource.importId.split("/")[0] ?? resource.importId : resource.importId;
}

function nameOf(row: Draft, part: RowPart, name: string): void {
  if (name !== `${row.key}${ROW_PARTS[part].suffix}`) row.names[part] = name;
}

/** The canonical text of a value, for comparing (a literal id compares by its value, a project by its id). */
function canonical(value: TableValue): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (isCommentedLiteral(v as InputValue)) return (v as CommentedLiteral).value;
    if (isProjectRef(v)) return v.id;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** Each top-level Workspace input with a fixed value when left out, and that value. */
const FIXED: ReadonlyMap<string, InputValue> = new Map(
  Object.entries(WORKSPACE_OMITTED).flatMap(([key, o]) => (o.means === "value" && !key.includes(".") ? [[key, o.value as InputValue]] : [])),
);

/**
 * The settings to write once: for each input every declared row holds (left out counts as its fixed
 * value, where it has one), the value most rows hold, when more than half of them (and at least two)
 * hold it and it is not what leaving the input out means anyway.
 */
export function sharedSettings(rows: readonly Readonly<Record<string, TableValue>>[]): Record<string, TableValue> {
  const shared: Record<string, TableValue> = {};
  const keys = new Set(rows.flatMap((r) => Object.keys(r)));
  for (const key of [...keys].sort()) {
    const values = rows.map((r) => r[key] ?? FIXED.get(key));
    if (values.some((v) => v === undefined)) continue;
    const counts = new Map<string, { value: TableValue; count: number }>();
    for (const value of values as TableValue[]) {
      const text = canonical(value);
      const entry = counts.get(text) ?? { value, count: 0 };
      entry.count++;
      counts.set(text, entry);
    }
    const top = [...counts.values()].reduce((a, b) => (b.count > a.count ? b : a));
    const fixed = FIXED.get(key);
    if (top.count >= 2 && top.count * 2 > rows.length && (fixed === undefined || canonical(fixed) !== canonical(top.value))) shared[key] = top.value;
  }
  return shared;
}

/** A row's settings without what `shared` gives it; where `shared` would give another value, the row's own (its fixed value, if left out). */
export function beyondShared(settings: Readonly<Record<string, TableValue>>, shared: Readonly<Record<string, TableValue>>): Record<string, TableValue> {
  const own: Record<string, TableValue> = {};
  for (const [key, value] of Object.entries(settings)) if (!(key in shared) || canonical(shared[key] ?? null) !== canonical(value)) own[key] = value;
  for (const key of Object.keys(shared)) {
    const fixed = FIXED.get(key);
    if (settings[key] === undefined && fixed !== undefined && canonical(fixed) !== canonical(shared[key] ?? null)) own[key] = fixed;
  }
  return own;
}

/** Every resource the table's loops declare, as a plan's resource (references as the plan has them). */
export function resourcesOfTable(table: ProgramTable, resourceOfKey: (key: string) => string): PlannedResource[] {
  const out: PlannedResource[] = [];
  const name = (row: WorkspaceRow, part: RowPart): string => row.names[part] ?? `${row.key}${ROW_PARTS[part].suffix}`;
  const idOfKey = new Map(table.workspaces.map((r) => [r.key, r.id]));
  for (const row of table.workspaces) {
    if (row.declaredElsewhere === undefined) {
      const settings = { ...table.shared, ...row.settings, name: row.key } as Record<string, InputValue>;
      out.push({ kind: "Workspace", name: name(row, "workspace"), importId: row.id, inputs: withFixedOmitted(settings) });
    }
  }
  for (const row of table.workspaces) {
    const workspaceId: InputValue = row.declaredElsewhere === undefined
      ? { kind: "ref", resource: resourceOfKey(row.key) } : { kind: "literal", value: row.id, comment: row.declaredElsewhere };
    if (row.lock !== undefined) out.push({ kind: "WorkspaceLock", name: name(row, "lock"), importId: row.id, inputs: { workspaceId, ...row.lock } });
    if (row.sshKeyId !== undefined) out.push({ kind: "SshKeyAssignment", name: name(row, "sshKey"), importId: row.id, inputs: { workspaceId, sshKeyId: row.sshKeyId } });
    if (row.dataRetention !== undefined) out.push({ kind: "DataRetentionPolicy", name: name(row, "dataRetention"), importId: row.id, inputs: { workspaceId, ...row.dataRetention } });
    if (row.consumers.length + row.consumerIds.length > 0) {
      const ids = [...row.consumers.map((k) => idOfKey.get(k) ?? k), ...row.consumerIds.map((c) => c.value)];
      const consumerIds: InputValue[] = [...row.consumers.map((k): InputValue => ({ kind: "ref", resource: resourceOfKey(k) })), ...row.consumerIds];
      out.push({ kind: "RemoteStateConsumers", name: name(row, "consumers"), importId: consumersImportId(row.id, ids), inputs: { workspaceId, consumerIds } });
    }
  }
  for (const row of table.deprecations) {
    out.push({ kind: "ModuleVersionDeprecation", name: row.name, importId: deprecationImportId(table.organization, row.inputs), inputs: { organization: table.organization, ...row.inputs } });
  }
  return out;
}

/** Inputs without the fixed values check fills in either way (what import and adopt leave out), for comparing. */
function withFixedOmitted(inputs: Record<string, InputValue>): Record<string, InputValue> {
  return withoutFixedValues(WORKSPACE_OMITTED, inputs) as Record<string, InputValue>;
}

/** The table declares exactly the plan's resources: names, import ids, and inputs as check completes them. */
function assertSameResources(plan: AdoptionPlan, table: ProgramTable): void {
  const resourceOfKey = new Map(table.workspaces.map((r) => [r.key, r.names.workspace ?? r.key]));
  const summary = (resources: readonly PlannedResource[]): string[] => resources.map((r) => {
    const inputs = r.kind === "Workspace" ? withFixedOmitted({ ...r.inputs }) : r.inputs;
    const sorted = (value: InputValue): InputValue => (Array.isArray(value) ? [...(value as InputValue[])].map(sorted).sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1))
      : value);
    const normal = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, k === "consumerIds" ? sorted(v) : v]));
    return `${r.kind} ${r.name} ${r.importId} ${canonical(normal)}`;
  }).sort();
  const planned = summary(plan.resources);
  const tabled = summary(resourcesOfTable(table, (key) => resourceOfKey.get(key) ?? key));
  const missing = planned.filter((p) => !tabled.includes(p));
  const extra = tabled.filter((t) => !planned.includes(t));
  if (missing.length + extra.length > 0) {
    throw new Error(`adopt: the table form would declare other resources than the plan (a defect): missing ${missing.join("; ")}; extra ${extra.join("; ")}`);
  }
}

/** A row as the object the table holds, its keys as TypeScript names them (what it leaves out, left out). */
export function rowObject(row: WorkspaceRow): Record<string, TableValue> {
  const value: Record<string, TableValue> = { id: row.id };
  if (row.declaredElsewhere !== undefined) value["declaredElsewhere"] = true;
  if (Object.keys(row.settings).length > 0) value["settings"] = row.settings;
  if (row.lock !== undefined) value["lock"] = row.lock;
  if (row.sshKeyId !== undefined) value["sshKeyId"] = row.sshKeyId;
  if (row.dataRetention !== undefined) value["dataRetention"] = row.dataRetention;
  if (row.consumers.length > 0) value["consumers"] = row.consumers;
  if (row.consumerIds.length > 0) value["consumerIds"] = row.consumerIds;
  if (Object.keys(row.names).length > 0) value["names"] = row.names as Record<string, string>;
  return value;
}

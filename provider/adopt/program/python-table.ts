// The table form in Python (table.ts): TypedDict rows of the workspaces and of the deprecations, typed
// from the package schema (the one source of the SDK), the shared settings once, and a `declare()`
// whose loops declare the resources. Every file is whole on its own (the program and each later batch).
import { isRef, type AdoptionPlan, type InputValue } from "../model";
import type { PackageSchema, SchemaProperty } from "./go";
import { batchHeaderLines, headerLines, typeToken } from "./header";
import { atom, pythonName } from "./python";
import { isProjectRef, literalOf, rowObject, tableOf, type ProgramTable, type TableValue } from "./table";

/** A value goes on one line where that line stays within this many columns, as a person would write it. */
const WIDTH = 100;

export function pythonTableProgram(plan: AdoptionPlan, selection: string, schema: PackageSchema): string {
  const table = tableOf(plan);
  const out = headerLines(plan, selection).map((line) => `# ${line}`);
  out.push(...imports(table), "import adopted", "", ...tableLines(table, schema), "", "",
    "declare()", "# What later runs of `wsbridge adopt` add (adopted/__init__.py).", "adopted.declare()");
  return `${out.join("\n")}\n`;
}

export function pythonTableBatch(plan: AdoptionPlan, selection: string, schema: PackageSchema, batch: number): string {
  const table = tableOf(plan);
  const out = batchHeaderLines(plan, selection, batch).map((line) => `# ${line}`);
  out.push(...imports(table), "", ...tableLines(table, schema));
  return `${out.join("\n")}\n`;
}

function imports(table: ProgramTable): string[] {
  const typing = table.workspaces.length > 0 ? "from typing import Mapping, Required, Sequence, TypedDict" : "from typing import Required, TypedDict";
  return [...(table.workspaces.length + table.deprecations.length > 0 ? [typing, ""] : []), "import pulumi", "import pulumi_wsbridge as wsbridge", ""];
}

/** A TypedDict of a kind's inputs (but those left out), as the SDK's keyword arguments take them. */
function inputsTypedDict(name: string, doc: string, kind: string, schema: PackageSchema, without: readonly string[]): string[] {
  const properties = schema.resources[typeToken(kind)]?.inputProperties ?? {};
  const fields = Object.entries(properties).filter(([key]) => !without.includes(key)).sort(([a], [b]) => (pythonName(a) < pythonName(b) ? -1 : 1));
  return [`class ${name}(TypedDict, total=False):`, `    """${doc}"""`, "", ...fields.map(([key, type]) => `    ${pythonName(key)}: pulumi.Input[${pythonType(type)}]`)];
}

function pythonType(type: SchemaProperty): string {
  if (type.$ref !== undefined) return `wsbridge.${type.$ref.split(":").pop() ?? ""}ArgsDict`;
  if (type.type === "boolean") return "bool";
  if (type.type === "integer") return "int";
  if (type.type === "number") return "float";
  if (type.type === "array") return `Sequence[pulumi.Input[${pythonType(type.items ?? {})}]]`;
  if (type.type === "object") return `Mapping[str, pulumi.Input[${pythonType(type.additionalProperties ?? {})}]]`;
  return "str";
}

const OPTIONS = [
  "def adopted_options(import_id: str) -> pulumi.ResourceOptions:",
  '    """The options of every resource adopt declares: imported by the first `up` (reads only), and protected."""',
  "    return pulumi.ResourceOptions(import_=import_id, protect=True)",
];

const ROW_TYPES = [
  "class ResourceNames(TypedDict, total=False):",
  '    """Resource names other than the usual ones (the key, `<key>-lock`, `<key>-ssh-key`, `<key>-data-retention`, `<key>-consumers`)."""',
  "",
  "    workspace: str",
  "    lock: str",
  "    ssh_key: str",
  "    data_retention: str",
  "    consumers: str",
  "",
  "",
  "class WorkspaceRow(TypedDict, total=False):",
  '    """A workspace: what it holds beyond SHARED, and what hangs off it."""',
  "",
  "    id: Required[str]",
  '    """Its id, which the `import` options read."""',
  "    declared_elsewhere: bool",
  '    """The stack holds the workspace, declared elsewhere in your program: the row adds only what hangs off it."""',
  "    settings: WorkspaceSettings",
  '    """Its settings where they differ from SHARED (a setting here wins)."""',
  "    lock: LockRow",
  '    """The lock a user or a team holds on it."""',
  "    ssh_key_id: str",
  '    """The SSH key assigned to it."""',
  "    data_retention: DataRetentionRow",
  '    """Its own data-retention policy."""',
  "    consumers: Sequence[str]",
  '    """Workspaces of this table that may read its state, by key."""',
  "    consumer_ids: Sequence[str]",
  '    """Other workspaces that may read its state, by id."""',
  "    names: ResourceNames",
  '    """Resource names other than the usual ones, where those were taken."""',
];

const WORKSPACE_LOOPS = [
  "    declared: dict[str, wsbridge.Workspace] = {}",
  "    for key, row in WORKSPACES.items():",
  '        if row.get("declared_elsewhere"):',
  "            continue",
  '        settings: WorkspaceSettings = {**SHARED, **row.get("settings", {})}',
  "        declared[key] = wsbridge.Workspace(",
  '            row.get("names", {}).get("workspace", key), name=key, opts=adopted_options(row["id"]), **settings,',
  "        )",
  "",
  "    def workspace(key: str) -> wsbridge.Workspace:",
  '        """The Workspace this table declares under that key."""',
  "        if key not in declared:",
  '            raise KeyError(f"{key}: not a workspace this table declares")',
  "        return declared[key]",
  "",
  "    for key, row in WORKSPACES.items():",
  '        names = row.get("names", {})',
  '        workspace_id: pulumi.Input[str] = row["id"] if row.get("declared_elsewhere") else workspace(key).id',
  '        if "lock" in row:',
  '            wsbridge.WorkspaceLock(names.get("lock", f"{key}-lock"), workspace_id=workspace_id, opts=adopted_options(row["id"]), **row["lock"])',
  '        if "ssh_key_id" in row:',
  "            wsbridge.SshKeyAssignment(",
  '                names.get("ssh_key", f"{key}-ssh-key"), workspace_id=workspace_id, ssh_key_id=row["ssh_key_id"],',
  '                opts=adopted_options(row["id"]),',
  "            )",
  '        if "data_retention" in row:',
  "            wsbridge.DataRetentionPolicy(",
  '                names.get("data_retention", f"{key}-data-retention"), workspace_id=workspace_id,',
  '                opts=adopted_options(row["id"]), **row["data_retention"],',
  "            )",
  '        consumers = [workspace(k) for k in row.get("consumers", [])]',
  '        consumer_ids = list(row.get("consumer_ids", []))',
  "        if consumers or consumer_ids:",
  "            # The import id: the workspace, then its consumers' ids in order.",
  '            ids = sorted([WORKSPACES[k]["id"] for k in row.get("consumers", [])] + consumer_ids)',
  "            wsbridge.RemoteStateConsumers(",
  '                names.get("consumers", f"{key}-consumers"),',
  "                workspace_id=workspace_id,",
  "                consumer_ids=[c.id for c in consumers] + consumer_ids,",
  `                opts=adopted_options(f"{row['id']}/{','.join(ids)}"),`,
  "            )",
];

const DEPRECATION_TYPE = [
  "class DeprecationRow(TypedDict, total=False):",
  '    """A module version deprecated in the organization\'s private registry."""',
  "",
  "    module_name: Required[str]",
  "    provider: Required[str]",
  "    version: Required[str]",
  "    reason: str",
  "    link: str",
];

const DEPRECATION_LOOP = [
  "    for name, deprecation in DEPRECATIONS.items():",
  `        import_id = f"{ORGANIZATION}/{deprecation['module_name']}/{deprecation['provider']}/{deprecation['version']}"`,
  "        wsbridge.ModuleVersionDeprecation(name, organization=ORGANIZATION, opts=adopted_options(import_id), **deprecation)",
];

function tableLines(table: ProgramTable, schema: PackageSchema): string[] {
  const out: string[] = [];
  const workspaceProperties = schema.resources[typeToken("Workspace")]?.inputProperties ?? {};
  const typeOfRowKey: Record<string, SchemaProperty> = {
    settings: { $ref: "#/types/settings" }, lock: { $ref: "#/types/lock" }, dataRetention: { $ref: "#/types/dataRetention" },
    consumers: { type: "array", items: { type: "string" } }, consumerIds: { type: "array", items: { type: "string" } }, names: { $ref: "#/types/names" },
  };
  // The row's parts as objects of a schema of their own, so `argument` names and types their keys as the SDK does.
  const rowSchema: PackageSchema = {
    resources: schema.resources,
    types: {
      ...schema.types,
      settings: { properties: workspaceProperties },
      lock: { properties: schema.resources[typeToken("WorkspaceLock")]?.inputProperties ?? {} },
      dataRetention: { properties: schema.resources[typeToken("DataRetentionPolicy")]?.inputProperties ?? {} },
      names: { properties: {} },
    },
  };
  if (table.workspaces.length > 0) {
    out.push(...inputsTypedDict("WorkspaceSettings", "A workspace's settings, as wsbridge.Workspace takes them (its name is the row's key).", "Workspace", schema, ["name"]), "", "");
    out.push(...inputsTypedDict("LockRow", "A lock, as wsbridge.WorkspaceLock takes it (its workspace is the row's).", "WorkspaceLock", schema, ["workspaceId"]), "", "");
    out.push(...inputsTypedDict("DataRetentionRow", "A data-retention policy, as wsbridge.DataRetentionPolicy takes it (its workspace is the row's).", "DataRetentionPolicy", schema, ["workspaceId"]), "", "");
    out.push(...ROW_TYPES, "", "");
    if (table.projects.length > 0) {
      out.push("# The organization's projects the workspaces below are in, by name (projects are not resources of this package).");
      out.push(...dict("PROJECTS: dict[str, str]", table.projects.flatMap((p) => entry(JSON.stringify(p.name), p.id, {}, schema, 1))), "");
    }
    out.push("# The settings most workspaces below hold alike, written once.");
    out.push(...dict("SHARED: WorkspaceSettings", Object.entries(table.shared).flatMap(([k, v]) =>
      entry(JSON.stringify(pythonName(k)), v, workspaceProperties[k] ?? {}, rowSchema, 1))));
    out.push("", "# The workspaces, by name.");
    out.push(...dict("WORKSPACES: dict[str, WorkspaceRow]", table.workspaces.flatMap((row) => [
      ...(row.declaredElsewhere === undefined ? [] : [`    # ${row.declaredElsewhere}`]),
      ...entry(JSON.stringify(row.key), rowObject(row), { $ref: "#/types/row" }, { ...rowSchema, types: { ...rowSchema.types, row: { properties: typeOfRowKey } } }, 1),
    ])));
  }
  if (table.deprecations.length > 0) {
    const properties = schema.resources[typeToken("ModuleVersionDeprecation")]?.inputProperties ?? {};
    out.push(...(out.length > 0 ? ["", ""] : []), ...DEPRECATION_TYPE, "", "", `ORGANIZATION = ${JSON.stringify(table.organization)}`, "# The deprecations, by resource name.");
    out.push(...dict("DEPRECATIONS: dict[str, DeprecationRow]", table.deprecations.flatMap((row) => {
      return entry(JSON.stringify(row.name), row.inputs, { $ref: "#/types/deprecation" }, { ...schema, types: { ...schema.types, deprecation: { properties } } }, 1);
    })));
  }
  out.push("", "", ...OPTIONS, "", "", "def declare() -> None:", '    """Declares the resources of the tables above."""');
  if (table.workspaces.length > 0) out.push(...WORKSPACE_LOOPS);
  if (table.deprecations.length > 0) out.push(...(table.workspaces.length > 0 ? [""] : []), ...DEPRECATION_LOOP);
  if (table.workspaces.length + table.deprecations.length === 0) out.push("    return None");
  return out;
}

/** `NAME: type = {` … `}`: a dict literal of entries (an empty one on one line). */
function dict(head: string, entries: readonly string[]): string[] {
  return entries.length === 0 ? [`${head} = {}`] : [`${head} = {`, ...entries, "}"];
}

/** `"key": value,` at `depth`, a value of that schema type: on one line where it fits and holds no comment, else one line per entry. */
function entry(key: string, value: TableValue, type: SchemaProperty, schema: PackageSchema, depth: number): string[] {
  const pad = "    ".repeat(depth);
  const one = inline(value, type, schema);
  if (one !== undefined && `${pad}${key}: ${one},`.length <= WIDTH) return [`${pad}${key}: ${one},`];
  const literal = literalOf(value);
  if (literal !== undefined) return [`${pad}# ${literal.comment}`, `${pad}${key}: ${JSON.stringify(literal.value)},`];
  if (Array.isArray(value)) {
    const items = (value as readonly TableValue[]).flatMap((item) => {
      const itemLiteral = literalOf(item);
      if (itemLiteral !== undefined) return [`${pad}    # ${itemLiteral.comment}`, `${pad}    ${JSON.stringify(itemLiteral.value)},`];
      return [`${pad}    ${inline(item, type.items ?? {}, schema) ?? JSON.stringify(item)},`];
    });
    return [`${pad}${key}: [`, ...items, `${pad}],`];
  }
  if (typeof value === "object" && value !== null && !isRef(value as InputValue) && !isProjectRef(value)) {
    return [`${pad}${key}: {`, ...members(value as Record<string, TableValue>, type, schema).flatMap(([k, v, t]) => entry(k, v, t, schema, depth + 1)), `${pad}},`];
  }
  return [`${pad}${key}: ${one ?? atom(value as InputValue)},`];
}

/** A dict's entries: an object of the schema by the SDK's snake_case keys, a map (tags) by its own. */
function members(value: Record<string, TableValue>, type: SchemaProperty, schema: PackageSchema): [string, TableValue, SchemaProperty][] {
  if (type.$ref !== undefined) {
    const object = schema.types[type.$ref.replace(/^#\/types\//, "")];
    return Object.entries(value).map(([k, v]) => [JSON.stringify(pythonName(k)), v, object?.properties[k] ?? {}]);
  }
  return Object.entries(value).map(([k, v]) => [JSON.stringify(k), v, type.additionalProperties ?? {}]);
}

/** The value on one line; undefined where a literal id carries a comment, which needs a line of its own. */
function inline(value: TableValue, type: SchemaProperty, schema: PackageSchema): string | undefined {
  if (isProjectRef(value)) return `PROJECTS[${JSON.stringify(value.name)}]`;
  if (literalOf(value) !== undefined || isRef(value as InputValue)) return undefined;
  if (Array.isArray(value)) {
    const items = (value as readonly TableValue[]).map((item) => inline(item, type.items ?? {}, schema));
    return items.every((i) => i !== undefined) ? `[${items.join(", ")}]` : undefined;
  }
  if (typeof value === "object" && value !== null) {
    const entries = members(value as Record<string, TableValue>, type, schema).map(([k, v, t]) => {
      const one = inline(v, t, schema);
      return one === undefined ? undefined : `${k}: ${one}`;
    });
    return entries.every((e) => e !== undefined) ? `{${entries.join(", ")}}` : undefined;
  }
  return atom(value as InputValue);
}

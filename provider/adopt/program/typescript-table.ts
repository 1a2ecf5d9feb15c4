// The table form in TypeScript (table.ts): typed rows of the workspaces and of the deprecations, the
// shared settings once, and the loops that declare the resources. Every file is whole on its own (the
// program and each later batch), so the loops stay in the code the team owns and can change.
import { isRef, type AdoptionPlan, type InputValue } from "../model";
import { batchHeaderLines, headerLines } from "./header";
import { isProjectRef, literalOf, rowObject, tableOf, type ProgramTable, type TableValue } from "./table";

/** A value goes on one line where that line stays within this many columns, as a person would write it. */
const WIDTH = 100;

export function typescriptTableProgram(plan: AdoptionPlan, selection: string): string {
  const out = headerLines(plan, selection).map((line) => `// ${line}`);
  out.push(...IMPORTS, "// What later runs of `wsbridge adopt` add (adopted/index.ts lists them).", 'import "./adopted";', "");
  return `${[...out, ...tableLines(tableOf(plan))].join("\n")}\n`;
}

export function typescriptTableBatch(plan: AdoptionPlan, selection: string, batch: number): string {
  const out = batchHeaderLines(plan, selection, batch).map((line) => `// ${line}`);
  out.push(...IMPORTS, "");
  return `${[...out, ...tableLines(tableOf(plan))].join("\n")}\n`;
}

const IMPORTS = ['import * as pulumi from "@pulumi/pulumi";', 'import * as wsbridge from "@pulumi-wsbridge/wsbridge";'];

const OPTIONS = [
  "/** The options of every resource adopt declares: imported by the first `up` (reads only), and protected. */",
  "function adopted(importId: string): pulumi.CustomResourceOptions {",
  "    return { import: importId, protect: true };",
  "}",
];

const WORKSPACE_TYPES = [
  "/** A workspace's settings, as `wsbridge.Workspace` takes them (its name is the row's key). */",
  'type WorkspaceSettings = Omit<wsbridge.WorkspaceArgs, "name">;',
  "",
  "/** A workspace: what it holds beyond `shared`, and what hangs off it. */",
  "interface WorkspaceRow {",
  "    /** Its id, which the `import` options read. */",
  "    readonly id: string;",
  "    /** The stack holds the workspace, declared elsewhere in your program: the row adds only what hangs off it. */",
  "    readonly declaredElsewhere?: true;",
  "    /** Its settings where they differ from `shared` (a setting here wins). */",
  "    readonly settings?: WorkspaceSettings;",
  "    /** The lock a user or a team holds on it. */",
  '    readonly lock?: Omit<wsbridge.WorkspaceLockArgs, "workspaceId">;',
  "    /** The SSH key assigned to it. */",
  "    readonly sshKeyId?: string;",
  "    /** Its own data-retention policy. */",
  '    readonly dataRetention?: Omit<wsbridge.DataRetentionPolicyArgs, "workspaceId">;',
  "    /** Workspaces of this table that may read its state, by key. */",
  "    readonly consumers?: readonly string[];",
  "    /** Other workspaces that may read its state, by id. */",
  "    readonly consumerIds?: readonly string[];",
  "    /** Resource names other than the usual ones (the key, `<key>-lock`, `<key>-ssh-key`, `<key>-data-retention`, `<key>-consumers`). */",
  "    readonly names?: { readonly workspace?: string; readonly lock?: string; readonly sshKey?: string; readonly dataRetention?: string; readonly consumers?: string };",
  "}",
];

const WORKSPACE_LOOPS = [
  "const declared = new Map<string, wsbridge.Workspace>();",
  "for (const [key, row] of Object.entries(workspaces)) {",
  "    if (row.declaredElsewhere) continue;",
  "    declared.set(key, new wsbridge.Workspace(row.names?.workspace ?? key, { ...shared, ...row.settings, name: key }, adopted(row.id)));",
  "}",
  "",
  "/** The Workspace this table declares under that key. */",
  "function workspace(key: string): wsbridge.Workspace {",
  "    const found = declared.get(key);",
  "    if (found === undefined) throw new Error(`${key}: not a workspace this table declares`);",
  "    return found;",
  "}",
  "",
  "for (const [key, row] of Object.entries(workspaces)) {",
  "    const names = row.names ?? {};",
  "    const workspaceId = row.declaredElsewhere ? row.id : workspace(key).id;",
  "    if (row.lock) new wsbridge.WorkspaceLock(names.lock ?? `${key}-lock`, { ...row.lock, workspaceId }, adopted(row.id));",
  "    if (row.sshKeyId) new wsbridge.SshKeyAssignment(names.sshKey ?? `${key}-ssh-key`, { workspaceId, sshKeyId: row.sshKeyId }, adopted(row.id));",
  "    if (row.dataRetention) {",
  "        new wsbridge.DataRetentionPolicy(names.dataRetention ?? `${key}-data-retention`, { ...row.dataRetention, workspaceId }, adopted(row.id));",
  "    }",
  "    const consumers = row.consumers ?? [];",
  "    const consumerIds = row.consumerIds ?? [];",
  "    if (consumers.length + consumerIds.length > 0) {",
  "        const declaredConsumers = consumers.map(workspace);",
  "        // The import id: the workspace, then its consumers' ids in order.",
  "        const ids = [...consumers.map((k) => workspaces[k]?.id ?? k), ...consumerIds].sort();",
  "        new wsbridge.RemoteStateConsumers(names.consumers ?? `${key}-consumers`, {",
  "            workspaceId, consumerIds: [...declaredConsumers.map((w) => w.id), ...consumerIds],",
  '        }, adopted(`${row.id}/${ids.join(",")}`));',
  "    }",
  "}",
];

const DEPRECATION_TYPES = [
  "/** A module version deprecated in the organization's private registry. */",
  "interface DeprecationRow {",
  "    readonly moduleName: string;",
  "    readonly provider: string;",
  "    readonly version: string;",
  "    readonly reason?: string;",
  "    readonly link?: string;",
  "}",
];

const DEPRECATION_LOOP = [
  "for (const [name, row] of Object.entries(deprecations)) {",
  "    const importId = `${organization}/${row.moduleName}/${row.provider}/${row.version}`;",
  "    new wsbridge.ModuleVersionDeprecation(name, { organization, ...row }, adopted(importId));",
  "}",
];

function tableLines(table: ProgramTable): string[] {
  const out = [...OPTIONS];
  if (table.workspaces.length > 0) {
    out.push("", ...WORKSPACE_TYPES, "");
    if (table.projects.length > 0) {
      out.push("/** The organization's projects the workspaces below are in, by name (projects are not resources of this package). */");
      out.push("const projects = {", ...table.projects.map((p) => entry(p.name, p.id, 1)).flat(), "};", "");
    }
    out.push("/** The settings most workspaces below hold alike, written once. */", "const shared: WorkspaceSettings = {");
    for (const [key, value] of Object.entries(table.shared)) out.push(...entry(key, value, 1));
    out.push("};", "", "/** The workspaces, by name. */", "const workspaces: Readonly<Record<string, WorkspaceRow>> = {");
    for (const row of table.workspaces) {
      if (row.declaredElsewhere !== undefined) out.push(`    // ${row.declaredElsewhere}`);
      out.push(...entry(row.key, rowObject(row), 1));
    }
    out.push("};", "", ...WORKSPACE_LOOPS);
  }
  if (table.deprecations.length > 0) {
    out.push("", ...DEPRECATION_TYPES, "", `const organization = ${JSON.stringify(table.organization)};`, "");
    out.push("/** The deprecations, by resource name. */", "const deprecations: Readonly<Record<string, DeprecationRow>> = {");
    for (const row of table.deprecations) out.push(...entry(row.name, row.inputs, 1));
    out.push("};", "", ...DEPRECATION_LOOP);
  }
  return out;
}

/** `key: value,` at `depth`: on one line where it fits and holds no comment, else one line per entry. */
function entry(name: string, value: TableValue, depth: number): string[] {
  const pad = "    ".repeat(depth);
  const label = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
  const one = inline(value);
  if (one !== undefined && `${pad}${label}: ${one},`.length <= WIDTH) return [`${pad}${label}: ${one},`];
  const literal = literalOf(value);
  if (literal !== undefined) return [`${pad}// ${literal.comment}`, `${pad}${label}: ${JSON.stringify(literal.value)},`];
  if (Array.isArray(value)) {
    const items = (value as readonly TableValue[]).flatMap((item) => {
      const itemLiteral = literalOf(item);
      if (itemLiteral !== undefined) return [`${pad}    // ${itemLiteral.comment}`, `${pad}    ${JSON.stringify(itemLiteral.value)},`];
      return [`${pad}    ${inline(item) ?? JSON.stringify(item)},`];
    });
    return [`${pad}${label}: [`, ...items, `${pad}],`];
  }
  if (typeof value === "object" && value !== null && !isRef(value as InputValue) && !isProjectRef(value)) {
    return [`${pad}${label}: {`, ...Object.entries(value).flatMap(([k, v]) => entry(k, v as TableValue, depth + 1)), `${pad}},`];
  }
  return [`${pad}${label}: ${one ?? JSON.stringify(value)},`];
}

/** The value on one line; undefined where a literal id carries a comment, which needs a line of its own. */
function inline(value: TableValue): string | undefined {
  if (isProjectRef(value)) return `projects${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(value.name) ? `.${value.name}` : `[${JSON.stringify(value.name)}]`}`;
  if (literalOf(value) !== undefined || isRef(value as InputValue)) return undefined;
  if (Array.isArray(value)) {
    const items = (value as readonly TableValue[]).map(inline);
    return items.every((i) => i !== undefined) ? `[${items.join(", ")}]` : undefined;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => {
      const one = inline(v as TableValue);
      return one === undefined ? undefined : `${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k)}: ${one}`;
    });
    if (entries.some((e) => e === undefined)) return undefined;
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

// The table form in Go (table.ts): a slice of typed rows of the workspaces (their settings as the SDK's
// WorkspaceArgs) and one of the deprecations, the shared settings once (withShared), and the loops that
// declare the resources. Every file is whole on its own (main.go and each later batch share a package,
// so the row types are declared inside the function that uses them). Laid out as gofmt lays it out.
import { isRef, type AdoptionPlan, type InputValue } from "../model";
import { arrayType, field, GO_SDK_MODULE, goBatchFunction, type PackageSchema, type SchemaProperty } from "./go";
import { literalBody, type GoEntry } from "./go-layout";
import { batchHeaderLines, headerLines, typeToken } from "./header";
import { isProjectRef, literalOf, tableOf, type ProgramTable, type TableValue, type WorkspaceRow } from "./table";

const NO_VARIABLES: ReadonlyMap<string, string> = new Map();

/** A value goes on one line where that line stays within this many columns (a tab counted as 4), as a person would write it. */
const WIDTH = 100;

export function goTableProgram(plan: AdoptionPlan, selection: string, schema: PackageSchema): string {
  const table = tableOf(plan);
  const out = headerLines(plan, selection).map((line) => `// ${line}`);
  out.push("package main", "", ...imports(table));
  out.push(
    "func main() {", "\tpulumi.Run(func(ctx *pulumi.Context) error {", "\t\tif err := Program(ctx); err != nil {", "\t\t\treturn err", "\t\t}",
    "\t\t// What later runs of wsbridge adopt add (adopted.go).", "\t\treturn Adopted(ctx)", "\t})", "}", "",
  );
  out.push(`// Program declares every object adopted from organization ${plan.organization}: the rows of its tables.`, "func Program(ctx *pulumi.Context) error {");
  out.push(...body(table, schema), "\treturn nil", "}");
  return `${out.join("\n")}\n`;
}

export function goTableBatch(plan: AdoptionPlan, selection: string, schema: PackageSchema, batch: number): string {
  const table = tableOf(plan);
  const out = batchHeaderLines(plan, selection, batch).map((line) => `// ${line}`);
  out.push("package main", "", ...imports(table));
  out.push(`// ${goBatchFunction(batch)} declares what batch ${batch} of wsbridge adopt added: the rows of its tables.`, `func ${goBatchFunction(batch)}(ctx *pulumi.Context) error {`);
  out.push(...body(table, schema), "\treturn nil", "}");
  return `${out.join("\n")}\n`;
}

function imports(table: ProgramTable): string[] {
  const standard = [
    ...(table.workspaces.length > 0 ? ['"fmt"', '"sort"'] : []),
    ...(table.workspaces.length + table.deprecations.length > 0 ? ['"strings"'] : []),
  ];
  return [
    "import (", ...standard.map((p) => `\t${p}`), ...(standard.length > 0 ? [""] : []),
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"', "", `\t"${GO_SDK_MODULE}/wsbridge"`, ")", "",
  ];
}

const HELPERS = [
  "\t// adopted: the options of every resource adopt declares: imported by the first up (reads only), and protected.",
  "\tadopted := func(importID string) []pulumi.ResourceOption {",
  "\t\treturn []pulumi.ResourceOption{pulumi.Import(pulumi.ID(importID)), pulumi.Protect(true)}",
  "\t}",
];

const WORKSPACE_TYPES = [
  "\t// resourceNames: resource names other than the usual ones (the key, <key>-lock, <key>-ssh-key,",
  "\t// <key>-data-retention, <key>-consumers).",
  "\ttype resourceNames struct {",
  "\t\tWorkspace, Lock, SSHKey, DataRetention, Consumers string",
  "\t}",
  "\t// workspaceRow: a workspace, what it holds beyond the shared settings (withShared), and what hangs off it.",
  "\ttype workspaceRow struct {",
  "\t\t// The workspace's name: its key in the table.",
  "\t\tName string",
  "\t\t// Its id, which the import options read.",
  "\t\tID string",
  "\t\t// The stack holds the workspace, declared elsewhere in your program: the row adds only what hangs off it.",
  "\t\tDeclaredElsewhere bool",
  "\t\t// Its settings where they differ from the shared ones (a setting here wins); Name is the row's.",
  "\t\tSettings wsbridge.WorkspaceArgs",
  "\t\t// The lock a user or a team holds on it (WorkspaceId is the row's).",
  "\t\tLock *wsbridge.WorkspaceLockArgs",
  "\t\t// The SSH key assigned to it.",
  "\t\tSSHKeyID string",
  "\t\t// Its own data-retention policy (WorkspaceId is the row's).",
  "\t\tDataRetention *wsbridge.DataRetentionPolicyArgs",
  "\t\t// Workspaces of this table that may read its state, by key.",
  "\t\tConsumers []string",
  "\t\t// Other workspaces that may read its state, by id.",
  "\t\tConsumerIDs []string",
  "\t\tNames       resourceNames",
  "\t}",
];

const WORKSPACE_LOOPS = [
  "\tusual := func(name, otherwise string) string {",
  "\t\tif name != \"\" {",
  "\t\t\treturn name",
  "\t\t}",
  "\t\treturn otherwise",
  "\t}",
  "\tdeclared := map[string]*wsbridge.Workspace{}",
  "\tidOf := map[string]string{}",
  "\tfor _, row := range workspaces {",
  "\t\tidOf[row.Name] = row.ID",
  "\t\tif row.DeclaredElsewhere {",
  "\t\t\tcontinue",
  "\t\t}",
  "\t\tws, err := wsbridge.NewWorkspace(ctx, usual(row.Names.Workspace, row.Name), withShared(row.Name, row.Settings), adopted(row.ID)...)",
  "\t\tif err != nil {",
  "\t\t\treturn err",
  "\t\t}",
  "\t\tdeclared[row.Name] = ws",
  "\t}",
  "\t// workspace: the Workspace this table declares under that key.",
  "\tworkspace := func(key string) (*wsbridge.Workspace, error) {",
  "\t\tif ws, ok := declared[key]; ok {",
  "\t\t\treturn ws, nil",
  "\t\t}",
  "\t\treturn nil, fmt.Errorf(\"%s: not a workspace this table declares\", key)",
  "\t}",
  "\tfor _, row := range workspaces {",
  "\t\tvar workspaceID pulumi.StringInput = pulumi.String(row.ID)",
  "\t\tif !row.DeclaredElsewhere {",
  "\t\t\tws, err := workspace(row.Name)",
  "\t\t\tif err != nil {",
  "\t\t\t\treturn err",
  "\t\t\t}",
  "\t\t\tworkspaceID = ws.ID()",
  "\t\t}",
  "\t\tif row.Lock != nil {",
  "\t\t\targs := *row.Lock",
  "\t\t\targs.WorkspaceId = workspaceID",
  "\t\t\tif _, err := wsbridge.NewWorkspaceLock(ctx, usual(row.Names.Lock, row.Name+\"-lock\"), &args, adopted(row.ID)...); err != nil {",
  "\t\t\t\treturn err",
  "\t\t\t}",
  "\t\t}",
  "\t\tif row.SSHKeyID != \"\" {",
  "\t\t\targs := &wsbridge.SshKeyAssignmentArgs{WorkspaceId: workspaceID, SshKeyId: pulumi.String(row.SSHKeyID)}",
  "\t\t\tif _, err := wsbridge.NewSshKeyAssignment(ctx, usual(row.Names.SSHKey, row.Name+\"-ssh-key\"), args, adopted(row.ID)...); err != nil {",
  "\t\t\t\treturn err",
  "\t\t\t}",
  "\t\t}",
  "\t\tif row.DataRetention != nil {",
  "\t\t\targs := *row.DataRetention",
  "\t\t\targs.WorkspaceId = workspaceID",
  "\t\t\tif _, err := wsbridge.NewDataRetentionPolicy(ctx, usual(row.Names.DataRetention, row.Name+\"-data-retention\"), &args, adopted(row.ID)...); err != nil {",
  "\t\t\t\treturn err",
  "\t\t\t}",
  "\t\t}",
  "\t\tif len(row.Consumers)+len(row.ConsumerIDs) > 0 {",
  "\t\t\tconsumerIDs := pulumi.StringArray{}",
  "\t\t\tids := append([]string{}, row.ConsumerIDs...)",
  "\t\t\tfor _, key := range row.Consumers {",
  "\t\t\t\tconsumer, err := workspace(key)",
  "\t\t\t\tif err != nil {",
  "\t\t\t\t\treturn err",
  "\t\t\t\t}",
  "\t\t\t\tconsumerIDs = append(consumerIDs, consumer.ID())",
  "\t\t\t\tids = append(ids, idOf[key])",
  "\t\t\t}",
  "\t\t\tfor _, id := range row.ConsumerIDs {",
  "\t\t\t\tconsumerIDs = append(consumerIDs, pulumi.String(id))",
  "\t\t\t}",
  "\t\t\t// The import id: the workspace, then its consumers' ids in order.",
  "\t\t\tsort.Strings(ids)",
  "\t\t\targs := &wsbridge.RemoteStateConsumersArgs{WorkspaceId: workspaceID, ConsumerIds: consumerIDs}",
  "\t\t\timportID := row.ID + \"/\" + strings.Join(ids, \",\")",
  "\t\t\tif _, err := wsbridge.NewRemoteStateConsumers(ctx, usual(row.Names.Consumers, row.Name+\"-consumers\"), args, adopted(importID)...); err != nil {",
  "\t\t\t\treturn err",
  "\t\t\t}",
  "\t\t}",
  "\t}",
];

const DEPRECATION_TYPE = [
  "\t// deprecationRow: a module version deprecated in the organization's private registry (Name: the resource's).",
  "\ttype deprecationRow struct {",
  "\t\tName, ModuleName, Provider, Version string",
  "\t\tReason, Link                        pulumi.StringPtrInput",
  "\t}",
];

const DEPRECATION_LOOP = [
  "\tfor _, row := range deprecations {",
  "\t\targs := &wsbridge.ModuleVersionDeprecationArgs{",
  "\t\t\tOrganization: pulumi.String(organization),",
  "\t\t\tModuleName:   pulumi.String(row.ModuleName),",
  "\t\t\tProvider:     pulumi.String(row.Provider),",
  "\t\t\tVersion:      pulumi.String(row.Version),",
  "\t\t\tReason:       row.Reason,",
  "\t\t\tLink:         row.Link,",
  "\t\t}",
  "\t\timportID := strings.Join([]string{organization, row.ModuleName, row.Provider, row.Version}, \"/\")",
  "\t\tif _, err := wsbridge.NewModuleVersionDeprecation(ctx, row.Name, args, adopted(importID)...); err != nil {",
  "\t\t\treturn err",
  "\t\t}",
  "\t}",
];

function body(table: ProgramTable, schema: PackageSchema): string[] {
  if (table.workspaces.length + table.deprecations.length === 0) return [];
  const out = [...HELPERS];
  if (table.workspaces.length > 0) {
    out.push("", ...WORKSPACE_TYPES, "");
    if (table.projects.length > 0) {
      out.push("\t// projects: the organization's projects the workspaces below are in, by name (projects are not resources of this package).");
      out.push("\tprojects := map[string]string{", ...literalBody(table.projects.map((p): GoEntry => ({ key: JSON.stringify(p.name), value: [JSON.stringify(p.id)] })), 2), "\t}");
    }
    out.push(...withShared(table, schema), "");
    out.push("\tworkspaces := []workspaceRow{", ...literalBody(table.workspaces.map((row) => rowEntry(row, schema)), 2), "\t}", "", ...WORKSPACE_LOOPS);
  }
  if (table.deprecations.length > 0) {
    const properties = schema.resources[typeToken("ModuleVersionDeprecation")]?.inputProperties ?? {};
    out.push("", ...DEPRECATION_TYPE, "", `\torganization := ${JSON.stringify(table.organization)}`, "\tdeprecations := []deprecationRow{");
    out.push(...literalBody(table.deprecations.map((row): GoEntry => {
      const entries: GoEntry[] = [{ key: "Name", value: [JSON.stringify(row.name)] }];
      for (const [key, value] of Object.entries(row.inputs)) {
        entries.push(["reason", "link"].includes(key)
          ? compactField(key, value, properties[key] ?? {}, schema, 3)
          : { key: key.charAt(0).toUpperCase() + key.slice(1), value: [JSON.stringify(value)] });
      }
      return { value: ["{", ...literalBody(entries, 3), "\t\t}"] };
    }), 2), "\t}", "", ...DEPRECATION_LOOP);
  }
  return out;
}

/** withShared: the settings most workspaces hold alike, each where the row sets none. */
function withShared(table: ProgramTable, schema: PackageSchema): string[] {
  const properties = schema.resources[typeToken("Workspace")]?.inputProperties ?? {};
  const out = [
    "\t// withShared: a row's settings, with the ones most workspaces below hold alike (written once) where the row sets none.",
    "\twithShared := func(name string, args wsbridge.WorkspaceArgs) *wsbridge.WorkspaceArgs {",
    "\t\targs.Name = pulumi.String(name)",
  ];
  for (const [key, value] of Object.entries(table.shared)) {
    const entry = compactField(key, value, properties[key] ?? {}, schema, 3);
    const [first = "", ...rest] = entry.value;
    out.push(`\t\tif args.${entry.key ?? key} == nil {`);
    if (entry.comment !== undefined) out.push(`\t\t\t// ${entry.comment}`);
    out.push(`\t\t\targs.${entry.key ?? key} = ${first}`, ...rest, "\t\t}");
  }
  out.push("\t\treturn &args", "\t}");
  return out;
}

/** A row of the workspaces' table: `{ Name: …, ID: …, … }`, each part as the SDK's type, on one line where it fits. */
function rowEntry(row: WorkspaceRow, schema: PackageSchema): GoEntry {
  const properties = (kind: string): Readonly<Record<string, SchemaProperty>> => schema.resources[typeToken(kind)]?.inputProperties ?? {};
  const args = (key: string, kind: string, inputs: Readonly<Record<string, TableValue>>, pointer: boolean): GoEntry => {
    const head = `${pointer ? "&" : ""}wsbridge.${kind}Args{`;
    const one = inlineFields(inputs, properties(kind), schema);
    if (one !== undefined && fits(3, key, `${head}${one}}`)) return { key, value: [`${head}${one}}`] };
    const entries = Object.entries(inputs).map(([k, v]) => compactField(k, v, properties(kind)[k] ?? {}, schema, 4));
    return { key, value: entries.length === 0 ? [`${head}}`] : [head, ...literalBody(entries, 4), "\t\t\t}"] };
  };
  const strings = (key: string, values: readonly { value: string; comment?: string }[]): GoEntry => {
    const one = `[]string{${values.map((v) => JSON.stringify(v.value)).join(", ")}}`;
    if (values.every((v) => v.comment === undefined) && fits(3, key, one)) return { key, value: [one] };
    return { key, value: ["[]string{", ...literalBody(values.map((v): GoEntry => ({ ...(v.comment !== undefined && { comment: v.comment }), value: [JSON.stringify(v.value)] })), 4), "\t\t\t}"] };
  };
  const entries: GoEntry[] = [{ key: "Name", value: [JSON.stringify(row.key)] }, { key: "ID", value: [JSON.stringify(row.id)] }];
  if (row.declaredElsewhere !== undefined) entries.push({ key: "DeclaredElsewhere", value: ["true"] });
  if (Object.keys(row.settings).length > 0) entries.push(args("Settings", "Workspace", row.settings, false));
  if (row.lock !== undefined) entries.push(args("Lock", "WorkspaceLock", row.lock, true));
  if (row.sshKeyId !== undefined) entries.push({ key: "SSHKeyID", value: [JSON.stringify(row.sshKeyId)] });
  if (row.dataRetention !== undefined) entries.push(args("DataRetention", "DataRetentionPolicy", row.dataRetention, true));
  if (row.consumers.length > 0) entries.push(strings("Consumers", row.consumers.map((value) => ({ value }))));
  if (row.consumerIds.length > 0) entries.push(strings("ConsumerIDs", row.consumerIds));
  const names = Object.entries(row.names).map(([part, name]) => `${part === "sshKey" ? "SSHKey" : part.charAt(0).toUpperCase() + part.slice(1)}: ${JSON.stringify(name)}`);
  if (names.length > 0) entries.push({ key: "Names", value: [`resourceNames{${names.join(", ")}}`] });
  return { ...(row.declaredElsewhere !== undefined && { comment: row.declaredElsewhere }), value: ["{", ...literalBody(entries, 3), "\t\t}"] };
}

/** `key: value,` at `depth` tabs, within the width (a tab counted as 4). */
function fits(depth: number, key: string, value: string): boolean {
  return depth * 4 + key.length + 2 + value.length + 1 <= WIDTH;
}

/** A struct field whose value goes on one line where it fits (go.ts's field otherwise, one line per entry). */
function compactField(name: string, value: TableValue, type: SchemaProperty, schema: PackageSchema, depth: number): GoEntry {
  const key = name.charAt(0).toUpperCase() + name.slice(1);
  const one = inlineValue(value, type, schema);
  if (one !== undefined && (fits(depth, key, one) || isProjectRef(value))) return { key, value: [one] };
  return field(name, value as InputValue, type, schema, NO_VARIABLES, depth);
}

/** `Key: value, …` of a struct's fields on one line; undefined where a value cannot be. */
function inlineFields(inputs: Readonly<Record<string, TableValue>>, properties: Readonly<Record<string, SchemaProperty>>, schema: PackageSchema): string | undefined {
  const parts = Object.entries(inputs).map(([k, v]) => {
    const one = inlineValue(v, properties[k] ?? {}, schema);
    return one === undefined ? undefined : `${k.charAt(0).toUpperCase() + k.slice(1)}: ${one}`;
  });
  return parts.every((p) => p !== undefined) ? parts.join(", ") : undefined;
}

/** The Go expression of a value on one line; undefined where a literal id carries a comment, which needs a line of its own. */
function inlineValue(value: TableValue, type: SchemaProperty, schema: PackageSchema): string | undefined {
  if (isProjectRef(value)) return `pulumi.String(projects[${JSON.stringify(value.name)}])`;
  if (literalOf(value) !== undefined || isRef(value as InputValue)) return undefined;
  if (type.$ref !== undefined) {
    const token = type.$ref.replace(/^#\/types\//, "");
    const fields = inlineFields(value as Record<string, TableValue>, schema.types[token]?.properties ?? {}, schema);
    return fields === undefined ? undefined : `&wsbridge.${token.split(":").pop() ?? token}Args{${fields}}`;
  }
  if (type.type === "array") {
    const items = (value as readonly TableValue[]).map((item) => inlineValue(item, type.items ?? {}, schema));
    return items.every((i) => i !== undefined) ? `${arrayType(type.items ?? {})}{${items.join(", ")}}` : undefined;
  }
  if (type.type === "object") {
    const entries = Object.entries(value as Record<string, TableValue>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `pulumi.StringMap{${entries.map(([k, v]) => `${JSON.stringify(k)}: pulumi.String(${JSON.stringify(v)})`).join(", ")}}`;
  }
  if (type.type === "boolean") return `pulumi.Bool(${JSON.stringify(value)})`;
  if (type.type === "integer") return `pulumi.Int(${JSON.stringify(value)})`;
  if (type.type === "number") return `pulumi.Float64(${JSON.stringify(value)})`;
  return `pulumi.String(${JSON.stringify(value)})`;
}

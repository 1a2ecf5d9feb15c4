// Each value rule is written once (provider/schemas/rules.ts) and read by several consumers: the kinds'
// input schemas (the preview's checks), the lookups' argument schemas, the request documents' schemas
// and the client's option checks (the last checks before a request), and the committed JSON Schemas.
// These tests run every rule's samples through every consumer of it: a consumer that words its own
// copy of a rule and drifts (a request schema that lets "0d" through where the inputs refuse it) fails here.
import * as fs from "node:fs";
import * as path from "node:path";
import type { z } from "zod";
import { RULES, type RuleName, type TextRule, type WholeNumberRule } from "../../provider/schemas/rules";
import { workspaceInputsSchema } from "../../provider/schemas/workspace";
import { workspaceLockInputsSchema } from "../../provider/schemas/workspace-lock";
import { sshKeyAssignmentInputsSchema } from "../../provider/schemas/ssh-key-assignment";
import { dataRetentionPolicyInputsSchema } from "../../provider/schemas/data-retention-policy";
import { tagKeyProblem, workspaceTagBindingsInputsSchema } from "../../provider/schemas/workspace-tag-bindings";
import { remoteStateConsumersInputsSchema } from "../../provider/schemas/remote-state-consumers";
import { moduleVersionDeprecationInputsSchema } from "../../provider/schemas/module-version-deprecation";
import { getModuleVersionArgsSchema } from "../../provider/schemas/module-version-lookups";
import { getWorkspaceArgsSchema, listWorkspacesArgsSchema } from "../../provider/runtime/lookups/workspaces";
import {
  validateCreateOptions, validateUpdateOptions, workspaceCreateRequest, workspaceUpdateRequest,
} from "../../provider/runtime/api/documents/workspace-requests";
import { tagBindingRequestResource, validateTagBindings } from "../../provider/runtime/api/documents/tag-bindings";
import { deprecateRequest } from "../../provider/runtime/api/documents/module-versions";
import { dataRetentionPolicyRequest, validateDataRetentionPolicyInput } from "../../provider/runtime/api/documents/data-retention";

const repoRoot = path.resolve(__dirname, "../..");

/** A zod schema's part at `path`: object keys, with optional, nullable, arrays' elements and records' values unwrapped. */
function part(schema: z.ZodType, ...keys: string[]): z.ZodType {
  let at = schema as unknown as { def: Record<string, unknown>; shape?: Record<string, z.ZodType> };
  const unwrap = (): void => {
    for (;;) {
      const def = at.def as { type: string; innerType?: unknown; in?: unknown };
      if ((def.type === "optional" || def.type === "nullable") && def.innerType) at = def.innerType as typeof at;
      else if (def.type === "pipe" && def.in) at = def.in as typeof at;
      else return;
    }
  };
  for (const key of keys) {
    unwrap();
    const def = at.def as { type: string; element?: unknown; valueType?: unknown; keyType?: unknown; shape?: Record<string, unknown> };
    if (key === "[]") at = def.element as typeof at;
    else if (key === "{}") at = def.valueType as typeof at;
    else if (key === "{key}") at = def.keyType as typeof at;
    else at = (def.shape ?? at.shape)?.[key] as typeof at;
    if (at === undefined) throw new Error(`no ${key} in the schema`);
  }
  unwrap();
  return at as unknown as z.ZodType;
}

type JsonSchema = {
  type?: string; pattern?: string; minLength?: number; maxLength?: number; minimum?: number; maximum?: number;
  allOf?: JsonSchema[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; additionalProperties?: JsonSchema;
  propertyNames?: JsonSchema;
};

/** The committed JSON Schema of a kind, at a path of property names (`[]` items, `{}` map values, `{key}` map keys). */
function jsonSchemaPart(kind: string, ...keys: string[]): JsonSchema {
  let at = JSON.parse(fs.readFileSync(path.join(repoRoot, "schema", `${kind}.json`), "utf8")) as JsonSchema;
  for (const key of keys) {
    const next = key === "[]" ? at.items : key === "{}" ? at.additionalProperties : key === "{key}" ? at.propertyNames : at.properties?.[key];
    if (next === undefined) throw new Error(`no ${key} in schema/${kind}.json`);
    at = next;
  }
  return at;
}

/** What a JSON Schema validator makes of a value, for the keywords the generator writes. */
function jsonSchemaAccepts(schema: JsonSchema, value: string | number): boolean {
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return false;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return false;
  } else {
    if (schema.type === "integer" && !Number.isInteger(value)) return false;
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
  }
  return (schema.allOf ?? []).every((inner) => jsonSchemaAccepts(inner, value));
}

const throwsNot = (run: () => void): boolean => {
  try {
    run();
    return true;
  } catch {
    return false;
  }
};

/** One reader of a rule: whether it lets a value through. */
interface Consumer {
  rule: RuleName;
  where: string;
  accepts(value: string | number): boolean;
}

const zodPart = (rule: RuleName, where: string, schema: z.ZodType, ...keys: string[]): Consumer =>
  ({ rule, where, accepts: (value) => part(schema, ...keys).safeParse(value).success });
const json = (rule: RuleName, kind: string, ...keys: string[]): Consumer =>
  ({ rule, where: `schema/${kind}.json ${keys.join(".")}`, accepts: (value) => jsonSchemaAccepts(jsonSchemaPart(kind, ...keys), value) });
const attributes = (schema: z.ZodType): z.ZodType => part(schema, "data", "attributes");

const CONSUMERS: Consumer[] = [
  zodPart("workspaceName", "Workspace.name", workspaceInputsSchema, "name"),
  json("workspaceName", "Workspace", "name"),
  zodPart("workspaceName", "getWorkspace name", getWorkspaceArgsSchema, "name"),
  zodPart("workspaceName", "A1 request name", attributes(workspaceCreateRequest), "name"),
  zodPart("workspaceName", "A5 request name", attributes(workspaceUpdateRequest), "name"),
  { rule: "workspaceName", where: "createWorkspace options", accepts: (v) => throwsNot(() => validateCreateOptions({ name: String(v) })) },
  { rule: "workspaceName", where: "updateWorkspace options", accepts: (v) => throwsNot(() => validateUpdateOptions("updateWorkspace", { name: String(v) })) },

  zodPart("organizationName", "Workspace.organization", workspaceInputsSchema, "organization"),
  json("organizationName", "Workspace", "organization"),
  zodPart("organizationName", "ModuleVersionDeprecation.organization", moduleVersionDeprecationInputsSchema, "organization"),
  json("organizationName", "ModuleVersionDeprecation", "organization"),
  zodPart("organizationName", "getWorkspace organization", getWorkspaceArgsSchema, "organization"),
  zodPart("organizationName", "getModuleVersion organization", getModuleVersionArgsSchema, "organization"),

  ...(["WorkspaceLock", "SshKeyAssignment", "DataRetentionPolicy", "WorkspaceTagBindings", "RemoteStateConsumers"] as const).flatMap((kind) => [
    zodPart("workspaceId", `${kind}.workspaceId`, {
      WorkspaceLock: workspaceLockInputsSchema, SshKeyAssignment: sshKeyAssignmentInputsSchema,
      DataRetentionPolicy: dataRetentionPolicyInputsSchema, WorkspaceTagBindings: workspaceTagBindingsInputsSchema,
      RemoteStateConsumers: remoteStateConsumersInputsSchema,
    }[kind], "workspaceId"),
    json("workspaceId", kind, "workspaceId"),
  ]),
  zodPart("workspaceId", "RemoteStateConsumers.consumerIds[]", remoteStateConsumersInputsSchema, "consumerIds", "[]"),
  json("workspaceId", "RemoteStateConsumers", "consumerIds", "[]"),
  zodPart("workspaceId", "getWorkspace id", getWorkspaceArgsSchema, "id"),

  zodPart("projectId", "Workspace.projectId", workspaceInputsSchema, "projectId"),
  json("projectId", "Workspace", "projectId"),
  zodPart("projectId", "listWorkspaces projectId", listWorkspacesArgsSchema, "projectId"),
  zodPart("sshKeyId", "SshKeyAssignment.sshKeyId", sshKeyAssignmentInputsSchema, "sshKeyId"),
  json("sshKeyId", "SshKeyAssignment", "sshKeyId"),

  ...(["agentPoolId", "engineVersion", "sourceName"] as const).flatMap((key) => [
    zodPart("nonEmpty", `Workspace.${key}`, workspaceInputsSchema, key), json("nonEmpty", "Workspace", key),
  ]),
  zodPart("nonEmpty", "Workspace.vcsRepo.oauthTokenId", workspaceInputsSchema, "vcsRepo", "oauthTokenId"),
  zodPart("nonEmpty", "A1 request engine-version", attributes(workspaceCreateRequest), "engine-version"),
  zodPart("nonEmpty", "A1 request source-name", attributes(workspaceCreateRequest), "source-name"),
  zodPart("nonEmpty", "listWorkspaces search", listWorkspacesArgsSchema, "search"),

  zodPart("autoDestroyAt", "Workspace.autoDestroyAt", workspaceInputsSchema, "autoDestroyAt"),
  json("autoDestroyAt", "Workspace", "autoDestroyAt"),
  zodPart("autoDestroyAt", "A5 request auto-destroy-at", attributes(workspaceUpdateRequest), "auto-destroy-at"),
  zodPart("autoDestroyActivityDuration", "Workspace.autoDestroyActivityDuration", workspaceInputsSchema, "autoDestroyActivityDuration"),
  json("autoDestroyActivityDuration", "Workspace", "autoDestroyActivityDuration"),
  zodPart("autoDestroyActivityDuration", "A1 request auto-destroy-activity-duration", attributes(workspaceCreateRequest), "auto-destroy-activity-duration"),
  zodPart("autoDestroyActivityDuration", "A5 request auto-destroy-activity-duration", attributes(workspaceUpdateRequest), "auto-destroy-activity-duration"),
  {
    rule: "autoDestroyActivityDuration", where: "updateWorkspace options",
    accepts: (v) => throwsNot(() => validateUpdateOptions("updateWorkspace", { autoDestroyActivityDuration: String(v) })),
  },

  zodPart("vcsIdentifier", "Workspace.vcsRepo.identifier", workspaceInputsSchema, "vcsRepo", "identifier"),
  json("vcsIdentifier", "Workspace", "vcsRepo", "identifier"),
  zodPart("vcsIdentifier", "A5 request vcs-repo.identifier", attributes(workspaceUpdateRequest), "vcs-repo", "identifier"),
  zodPart("sourceUrl", "Workspace.sourceUrl", workspaceInputsSchema, "sourceUrl"),
  json("sourceUrl", "Workspace", "sourceUrl"),
  zodPart("flatTagName", "Workspace.tagNames[]", workspaceInputsSchema, "tagNames", "[]"),
  json("flatTagName", "Workspace", "tagNames", "[]"),

  zodPart("tagKey", "Workspace.tagBindings keys", workspaceInputsSchema, "tagBindings", "{key}"),
  json("tagKey", "Workspace", "tagBindings", "{key}"),
  { rule: "tagKey", where: "WorkspaceTagBindings.tags keys", accepts: (v) => tagKeyProblem(String(v)) === undefined },
  zodPart("tagKey", "tag-bindings request key", tagBindingRequestResource, "attributes", "key"),
  { rule: "tagKey", where: "addTagBindings options", accepts: (v) => throwsNot(() => validateTagBindings("addTagBindings", "bindings", [{ key: String(v) }])) },
  zodPart("tagValue", "Workspace.tagBindings values", workspaceInputsSchema, "tagBindings", "{}"),
  json("tagValue", "Workspace", "tagBindings", "{}"),
  zodPart("tagValue", "WorkspaceTagBindings.tags values", workspaceTagBindingsInputsSchema, "tags", "{}"),
  json("tagValue", "WorkspaceTagBindings", "tags", "{}"),
  zodPart("tagValue", "tag-bindings request value", tagBindingRequestResource, "attributes", "value"),
  {
    rule: "tagValue", where: "addTagBindings options",
    accepts: (v) => throwsNot(() => validateTagBindings("addTagBindings", "bindings", [{ key: "k", value: String(v) }])),
  },

  ...(([["moduleName", "moduleName"], ["moduleProvider", "provider"], ["moduleVersion", "version"]] as const).flatMap(([rule, key]) => [
    zodPart(rule, `ModuleVersionDeprecation.${key}`, moduleVersionDeprecationInputsSchema, key),
    json(rule, "ModuleVersionDeprecation", key),
    zodPart(rule, `getModuleVersion ${key}`, getModuleVersionArgsSchema, key),
  ])),
  zodPart("deprecationReason", "ModuleVersionDeprecation.reason", moduleVersionDeprecationInputsSchema, "reason"),
  json("deprecationReason", "ModuleVersionDeprecation", "reason"),
  zodPart("deprecationReason", "D1 request reason", attributes(deprecateRequest), "deprecation", "reason"),
  zodPart("deprecationLink", "ModuleVersionDeprecation.link", moduleVersionDeprecationInputsSchema, "link"),
  json("deprecationLink", "ModuleVersionDeprecation", "link"),
  zodPart("deprecationLink", "D1 request link", attributes(deprecateRequest), "deprecation", "link"),
  zodPart("wildcardName", "listWorkspaces wildcardName", listWorkspacesArgsSchema, "wildcardName"),

  zodPart("retentionDays", "DataRetentionPolicy.deleteOlderThanNDays", dataRetentionPolicyInputsSchema, "deleteOlderThanNDays"),
  json("retentionDays", "DataRetentionPolicy", "deleteOlderThanNDays"),
  {
    rule: "retentionDays", where: "C12 request delete-older-than-n-days",
    accepts: (v) => dataRetentionPolicyRequest.safeParse({
      data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": v } },
    }).success,
  },
  {
    rule: "retentionDays", where: "setDataRetentionPolicy options",
    accepts: (v) => throwsNot(() => validateDataRetentionPolicyInput("setDataRetentionPolicy", { kind: "delete-older", deleteOlderThanNDays: Number(v) })),
  },
];

const rules = RULES as Readonly<Record<RuleName, TextRule | WholeNumberRule>>;

test("every rule of the table has a consumer here, and samples it accepts and refuses", () => {
  const consumed = new Set(CONSUMERS.map((c) => c.rule));
  expect(Object.keys(RULES).filter((name) => !consumed.has(name as RuleName))).toEqual([]);
  for (const rule of Object.values(rules)) {
    expect(rule.accepts.length).toBeGreaterThan(0);
    expect(rule.refuses.length).toBeGreaterThan(0);
  }
});

describe.each(CONSUMERS.map((c) => [`${c.rule}: ${c.where}`, c] as const))("%s", (_name, consumer) => {
  const rule = rules[consumer.rule];
  test.each(rule.accepts.map((v) => [JSON.stringify(v).slice(0, 40), v] as const))("accepts %s, as the rule does", (_shown, value) => {
    expect(consumer.accepts(value)).toBe(true);
  });
  test.each(rule.refuses.map((v) => [JSON.stringify(v).slice(0, 40), v] as const))("refuses %s, as the rule does", (_shown, value) => {
    expect(consumer.accepts(value)).toBe(false);
  });
});

#!/usr/bin/env node
// Writes schema/<Kind>.json from the documented inputs interfaces in provider/schemas/ (the one
// source of each resource's Args) and their zod schemas (the value rules, from provider/schemas/rules.ts). `--check` compares instead of writing and fails on any drift.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const TJS = require("typescript-json-schema");

const root = path.resolve(__dirname, "..");

/** Each resource kind, the interface its Args come from, and its zod schema (same file). */
const KINDS = [
  { kind: "Workspace", file: "provider/schemas/workspace.ts", symbol: "WorkspaceInputs", zod: "workspaceInputsSchema" },
  { kind: "WorkspaceLock", file: "provider/schemas/workspace-lock.ts", symbol: "WorkspaceLockInputs", zod: "workspaceLockInputsSchema" },
  { kind: "SshKeyAssignment", file: "provider/schemas/ssh-key-assignment.ts", symbol: "SshKeyAssignmentInputs", zod: "sshKeyAssignmentInputsSchema" },
  { kind: "DataRetentionPolicy", file: "provider/schemas/data-retention-policy.ts", symbol: "DataRetentionPolicyInputs", zod: "dataRetentionPolicyInputsSchema" },
  { kind: "WorkspaceTagBindings", file: "provider/schemas/workspace-tag-bindings.ts", symbol: "WorkspaceTagBindingsInputs", zod: "workspaceTagBindingsInputsSchema" },
  { kind: "RemoteStateConsumers", file: "provider/schemas/remote-state-consumers.ts", symbol: "RemoteStateConsumersInputs", zod: "remoteStateConsumersInputsSchema" },
  { kind: "ModuleVersionDeprecation", file: "provider/schemas/module-version-deprecation.ts", symbol: "ModuleVersionDeprecationInputs", zod: "moduleVersionDeprecationInputsSchema" },
];

/**
 * The value rules (patterns, lengths, ranges) come from the zod schemas, which take them from
 * provider/schemas/rules.ts, the one table of them: the interfaces carry the shapes and the prose.
 */
const RULE_KEYWORDS = ["pattern", "minLength", "maxLength", "minimum", "maximum", "allOf"];
const RULE_HOLDERS = ["items", "additionalProperties", "propertyNames"];

/** Copies the value rules of the zod schema's JSON Schema into the generated one, recursively. */
function addRules(target, fromZod) {
  if (!target || !fromZod || typeof target !== "object" || typeof fromZod !== "object") return;
  for (const rule of RULE_KEYWORDS) if (fromZod[rule] !== undefined && target[rule] === undefined) target[rule] = fromZod[rule];
  // A whole number: TypeScript can only say number.
  if (fromZod.type === "integer" && target.type === "number") target.type = "integer";
  // Map keys: TJS has no way to state them at all.
  if (fromZod.propertyNames !== undefined && target.additionalProperties && target.propertyNames === undefined) {
    target.propertyNames = { type: "string" };
  }
  for (const holder of RULE_HOLDERS) addRules(target[holder], fromZod[holder]);
  for (const [key, value] of Object.entries(target.properties ?? {})) addRules(value, fromZod.properties?.[key]);
}

function zodJsonSchema(file, exportName) {
  require("./lib/register-ts");
  const { z } = require("zod");
  return z.toJSONSchema(require(path.join(root, file))[exportName], { io: "input" });
}

/** @returns {Map<string, string>} schema file path (relative to the repo) → JSON text */
function generateSchemas() {
  const program = TJS.getProgramFromFiles(
    KINDS.map((k) => path.join(root, k.file)),
    { strict: true, esModuleInterop: true, skipLibCheck: true },
    root,
  );
  const generator = TJS.buildGenerator(program, { required: true, noExtraProps: true, strictNullChecks: true, ref: false });
  if (!generator) throw new Error("typescript-json-schema could not build a generator (type errors above?)");
  const out = new Map();
  for (const { kind, symbol, file, zod } of KINDS) {
    const schema = generator.getSchemaForSymbol(symbol);
    addRules(schema, zodJsonSchema(file, zod));
    schema.$id = `urn:pulumi-wsbridge:schema:${kind}`;
    schema.title = `${kind} arguments`;
    out.set(`schema/${kind}.json`, JSON.stringify(schema, null, 2) + "\n");
  }
  return out;
}

if (require.main === module) {
  const check = process.argv.includes("--check");
  let drifted = 0;
  for (const [file, text] of generateSchemas()) {
    const full = path.join(root, file);
    const current = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
    if (current === text) continue;
    if (check) {
      console.error(`${file} is out of date with its inputs interface; run: npm run schema`);
      drifted++;
    } else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
      console.log(`wrote ${file}`);
    }
  }
  process.exit(drifted ? 1 : 0);
}

module.exports = { generateSchemas, KINDS };

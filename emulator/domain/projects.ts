/**
 * Projects: the rules of a create or update document (name, description, tag bindings, and the
 * settings its workspaces inherit), and name matching as the service does it. Nothing is written
 * here: the result is the next record, which the caller stores only when everything validated.
 */
import { errors } from "../errors";
import { attr, isObject, type DataObject } from "../jsonapi";
import type { ExecutionMode, OrganizationRecord, ProjectRecord } from "../store/model";
import type { Store } from "../store/store";
import { assertActivityDuration } from "./auto-destroy";
import { readSettingOverwrites } from "./inheritance";
import { parseBindingInputs, replaceBindings } from "./tag-bindings";

const A = "/data/attributes";
const NAME_RE = /^[A-Za-z0-9 _-]{1,40}$/;
const MODES: readonly string[] = ["remote", "local", "agent"];

/** A project with nothing set: it inherits everything from its organization. */
export function newProject(input: { id: string; organization: string; name: string; description?: string | null; createdAt: string }): ProjectRecord {
  return {
    id: input.id,
    organization: input.organization,
    name: input.name,
    description: input.description ?? null,
    createdAt: input.createdAt,
    tagBindings: [],
    autoDestroyActivityDuration: null,
    defaultExecutionMode: null,
    defaultAgentPoolId: null,
    settingOverwrites: { executionMode: false, agentPool: false },
  };
}

/** Project names are matched without regard to case, in filters and in the uniqueness rule. */
export function sameProjectName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function applyName(store: Store, data: DataObject, next: ProjectRecord, creating: boolean): void {
  const name = attr.string(data.attributes, "name");
  if (name === undefined) {
    if (creating) throw errors.invalidAttribute("Name can't be blank", `${A}/name`);
    return;
  }
  if (!NAME_RE.test(name)) {
    throw errors.invalidAttribute("Name may contain letters, numbers, spaces, - and _ (1 to 40 characters)", `${A}/name`);
  }
  if (store.projects.find((p) => p.organization === next.organization && p.id !== next.id && sameProjectName(p.name, name))) {
    throw errors.invalidAttribute("Name has already been taken", `${A}/name`);
  }
  next.name = name;
}

function applyBindings(data: DataObject, next: ProjectRecord, now: string): void {
  const tb = data.relationships["tag-bindings"];
  if (tb === undefined || tb === null) return;
  if (!isObject(tb)) throw errors.invalidAttribute("tag-bindings must be an object", "/data/relationships/tag-bindings");
  const ptr = "/data/relationships/tag-bindings/data";
  next.tagBindings = replaceBindings(next.tagBindings, parseBindingInputs(tb["data"] ?? [], ptr), now, ptr);
}

/** `default-agent-pool-id` (what go-tfe sends) or the `default-agent-pool` relationship; "" and null clear it. */
function requestedPool(data: DataObject): { given: boolean; id: string | null; pointer: string } {
  const fromAttr = data.attributes["default-agent-pool-id"];
  if (fromAttr !== undefined) {
    if (fromAttr !== null && typeof fromAttr !== "string") throw errors.invalidAttribute("default-agent-pool-id must be a string", `${A}/default-agent-pool-id`);
    return { given: true, id: fromAttr === "" ? null : fromAttr, pointer: `${A}/default-agent-pool-id` };
  }
  const rel = data.relationships["default-agent-pool"];
  if (!isObject(rel)) return { given: false, id: null, pointer: "" };
  const d = rel["data"];
  const id = isObject(d) && typeof d["id"] === "string" && d["id"] !== "" ? d["id"] : null;
  return { given: true, id, pointer: "/data/relationships/default-agent-pool/data/id" };
}

/**
 * The settings workspaces inherit. Giving a default overwrites the organization's for that setting
 * (as a workspace's own value overwrites its project's); `setting-overwrites` false hands it back.
 */
function applyInheritedSettings(store: Store, org: OrganizationRecord, data: DataObject, next: ProjectRecord): void {
  const a = data.attributes;
  const duration = attr.nullableString(a, "auto-destroy-activity-duration");
  if (duration !== undefined) {
    if (duration !== null) assertActivityDuration(duration, `${A}/auto-destroy-activity-duration`);
    next.autoDestroyActivityDuration = duration;
  }
  const mode = attr.nullableString(a, "default-execution-mode");
  if (mode !== undefined && mode !== null && !MODES.includes(mode)) {
    throw errors.invalidAttribute('default-execution-mode must be "remote", "local" or "agent"', `${A}/default-execution-mode`);
  }
  const pool = requestedPool(data);
  const { mode: soMode, pool: soPool } = readSettingOverwrites(a, { mode: "default-execution-mode", pool: "default-agent-pool" });
  if (typeof mode === "string") next.defaultExecutionMode = mode as ExecutionMode;
  if (pool.given) next.defaultAgentPoolId = pool.id;
  next.settingOverwrites = {
    executionMode: soMode ?? (typeof mode === "string" ? true : next.settingOverwrites.executionMode),
    agentPool: soPool ?? (pool.given || typeof mode === "string" ? true : next.settingOverwrites.agentPool),
  };
  if (!next.settingOverwrites.executionMode) next.defaultExecutionMode = null;
  if (next.settingOverwrites.executionMode && next.defaultExecutionMode === null) {
    throw errors.invalidAttribute(
      "default-execution-mode must be given when setting-overwrites.default-execution-mode is true",
      `${A}/default-execution-mode`,
    );
  }
  const ownMode = next.settingOverwrites.executionMode ? next.defaultExecutionMode : org.defaultExecutionMode;
  if (ownMode !== "agent" || !next.settingOverwrites.agentPool) next.defaultAgentPoolId = null;
  if (ownMode === "agent") {
    const poolId = next.settingOverwrites.agentPool ? next.defaultAgentPoolId : org.defaultAgentPoolId;
    const pointer = pool.pointer || `${A}/default-agent-pool-id`;
    if (!poolId) throw errors.invalidAttribute('A default agent pool is required for the "agent" execution mode', pointer);
    const p = store.agentPools.get(poolId);
    if (!p || p.organization !== org.id) throw errors.invalidAttribute("Agent pool not found", pointer);
  }
}

/** Validates a create (existing null) or update document and returns the next record; throws ApiError. */
export function applyProjectInput(
  store: Store,
  org: OrganizationRecord,
  base: ProjectRecord,
  data: DataObject,
  now: string,
  creating: boolean,
): ProjectRecord {
  const next: ProjectRecord = { ...base, tagBindings: [...base.tagBindings], settingOverwrites: { ...base.settingOverwrites } };
  applyName(store, data, next, creating);
  const description = attr.nullableString(data.attributes, "description");
  if (description !== undefined) next.description = description;
  applyBindings(data, next, now);
  applyInheritedSettings(store, org, data, next);
  return next;
}

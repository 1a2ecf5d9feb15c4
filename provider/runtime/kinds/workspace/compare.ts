// How a declared input compares with the server's value (what the API treats alike compares equal), and
// which inputs a program declares: what diff, update, read and the previews judge changes by.
import { isUnknown, type Props } from "../../lifecycle";
import {
  type CheckedWorkspaceInputs, CREATE_ONLY, OPTIONAL_INPUTS, type OptionalInput, PARTIAL_OBJECTS,
  RESTORED_WHEN_OMITTED, type RestoredInput,
} from "./fields";

/**
 * The optional inputs (and `name`) whose declared value differs from the server's, and the inputs left
 * out whose omission the server does not hold (schemas/workspace.ts, WORKSPACE_OMITTED). Check has
 * filled in every fixed value and settingOverwrites, so what is still left out is either restored
 * (RESTORED_WHEN_OMITTED) or not managed at all.
 */
export function changedInputs(olds: Props, news: Props): string[] {
  const keys: string[] = [];
  if (changed(olds.name, news.name)) keys.push("name");
  for (const key of OPTIONAL_INPUTS) {
    const declared = news[key];
    if (declared === undefined) continue;
    if (isUnknown(declared) || !sameValue(key, declared, olds[key])) keys.push(key);
  }
  for (const key of RESTORED_WHEN_OMITTED) if (news[key] === undefined && !holdsOmitted(key, olds, news)) keys.push(key);
  // An execution mode or agent pool of the workspace's own that the program leaves out goes: inherited
  // again (settingOverwrites says so) or, for a pool, dropped with the mode it belonged to. Shown as the
  // removal of the input the state holds it by (read reports an own mode or pool the program leaves
  // out; `operations` where the program declared that spelling) beside the change that makes it.
  const previously = declaredInputsOf(olds);
  const overwrites = (news.settingOverwrites ?? {}) as Props;
  const held = (olds.settingOverwrites ?? {}) as Props;
  const inheritsAgain = (overwrite: string): boolean => keys.includes("settingOverwrites") && overwrites[overwrite] === false && held[overwrite] !== false;
  const modeKey = previously.has("operations") ? "operations" : "executionMode";
  if (news.executionMode === undefined && news.operations === undefined && inheritsAgain("executionMode")) keys.push(modeKey);
  const ownPool = olds.agentPoolId !== null && olds.agentPoolId !== undefined;
  if (news.agentPoolId === undefined && ownPool && (inheritsAgain("agentPool") || keys.includes("executionMode"))) keys.push("agentPoolId");
  return keys;
}

/** Whether leaving `key` out is restored by an update (sent as null). */
export function isRestored(key: string): key is RestoredInput {
  return (RESTORED_WHEN_OMITTED as readonly string[]).includes(key);
}

/** Whether the server (its last report, `server`) holds what leaving `key` out of `news` means. */
export function holdsOmitted(key: RestoredInput, server: Props, news: Props): boolean {
  switch (key) {
    case "vcsRepo": return server.vcsRepo === null || server.vcsRepo === undefined;
    case "autoDestroyAt": return server.autoDestroyAt === null || server.autoDestroyAt === undefined;
    // The project's duration, unless a time is declared (the server then holds no duration of its own).
    // A workspace with no duration of its own is only away from it through its own time, which that restores.
    case "autoDestroyActivityDuration":
      return news.autoDestroyAt !== undefined || server.inheritsProjectAutoDestroy !== false ||
        server.autoDestroyActivityDuration === null || server.autoDestroyActivityDuration === undefined;
  }
}
export function changed(before: unknown, after: unknown): boolean {
  return isUnknown(after) || before !== after;
}

/** Declared value against the server's (or the recorded switch), after normalizing both sides. */
export function sameValue(key: OptionalInput, declared: unknown, server: unknown): boolean {
  // Before the server value was recorded (state from an older version), a create-only value cannot be judged.
  if ((CREATE_ONLY as readonly string[]).includes(key) && server === undefined) return true;
  if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
    const mine = (declared ?? {}) as Props;
    const theirs = (server ?? {}) as Props;
    return Object.keys(mine).every((sub) => mine[sub] === undefined || comparable(`${key}.${sub}`, mine[sub]) === comparable(`${key}.${sub}`, theirs[sub]));
  }
  return comparable(key, declared) === comparable(key, server);
}

/** One canonical text per value: what the API treats alike compares equal. */
export function comparable(key: string, value: unknown): string {
  switch (key) {
    // "" and null mean the same to the API.
    case "description": case "workingDirectory": case "agentPoolId": case "vcsRepo.branch": case "vcsRepo.tagsRegex":
      return typeof value === "string" ? value : "";
    // Server defaults: absent means the default.
    case "autoApplyRunTrigger": case "assessmentsEnabled": case "projectRemoteState": case "vcsRepo.ingressSubmodules":
      return String(value === true);
    case "settingOverwrites.executionMode": case "settingOverwrites.agentPool":
      return String(value !== false);
    case "autoDestroyAt": {
      const t = typeof value === "string" ? Date.parse(value) : NaN;
      return Number.isNaN(t) ? String(value ?? "") : new Date(t).toISOString();
    }
    // Sets: order carries no meaning.
    case "triggerPatterns": case "triggerPrefixes": case "tagNames":
      return JSON.stringify(Array.isArray(value) ? [...(value as string[])].sort() : []);
    case "tagBindings":
      return JSON.stringify(byKey((value ?? {}) as Record<string, unknown>));
    case "forceDelete": case "adoptExisting":
      return String(value === true);
    // Objects of settings: the order of their keys carries no meaning.
    case "settingOverwrites": case "vcsRepo":
      return value === null || value === undefined ? "null" : JSON.stringify(byKey(value as Record<string, unknown>));
    default:
      return JSON.stringify(value ?? null);
  }
}

/** An object's entries (undefined left out) in key order. */
function byKey(object: Record<string, unknown>): [string, unknown][] {
  return Object.entries(object).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
export function declaredInputsOf(state: Props): Set<string> {
  const recorded = state.__declaredInputs;
  if (Array.isArray(recorded)) return new Set(recorded.filter((k): k is string => typeof k === "string"));
  // State written before the record existed: keep what its values imply.
  return new Set(["description", "forceDelete"].filter((key) => state[key] !== undefined && !(key === "forceDelete" && state[key] === false)));
}
/** Which optional inputs (and sub-keys) a declaration holds. */
export function declaredKeys(declared: Partial<CheckedWorkspaceInputs>): string[] {
  const keys: string[] = [];
  for (const key of OPTIONAL_INPUTS) {
    const value = declared[key];
    if (value === undefined) continue;
    keys.push(key);
    if ((PARTIAL_OBJECTS as readonly string[]).includes(key)) {
      for (const [sub, v] of Object.entries(value as object)) if (v !== undefined) keys.push(`${key}.${sub}`);
    }
  }
  return keys;
}

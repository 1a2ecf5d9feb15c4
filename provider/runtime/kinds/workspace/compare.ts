// How a declared input compares with the server's value (what the API treats alike compares equal), and
// which inputs a program declares: what diff, update, read and the previews judge changes by.
import { isUnknown, type Props } from "../../lifecycle";
import { type CheckedWorkspaceInputs, CREATE_ONLY, OPTIONAL_INPUTS, type OptionalInput, PARTIAL_OBJECTS } from "./fields";

/** The optional inputs (and `name`) whose declared value differs from the server's, plus a dropped `vcsRepo`. */
export function changedInputs(olds: Props, news: Props): string[] {
  const keys: string[] = [];
  if (changed(olds.name, news.name)) keys.push("name");
  for (const key of OPTIONAL_INPUTS) {
    const declared = news[key];
    if (declared === undefined) continue;
    if (isUnknown(declared) || !sameValue(key, declared, olds[key])) keys.push(key);
  }
  // A property left out of the program is no longer managed: an update that sends nothing but records
  // it (else a later refresh would bring it back into the inputs). Leaving vcsRepo out disconnects the
  // repository instead.
  const previously = declaredInputsOf(olds);
  for (const key of OPTIONAL_INPUTS) {
    if (news[key] === undefined && previously.has(key) && (key !== "vcsRepo" || (olds.vcsRepo !== null && olds.vcsRepo !== undefined))) keys.push(key);
  }
  return keys;
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
      return JSON.stringify(Object.entries((value ?? {}) as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    case "forceDelete": case "adoptExisting":
      return String(value === true);
    default:
      return JSON.stringify(value ?? null);
  }
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

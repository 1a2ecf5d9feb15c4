// The plan: from the estate as read to the resources of the program. Each object's import id and
// inputs are what that kind's own import adopts (runtime/adoption.ts), with the id of every workspace
// the program adopts replaced by a reference to its resource; what cannot be adopted is listed with why.
import { adoptionOf, type Adoption } from "../runtime/adoption";
import type { Workspace } from "../runtime/api";
import {
  ADOPTED_KINDS, type AdoptedKind, type AdoptionPlan, type DiscoveredWorkspace, type Estate, type InputValue,
  type PlannedResource, type Skipped, subjectKey,
} from "./model";
import { uniqueNames } from "./names";
import type { ChosenWorkspace } from "./selection";

/** A resource before it has its name. */
interface Draft {
  readonly kind: AdoptedKind;
  readonly base: string;
  readonly importId: string;
  readonly inputs: Record<string, InputValue>;
}

/** The suffix of each kind's resource name after the workspace's (module deprecations: their version). */
const NAME_SUFFIX: Readonly<Record<AdoptedKind, string>> = {
  Workspace: "",
  WorkspaceLock: "-lock",
  SshKeyAssignment: "-ssh-key",
  DataRetentionPolicy: "-data-retention",
  RemoteStateConsumers: "-consumers",
  ModuleVersionDeprecation: "-deprecation",
};

const KIND_ORDER: Readonly<Record<AdoptedKind, number>> = {
  Workspace: 0, WorkspaceLock: 1, SshKeyAssignment: 2, DataRetentionPolicy: 3, RemoteStateConsumers: 4, ModuleVersionDeprecation: 5,
};

/**
 * What the program already declares, for a run that adds to it (re-adoption): the objects the stack
 * holds or an earlier run wrote are not planned again, new resources take names nobody uses, and a
 * reference to a held workspace is what the program's language can say (held.ts, owned.ts).
 */
export interface Owned {
  /** `subjectKey(kind, subject)` of every object already declared (consumer lists: see `consumers`). */
  readonly declared: ReadonlySet<string>;
  /** The consumers already declared, per subject workspace. */
  readonly consumers: ReadonlyMap<string, ReadonlySet<string>>;
  /** Names new resources must not take. */
  readonly names: ReadonlySet<string>;
  /** A reference to a held workspace, or undefined when it is not held. */
  readonly workspaceRef: (workspaceId: string) => InputValue | undefined;
}

const NOTHING_OWNED: Owned = { declared: new Set(), consumers: new Map(), names: new Set(), workspaceRef: () => undefined };

/**
 * `chosen` (the Terraform input): the workspaces chosen one by one, each with the base of its names and
 * which of its objects are taken; a workspace whose Workspace is not taken is referred to by its literal id.
 */
export function planAdoption(estate: Estate, owned: Owned = NOTHING_OWNED, chosen?: readonly ChosenWorkspace[]): AdoptionPlan {
  const drafts: Draft[] = [];
  const skipped: Skipped[] = [];
  const inherited: Skipped[] = [];
  const isNew = (kind: AdoptedKind, subject: string): boolean => !owned.declared.has(subjectKey(kind, subject));
  const choice = chosen === undefined ? undefined : new Map(chosen.map((c) => [c.id, c]));
  const takes = (kind: AdoptedKind, workspaceId: string): boolean => choice === undefined || (choice.get(workspaceId)?.only ?? ADOPTED_KINDS).includes(kind);
  const baseOf = (ws: Workspace): string => choice?.get(ws.id)?.name ?? ws.name;
  const adopted = new Map(estate.workspaces.filter((d) => takes("Workspace", d.workspace.id)).map((d) => [d.workspace.id, d.workspace]));
  const notTaken = new Map(estate.workspaces.filter((d) => !adopted.has(d.workspace.id)).map((d) => [d.workspace.id, d.workspace.name]));
  // Workspace resources are named first, so the others can refer to them by name.
  const workspaceNames = uniqueNames(
    [...adopted.values()].filter((ws) => isNew("Workspace", ws.id)).map((ws) => ({ key: ws.id, base: baseOf(ws) })),
    owned.names,
  );
  const refTo = (workspaceId: string): InputValue => {
    const name = workspaceNames.get(workspaceId);
    if (name !== undefined) return { kind: "ref", resource: name };
    const held = owned.workspaceRef(workspaceId);
    if (held !== undefined) return held;
    const other = notTaken.get(workspaceId);
    if (other !== undefined) return { kind: "literal", value: workspaceId, comment: notTakenComment(other) };
    return { kind: "ref", resource: workspaceId };
  };

  for (const found of estate.workspaces) {
    const ws = found.workspace;
    const label = `workspace ${ws.name} (${ws.id})`;
    const take = (kind: AdoptedKind, adoption: Adoption | undefined, object: string): void => {
      if (adoption === undefined || !takes(kind, ws.id) || (kind !== "RemoteStateConsumers" && !isNew(kind, ws.id))) return;
      if ("refusal" in adoption) {
        skipped.push({ kind, object, reason: adoption.refusal });
        return;
      }
      drafts.push({ kind, base: `${baseOf(ws)}${NAME_SUFFIX[kind]}`, importId: adoption.importId, inputs: withReferences(adoption.inputs, ws.id, refTo) });
    };

    const workspaceInputs = withReferences(adoptionOf.workspace(ws).inputs as Record<string, InputValue>, undefined, refTo);
    if (typeof workspaceInputs.projectId === "string") {
      workspaceInputs.projectId = { kind: "literal", value: workspaceInputs.projectId, comment: projectComment(estate, workspaceInputs.projectId) };
    }
    if (takes("Workspace", ws.id)) {
      if (isNew("Workspace", ws.id)) drafts.push({ kind: "Workspace", base: baseOf(ws), importId: ws.id, inputs: workspaceInputs });
      inherited.push(...inheritedSettings(estate, ws, label));
    }

    take("WorkspaceLock", adoptionOf.workspaceLock(ws), `the lock on ${label}`);
    take("SshKeyAssignment", adoptionOf.sshKeyAssignment(ws), `the SSH key of ${label}`);
    if (found.policy !== undefined) {
      if ("unreadable" in found.policy) skipped.push({ kind: "DataRetentionPolicy", object: `the data-retention policy of ${label}`, reason: found.policy.unreadable });
      else take("DataRetentionPolicy", adoptionOf.dataRetentionPolicy(ws, found.policy), `the data-retention policy of ${label}`);
    }
    planConsumers(estate, found, label, adopted, notTaken, refTo, take, skipped, owned.consumers.get(ws.id));
  }
  planModules(estate, drafts, skipped, (key) => isNew("ModuleVersionDeprecation", key));

  const ordered = [...drafts].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  const names = uniqueNames(
    ordered.filter((d) => d.kind !== "Workspace").map((d) => ({ key: `${d.kind}:${d.importId}`, base: d.base })),
    new Set([...owned.names, ...workspaceNames.values()]),
  );
  const resources: PlannedResource[] = ordered.map((d) => ({
    kind: d.kind,
    name: d.kind === "Workspace" ? workspaceNames.get(d.importId) ?? d.base : names.get(`${d.kind}:${d.importId}`) ?? d.base,
    importId: d.importId,
    inputs: d.inputs,
  }));
  const found = new Map(estate.workspaces.map((d) => [d.workspace.id, d.workspace.name]));
  return { organization: estate.organization, edition: estate.edition, resources, workspaceNames: found, projects: estate.projects, skipped, inherited };
}

/** The inputs, with `workspaceId` (of the object's own workspace) as a reference to its resource. */
function withReferences(inputs: Record<string, unknown>, ownWorkspace: string | undefined, refTo: (id: string) => InputValue): Record<string, InputValue> {
  const out: Record<string, InputValue> = {};
  for (const [key, value] of Object.entries(inputs)) {
    out[key] = key === "workspaceId" && typeof value === "string" && value === ownWorkspace ? refTo(value) : (value as InputValue);
  }
  return out;
}

/**
 * A workspace's consumers, additively: those the program does not declare yet (`declared`: held or
 * written earlier), as one more RemoteStateConsumers beside any the stack holds.
 */
function planConsumers(
  estate: Estate, found: DiscoveredWorkspace, label: string, adopted: ReadonlyMap<string, Workspace>, notTaken: ReadonlyMap<string, string>,
  refTo: (id: string) => InputValue, take: (kind: AdoptedKind, adoption: Adoption | undefined, object: string) => void, skipped: Skipped[],
  declared: ReadonlySet<string> | undefined,
): void {
  const consumers = found.consumers;
  if (consumers === undefined) return;
  const object = `the remote-state consumers of ${label}`;
  if ("unreadable" in consumers) {
    skipped.push({ kind: "RemoteStateConsumers", object, reason: consumers.unreadable });
    return;
  }
  const ownOrganization = consumers.filter((c) => c.organization === estate.organization);
  for (const foreign of consumers.filter((c) => c.organization !== estate.organization)) {
    skipped.push({
      kind: "RemoteStateConsumers", object: `consumer ${foreign.name} (${foreign.id}) of ${label}`,
      reason: `it is in organization ${foreign.organization}; a consumer is adopted only from the workspace's own organization, and the others are left as they are`,
    });
  }
  const adoption = adoptionOf.remoteStateConsumers(found.workspace.id, ownOrganization.map((c) => c.id).filter((id) => declared?.has(id) !== true));
  if (adoption === undefined || "refusal" in adoption) {
    take("RemoteStateConsumers", adoption, object);
    return;
  }
  const ids = adoption.inputs.consumerIds as string[];
  const consumerIds: InputValue[] = ids.map((id) => {
    if (adopted.has(id)) return refTo(id);
    const other = notTaken.get(id);
    if (other !== undefined) return { kind: "literal", value: id, comment: notTakenComment(other) };
    const name = estate.unselected.get(id) ?? ownOrganization.find((c) => c.id === id)?.name ?? id;
    const where = estate.elsewhere?.get(id);
    return { kind: "literal", value: id, comment: where === undefined ? `${name}: outside the selection, so not a resource of this program` : `${name}: ${where}` };
  });
  take("RemoteStateConsumers", { importId: adoption.importId, inputs: { ...adoption.inputs, consumerIds } }, object);
}

function planModules(estate: Estate, drafts: Draft[], skipped: Skipped[], isNew: (importId: string) => boolean): void {
  const modules = estate.modules;
  if (modules === undefined) return;
  if ("unreadable" in modules) {
    skipped.push({ kind: "ModuleVersionDeprecation", object: "the registry's modules", reason: modules.unreadable });
    return;
  }
  for (const { module, versions } of modules) {
    const source = `${module.name}/${module.provider}`;
    if ("unreadable" in versions) {
      skipped.push({ kind: "ModuleVersionDeprecation", object: `module ${source}`, reason: versions.unreadable });
      continue;
    }
    for (const v of versions) {
      const key = { organization: estate.organization, moduleName: module.name, provider: module.provider, version: v.version };
      const adoption = adoptionOf.moduleVersionDeprecation(key, v.deprecation);
      if (adoption === undefined || ("importId" in adoption && !isNew(adoption.importId))) continue;
      if ("refusal" in adoption) {
        skipped.push({ kind: "ModuleVersionDeprecation", object: `${source} ${v.version}`, reason: adoption.refusal });
        continue;
      }
      drafts.push({
        kind: "ModuleVersionDeprecation", base: `${module.name}-${module.provider}-${v.version.replace(/[^A-Za-z0-9]+/g, "-")}-deprecation`,
        importId: adoption.importId, inputs: adoption.inputs as Record<string, InputValue>,
      });
    }
  }
}

/** Why a chosen workspace whose Workspace is not taken appears as a literal id. */
function notTakenComment(name: string): string {
  return `${name}: its workspace is not taken over (Terraform did not create it), so not a resource of this program`;
}

function projectComment(estate: Estate, projectId: string): string {
  const name = estate.projects.get(projectId);
  return `project ${name ?? projectId}: projects are not resources of this package`;
}

/** The settings a workspace inherits (left to inherit: the import does not declare them), in words. */
function inheritedSettings(estate: Estate, ws: Workspace, label: string): Skipped[] {
  const out: Skipped[] = [];
  for (const tag of ws.effectiveTagBindings ?? []) {
    if (tag.inheritedFrom === null) continue;
    const from = tag.inheritedFrom.id ?? "";
    const project = estate.projects.get(from);
    out.push({
      kind: "Tag binding", object: `tag ${tag.value === "" ? tag.key : `${tag.key}=${tag.value}`} of ${label}`,
      reason: `inherited from project ${project === undefined ? from : `${project} (${from})`}; it stays the project's`,
    });
  }
  if (ws.settingOverwrites.executionMode === false) {
    out.push({ kind: "Setting", object: `executionMode (${ws.executionMode}) of ${label}`, reason: "inherited from its project or organization default; left to inherit" });
  }
  if (ws.inheritsProjectAutoDestroy === true && (ws.autoDestroyActivityDuration ?? "") !== "") {
    out.push({ kind: "Setting", object: `autoDestroyActivityDuration (${ws.autoDestroyActivityDuration ?? ""}) of ${label}`, reason: "inherited from its project; left to inherit" });
  }
  return out;
}

// The objects a stack holds, against the server as discovery read it: which are gone (and the command
// that makes the stack forget them), and which differ from what the stack holds (the inputs it last
// applied against what the kind's import would adopt now, compared as the kind compares them). Only
// objects inside this run's selection are judged: the others were not read.
import { adoptionOf, type Adoption, withOmissionsFilledOf } from "../runtime/adoption";
import { comparable } from "../runtime/kinds/workspace/compare";
import type { HeldObject, Holdings } from "./held";
import type { AdoptedKind, DiscoveredWorkspace, Estate } from "./model";

export interface GoneObject {
  readonly kind: AdoptedKind;
  readonly name: string;
  readonly urn: string;
  readonly subject: string;
  readonly reason: string;
  /** The command that makes the stack forget it (and, for a workspace, what hangs off it). */
  readonly forget: string;
}

export interface ChangedObject {
  readonly kind: AdoptedKind;
  readonly name: string;
  readonly urn: string;
  readonly subject: string;
  /** Each property that differs: what the stack holds, and what the server holds now. */
  readonly differences: readonly { readonly property: string; readonly held: unknown; readonly server: unknown }[];
}

export interface Drift {
  readonly gone: readonly GoneObject[];
  readonly changed: readonly ChangedObject[];
}

/** A held object's fate: gone (why), the inputs its import would adopt now, or not judged (undefined). */
type Now = { gone: string } | { inputs: Readonly<Record<string, unknown>> } | undefined;

export function driftOf(estate: Estate, holdings: Holdings): Drift {
  const selected = new Map(estate.workspaces.map((d) => [d.workspace.id, d]));
  const exists = (id: string): boolean => selected.has(id) || estate.unselected.has(id);
  const gone: GoneObject[] = [];
  const changed: ChangedObject[] = [];
  const goneWorkspaces = new Set<string>();
  const forget = (urns: readonly string[], dependents: boolean): string =>
    `pulumi state delete --stack ${holdings.stack} --force --yes${dependents ? " --target-dependents" : ""} ${urns.map(quoted).join(" ")}`;
  for (const held of holdings.objects) {
    const isWorkspaceGone = held.kind !== "ModuleVersionDeprecation" && !exists(held.subject);
    const now: Now = isWorkspaceGone
      ? { gone: `workspace ${held.subject} is not in the organization any more (deleted, or the token may no longer read it)` }
      : nowOf(held, selected.get(held.subject), estate);
    if (now === undefined) continue;
    if ("gone" in now) {
      // A workspace's dependents go with it (--target-dependents); they are not listed twice.
      if (isWorkspaceGone && held.kind !== "Workspace" && holdings.objects.some((o) => o.kind === "Workspace" && o.subject === held.subject)) continue;
      if (held.kind === "Workspace") goneWorkspaces.add(held.subject);
      gone.push({ kind: held.kind, name: held.name, urn: held.urn, subject: held.subject, reason: now.gone, forget: forget([held.urn], held.kind === "Workspace") });
      continue;
    }
    const differences = differencesOf(held, now.inputs);
    if (differences.length > 0) changed.push({ kind: held.kind, name: held.name, urn: held.urn, subject: held.subject, differences });
  }
  return { gone, changed };
}

function quoted(urn: string): string {
  return `'${urn.replace(/'/g, "'\\''")}'`;
}

/** What the kind's import would adopt now for the held object's subject, or why it is gone. */
function nowOf(held: HeldObject, found: DiscoveredWorkspace | undefined, estate: Estate): Now {
  if (held.kind === "ModuleVersionDeprecation") return deprecationNow(held, estate);
  if (found === undefined) return undefined; // outside this run's selection: not read
  const ws = found.workspace;
  const from = (adoption: Adoption | undefined, absent: string): Now => {
    if (adoption === undefined) return { gone: absent };
    if ("refusal" in adoption) return { gone: adoption.refusal };
    return { inputs: adoption.inputs };
  };
  switch (held.kind) {
    case "Workspace":
      return { inputs: adoptionOf.workspace(ws).inputs };
    case "WorkspaceLock":
      return from(adoptionOf.workspaceLock(ws), `workspace ${ws.name} (${ws.id}) is not locked any more`);
    case "SshKeyAssignment":
      return from(adoptionOf.sshKeyAssignment(ws), `workspace ${ws.name} (${ws.id}) has no SSH key any more`);
    case "DataRetentionPolicy": {
      if (found.policy !== undefined && "unreadable" in found.policy) return undefined;
      return from(adoptionOf.dataRetentionPolicy(ws, found.policy), `workspace ${ws.name} (${ws.id}) has no data-retention policy of its own any more`);
    }
    case "RemoteStateConsumers": {
      if (found.consumers !== undefined && "unreadable" in found.consumers) return undefined;
      const consumers = found.consumers === undefined ? [] : found.consumers.map((c) => c.id);
      const members = held.consumerIds ?? [];
      return { inputs: { ...held.inputs, consumerIds: members.filter((id) => consumers.includes(id)) } };
    }
  }
}

function deprecationNow(held: HeldObject, estate: Estate): Now {
  if (estate.modules === undefined || "unreadable" in estate.modules) return undefined;
  const [organization, name, provider, version] = held.subject.split("/");
  if (organization !== estate.organization) return undefined;
  const module = estate.modules.find((m) => m.module.name === name && m.module.provider === provider);
  if (module === undefined) return { gone: `module ${name}/${provider} is gone from the registry` };
  if ("unreadable" in module.versions) return undefined;
  const found = module.versions.find((v) => v.version === version);
  if (found === undefined) return { gone: `version ${version} of module ${name}/${provider} is gone from the registry` };
  const adoption = adoptionOf.moduleVersionDeprecation(
    { organization, moduleName: name ?? "", provider: provider ?? "", version: version ?? "" }, found.deprecation,
  );
  if (adoption === undefined || "refusal" in adoption) return { gone: `version ${version} of module ${name}/${provider} is not deprecated any more` };
  return { inputs: adoption.inputs };
}

/** The properties the stack holds that the server now has otherwise (only those both name). */
function differencesOf(held: HeldObject, adopted: Readonly<Record<string, unknown>>): ChangedObject["differences"] {
  const out: { property: string; held: unknown; server: unknown }[] = [];
  // Both as check completes them: adoption leaves out what omission means anyway; a stack made before
  // check filled those in holds them neither.
  const fill = withOmissionsFilledOf[held.kind] ?? ((inputs: Record<string, unknown>) => inputs);
  const server = fill({ ...adopted });
  for (const [property, value] of Object.entries(fill({ ...held.inputs }))) {
    if (!(property in server)) continue;
    const same = held.kind === "Workspace"
      ? comparable(property, value) === comparable(property, server[property])
      : canonical(value) === canonical(server[property]);
    if (!same) out.push({ property, held: value, server: server[property] });
  }
  return out;
}

/** JSON with object keys sorted: equal values give equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

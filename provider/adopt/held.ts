// What the stack holds, in adopt's terms: each resource of a kind adopt writes, keyed by the object it
// manages (its subject), whatever the user named it or wherever they moved it (a rename or a component
// changes the URN, not the subject). Read from the state, never from the program.
import { ADOPTED_KINDS, type AdoptedKind } from "./model";
import type { StackState, StateResource } from "./stack";

export interface HeldObject {
  readonly kind: AdoptedKind;
  readonly urn: string;
  /** The resource's name: the URN's last part. */
  readonly name: string;
  /** The workspace id it belongs to, or `org/module/provider/version` for a deprecation. */
  readonly subject: string;
  /** A RemoteStateConsumers resource's consumers. */
  readonly consumerIds?: readonly string[];
  /** The inputs the stack holds (as last applied): what the server is compared with. */
  readonly inputs: Readonly<Record<string, unknown>>;
}

export interface Holdings {
  readonly stack: string;
  readonly objects: readonly HeldObject[];
  /** Every resource name in the stack (any type): new resources take other names. */
  readonly names: ReadonlySet<string>;
}

const KIND_OF_TYPE = new Map<string, AdoptedKind>(ADOPTED_KINDS.map((kind) => [`wsbridge:index:${kind}`, kind]));

export function holdingsOf(state: StackState): Holdings {
  const live = state.resources.filter((r) => r.delete !== true);
  const objects: HeldObject[] = [];
  for (const resource of live) {
    const kind = KIND_OF_TYPE.get(resource.type);
    const subject = kind === undefined ? undefined : subjectOf(kind, resource);
    if (kind === undefined || subject === undefined) continue;
    const consumers = resource.inputs?.consumerIds;
    objects.push({
      kind, urn: resource.urn, name: nameOf(resource.urn), subject,
      ...(kind === "RemoteStateConsumers" && Array.isArray(consumers) && { consumerIds: consumers.filter((c): c is string => typeof c === "string") }),
      inputs: resource.inputs ?? {},
    });
  }
  return { stack: state.name, objects, names: new Set(live.map((r) => nameOf(r.urn))) };
}

/** `urn:pulumi:<stack>::<project>::<type>::<name>`: the name (which may itself hold `::`). */
function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

function subjectOf(kind: AdoptedKind, resource: StateResource): string | undefined {
  const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
  switch (kind) {
    case "Workspace":
    case "ModuleVersionDeprecation":
      return text(resource.id);
    default:
      return text(resource.outputs?.workspaceId) ?? text(resource.inputs?.workspaceId);
  }
}

// What the folder's program already declares, for a run that adds to it: the objects the stack holds
// (its state) and those earlier batches declared that the user now owns (record.ts). A new resource
// refers to a held workspace by name where the program can: in Pulumi YAML, whose one file names every
// resource, under the name the stack holds it by (renames included; a parent does not change it).
// Elsewhere by its id, with a comment naming the resource that holds it: in TypeScript and Go the
// holding variable lives in the user's code, which adopt neither reads nor changes.
import type { HeldObject, Holdings } from "./held";
import { subjectKey, subjectOfImportId, type InputValue } from "./model";
import type { Owned } from "./plan";
import type { BatchRecord, RecordedResource } from "./record";

/** Whether the stack holds the object a recorded resource declares (a consumer list: every consumer of it). */
export function isHeld(holdings: Holdings, resource: RecordedResource): boolean {
  const subject = subjectOfImportId(resource.kind, resource.importId);
  if (resource.kind !== "RemoteStateConsumers") {
    return holdings.objects.some((o) => o.kind === resource.kind && o.subject === subject);
  }
  const members = resource.importId.split("/")[1]?.split(",") ?? [];
  return holdings.objects.some((o) => o.kind === "RemoteStateConsumers" && o.subject === subject && members.every((m) => o.consumerIds?.includes(m) === true));
}

/**
 * @param kept the batches that stay (the user's); their objects are declared even where the stack does not hold them yet
 * @param yamlResources the Pulumi YAML program's resources (key → type), when the program is Pulumi YAML
 */
export function ownedBy(holdings: Holdings, kept: readonly BatchRecord[], yamlResources: ReadonlyMap<string, string> | undefined): Owned {
  const declared = new Set<string>();
  const consumers = new Map<string, Set<string>>();
  const addConsumers = (subject: string, ids: readonly string[]): void => {
    const set = consumers.get(subject) ?? new Set<string>();
    ids.forEach((id) => set.add(id));
    consumers.set(subject, set);
  };
  for (const held of holdings.objects) {
    if (held.kind === "RemoteStateConsumers") addConsumers(held.subject, held.consumerIds ?? []);
    else declared.add(subjectKey(held.kind, held.subject));
  }
  const names = new Set(holdings.names);
  const pendingWorkspaces = new Map<string, { name: string; batch: number }>();
  for (const batch of kept) {
    for (const resource of batch.resources) {
      names.add(resource.name);
      const subject = subjectOfImportId(resource.kind, resource.importId);
      if (resource.kind === "RemoteStateConsumers") addConsumers(subject, resource.importId.split("/")[1]?.split(",") ?? []);
      else declared.add(subjectKey(resource.kind, subject));
      if (resource.kind === "Workspace") pendingWorkspaces.set(subject, { name: resource.name, batch: batch.batch });
    }
  }
  yamlResources?.forEach((_type, key) => names.add(key));
  const heldWorkspaces = new Map(holdings.objects.filter((o) => o.kind === "Workspace").map((o): [string, HeldObject] => [o.subject, o]));
  const nameable = (name: string): boolean => yamlResources?.get(name) === "wsbridge:index:Workspace";
  return {
    declared, consumers, names,
    workspaceRef(id: string): InputValue | undefined {
      const held = heldWorkspaces.get(id);
      if (held !== undefined) {
        if (nameable(held.name)) return { kind: "ref", resource: held.name };
        return { kind: "literal", value: id, comment: `${held.name}: held by this stack, declared in your program` };
      }
      const pending = pendingWorkspaces.get(id);
      if (pending === undefined) return undefined;
      if (nameable(pending.name)) return { kind: "ref", resource: pending.name };
      return { kind: "literal", value: id, comment: `${pending.name}: declared by batch ${pending.batch}, not in the stack yet` };
    },
  };
}

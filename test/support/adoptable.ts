// What an adopted stack should hold, from the estate's manifest (test/support/adopt-estate.ts), and what a
// stack's state does hold, in the same spelling: `<Kind> <id>`, sorted, duplicates kept.
import type { EstateManifest } from "./adopt-estate";
import type { Deployment, ExportedResource } from "./yaml-import-project";

/** Every wsbridge resource of the state as `<Kind> <id>`, sorted (duplicates kept, so "exactly once" can be checked). */
export function stateObjects(state: Deployment): string[] {
  return (state.deployment.resources ?? [])
    .filter((r: ExportedResource) => r.type.startsWith("wsbridge:index:"))
    .map((r) => `${r.type.replace("wsbridge:index:", "")} ${r.id ?? ""}`)
    .sort();
}

/** The objects of the estate the read-only token can adopt, as stateObjects spells them, for the workspaces `selected`. */
export function adoptable(estate: EstateManifest, selected: (workspaceId: string) => boolean): string[] {
  const readable = (id: string): boolean => id !== estate.unreadableWorkspaceId;
  const mine = (id: string): boolean => readable(id) && selected(id);
  return [
    ...estate.workspaces.filter((w) => mine(w.id)).map((w) => `Workspace ${w.id}`),
    ...estate.locks.filter((l) => mine(l.workspaceId)).map((l) => `WorkspaceLock ${l.workspaceId}`),
    ...estate.sshKeys.filter((k) => mine(k.workspaceId)).map((k) => `SshKeyAssignment ${k.workspaceId}`),
    ...estate.retentionPolicies.filter((p) => mine(p.workspaceId)).map((p) => `DataRetentionPolicy ${p.workspaceId}`),
    ...estate.modules.flatMap((m) => m.versions.filter((v) => v.deprecation !== undefined)
      .map((v) => `ModuleVersionDeprecation ${estate.organization}/${m.name}/${m.provider}/${v.version}`)),
  ].sort();
}

/** The consumers adopted per subject, as the estate holds them (those the read-only token can read). */
export function adoptableConsumers(estate: EstateManifest, selected: (workspaceId: string) => boolean): Record<string, string[]> {
  return Object.fromEntries(estate.consumers
    .filter((c) => c.workspaceId !== estate.unreadableWorkspaceId && selected(c.workspaceId))
    .map((c) => [c.workspaceId, c.consumerIds.filter((id) => id !== estate.unreadableWorkspaceId).sort()] as const)
    .filter(([, ids]) => ids.length > 0));
}

export function consumersInState(state: Deployment): Record<string, string[]> {
  return Object.fromEntries((state.deployment.resources ?? [])
    .filter((r) => r.type === "wsbridge:index:RemoteStateConsumers")
    .map((r) => [String(r.outputs?.workspaceId), [...(r.outputs?.consumerIds as string[])].sort()]));
}


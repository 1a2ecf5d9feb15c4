// What other teams do to an adopted estate while a stack owns it (in the UI, say), through the
// emulator's API with the seeding owner's token: new workspaces (the read-only team may read them, as
// it reads the rest), locks by a user, SSH keys, remote-state consumers, deletions, edits.
import type { ApiReply } from "./real-cli-stack";
import type { EstateManifest } from "./adopt-estate";

type Api = <T = unknown>(method: string, path: string, body?: unknown, token?: string) => Promise<ApiReply<T>>;

export class EstateChanges {
  constructor(private readonly api: Api, private readonly estate: EstateManifest) {}

  private async call<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const { status, doc } = await this.api<T>(method, path, body, token ?? this.estate.tokens.admin);
    if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(doc).slice(0, 400)}`);
    return doc;
  }

  /** A new workspace (with direct tags), readable by the estate's read-only token; its id. */
  async createWorkspace(name: string, tags: Record<string, string> = {}): Promise<string> {
    const doc = await this.call<{ data: { id: string } }>("POST", `/organizations/${this.estate.organization}/workspaces`, {
      data: {
        type: "workspaces", attributes: { name, description: `made in the UI: ${name}` },
        relationships: { "tag-bindings": { data: Object.entries(tags).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })) } },
      },
    });
    const id = doc.data.id;
    await this.call("POST", "/team-workspaces", {
      data: {
        type: "team-workspaces", attributes: { access: "read" },
        relationships: { workspace: { data: { type: "workspaces", id } }, team: { data: { type: "teams", id: this.estate.readersTeamId } } },
      },
    });
    return id;
  }

  /** Locked by a user (not a run): adoptable as a WorkspaceLock. */
  async lockAsUser(workspaceId: string, reason: string): Promise<void> {
    await this.call("POST", `/workspaces/${workspaceId}/actions/lock`, { reason }, this.estate.userLockToken);
  }

  async assignSshKey(workspaceId: string, sshKeyId: string): Promise<void> {
    await this.call("PATCH", `/workspaces/${workspaceId}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: sshKeyId } } });
  }

  async addConsumers(workspaceId: string, consumerIds: readonly string[]): Promise<void> {
    await this.call("POST", `/workspaces/${workspaceId}/relationships/remote-state-consumers`, { data: consumerIds.map((id) => ({ type: "workspaces", id })) });
  }

  async setDescription(workspaceId: string, description: string): Promise<void> {
    await this.call("PATCH", `/workspaces/${workspaceId}`, { data: { type: "workspaces", attributes: { description } } });
  }

  async deleteWorkspace(workspaceId: string): Promise<void> {
    await this.call("DELETE", `/workspaces/${workspaceId}`);
  }

  async description(workspaceId: string): Promise<string> {
    const doc = await this.call<{ data: { attributes: { description: string | null } } }>("GET", `/workspaces/${workspaceId}`);
    return doc.data.attributes.description ?? "";
  }
}

/**
 * Workspaces of the estate with nothing hanging off them (no lock, key, policy, consumer list or tags),
 * in name order; `consumed: false` also leaves out those in another workspace's consumer list.
 */
export function plainWorkspaces(estate: EstateManifest, options: { consumed: boolean } = { consumed: true }): EstateManifest["workspaces"] {
  const busy = new Set<string>([
    ...estate.locks.map((l) => l.workspaceId), ...estate.runLocks, ...estate.sshKeys.map((k) => k.workspaceId),
    ...estate.retentionPolicies.map((p) => p.workspaceId), ...estate.consumers.map((c) => c.workspaceId),
    ...(options.consumed ? [] : estate.consumers.flatMap((c) => c.consumerIds)),
    ...(estate.unreadableWorkspaceId === undefined ? [] : [estate.unreadableWorkspaceId]),
  ]);
  return estate.workspaces.filter((w) => !busy.has(w.id) && /^[a-z]+-\d{4}$/.test(w.name) && Object.keys(w.tags).length === 0 && w.tagNames.length === 0)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

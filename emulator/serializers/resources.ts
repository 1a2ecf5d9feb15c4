/**
 * JSON:API resource objects for everything except workspaces. Resource-level links and
 * relationship links are relative (`/api/v2/...`), as the service writes them.
 */
import { projectDefaults } from "../domain/inheritance";
import { projectEffectiveBindings, type EffectiveBinding } from "../domain/tag-bindings";
import { instanceCount } from "../domain/flat-tags";
import { downloadPath } from "../domain/state-versions";
import type {
  AgentPoolRecord,
  DrpRecord,
  FlatTagRecord,
  ModuleVersionRecord,
  OAuthClientRecord,
  OAuthTokenRecord,
  OrganizationRecord,
  ProjectRecord,
  RegistryModuleRecord,
  RunRecord,
  SshKeyRecord,
  StateOutputRecord,
  StateVersionRecord,
  TagBindingRecord,
  TeamRecord,
  TeamWorkspaceRecord,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from "../store/model";
import type { Store } from "../store/store";
import { readInclude, type Json } from "../jsonapi";
import type { Edition } from "../types";

/** The JSON:API type of a data retention policy: one type per kind, as the service names them. */
export function drpType(p: DrpRecord): string {
  return p.kind === "delete-older" ? "data-retention-policy-delete-olders" : "data-retention-policy-dont-deletes";
}

/** Self-managed organizations point at their default data retention policy, like workspaces do at theirs. */
export function organizationResource(o: OrganizationRecord, edition: Edition): Json {
  const relationships: Json = {
    "default-project": { data: { id: o.defaultProjectId, type: "projects" } },
    "default-agent-pool": { data: o.defaultAgentPoolId ? { id: o.defaultAgentPoolId, type: "agent-pools" } : null },
  };
  if (edition === "self-managed") {
    const p = o.dataRetentionPolicy;
    relationships["data-retention-policy"] = {
      data: p ? { id: p.id, type: drpType(p) } : null,
      links: { related: `/api/v2/organizations/${o.id}/relationships/data-retention-policy` },
    };
  }
  return {
    id: o.id,
    type: "organizations",
    attributes: {
      name: o.id,
      email: o.email,
      "created-at": o.createdAt,
      "allow-force-delete-workspaces": o.allowForceDeleteWorkspaces,
      "default-execution-mode": o.defaultExecutionMode,
      "external-id": `org-${o.id}`,
      ...o.settings,
    },
    relationships,
    links: { self: `/api/v2/organizations/${o.id}` },
  };
}

/** What a project reports: its inherited settings in effect, and the linkage of what is included. */
export function projectResource(p: ProjectRecord, store: Store, include: ReadonlySet<string> = new Set()): Json {
  const inherited = projectDefaults(p, store.organizations.get(p.organization));
  const effective = include.has("effective_tag_bindings")
    ? { data: projectEffectiveBindings(p).map((b) => ({ id: b.id, type: "effective-tag-bindings" })) }
    : {};
  return {
    id: p.id,
    type: "projects",
    attributes: {
      name: p.name,
      description: p.description,
      "created-at": p.createdAt,
      "workspace-count": store.workspacesOf(p.organization).filter((w) => w.projectId === p.id).length,
      "is-default": store.organizations.get(p.organization)?.defaultProjectId === p.id,
      "auto-destroy-activity-duration": p.autoDestroyActivityDuration,
      "default-execution-mode": inherited.executionMode,
      "setting-overwrites": {
        "default-execution-mode": p.settingOverwrites.executionMode,
        "default-agent-pool": p.settingOverwrites.agentPool,
      },
    },
    relationships: {
      organization: { data: { id: p.organization, type: "organizations" } },
      "default-agent-pool": { data: inherited.agentPoolId ? { id: inherited.agentPoolId, type: "agent-pools" } : null },
      "tag-bindings": { links: { related: `/api/v2/projects/${p.id}/tag-bindings` } },
      "effective-tag-bindings": { ...effective, links: { related: `/api/v2/projects/${p.id}/effective-tag-bindings` } },
    },
    links: { self: `/api/v2/projects/${p.id}` },
  };
}

const PROJECT_INCLUDES = new Set(["effective_tag_bindings"]);

/** `include` of the project show. */
export function parseProjectInclude(raw: string | undefined): Set<string> {
  return readInclude(raw, PROJECT_INCLUDES);
}

export function projectIncluded(p: ProjectRecord, include: ReadonlySet<string>): Json[] {
  return include.has("effective_tag_bindings") ? projectEffectiveBindings(p).map(effectiveBindingResource) : [];
}

export function tagResource(t: FlatTagRecord, store: Store): Json {
  return {
    id: t.id,
    type: "tags",
    attributes: { name: t.name, "created-at": t.createdAt, "instance-count": instanceCount(store, t) },
    relationships: { organization: { data: { id: t.organization, type: "organizations" } } },
  };
}

export function tagBindingResource(b: TagBindingRecord): Json {
  return { id: b.id, type: "tag-bindings", attributes: { key: b.key, value: b.value, "created-at": b.createdAt } };
}

export function effectiveBindingResource(b: EffectiveBinding): Json {
  const out: Json = { id: b.id, type: "effective-tag-bindings", attributes: { key: b.key, value: b.value } };
  // Clients (go-tfe) read `links.inherited-from`; the spec names `relationships.inherited-from.links.related`. Emit both.
  if (b.inheritedFrom) {
    const href = `/api/v2/projects/${b.inheritedFrom}`;
    out["links"] = { "inherited-from": href };
    out["relationships"] = { "inherited-from": { links: { related: href } } };
  }
  return out;
}

export function sshKeyResource(k: SshKeyRecord): Json {
  return {
    id: k.id,
    type: "ssh-keys",
    attributes: { name: k.name, "created-at": k.createdAt },
    relationships: { organization: { data: { id: k.organization, type: "organizations" } } },
    links: { self: `/api/v2/ssh-keys/${k.id}` },
  };
}

export function agentPoolResource(p: AgentPoolRecord): Json {
  return {
    id: p.id,
    type: "agent-pools",
    attributes: { name: p.name, "organization-scoped": p.organizationScoped, "created-at": p.createdAt },
    relationships: {
      organization: { data: { id: p.organization, type: "organizations" } },
      "allowed-workspaces": { data: p.allowedWorkspaceIds.map((id) => ({ id, type: "workspaces" })) },
    },
    links: { self: `/api/v2/agent-pools/${p.id}` },
  };
}

export function oauthClientResource(c: OAuthClientRecord): Json {
  return {
    id: c.id,
    type: "oauth-clients",
    attributes: {
      name: c.name,
      "service-provider": c.serviceProvider,
      "http-url": c.httpUrl,
      "api-url": c.apiUrl,
      "created-at": c.createdAt,
    },
    relationships: {
      organization: { data: { id: c.organization, type: "organizations" } },
      "oauth-tokens": { data: [{ id: c.oauthTokenId, type: "oauth-tokens" }] },
    },
  };
}

export function oauthTokenResource(t: OAuthTokenRecord): Json {
  return {
    id: t.id,
    type: "oauth-tokens",
    attributes: { "created-at": t.createdAt, "has-ssh-key": false, "service-provider-user": "emulator" },
    relationships: { "oauth-client": { data: { id: t.oauthClientId, type: "oauth-clients" } } },
    links: { self: `/api/v2/oauth-tokens/${t.id}` },
  };
}

export function userResource(u: UserRecord): Json {
  return {
    id: u.id,
    type: "users",
    attributes: { username: u.username, email: u.email, "is-service-account": false },
    links: { self: `/api/v2/users/${u.id}` },
  };
}

/** What the team endpoints add to a team: its members and whether the caller may manage it. */
export interface TeamView {
  members: readonly UserRecord[];
  canManage: boolean;
}

/**
 * A team. With a view (the team endpoints) it has its members and the caller's `permissions`;
 * without (a workspace's `include=locked_by`) it has what the record alone says.
 */
export function teamResource(t: TeamRecord, view?: TeamView): Json {
  const attributes: Json = {
    name: t.name,
    visibility: t.visibility,
    "sso-team-id": null,
    "allow-member-token-management": true,
    "organization-access": { ...t.organizationAccess },
  };
  const relationships: Json = {
    organization: { data: { id: t.organization, type: "organizations" } },
    "authentication-token": { meta: {}, links: { related: `/api/v2/teams/${t.id}/authentication-token` } },
  };
  if (view) {
    const m = view.canManage;
    attributes["users-count"] = view.members.length;
    // The owners team cannot be deleted, and its visibility and organization access are fixed.
    attributes["permissions"] = {
      "can-update-membership": m,
      "can-destroy": m && !t.owners,
      "can-update-organization-access": m && !t.owners,
      "can-update-api-token": m,
      "can-update-visibility": m && !t.owners,
    };
    relationships["users"] = { data: view.members.map((u) => ({ id: u.id, type: "users" })) };
  }
  return { id: t.id, type: "teams", attributes, relationships, links: { self: `/api/v2/teams/${t.id}` } };
}

export function teamWorkspaceResource(g: TeamWorkspaceRecord, ws: WorkspaceRecord): Json {
  return {
    id: g.id,
    type: "team-workspaces",
    attributes: {
      access: g.access,
      runs: g.runs,
      variables: g.variables,
      "state-versions": g.stateVersions,
      "sentinel-mocks": g.sentinelMocks,
      "workspace-locking": g.workspaceLocking,
      "run-tasks": g.runTasks,
    },
    relationships: {
      team: { data: { id: g.teamId, type: "teams" }, links: { related: `/api/v2/teams/${g.teamId}` } },
      workspace: {
        data: { id: ws.id, type: "workspaces" },
        links: { related: `/api/v2/organizations/${ws.organization}/workspaces/${ws.name}` },
      },
    },
    links: { self: `/api/v2/team-workspaces/${g.id}` },
  };
}

/** A team token; the secret only in the answer that generated it (the service cannot show it again). */
export function authenticationTokenResource(t: TokenRecord, secret: string | null): Json {
  return {
    id: t.publicId ?? null,
    type: "authentication-tokens",
    attributes: {
      "created-at": t.createdAt,
      "last-used-at": null,
      description: null,
      token: secret,
      "expired-at": t.expiredAt ?? null,
    },
    relationships: {
      team: { data: t.teamId ? { id: t.teamId, type: "teams" } : null },
      "created-by": { data: t.createdBy ?? null },
    },
  };
}

export function runResource(r: RunRecord): Json {
  return {
    id: r.id,
    type: "runs",
    attributes: {
      status: r.status,
      message: r.message,
      "is-destroy": r.isDestroy,
      "created-at": r.createdAt,
      "status-timestamps": { [`${r.status.replace(/_/g, "-")}-at`]: r.statusChangedAt },
      source: "tfe-api",
    },
    relationships: { workspace: { data: { id: r.workspaceId, type: "workspaces" } } },
    links: { self: `/api/v2/runs/${r.id}` },
  };
}

/**
 * A state-version-outputs resource. Sensitive values are null except where `reveal` is set: the
 * service returns them only from `GET /state-version-outputs/:id`, which clients call for exactly that.
 */
export function outputResource(o: StateOutputRecord, reveal = false): Json {
  return {
    id: o.id,
    type: "state-version-outputs",
    attributes: { name: o.name, sensitive: o.sensitive, type: o.type, value: o.sensitive && !reveal ? null : o.value, "detailed-type": o.detailedType },
    links: { self: `/api/v2/state-version-outputs/${o.id}` },
  };
}

/**
 * The same output as a workspace's `outputs` embeds it: its own type and `output-type` (go-tfe's
 * WorkspaceOutputs), the same id (clients read sensitive values through the output endpoint by it).
 */
export function workspaceOutputResource(o: StateOutputRecord, ws: WorkspaceRecord): Json {
  return {
    id: o.id,
    type: "workspace-outputs",
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      "output-type": o.type,
      value: o.sensitive ? null : o.value,
      "workspace-attributes": { id: ws.id, name: ws.name },
      // The organization's `external-id`, as organizationResource writes it.
      "organization-attributes": { id: `org-${ws.organization}`, name: ws.organization },
    },
  };
}

export function stateVersionResource(sv: StateVersionRecord, baseUrl: string): Json {
  const download = downloadPath(sv);
  return {
    id: sv.id,
    type: "state-versions",
    attributes: {
      "created-at": sv.createdAt,
      serial: sv.serial,
      lineage: sv.lineage,
      md5: sv.md5,
      status: sv.discarded ? "discarded" : sv.finalized ? "finalized" : "pending",
      intermediate: sv.intermediate,
      "resources-processed": sv.finalized,
      "resource-count": sv.resourceCount,
      size: sv.content === null ? null : Buffer.byteLength(sv.content, "utf8"),
      "state-version": sv.stateFormatVersion,
      "terraform-version": sv.terraformVersion,
      "hosted-state-upload-url": sv.finalized ? null : `${baseUrl}/api/v2/state-versions/${sv.id}/upload`,
      "hosted-state-download-url": download === null ? null : `${baseUrl}${download}`,
      // The JSON-format state (`json-state` on create) is not kept.
      "hosted-json-state-download-url": null,
    },
    relationships: {
      workspace: { data: { id: sv.workspaceId, type: "workspaces" } },
      outputs: { data: sv.outputs.map((o) => ({ id: o.id, type: "state-version-outputs" })) },
    },
    links: { self: `/api/v2/state-versions/${sv.id}` },
  };
}

const STATE_VERSION_INCLUDES = new Set(["outputs"]);

/**
 * `include` of a state version. Only `outputs` is served; the service's others (`created_by`,
 * `run`, ...) get 400 rather than an answer silently missing what was asked, as for workspaces.
 */
export function parseStateVersionInclude(raw: string | undefined): Set<string> {
  return readInclude(raw, STATE_VERSION_INCLUDES);
}

/** A state version document; its `outputs` linkage is always there, so included outputs match it. */
export function stateVersionDocument(sv: StateVersionRecord, baseUrl: string, include: ReadonlySet<string>): Json {
  const doc: Json = { data: stateVersionResource(sv, baseUrl) };
  if (include.has("outputs")) doc["included"] = sv.outputs.map((o) => outputResource(o));
  return doc;
}

export function drpResource(p: DrpRecord, target: { id: string; type: "workspaces" | "organizations" }): Json {
  const attributes = p.kind === "delete-older" ? { "delete-older-than-n-days": p.deleteOlderThanNDays } : {};
  return { id: p.id, type: drpType(p), attributes, relationships: { target: { data: target } } };
}

export function registryModuleResource(m: RegistryModuleRecord, versions: ModuleVersionRecord[]): Json {
  return {
    id: m.id,
    type: "registry-modules",
    attributes: {
      name: m.name,
      namespace: m.organization,
      provider: m.provider,
      "registry-name": "private",
      status: versions.length > 0 ? "setup_complete" : "pending",
      "version-statuses": versions.map((v) => ({ version: v.version, status: "ok" })),
      "created-at": m.createdAt,
      "updated-at": m.updatedAt,
    },
    relationships: { organization: { data: { id: m.organization, type: "organizations" } } },
    links: { self: `/api/v2/organizations/${m.organization}/registry-modules/private/${m.organization}/${m.name}/${m.provider}` },
  };
}

export function moduleVersionResource(v: ModuleVersionRecord, m: RegistryModuleRecord): Json {
  return {
    id: v.id,
    type: "registry-module-versions",
    attributes: { version: v.version, status: "ok", source: "tfe-api", "created-at": v.createdAt, "updated-at": v.createdAt },
    relationships: { "registry-module": { data: { id: m.id, type: "registry-modules" } } },
  };
}

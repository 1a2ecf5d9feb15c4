/**
 * The workspace resource object: every response attribute and relationship of the spec, with the
 * caller's permissions, plus the `include` machinery of A2–A4 and B1–B3.
 */
import { permissionsAttribute, workspaceRights, type Principal } from "../auth";
import type { App } from "../context";
import { tagNames } from "../domain/flat-tags";
import { effectiveBindings } from "../domain/tag-bindings";
import { effectiveAgentPoolId, effectiveAutoDestroyDuration, effectiveExecutionMode } from "../domain/inheritance";
import { readInclude, type Json } from "../jsonapi";
import type { WorkspaceRecord } from "../store/model";
import {
  drpType,
  effectiveBindingResource,
  organizationResource,
  projectResource,
  runResource,
  stateVersionResource,
  tagBindingResource,
  teamResource,
  userResource,
  workspaceOutputResource,
} from "./resources";

/** Kept with the service's spelling (underscores); `current-state-version` is what go-tfe sends. */
export const ALLOWED_INCLUDES = new Set([
  "current_configuration_version",
  "current_configuration_version.ingress_attributes",
  "current_run",
  "current_run.configuration_version",
  "current_run.configuration_version.ingress_attributes",
  "current_run.plan",
  "locked_by",
  "organization",
  "outputs",
  "project",
  "readme",
  "current_state_version",
  "current-state-version",
  "effective_tag_bindings",
  "tag_bindings",
]);

export function parseInclude(raw: string | undefined): Set<string> {
  return readInclude(raw, ALLOWED_INCLUDES);
}

function rel(id: string | null, type: string): Json {
  return { data: id ? { id, type } : null };
}

const NO_INCLUDES: ReadonlySet<string> = new Set();

/**
 * `include` decides the linkage of the link-only relationships: JSON:API requires `data` on a
 * relationship whose targets are in `included`, and clients (go-tfe) follow that linkage.
 */
export function serializeWorkspace(
  app: App,
  principal: Principal | null,
  ws: WorkspaceRecord,
  include: ReadonlySet<string> = NO_INCLUDES,
): Json {
  const { store } = app;
  const org = store.organizations.get(ws.organization);
  const rights = workspaceRights(store, principal, ws, org);
  const sv = ws.currentStateVersionId ? store.stateVersions.get(ws.currentStateVersionId) : undefined;
  const run = ws.currentRunId ? store.runs.get(ws.currentRunId) : undefined;
  const mode = effectiveExecutionMode(store, ws);
  const poolId = effectiveAgentPoolId(store, ws);
  const kpis = runKpis(app, ws);
  const vcs = ws.vcsRepo;
  const oauthToken = vcs?.oauthTokenId ? store.oauthTokens.get(vcs.oauthTokenId) : undefined;
  const oauthClient = oauthToken ? store.oauthClients.get(oauthToken.oauthClientId) : undefined;
  const base = `/api/v2/workspaces/${ws.id}`;

  const attributes: Json = {
    actions: { "is-destroyable": true },
    "allow-destroy-plan": ws.allowDestroyPlan,
    "apply-duration-average": kpis.applyAvg,
    "auto-apply": ws.autoApply,
    "auto-apply-run-trigger": ws.autoApplyRunTrigger,
    "auto-destroy-activity-duration": effectiveAutoDestroyDuration(store, ws),
    "auto-destroy-at": ws.autoDestroyAt,
    "auto-destroy-status": null,
    "created-at": ws.createdAt,
    description: ws.description,
    environment: "default",
    "execution-mode": mode,
    "file-triggers-enabled": ws.fileTriggersEnabled,
    "global-remote-state": ws.globalRemoteState,
    "inherits-project-auto-destroy": ws.inheritsProjectAutoDestroy,
    "last-assessment-result-at": null,
    "latest-change-at": sv?.createdAt ?? ws.createdAt,
    locked: ws.lock !== null,
    "locked-reason": ws.lock ? ws.lock.reason : null,
    name: ws.name,
    "oauth-client-name": oauthClient?.name ?? null,
    operations: mode !== "local",
    permissions: permissionsAttribute(rights, principal?.kind ?? null),
    "plan-duration-average": kpis.planAvg,
    "policy-check-failures": kpis.policyFailures,
    "queue-all-runs": ws.queueAllRuns,
    "resource-count": sv?.resourceCount ?? 0,
    "run-failures": kpis.runFailures,
    "setting-overwrites": { "execution-mode": ws.settingOverwrites.executionMode, "agent-pool": ws.settingOverwrites.agentPool },
    source: "tfe-api",
    "source-name": ws.sourceName,
    "source-url": ws.sourceUrl,
    "speculative-enabled": ws.speculativeEnabled,
    "structured-run-output-enabled": ws.structuredRunOutputEnabled,
    "tag-names": tagNames(store, ws),
    [app.versionAttribute]: ws.engineVersion,
    "trigger-patterns": ws.triggerPatterns,
    "trigger-prefixes": ws.triggerPrefixes,
    "updated-at": ws.updatedAt,
    "vcs-repo": vcs
      ? {
          branch: vcs.branch,
          "display-identifier": vcs.identifier,
          identifier: vcs.identifier,
          "ingress-submodules": vcs.ingressSubmodules,
          "oauth-token-id": vcs.oauthTokenId,
          "github-app-installation-id": vcs.githubAppInstallationId,
          "repository-http-url": `${oauthClient?.httpUrl ?? "https://github.com"}/${vcs.identifier}`,
          "service-provider": vcs.githubAppInstallationId ? "github_app" : (oauthClient?.serviceProvider ?? "github"),
          "tags-regex": vcs.tagsRegex,
          "webhook-url": `https://app.terraform.io/webhooks/vcs/${vcs.webhookId}`,
        }
      : null,
    "vcs-repo-identifier": vcs?.identifier ?? null,
    "working-directory": ws.workingDirectory,
    "workspace-kpis-runs-count": kpis.count,
  };
  if (app.edition === "hosted") attributes["assessments-enabled"] = ws.assessmentsEnabled;
  // Both editions: a real client reads back from the hosted one what it wrote there.
  attributes["project-remote-state"] = ws.projectRemoteState;

  const lockedBy = ws.lock
    ? {
        data: { id: ws.lock.by.id, type: ws.lock.by.type },
        links: { related: `/api/v2/${ws.lock.by.type}/${ws.lock.by.id}` },
      }
    : undefined;
  const relationships: Json = {
    "agent-pool": rel(poolId, "agent-pools"),
    "current-configuration-version": { data: null },
    "current-run": rel(run?.id ?? null, "runs"),
    "latest-run": rel(run?.id ?? null, "runs"),
    "current-state-version": { ...rel(sv?.id ?? null, "state-versions"), links: { related: `${base}/current-state-version` } },
    "current-assessment-result": { data: null },
    organization: { data: { id: ws.organization, type: "organizations" } },
    outputs: {
      data: (sv?.outputs ?? []).map((o) => ({ id: o.id, type: "workspace-outputs" })),
      links: { related: `${base}/current-state-version-outputs` },
    },
    project: { data: { id: ws.projectId, type: "projects" } },
    readme: { data: null },
    "remote-state-consumers": { links: { related: `${base}/relationships/remote-state-consumers` } },
    "ssh-key": ws.sshKeyId
      ? { data: { id: ws.sshKeyId, type: "ssh-keys" }, links: { related: `/api/v2/ssh-keys/${ws.sshKeyId}` } }
      : { data: null },
    "tag-bindings": {
      ...(include.has("tag_bindings") ? { data: ws.tagBindings.map((b) => ({ id: b.id, type: "tag-bindings" })) } : {}),
      links: { related: `${base}/tag-bindings` },
    },
    "effective-tag-bindings": {
      ...(include.has("effective_tag_bindings")
        ? { data: effectiveBindings(ws, store.projects.get(ws.projectId)).map((b) => ({ id: b.id, type: "effective-tag-bindings" })) }
        : {}),
      links: { related: `${base}/effective-tag-bindings` },
    },
    vars: { data: [] },
  };
  if (lockedBy) relationships["locked-by"] = lockedBy;
  if (app.edition === "self-managed") {
    const p = ws.dataRetentionPolicy;
    relationships["data-retention-policy"] = {
      data: p ? { id: p.id, type: drpType(p) } : null,
    };
  }
  return {
    id: ws.id,
    type: "workspaces",
    attributes,
    relationships,
    links: {
      self: `/api/v2/organizations/${ws.organization}/workspaces/${encodeURIComponent(ws.name)}`,
      "self-html": `/app/${ws.organization}/workspaces/${encodeURIComponent(ws.name)}`,
    },
  };
}

interface Kpis {
  applyAvg: number;
  planAvg: number;
  policyFailures: number | null;
  runFailures: number | null;
  count: number | null;
}

/** Metrics over the past 30 runs that errored or applied; null counts when there are none. */
function runKpis(app: App, ws: WorkspaceRecord): Kpis {
  const runs = app.store.runs.filter((r) => r.workspaceId === ws.id && (r.status === "errored" || r.status === "applied"));
  if (runs.length === 0) return { applyAvg: 0, planAvg: 0, policyFailures: null, runFailures: null, count: null };
  const last = runs.slice(-30);
  return {
    applyAvg: 0,
    planAvg: 0,
    policyFailures: 0,
    runFailures: last.filter((r) => r.status === "errored").length,
    count: last.length,
  };
}

/** The `included` array for a set of workspaces, without duplicates. */
export function buildIncluded(app: App, workspaces: WorkspaceRecord[], include: Set<string>, baseUrl: string): Json[] {
  const { store } = app;
  const seen = new Set<string>();
  const out: Json[] = [];
  const push = (r: Json | undefined): void => {
    if (!r) return;
    const key = `${String(r["type"])}/${String(r["id"])}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(r);
  };
  for (const ws of workspaces) {
    if (include.has("organization")) {
      const o = store.organizations.get(ws.organization);
      if (o) push(organizationResource(o, app.edition));
    }
    if (include.has("project")) {
      const p = store.projects.get(ws.projectId);
      if (p) push(projectResource(p, store));
    }
    if ([...include].some((i) => i.startsWith("current_run")) && ws.currentRunId) {
      const r = store.runs.get(ws.currentRunId);
      if (r) push(runResource(r));
    }
    if (include.has("locked_by") && ws.lock) {
      const by = ws.lock.by;
      if (by.type === "users") {
        const u = store.users.get(by.id);
        if (u) push(userResource(u));
      } else if (by.type === "teams") {
        const t = store.teams.get(by.id);
        if (t) push(teamResource(t));
      } else {
        const r = store.runs.get(by.id);
        if (r) push(runResource(r));
      }
    }
    const sv = ws.currentStateVersionId ? store.stateVersions.get(ws.currentStateVersionId) : undefined;
    if (include.has("outputs") && sv) {
      for (const o of sv.outputs) push(workspaceOutputResource(o, ws));
    }
    if ((include.has("current_state_version") || include.has("current-state-version")) && sv) {
      push(stateVersionResource(sv, baseUrl));
    }
    if (include.has("tag_bindings")) {
      for (const b of ws.tagBindings) push(tagBindingResource(b));
    }
    if (include.has("effective_tag_bindings")) {
      for (const b of effectiveBindings(ws, store.projects.get(ws.projectId))) push(effectiveBindingResource(b));
    }
  }
  return out;
}

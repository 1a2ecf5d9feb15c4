/**
 * The default fixture and the seeding of a fresh state from fixtures. Workspaces in fixtures go
 * through the same validation as the create endpoint, so a fixture cannot hold what the API refuses.
 */
import * as fs from "node:fs";
import { applyWorkspaceInput, commitWorkspace } from "./domain/workspace-input";
import { createOrganization, DEFAULT_PROJECT_NAME, issueToken, isValidOrganizationName } from "./domain/organizations";
import { addStateVersion, newStateVersion } from "./domain/state-versions";
import { newProject } from "./domain/projects";
import { parseBindingInputs, replaceBindings } from "./domain/tag-bindings";
import { DEFAULT_ENGINE_VERSIONS } from "./engine-versions";
import { ApiError } from "./errors";
import { newId, nowIso } from "./ids";
import { readDataObject } from "./jsonapi";
import type { OrganizationRecord } from "./store/model";
import { MemoryStore, type Store } from "./store/store";
import type { Edition, Fixtures, OrganizationFixture, VersionAttribute } from "./types";

export const DEFAULT_ORGANIZATION = "example-org";

export const DEFAULT_FIXTURES: Fixtures = {
  organizations: [
    {
      name: DEFAULT_ORGANIZATION,
      email: "admin@example-org.example.com",
      allowForceDeleteWorkspaces: false,
      projects: [{ name: DEFAULT_PROJECT_NAME }],
    },
  ],
};

export function loadFixtures(source: Fixtures | string | undefined): Fixtures {
  if (source === undefined) return {};
  if (typeof source !== "string") return source;
  const parsed: unknown = JSON.parse(fs.readFileSync(source, "utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`fixtures file ${source} must hold a JSON object`);
  }
  return parsed as Fixtures;
}

function mergeByName<T extends { name: string }>(a: T[] | undefined, b: T[] | undefined, merge: (x: T, y: T) => T): T[] {
  const out = [...(a ?? [])];
  for (const item of b ?? []) {
    const i = out.findIndex((x) => x.name === item.name);
    if (i >= 0) out[i] = merge(out[i] as T, item);
    else out.push(item);
  }
  return out;
}

/** Merges user fixtures over the default fixture: organizations and projects by name, other lists appended. */
export function mergeFixtures(base: Fixtures, over: Fixtures): Fixtures {
  return {
    engineVersions: over.engineVersions ?? base.engineVersions,
    defaultGlobalRemoteState: over.defaultGlobalRemoteState ?? base.defaultGlobalRemoteState,
    tokens: [...(base.tokens ?? []), ...(over.tokens ?? [])],
    organizations: mergeByName(base.organizations, over.organizations, (x, y) => ({
      ...x,
      ...y,
      projects: mergeByName(x.projects, y.projects, (p, q) => ({ ...p, ...q })),
      sshKeys: [...(x.sshKeys ?? []), ...(y.sshKeys ?? [])],
      agentPools: [...(x.agentPools ?? []), ...(y.agentPools ?? [])],
      oauthClients: [...(x.oauthClients ?? []), ...(y.oauthClients ?? [])],
      registryModules: [...(x.registryModules ?? []), ...(y.registryModules ?? [])],
      workspaces: [...(x.workspaces ?? []), ...(y.workspaces ?? [])],
    })),
  };
}

function fail(where: string, e: unknown): never {
  if (e instanceof ApiError) {
    const pointer = e.pointer ? ` at ${e.pointer}` : "";
    throw new Error(`fixtures: ${where}: ${e.detail ?? e.title}${pointer}`);
  }
  throw new Error(`fixtures: ${where}: ${(e as Error).message}`);
}

function seedOrganization(store: Store, f: OrganizationFixture, env: { edition: Edition; versionAttribute: VersionAttribute }): void {
  if (!isValidOrganizationName(f.name)) fail(f.name, new Error("invalid organization name"));
  const defaultProject = f.projects?.find((p) => p.name === DEFAULT_PROJECT_NAME);
  const created = createOrganization(store, { name: f.name, email: f.email, defaultProjectId: defaultProject?.id });
  const now = nowIso();
  let org: OrganizationRecord = {
    ...created,
    allowForceDeleteWorkspaces: f.allowForceDeleteWorkspaces ?? false,
    moduleDeprecations: f.moduleDeprecations ?? true,
    dataRetentionPolicy: f.dataRetentionPolicy ? { id: newId("drp"), ...f.dataRetentionPolicy } : null,
  };
  store.organizations.put(org);

  for (const p of f.projects ?? []) {
    const existing = p.name === DEFAULT_PROJECT_NAME ? store.projects.get(org.defaultProjectId) : undefined;
    const id = existing?.id ?? p.id ?? newId("prj");
    let bindings = existing?.tagBindings ?? [];
    try {
      const inputs = parseBindingInputs(
        (p.tagBindings ?? []).map((b) => ({ type: "tag-bindings", attributes: b })),
        "/tagBindings",
      );
      bindings = replaceBindings(bindings, inputs, now, "/tagBindings");
    } catch (e) {
      fail(`project ${p.name}`, e);
    }
    const base = existing ?? newProject({ id, organization: org.id, name: p.name, createdAt: now });
    store.projects.put({ ...base, description: p.description ?? base.description, tagBindings: bindings });
  }
  for (const k of f.sshKeys ?? []) {
    store.sshKeys.put({ id: k.id ?? newId("sshkey"), organization: org.id, name: k.name, createdAt: now });
  }
  for (const p of f.agentPools ?? []) {
    store.agentPools.put({
      id: p.id ?? newId("apool"),
      organization: org.id,
      name: p.name,
      organizationScoped: p.organizationScoped ?? true,
      allowedWorkspaceIds: [],
      createdAt: now,
    });
  }
  for (const c of f.oauthClients ?? []) {
    const clientId = newId("oc");
    const tokenId = c.oauthTokenId ?? newId("ot");
    const httpUrl = c.httpUrl ?? "https://github.com";
    store.oauthClients.put({
      id: clientId,
      organization: org.id,
      name: c.name,
      serviceProvider: c.serviceProvider ?? "github",
      httpUrl,
      apiUrl: httpUrl === "https://github.com" ? "https://api.github.com" : `${httpUrl}/api/v3`,
      createdAt: now,
      oauthTokenId: tokenId,
    });
    store.oauthTokens.put({ id: tokenId, organization: org.id, oauthClientId: clientId, createdAt: now });
  }
  for (const m of f.registryModules ?? []) {
    const moduleId = newId("mod");
    store.registryModules.put({
      id: moduleId,
      organization: org.id,
      name: m.name,
      provider: m.provider,
      description: m.description ?? "",
      createdAt: now,
      updatedAt: now,
    });
    for (const v of m.versions ?? []) {
      const spec = typeof v === "string" ? { version: v } : v;
      store.moduleVersions.put({
        id: newId("modver"),
        moduleId,
        version: spec.version,
        createdAt: now,
        providers: [{ name: m.provider, version: "" }],
        deprecation: spec.deprecation
          ? { id: newId("moddep"), reason: spec.deprecation.reason ?? "", link: spec.deprecation.link ?? "" }
          : null,
      });
    }
  }
  if (f.defaultExecutionMode) {
    const pool = f.defaultAgentPool
      ? store.agentPools.find((p) => p.organization === org.id && (p.id === f.defaultAgentPool || p.name === f.defaultAgentPool))
      : undefined;
    if (f.defaultExecutionMode === "agent" && !pool) fail(f.name, new Error("defaultExecutionMode agent needs defaultAgentPool"));
    org = { ...org, defaultExecutionMode: f.defaultExecutionMode, defaultAgentPoolId: pool?.id ?? null };
    store.organizations.put(org);
  }
  for (const w of f.workspaces ?? []) {
    try {
      const project = w.project
        ? store.projects.find((p) => p.organization === org.id && (p.id === w.project || p.name === w.project))
        : undefined;
      if (w.project && !project) throw new Error(`project "${w.project}" not found`);
      const relationships: Record<string, unknown> = {};
      if (project) relationships["project"] = { data: { type: "projects", id: project.id } };
      if (w.tagBindings) {
        relationships["tag-bindings"] = { data: w.tagBindings.map((b) => ({ type: "tag-bindings", attributes: b })) };
      }
      if (w.tags) relationships["tags"] = { data: w.tags.map((name) => ({ type: "tags", attributes: { name } })) };
      const data = readDataObject(
        { data: { type: "workspaces", attributes: { ...(w.attributes ?? {}), name: w.name }, relationships } },
        "workspaces",
      );
      const change = applyWorkspaceInput({ store, ...env, org, principal: null, existing: null, now }, data);
      if (w.id) change.next.id = w.id;
      if (w.sshKey) {
        const key = store.sshKeys.find((k) => k.organization === org.id && (k.id === w.sshKey || k.name === w.sshKey));
        if (!key) throw new Error(`ssh key "${w.sshKey}" not found`);
        change.next.sshKeyId = key.id;
      }
      const ws = commitWorkspace(store, change);
      if (w.resourceCount !== undefined) {
        addStateVersion(
          store,
          ws,
          newStateVersion(ws, { serial: 1, finalized: true, intermediate: false, resourceCount: w.resourceCount }, now),
        );
      }
    } catch (e) {
      fail(`workspace ${w.name}`, e);
    }
  }
}

/** Builds a fresh store from the default fixture merged with the given fixtures. */
export function seedStore(
  fixtures: Fixtures,
  env: { edition: Edition; versionAttribute: VersionAttribute },
): Store {
  const merged = mergeFixtures(DEFAULT_FIXTURES, fixtures);
  const store = MemoryStore.empty();
  store.settings.engineVersions = [...(merged.engineVersions ?? DEFAULT_ENGINE_VERSIONS)];
  store.settings.defaultGlobalRemoteState = merged.defaultGlobalRemoteState ?? false;
  store.settings.defaultOrganization = DEFAULT_ORGANIZATION;
  for (const f of merged.organizations ?? []) {
    seedOrganization(store, f, env);
    try {
      const token = issueToken(store, { kind: "owner", organization: f.name, username: f.ownerUsername, token: f.ownerToken });
      if (f.name === DEFAULT_ORGANIZATION) store.settings.defaultToken = token;
    } catch (e) {
      fail(`owner token of ${f.name}`, e);
    }
  }
  for (const t of merged.tokens ?? []) {
    try {
      issueToken(store, t);
    } catch (e) {
      fail(`token ${t.kind}`, e);
    }
  }
  return store;
}

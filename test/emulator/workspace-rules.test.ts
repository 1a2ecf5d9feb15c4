import type { Edition } from "../../emulator";
import { createWorkspace, startTestEmulator, uniqueName, workspaceBody, type Doc, type TestEmulator, EDITIONS } from "../support/emulator-http";


describe.each(EDITIONS)("workspace rules and list queries in the %s edition", (edition) => {
  let t: TestEmulator;
  let base: string;
  let oauthTokenId: string;
  beforeAll(async () => {
    t = await startTestEmulator({ edition, fixtures: { organizations: [{ name: "example-org", oauthClients: [{ name: "GitHub", oauthTokenId: "ot-fixture000000001" }] }] } });
    base = `/api/v2/organizations/${t.org}/workspaces`;
    oauthTokenId = "ot-fixture000000001";
  });
  afterAll(() => t.close());

  const update = (id: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>): Promise<{ status: number; body: Doc }> =>
    t.api.patch(`/api/v2/workspaces/${id}`, { data: { type: "workspaces", attributes, ...(relationships ? { relationships } : {}) } });

  describe("vcs-repo", () => {
    it("connects a repository on create and shows the full sub-object", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {
        "vcs-repo": { identifier: "acme/infra", "oauth-token-id": oauthTokenId, branch: "main", "ingress-submodules": true },
      });
      expect(ws.attributes["vcs-repo"]).toEqual({
        branch: "main",
        "display-identifier": "acme/infra",
        identifier: "acme/infra",
        "ingress-submodules": true,
        "oauth-token-id": oauthTokenId,
        "github-app-installation-id": null,
        "repository-http-url": "https://github.com/acme/infra",
        "service-provider": "github",
        "tags-regex": null,
        "webhook-url": expect.stringMatching(/^https:\/\/app\.terraform\.io\/webhooks\/vcs\/[A-Za-z0-9]{11,}$/),
      });
      expect(ws.attributes["vcs-repo-identifier"]).toBe("acme/infra");
      expect(ws.attributes["oauth-client-name"]).toBe("GitHub");
    });

    it("requires identifier and oauth-token-id on create", async () => {
      const a = await t.api.post(base, workspaceBody(uniqueName(), { "vcs-repo": { identifier: "acme/infra" } }));
      expect(a.status).toBe(422);
      expect(a.body.errors[0].source.pointer).toBe("/data/attributes/vcs-repo/oauth-token-id");
      const b = await t.api.post(base, workspaceBody(uniqueName(), { "vcs-repo": { "oauth-token-id": oauthTokenId } }));
      expect(b.status).toBe(422);
      expect(b.body.errors[0].source.pointer).toBe("/data/attributes/vcs-repo/identifier");
      const c = await t.api.post(base, workspaceBody(uniqueName(), { "vcs-repo": { identifier: "acme/infra", "oauth-token-id": "ot-unknown" } }));
      expect(c.status).toBe(422);
      const d = await t.api.post(base, workspaceBody(uniqueName(), { "vcs-repo": { identifier: "not-a-repo", "oauth-token-id": oauthTokenId } }));
      expect(d.status).toBe(422);
      expect(d.body.errors[0].source.pointer).toBe("/data/attributes/vcs-repo/identifier");
    });

    it("accepts the Azure DevOps identifier form", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "vcs-repo": { identifier: "org/project/_git/repo", "oauth-token-id": oauthTokenId } });
      expect(ws.attributes["vcs-repo"].identifier).toBe("org/project/_git/repo");
    });

    it("refuses oauth-token-id together with github-app-installation-id", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await update(ws.id, { "vcs-repo": { identifier: "a/b", "oauth-token-id": oauthTokenId, "github-app-installation-id": "ghain-1" } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/vcs-repo/github-app-installation-id");
    });

    it("modifies only the given keys on update, and null removes the repository", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "vcs-repo": { identifier: "acme/infra", "oauth-token-id": oauthTokenId, branch: "main" } });
      const r = await update(ws.id, { "vcs-repo": { branch: "" } });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes["vcs-repo"].branch).toBe("");
      expect(r.body.data.attributes["vcs-repo"].identifier).toBe("acme/infra");
      const app = await update(ws.id, { "vcs-repo": { "github-app-installation-id": "ghain-abc" } });
      expect(app.body.data.attributes["vcs-repo"]["github-app-installation-id"]).toBe("ghain-abc");
      expect(app.body.data.attributes["vcs-repo"]["oauth-token-id"]).toBeNull();
      const removed = await update(ws.id, { "vcs-repo": null });
      expect(removed.body.data.attributes["vcs-repo"]).toBeNull();
      expect(removed.body.data.attributes["vcs-repo-identifier"]).toBeNull();
    });

    it("requires identifier and a token when adding a repository on update", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      expect((await update(ws.id, { "vcs-repo": { branch: "main" } })).status).toBe(422);
      expect((await update(ws.id, { "vcs-repo": { identifier: "a/b", "oauth-token-id": oauthTokenId } })).status).toBe(200);
    });

    it("refuses an invalid tags-regex and tags-regex with file triggers enabled", async () => {
      const bad = await t.api.post(base, workspaceBody(uniqueName(), { "vcs-repo": { identifier: "a/b", "oauth-token-id": oauthTokenId, "tags-regex": "([" } }));
      expect(bad.status).toBe(422);
      const conflict = await t.api.post(
        base,
        workspaceBody(uniqueName(), { "file-triggers-enabled": true, "vcs-repo": { identifier: "a/b", "oauth-token-id": oauthTokenId, "tags-regex": "^v" } }),
      );
      expect(conflict.status).toBe(422);
      const ok = await createWorkspace(t.api, t.org, uniqueName(), {
        "file-triggers-enabled": false,
        "vcs-repo": { identifier: "a/b", "oauth-token-id": oauthTokenId, "tags-regex": "^v\\d+" },
      });
      expect(ok.attributes["vcs-repo"]["tags-regex"]).toBe("^v\\d+");
    });
  });

  describe("agent pools and execution mode", () => {
    it("assigns an agent pool in agent mode and clears it when switching to remote", async () => {
      const pool = await t.api.post(`/api/v2/organizations/${t.org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: uniqueName("pool") } } });
      expect(pool.status).toBe(201);
      const poolId = pool.body.data.id;
      expect(poolId).toMatch(/^apool-[A-Za-z0-9]{16}$/);
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "execution-mode": "agent", "agent-pool-id": poolId });
      expect(ws.attributes["execution-mode"]).toBe("agent");
      expect(ws.attributes.operations).toBe(true);
      expect(ws.relationships["agent-pool"]).toEqual({ data: { id: poolId, type: "agent-pools" } });
      const switched = await update(ws.id, { "execution-mode": "remote", "agent-pool-id": "" });
      expect(switched.status).toBe(200);
      expect(switched.body.data.relationships["agent-pool"]).toEqual({ data: null });
      const pooled = await update(ws.id, { "agent-pool-id": poolId });
      expect(pooled.status).toBe(422);
    });

    it("refuses agent-pool-id with the deprecated operations flag set to true", async () => {
      const pool = await t.api.post(`/api/v2/organizations/${t.org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: uniqueName("pool") } } });
      const r = await t.api.post(base, workspaceBody(uniqueName(), { operations: true, "agent-pool-id": pool.body.data.id }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/agent-pool-id");
    });

    it("refuses a pool that is not scoped to the workspace", async () => {
      const pool = await t.api.post(`/api/v2/organizations/${t.org}/agent-pools`, {
        data: { type: "agent-pools", attributes: { name: uniqueName("pool"), "organization-scoped": false } },
      });
      const r = await t.api.post(base, workspaceBody(uniqueName(), { "execution-mode": "agent", "agent-pool-id": pool.body.data.id }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toBe("Agent pool workspace does not have access to use this agent pool");
    });

    it("sets overwrites when a mode is given, and inherits the organization default when the overwrite is false", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "execution-mode": "local" });
      expect(ws.attributes["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
      const inherit = await update(ws.id, { "setting-overwrites": { "execution-mode": false, "agent-pool": false } });
      expect(inherit.status).toBe(200);
      expect(inherit.body.data.attributes["setting-overwrites"]).toEqual({ "execution-mode": false, "agent-pool": false });
      expect(inherit.body.data.attributes["execution-mode"]).toBe("remote");
    });
  });

  describe("projects", () => {
    it("creates in a given project and moves between projects", async () => {
      const p1 = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("p") } } });
      const p2 = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("p") } } });
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {}, { project: { data: { type: "projects", id: p1.body.data.id } } });
      expect(ws.relationships.project.data.id).toBe(p1.body.data.id);
      const moved = await update(ws.id, {}, { project: { data: { type: "projects", id: p2.body.data.id } } });
      expect(moved.body.data.relationships.project.data.id).toBe(p2.body.data.id);
      const blank = await update(ws.id, {}, { project: { data: { type: "projects", id: "" } } });
      expect(blank.body.data.relationships.project.data.id).toBe(p2.body.data.id);
      const unknown = await update(ws.id, {}, { project: { data: { type: "projects", id: "prj-unknown" } } });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source.pointer).toBe("/data/relationships/project/data/id");
    });

    it("refuses a move by an admin of only the workspace with 404", async () => {
      const p = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("p") } } });
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const admin = t.clientFor({ kind: "team", access: "admin", workspaces: [ws.id] });
      expect((await admin.patch(`/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { description: "ok" } } })).status).toBe(200);
      const r = await admin.patch(`/api/v2/workspaces/${ws.id}`, {
        data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: p.body.data.id } } } },
      });
      expect(r.status).toBe(404);
    });
  });

  describe("A2 search, filters and sorts", () => {
    let prefix: string;
    let ids: Record<string, string>;
    let projectId: string;
    const names = (body: Doc): string[] => body.data.map((w: Doc) => w.attributes.name);

    beforeAll(async () => {
      prefix = uniqueName("q").replace(/-/g, "");
      const p = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("qp") } } });
      projectId = p.body.data.id;
      ids = {};
      const specs: Array<[string, string[], Record<string, unknown>]> = [
        [`${prefix}-charlie-prod`, ["web", "prod"], {}],
        [`${prefix}-alpha-dev`, ["web"], { project: { data: { type: "projects", id: projectId } } }],
        [`${prefix}-bravo-prod`, ["db", "prod"], {}],
      ];
      for (const [name, tags, rel] of specs) {
        const ws = await createWorkspace(t.api, t.org, name, {}, { ...rel, tags: { data: tags.map((n) => ({ type: "tags", attributes: { name: n } })) } });
        ids[name] = ws.id;
      }
      const mkRun = async (name: string, status: string): Promise<void> => {
        const r = await t.api.post("/api/v2/runs", {
          data: { type: "runs", attributes: { status }, relationships: { workspace: { data: { type: "workspaces", id: ids[name] } } } },
        });
        if (r.status !== 201) throw new Error(r.text);
      };
      await mkRun(`${prefix}-bravo-prod`, "applied");
      await new Promise((r) => setTimeout(r, 5));
      await mkRun(`${prefix}-charlie-prod`, "errored");
    });

    const list = (q: string): Promise<{ status: number; body: Doc }> => t.api.get(`${base}?page[size]=100&search[name]=${prefix}&${q}`);

    it("fuzzy-matches names case-insensitively and keeps creation order by default", async () => {
      const r = await t.api.get(`${base}?search%5Bname%5D=${prefix.toUpperCase()}`);
      expect(names(r.body)).toEqual([`${prefix}-charlie-prod`, `${prefix}-alpha-dev`, `${prefix}-bravo-prod`]);
    });

    it("requires all tags of search[tags] and excludes any of search[exclude-tags]", async () => {
      expect(names((await list("search[tags]=web,prod")).body)).toEqual([`${prefix}-charlie-prod`]);
      expect(names((await list("search[exclude-tags]=db,dev-only")).body)).toEqual([`${prefix}-charlie-prod`, `${prefix}-alpha-dev`]);
    });

    it("matches wildcard names as prefix, suffix or both", async () => {
      expect(names((await t.api.get(`${base}?search[wildcard-name]=*-prod&search[name]=${prefix}`)).body)).toEqual([
        `${prefix}-charlie-prod`,
        `${prefix}-bravo-prod`,
      ]);
      expect(names((await t.api.get(`${base}?search[wildcard-name]=${prefix}-a*`)).body)).toEqual([`${prefix}-alpha-dev`]);
      expect(names((await t.api.get(`${base}?search[wildcard-name]=*${prefix}-bravo*`)).body)).toEqual([`${prefix}-bravo-prod`]);
    });

    it("filters by project and by current run status", async () => {
      expect(names((await list(`filter[project][id]=${projectId}`)).body)).toEqual([`${prefix}-alpha-dev`]);
      expect(names((await list("filter[current-run][status]=applied")).body)).toEqual([`${prefix}-bravo-prod`]);
      expect(names((await list("filter[current-run][status]=applied,errored")).body)).toEqual([`${prefix}-charlie-prod`, `${prefix}-bravo-prod`]);
    });

    it("sorts by name, current run and latest change, and reverses with a leading minus", async () => {
      const byName = [`${prefix}-alpha-dev`, `${prefix}-bravo-prod`, `${prefix}-charlie-prod`];
      expect(names((await list("sort=name")).body)).toEqual(byName);
      expect(names((await list("sort=-name")).body)).toEqual([...byName].reverse());
      expect(names((await list("sort=current-run.created-at")).body)).toEqual([`${prefix}-bravo-prod`, `${prefix}-charlie-prod`, `${prefix}-alpha-dev`]);
      expect(names((await list("sort=-current-run.created-at")).body)).toEqual([`${prefix}-alpha-dev`, `${prefix}-charlie-prod`, `${prefix}-bravo-prod`]);
      expect(names((await list("sort=latest-change-at")).body)).toEqual([`${prefix}-charlie-prod`, `${prefix}-alpha-dev`, `${prefix}-bravo-prod`]);
      expect(names((await list("sort=-latest-change-at")).body)).toEqual([`${prefix}-bravo-prod`, `${prefix}-alpha-dev`, `${prefix}-charlie-prod`]);
    });

    it("refuses an unknown sort with 400", async () => {
      const r = await list("sort=size");
      expect(r.status).toBe(400);
      expect(r.body.errors[0].detail).toBe("Invalid sort parameter: size");
    });

    it("keeps filters in the pagination links", async () => {
      const r = await t.api.get(`${base}?search%5Bname%5D=${prefix}&page%5Bsize%5D=1`);
      expect(r.body.links.next).toBe(`${t.emu.url}${base}?page%5Bnumber%5D=2&page%5Bsize%5D=1&search%5Bname%5D=${prefix}`);
    });

    it("includes the current run with include=current_run", async () => {
      const r = await t.api.get(`/api/v2/workspaces/${ids[`${prefix}-bravo-prod`]}?include=current_run`);
      expect(r.body.included).toHaveLength(1);
      expect(r.body.included[0].type).toBe("runs");
      expect(r.body.included[0].attributes.status).toBe("applied");
      expect(r.body.data.relationships["current-run"].data.id).toBe(r.body.included[0].id);
      expect(r.body.data.relationships["latest-run"].data.id).toBe(r.body.included[0].id);
      expect(r.body.data.attributes["workspace-kpis-runs-count"]).toBe(1);
      expect(r.body.data.attributes["run-failures"]).toBe(0);
    });
  });
});

describe.each(["hosted", "self-managed"] as Edition[])("engine versions from the release list in the %s edition", (edition) => {
  it("defaults to the newest release and accepts only listed releases and satisfiable constraints", async () => {
    const t = await startTestEmulator({ edition, fixtures: { engineVersions: ["1.2.0", "1.10.0", "1.2.7"] } });
    try {
      const base = `/api/v2/organizations/${t.org}/workspaces`;
      expect((await createWorkspace(t.api, t.org, uniqueName())).attributes["engine-version"]).toBe("1.10.0");
      expect((await createWorkspace(t.api, t.org, uniqueName(), { "engine-version": "1.2.7" })).attributes["engine-version"]).toBe("1.2.7");
      expect((await createWorkspace(t.api, t.org, uniqueName(), { "engine-version": "~> 1.2.0" })).attributes["engine-version"]).toBe("~> 1.2.0");
      for (const v of ["1.3.0", "~> 1.3.0", ">= 2.0.0"]) {
        const r = await t.api.post(base, workspaceBody(uniqueName(), { "engine-version": v }));
        expect(r.status).toBe(422);
        expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/engine-version" });
      }
    } finally {
      await t.close();
    }
  });
});


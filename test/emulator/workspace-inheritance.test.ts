// Issue 18: workspace settings that interact, what workspaces inherit from projects and
// organizations, and the setup calls existing tooling makes, each answered as the service does.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createWorkspace, startTestEmulator, uniqueName, EDITIONS, type Client, type Doc, type TestEmulator } from "../support/emulator-http";

const ws = (id: string): string => `/api/v2/workspaces/${id}`;
const patchWs = (api: Client, id: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
  api.patch(ws(id), { data: { type: "workspaces", attributes, ...(relationships ? { relationships } : {}) } });

describe.each(EDITIONS)("in the %s edition", (edition) => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  /** A fresh organization, so settings changed by a test reach no other test. */
  async function freshOrg(attributes: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("org");
    const r = await t.api.post("/api/v2/organizations", { data: { type: "organizations", attributes: { name, ...attributes } } });
    if (r.status !== 201) throw new Error(`organization: ${r.status} ${r.text}`);
    return name;
  }

  async function project(org: string, attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>): Promise<Doc> {
    const r = await t.api.post(`/api/v2/organizations/${org}/projects`, {
      data: { type: "projects", attributes: { name: uniqueName("p"), ...attributes }, ...(relationships ? { relationships } : {}) },
    });
    if (r.status !== 201) throw new Error(`project: ${r.status} ${r.text}`);
    return r.body.data;
  }

  async function agentPool(org: string): Promise<string> {
    const r = await t.api.post(`/api/v2/organizations/${org}/agent-pools`, {
      data: { type: "agent-pools", attributes: { name: uniqueName("pool"), "organization-scoped": true } },
    });
    if (r.status !== 201) throw new Error(`agent pool: ${r.status} ${r.text}`);
    return r.body.data.id;
  }

  const inProject = (p: Doc): Record<string, unknown> => ({ project: { data: { type: "projects", id: p.id } } });
  const attrs = async (id: string): Promise<Doc> => (await t.api.get(ws(id))).body.data.attributes;

  describe("auto-destroy: a time and a duration exclude each other", () => {
    it("setting auto-destroy-at clears the duration", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "1d" });
      expect((await patchWs(t.api, w.id, { "auto-destroy-at": "2100-01-01T00:00:00Z" })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "auto-destroy-at": "2100-01-01T00:00:00.000Z", "auto-destroy-activity-duration": null });
    });

    it("setting a duration clears the time", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-at": "2100-01-01T00:00:00Z" });
      expect((await patchWs(t.api, w.id, { "auto-destroy-activity-duration": "12h" })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "auto-destroy-at": null, "auto-destroy-activity-duration": "12h" });
    });

    it("refuses both in one request and changes nothing", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "2d" });
      const r = await patchWs(t.api, w.id, { "auto-destroy-at": "2100-01-01T00:00:00Z", "auto-destroy-activity-duration": "3d" });
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toEqual({
        status: "422",
        title: "invalid attribute",
        detail: "auto-destroy-at and auto-destroy-activity-duration cannot both be set",
        source: { pointer: "/data/attributes/auto-destroy-activity-duration" },
      });
      expect(await attrs(w.id)).toMatchObject({ "auto-destroy-at": null, "auto-destroy-activity-duration": "2d" });
    });

    it("accepts one set and the other null in the same request (what clients send)", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-at": null, "auto-destroy-activity-duration": "5d" });
      expect(w.attributes).toMatchObject({ "auto-destroy-at": null, "auto-destroy-activity-duration": "5d" });
    });
  });

  describe("structured-run-output-enabled", () => {
    it("is true by default, and writable on create and on update", async () => {
      expect((await createWorkspace(t.api, t.org, uniqueName())).attributes["structured-run-output-enabled"]).toBe(true);
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "structured-run-output-enabled": false });
      expect(w.attributes["structured-run-output-enabled"]).toBe(false);
      expect((await patchWs(t.api, w.id, { "structured-run-output-enabled": true })).body.data.attributes["structured-run-output-enabled"]).toBe(true);
    });

    it("refuses a value that is not a boolean", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName());
      const r = await patchWs(t.api, w.id, { "structured-run-output-enabled": "no" });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/structured-run-output-enabled" });
    });
  });

  describe("inherits-project-auto-destroy", () => {
    it("a workspace with no auto-destroy of its own reports its project's duration, and follows the project", async () => {
      const p = await project(t.org, { "auto-destroy-activity-duration": "3d" });
      expect(p.attributes["auto-destroy-activity-duration"]).toBe("3d");
      const w = await createWorkspace(t.api, t.org, uniqueName(), {}, inProject(p));
      expect(w.attributes).toMatchObject({ "inherits-project-auto-destroy": true, "auto-destroy-activity-duration": "3d" });
      await t.api.patch(`/api/v2/projects/${p.id}`, { data: { type: "projects", attributes: { "auto-destroy-activity-duration": "5d" } } });
      expect(await attrs(w.id)).toMatchObject({ "inherits-project-auto-destroy": true, "auto-destroy-activity-duration": "5d" });
    });

    it("a workspace that sets its own stops inheriting, and inherits again when told to", async () => {
      const p = await project(t.org, { "auto-destroy-activity-duration": "3d" });
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "1d" }, inProject(p));
      expect(w.attributes).toMatchObject({ "inherits-project-auto-destroy": false, "auto-destroy-activity-duration": "1d" });
      expect((await patchWs(t.api, w.id, { "inherits-project-auto-destroy": true })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "inherits-project-auto-destroy": true, "auto-destroy-activity-duration": "3d", "auto-destroy-at": null });
    });

    it("refuses inheriting together with a setting of its own", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName());
      const r = await patchWs(t.api, w.id, { "inherits-project-auto-destroy": true, "auto-destroy-activity-duration": "1d" });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/inherits-project-auto-destroy" });
    });

    it("a project refuses an invalid duration", async () => {
      const r = await t.api.post(`/api/v2/organizations/${t.org}/projects`, {
        data: { type: "projects", attributes: { name: uniqueName("p"), "auto-destroy-activity-duration": "0d" } },
      });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/auto-destroy-activity-duration" });
    });
  });

  describe("project settings that workspaces inherit", () => {
    it("a project stores and returns its defaults, or reports its organization's where it does not overwrite them", async () => {
      const org = await freshOrg();
      const plain = await project(org);
      expect(plain.attributes).toMatchObject({
        "default-execution-mode": "remote",
        "auto-destroy-activity-duration": null,
        "setting-overwrites": { "default-execution-mode": false, "default-agent-pool": false },
      });
      expect(plain.relationships["default-agent-pool"]).toEqual({ data: null });
      const pool = await agentPool(org);
      const agent = await project(org, { "default-execution-mode": "agent", "default-agent-pool-id": pool });
      expect(agent.attributes).toMatchObject({
        "default-execution-mode": "agent",
        "setting-overwrites": { "default-execution-mode": true, "default-agent-pool": true },
      });
      expect(agent.relationships["default-agent-pool"]).toEqual({ data: { id: pool, type: "agent-pools" } });
      const shown = await t.api.get(`/api/v2/projects/${agent.id}`);
      expect(shown.body.data.attributes["default-execution-mode"]).toBe("agent");
    });

    it("a workspace that does not overwrite reports its project's mode and pool, and follows project updates", async () => {
      const org = await freshOrg();
      const pool = await agentPool(org);
      const p = await project(org, { "default-execution-mode": "local" });
      const w = await createWorkspace(t.api, org, uniqueName(), {}, inProject(p));
      expect(w.attributes["execution-mode"]).toBe("local");
      await patchWs(t.api, w.id, { "setting-overwrites": { "execution-mode": false, "agent-pool": false } });
      const moved = await t.api.patch(`/api/v2/projects/${p.id}`, {
        data: { type: "projects", attributes: { "default-execution-mode": "agent", "default-agent-pool-id": pool } },
      });
      expect(moved.status).toBe(200);
      const now = (await t.api.get(ws(w.id))).body.data;
      expect(now.attributes["execution-mode"]).toBe("agent");
      expect(now.relationships["agent-pool"]).toEqual({ data: { id: pool, type: "agent-pools" } });
    });

    it("a project that stops overwriting hands its workspaces the organization's defaults", async () => {
      const org = await freshOrg({ "default-execution-mode": "local" });
      const p = await project(org, { "default-execution-mode": "remote" });
      const w = await createWorkspace(t.api, org, uniqueName(), {}, inProject(p));
      await patchWs(t.api, w.id, { "setting-overwrites": { "execution-mode": false, "agent-pool": false } });
      expect((await attrs(w.id))["execution-mode"]).toBe("remote");
      const back = await t.api.patch(`/api/v2/projects/${p.id}`, {
        data: { type: "projects", attributes: { "setting-overwrites": { "default-execution-mode": false } } },
      });
      expect(back.body.data.attributes["default-execution-mode"]).toBe("local");
      expect((await attrs(w.id))["execution-mode"]).toBe("local");
    });

    it("a workspace created in a project without a mode takes the project's", async () => {
      const org = await freshOrg();
      const p = await project(org, { "default-execution-mode": "local" });
      expect((await createWorkspace(t.api, org, uniqueName(), {}, inProject(p))).attributes["execution-mode"]).toBe("local");
      expect((await createWorkspace(t.api, org, uniqueName())).attributes["execution-mode"]).toBe("remote");
    });

    it("a project refuses the agent mode without a pool, and a bad mode, and changes nothing", async () => {
      const org = await freshOrg();
      const p = await project(org);
      const noPool = await t.api.patch(`/api/v2/projects/${p.id}`, { data: { type: "projects", attributes: { "default-execution-mode": "agent" } } });
      expect(noPool.status).toBe(422);
      const bad = await t.api.patch(`/api/v2/projects/${p.id}`, { data: { type: "projects", attributes: { "default-execution-mode": "cloud" } } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].source).toEqual({ pointer: "/data/attributes/default-execution-mode" });
      expect((await t.api.get(`/api/v2/projects/${p.id}`)).body.data.attributes["default-execution-mode"]).toBe("remote");
    });
  });

  describe("agent pools are released when a workspace stops using one", () => {
    it("a workspace that stops overwriting reports the inherited mode and no pool, and the pool can be deleted", async () => {
      const org = await freshOrg();
      const pool = await agentPool(org);
      const w = await createWorkspace(t.api, org, uniqueName(), { "execution-mode": "agent", "agent-pool-id": pool });
      expect(w.relationships["agent-pool"].data).toEqual({ id: pool, type: "agent-pools" });
      const busy = await t.api.delete(`/api/v2/agent-pools/${pool}`);
      expect(busy.status).toBe(409);
      expect(busy.body.errors[0].detail).toBe("Agent pool is still used by workspaces");

      const released = await patchWs(t.api, w.id, { "setting-overwrites": { "execution-mode": false, "agent-pool": false } });
      expect(released.status).toBe(200);
      expect(released.body.data.attributes["execution-mode"]).toBe("remote");
      expect(released.body.data.attributes["setting-overwrites"]).toEqual({ "execution-mode": false, "agent-pool": false });
      expect(released.body.data.relationships["agent-pool"]).toEqual({ data: null });
      expect((await t.api.delete(`/api/v2/agent-pools/${pool}`)).status).toBe(204);
    });

    it("a pool a project hands down is in use", async () => {
      const org = await freshOrg();
      const pool = await agentPool(org);
      await project(org, { "default-execution-mode": "agent", "default-agent-pool-id": pool });
      expect((await t.api.delete(`/api/v2/agent-pools/${pool}`)).status).toBe(409);
    });
  });

  describe("projects are found by name as the service finds them", () => {
    it("filter[names] matches without regard to case", async () => {
      const org = await freshOrg();
      const p = await project(org, { name: "project-a" });
      const r = await t.api.get(`/api/v2/organizations/${org}/projects?filter[names]=PROJECT-A`);
      expect(r.status).toBe(200);
      expect(r.body.data.map((x: Doc) => x.id)).toEqual([p.id]);
    });

    it("names are unique without regard to case", async () => {
      const org = await freshOrg();
      await project(org, { name: "Apps" });
      const r = await t.api.post(`/api/v2/organizations/${org}/projects`, { data: { type: "projects", attributes: { name: "apps" } } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toBe("Name has already been taken");
    });
  });

  describe("project show with include=effective_tag_bindings", () => {
    it("embeds the project's bindings with data linkage from its relationship", async () => {
      const p = await project(t.org, {}, { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "web" } }] } });
      const r = await t.api.get(`/api/v2/projects/${p.id}?include=effective_tag_bindings`);
      expect(r.status).toBe(200);
      expect(r.body.included).toHaveLength(1);
      expect(r.body.included[0]).toMatchObject({ type: "effective-tag-bindings", attributes: { key: "team", value: "web" } });
      expect(r.body.data.relationships["effective-tag-bindings"]).toEqual({
        data: [{ id: r.body.included[0].id, type: "effective-tag-bindings" }],
        links: { related: `/api/v2/projects/${p.id}/effective-tag-bindings` },
      });
    });

    it("answers 400 for an include the project does not have", async () => {
      const p = await project(t.org);
      const r = await t.api.get(`/api/v2/projects/${p.id}?include=workspaces`);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].detail).toBe("Invalid include parameter: workspaces");
    });
  });

  describe("organizations keep every writable attribute", () => {
    const sent = {
      email: "platform@example.com",
      "session-timeout": 60,
      "session-remember": 120,
      "collaborator-auth-policy": "two_factor_mandatory",
      "cost-estimation-enabled": true,
      "owners-team-saml-role-id": "owners-role",
      "assessments-enforced": true,
      "allow-force-delete-workspaces": true,
      "default-execution-mode": "local",
      "speculative-plan-management-enabled": false,
      "user-tokens-enabled": false,
      "stacks-enabled": true,
      "enforce-hyok": true,
      "max-ttl-enabled": true,
      "send-passing-statuses-for-untriggered-speculative-plans": true,
      "aggregated-commit-status-enabled": false,
    };

    it("returns on show and list what a create sent", async () => {
      const org = await freshOrg(sent);
      const shown = (await t.api.get(`/api/v2/organizations/${org}`)).body.data.attributes;
      expect(shown).toMatchObject(sent);
      const listed = (await t.api.get("/api/v2/organizations?page[size]=100")).body.data.find((o: Doc) => o.id === org);
      expect(listed.attributes).toMatchObject(sent);
    });

    it("gives the service's defaults for what a create did not send", async () => {
      const org = await freshOrg();
      expect((await t.api.get(`/api/v2/organizations/${org}`)).body.data.attributes).toMatchObject({
        "session-timeout": null,
        "session-remember": null,
        "collaborator-auth-policy": "password",
        "cost-estimation-enabled": false,
        "owners-team-saml-role-id": null,
        "assessments-enforced": false,
        "allow-force-delete-workspaces": false,
        "default-execution-mode": "remote",
        "speculative-plan-management-enabled": true,
        "user-tokens-enabled": true,
        "stacks-enabled": false,
        "enforce-hyok": false,
        "max-ttl-enabled": false,
        "send-passing-statuses-for-untriggered-speculative-plans": false,
        "aggregated-commit-status-enabled": true,
      });
    });

    it("an update changes only what it sends", async () => {
      const org = await freshOrg(sent);
      const r = await t.api.patch(`/api/v2/organizations/${org}`, {
        data: { type: "organizations", attributes: { "session-timeout": 30, "cost-estimation-enabled": false } },
      });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes).toMatchObject({ ...sent, "session-timeout": 30, "cost-estimation-enabled": false });
    });

    it.each([
      ["collaborator-auth-policy", "sometimes"],
      ["session-timeout", "60"],
      ["session-remember", 1.5],
      ["cost-estimation-enabled", "yes"],
      ["owners-team-saml-role-id", 7],
      ["email", "not-an-email"],
    ])("refuses an invalid %s with 422 naming it, and changes nothing", async (key, value) => {
      const org = await freshOrg();
      const before = (await t.api.get(`/api/v2/organizations/${org}`)).body.data.attributes;
      const r = await t.api.patch(`/api/v2/organizations/${org}`, { data: { type: "organizations", attributes: { [key]: value } } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ status: "422", title: "invalid attribute", source: { pointer: `/data/attributes/${key}` } });
      expect((await t.api.get(`/api/v2/organizations/${org}`)).body.data.attributes).toEqual(before);
    });
  });

  describe("PATCH /ssh-keys/:id", () => {
    async function sshKey(): Promise<string> {
      const r = await t.api.post(`/api/v2/organizations/${t.org}/ssh-keys`, { data: { type: "ssh-keys", attributes: { name: uniqueName("k"), value: "ssh-rsa AAAA" } } });
      return r.body.data.id;
    }

    it("renames a key and takes a new value, which is never returned", async () => {
      const id = await sshKey();
      const r = await t.api.patch(`/api/v2/ssh-keys/${id}`, { data: { type: "ssh-keys", attributes: { name: "renamed", value: "ssh-ed25519 BBBB" } } });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.name).toBe("renamed");
      expect(r.text).not.toContain("BBBB");
      expect((await t.api.get(`/api/v2/ssh-keys/${id}`)).body.data.attributes.name).toBe("renamed");
      const valueOnly = await t.api.patch(`/api/v2/ssh-keys/${id}`, { data: { type: "ssh-keys", attributes: { value: "ssh-ed25519 CCCC" } } });
      expect(valueOnly.status).toBe(200);
      expect(valueOnly.body.data.attributes.name).toBe("renamed");
    });

    it("refuses a blank name and answers 404 for an unknown key or a caller who may not manage keys", async () => {
      const id = await sshKey();
      expect((await t.api.patch(`/api/v2/ssh-keys/${id}`, { data: { type: "ssh-keys", attributes: { name: "" } } })).status).toBe(422);
      expect((await t.api.patch("/api/v2/ssh-keys/sshkey-unknown", { data: { type: "ssh-keys", attributes: { name: "x" } } })).status).toBe(404);
      const reader = t.clientFor({ kind: "team", access: "read" });
      expect((await reader.patch(`/api/v2/ssh-keys/${id}`, { data: { type: "ssh-keys", attributes: { name: "x" } } })).status).toBe(404);
    });
  });

  describe("registry module provider names", () => {
    const create = (provider: string) =>
      t.api.post(`/api/v2/organizations/${t.org}/registry-modules`, {
        data: { type: "registry-modules", attributes: { name: uniqueName("mod"), provider, "registry-name": "private" } },
      });

    it("accepts a provider name with an underscore", async () => {
      const r = await create("my_provider");
      expect(r.status).toBe(201);
      expect(r.body.data.attributes.provider).toBe("my_provider");
    });

    it("refuses upper case and dashes, which module addresses cannot carry", async () => {
      for (const bad of ["My_Provider", "my-provider"]) {
        const r = await create(bad);
        expect(r.status).toBe(422);
        expect(r.body.errors[0].detail).toBe("Provider is invalid");
      }
    });
  });
});

describe("a state file written before these settings existed", () => {
  it("still loads, with the service's defaults for what it lacks", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-upgrade-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startTestEmulator({ stateFile: file, edition: "self-managed" });
      const own = await createWorkspace(first.api, first.org, uniqueName(), { "auto-destroy-activity-duration": "2d" });
      const plain = await createWorkspace(first.api, first.org, uniqueName());
      await first.close();

      // Strip what this version added, as an older emulator wrote it.
      const doc = JSON.parse(fs.readFileSync(file, "utf8"));
      for (const o of doc.state.organizations) delete o.settings;
      for (const p of doc.state.projects) for (const k of ["autoDestroyActivityDuration", "defaultExecutionMode", "defaultAgentPoolId", "settingOverwrites"]) delete p[k];
      for (const w of doc.state.workspaces) for (const k of ["projectRemoteState", "inheritsProjectAutoDestroy"]) delete w[k];
      fs.writeFileSync(file, JSON.stringify(doc));

      const second = await startTestEmulator({ stateFile: file, edition: "self-managed" });
      try {
        const a = (await second.api.get(ws(own.id))).body.data.attributes;
        expect(a).toMatchObject({ "project-remote-state": false, "inherits-project-auto-destroy": false, "auto-destroy-activity-duration": "2d" });
        expect((await second.api.get(ws(plain.id))).body.data.attributes["inherits-project-auto-destroy"]).toBe(true);
        const org = (await second.api.get(`/api/v2/organizations/${second.org}`)).body.data.attributes;
        expect(org).toMatchObject({ "session-timeout": null, "aggregated-commit-status-enabled": true });
        const projects = (await second.api.get(`/api/v2/organizations/${second.org}/projects`)).body.data;
        expect(projects[0].attributes["setting-overwrites"]).toEqual({ "default-execution-mode": false, "default-agent-pool": false });
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

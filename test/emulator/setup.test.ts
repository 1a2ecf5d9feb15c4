import { request } from "undici";
import { createWorkspace, startTestEmulator, TIMESTAMP, uniqueName, type TestEmulator } from "../support/emulator-http";

const stateFile = (resources: number, outputs: Record<string, unknown> = {}): string =>
  JSON.stringify({
    version: 4,
    serial: 3,
    lineage: "lin-1",
    outputs,
    resources: [
      { mode: "managed", type: "null_resource", name: "a", instances: Array.from({ length: resources }, () => ({ attributes: {} })) },
      { mode: "data", type: "null_data_source", name: "d", instances: [{}] },
    ],
  });

describe("setup calls and fixtures", () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({
      fixtures: {
        organizations: [
          {
            name: "example-org",
            projects: [{ name: "Default Project", tagBindings: [{ key: "owner", value: "platform" }] }, { name: "Apps", id: "prj-apps000000000001" }],
            sshKeys: [{ name: "deploy", id: "sshkey-fixture00000001" }],
            agentPools: [{ name: "pool", id: "apool-fixture0000001" }],
            workspaces: [
              { name: "seeded", id: "ws-seeded0000000001", project: "Apps", tags: ["seed"], tagBindings: [{ key: "env", value: "test" }], resourceCount: 4, sshKey: "deploy" },
              { name: "agent-ws", attributes: { "execution-mode": "agent", "agent-pool-id": "apool-fixture0000001" } },
            ],
          },
        ],
        tokens: [{ kind: "team", access: "read", token: "fixture-read-token" }],
      },
    });
  });
  afterAll(() => t.close());

  it("seeds workspaces, projects, keys, pools and tokens from fixtures", async () => {
    const ws = await t.api.get("/api/v2/workspaces/ws-seeded0000000001");
    expect(ws.status).toBe(200);
    const a = ws.body.data.attributes;
    expect(a.name).toBe("seeded");
    expect(a["resource-count"]).toBe(4);
    expect(a["tag-names"]).toEqual(["seed"]);
    expect(ws.body.data.relationships.project.data.id).toBe("prj-apps000000000001");
    expect(ws.body.data.relationships["ssh-key"].data.id).toBe("sshkey-fixture00000001");
    const agent = await t.api.get(`/api/v2/organizations/${t.org}/workspaces/agent-ws`);
    expect(agent.body.data.relationships["agent-pool"].data.id).toBe("apool-fixture0000001");
    const reader = t.api.as("fixture-read-token");
    expect((await reader.get("/api/v2/workspaces/ws-seeded0000000001")).status).toBe(200);
    const def = await t.api.get(`/api/v2/organizations/${t.org}/projects?filter[names]=Default%20Project`);
    expect(def.body.data[0].attributes["is-default"]).toBe(true);
    const bindings = await t.api.get(`/api/v2/projects/${def.body.data[0].id}/tag-bindings`);
    expect(bindings.body.data.map((b: { attributes: { key: string } }) => b.attributes.key)).toEqual(["owner"]);
  });

  it("refuses to safe-delete a workspace that manages resources (409) but force-deletes it", async () => {
    const r = await t.api.post("/api/v2/workspaces/ws-seeded0000000001/actions/safe-delete");
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toEqual({ status: "409", title: "conflict", detail: "workspace cannot be safely deleted because it is still managing resources" });
    expect((await t.api.get("/api/v2/workspaces/ws-seeded0000000001")).status).toBe(200);
  });

  it("creates a state version from a base64 state file, counting managed resources and outputs", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const state = Buffer.from(stateFile(2, { url: { value: "https://x", type: "string" }, pw: { value: "s", type: "string", sensitive: true } })).toString("base64");
    const r = await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, {
      data: { type: "state-versions", attributes: { serial: 3, md5: "abc", state } },
    });
    expect(r.status).toBe(201);
    expect(r.body.data.id).toMatch(/^sv-[A-Za-z0-9]{16}$/);
    expect(r.body.data.attributes["resource-count"]).toBe(2);
    const shown = await t.api.get(`/api/v2/workspaces/${ws.id}`);
    expect(shown.body.data.attributes["resource-count"]).toBe(2);
    expect(shown.body.data.attributes["latest-change-at"]).toBe(r.body.data.attributes["created-at"]);
    expect(shown.body.data.relationships.outputs.data).toHaveLength(2);
    const current = await t.api.get(`/api/v2/workspaces/${ws.id}/current-state-version`);
    expect(current.body.data.id).toBe(r.body.data.id);
    const outputs = await t.api.get(`/api/v2/workspaces/${ws.id}/current-state-version-outputs`);
    const byName = Object.fromEntries(outputs.body.data.map((o: { attributes: { name: string; value: unknown } }) => [o.attributes.name, o.attributes.value]));
    expect(byName).toEqual({ url: "https://x", pw: null });
    expect((await t.api.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`)).status).toBe(409);
    const included = await t.api.get(`/api/v2/workspaces/${ws.id}?include=outputs`);
    expect(included.body.included).toHaveLength(2);
  });

  it("finalizes a pending state version through its upload URL, which needs no token", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const sv = await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, {
      data: { type: "state-versions", attributes: { serial: 1, finalized: false } },
    });
    expect(sv.body.data.attributes.status).toBe("pending");
    const uploadUrl = sv.body.data.attributes["hosted-state-upload-url"];
    expect(uploadUrl).toBe(`${t.emu.url}/api/v2/state-versions/${sv.body.data.id}/upload`);
    const blocked = await t.api.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.errors[0].detail).toContain("being processed");
    const up = await request(uploadUrl, { method: "PUT", body: stateFile(1), headers: { "content-type": "application/octet-stream" } });
    await up.body.text();
    expect(up.statusCode).toBe(200);
    const shown = await t.api.get(`/api/v2/workspaces/${ws.id}`);
    expect(shown.body.data.attributes["resource-count"]).toBe(1);
    expect(shown.body.data.relationships["current-state-version"].data.id).toBe(sv.body.data.id);
  });

  it("refuses intermediate state versions on an unlocked workspace and malformed state", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const r = await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, { data: { type: "state-versions", attributes: { serial: 1, intermediate: true } } });
    expect(r.status).toBe(409);
    const bad = await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, { data: { type: "state-versions", attributes: { serial: 1, state: "bm90IGpzb24=" } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/data/attributes/state");
  });

  it("creates, lists, shows and updates organizations", async () => {
    const name = uniqueName("org");
    const r = await t.api.post("/api/v2/organizations", { data: { type: "organizations", attributes: { name, email: "a@b.c" } } });
    expect(r.status).toBe(201);
    expect(r.body.data.id).toBe(name);
    expect(r.body.data.attributes["created-at"]).toMatch(TIMESTAMP);
    expect((await t.api.post("/api/v2/organizations", { data: { type: "organizations", attributes: { name } } })).status).toBe(422);
    const ws = await createWorkspace(t.api, name, uniqueName());
    expect(ws.relationships.organization.data.id).toBe(name);
    const list = await t.api.get("/api/v2/organizations");
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([t.org, name]));
    const patched = await t.api.patch(`/api/v2/organizations/${name}`, { data: { type: "organizations", attributes: { "default-execution-mode": "local" } } });
    expect(patched.body.data.attributes["default-execution-mode"]).toBe("local");
    const inherited = await createWorkspace(t.api, name, uniqueName());
    expect(inherited.attributes["execution-mode"]).toBe("local");
    const team = t.clientFor({ kind: "team", access: "admin" });
    expect((await team.post("/api/v2/organizations", { data: { type: "organizations", attributes: { name: uniqueName("org") } } })).status).toBe(404);
  });

  it("creates, updates and deletes projects", async () => {
    const r = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("p"), description: "d" } } });
    expect(r.status).toBe(201);
    expect(r.body.data.id).toMatch(/^prj-[A-Za-z0-9]{16}$/);
    const id = r.body.data.id;
    const u = await t.api.patch(`/api/v2/projects/${id}`, { data: { type: "projects", attributes: { description: "e" } } });
    expect(u.body.data.attributes.description).toBe("e");
    const ws = await createWorkspace(t.api, t.org, uniqueName(), {}, { project: { data: { type: "projects", id } } });
    expect((await t.api.delete(`/api/v2/projects/${id}`)).status).toBe(409);
    await t.api.delete(`/api/v2/workspaces/${ws.id}`);
    expect((await t.api.delete(`/api/v2/projects/${id}`)).status).toBe(204);
    expect((await t.api.get(`/api/v2/projects/${id}`)).status).toBe(404);
  });

  it("creates OAuth clients whose token connects repositories", async () => {
    const c = await t.api.post(`/api/v2/organizations/${t.org}/oauth-clients`, {
      data: { type: "oauth-clients", attributes: { "service-provider": "gitlab_hosted", "http-url": "https://gitlab.com", name: "GitLab", "oauth-token-string": "x" } },
    });
    expect(c.status).toBe(201);
    const tokenId = c.body.data.relationships["oauth-tokens"].data[0].id;
    expect(tokenId).toMatch(/^ot-[A-Za-z0-9]{16}$/);
    expect((await t.api.get(`/api/v2/oauth-tokens/${tokenId}`)).status).toBe(200);
    const ws = await createWorkspace(t.api, t.org, uniqueName(), { "vcs-repo": { identifier: "g/r", "oauth-token-id": tokenId } });
    expect(ws.attributes["vcs-repo"]["service-provider"]).toBe("gitlab_hosted");
    expect(ws.attributes["vcs-repo"]["repository-http-url"]).toBe("https://gitlab.com/g/r");
  });

  it("lists and deletes SSH keys and agent pools", async () => {
    const keys = await t.api.get(`/api/v2/organizations/${t.org}/ssh-keys`);
    expect(keys.body.data.map((k: { attributes: { name: string } }) => k.attributes.name)).toContain("deploy");
    const pool = await t.api.post(`/api/v2/organizations/${t.org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: uniqueName("pool") } } });
    expect((await t.api.get(`/api/v2/agent-pools/${pool.body.data.id}`)).status).toBe(200);
    expect((await t.api.delete(`/api/v2/agent-pools/${pool.body.data.id}`)).status).toBe(204);
    expect((await t.api.delete("/api/v2/agent-pools/apool-fixture0000001")).status).toBe(409);
    const key = await t.api.post(`/api/v2/organizations/${t.org}/ssh-keys`, { data: { type: "ssh-keys", attributes: { name: "k" } } });
    expect(key.status).toBe(422);
  });

  it("seeds an organization whose workspaces inherit the agent execution mode", async () => {
    const e = await startTestEmulator({
      fixtures: {
        organizations: [
          { name: "agents", agentPools: [{ name: "shared", id: "apool-shared00000001" }], defaultExecutionMode: "agent", defaultAgentPool: "shared" },
        ],
      },
    });
    try {
      const owner = e.clientFor({ kind: "owner", organization: "agents" });
      const ws = await createWorkspace(owner, "agents", uniqueName());
      expect(ws.attributes["execution-mode"]).toBe("agent");
      expect(ws.relationships["agent-pool"].data).toEqual({ id: "apool-shared00000001", type: "agent-pools" });
    } finally {
      await e.close();
    }
  });

  it("refuses fixtures that the API would refuse, naming the workspace", async () => {
    await expect(
      startTestEmulator({ fixtures: { organizations: [{ name: "example-org", workspaces: [{ name: "bad name" }] }] } }),
    ).rejects.toThrow("fixtures: workspace bad name: Name may only contain letters, numbers, dashes and underscores at /data/attributes/name");
  });
});

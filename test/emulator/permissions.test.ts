import { createWorkspace, startTestEmulator, uniqueName, workspaceBody, type TestEmulator, EDITIONS } from "../support/emulator-http";


describe.each(EDITIONS)("authentication and permissions in the %s edition", (edition) => {
  let t: TestEmulator;
  let base: string;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
    base = `/api/v2/organizations/${t.org}/workspaces`;
  });
  afterAll(() => t.close());

  it("accepts the bearer scheme case-insensitively and refuses other schemes with 401", async () => {
    expect((await t.api.get(base, { token: null, headers: { authorization: `bearer ${t.emu.token}` } })).status).toBe(200);
    expect((await t.api.get(base, { token: null, headers: { authorization: `Basic ${t.emu.token}` } })).status).toBe(401);
  });

  it("computes permissions from a read token", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const reader = t.clientFor({ kind: "team", access: "read" });
    const r = await reader.get(`/api/v2/workspaces/${ws.id}`);
    expect(r.status).toBe(200);
    const p = r.body.data.attributes.permissions;
    expect(p["can-read-run"]).toBe(true);
    expect(p["can-read-settings"]).toBe(true);
    expect(p["can-update"]).toBe(false);
    expect(p["can-lock"]).toBe(false);
    expect(p["can-force-unlock"]).toBe(false);
    expect(p["can-force-delete"]).toBe(false);
  });

  it("computes permissions from a lock token and an admin token", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const locker = (await t.clientFor({ kind: "team", access: "lock" }).get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.permissions;
    expect([locker["can-lock"], locker["can-unlock"], locker["can-update"], locker["can-force-unlock"]]).toEqual([true, true, false, false]);
    const admin = (await t.clientFor({ kind: "team", access: "admin" }).get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.permissions;
    expect([admin["can-lock"], admin["can-update"], admin["can-force-unlock"], admin["can-force-delete"]]).toEqual([true, true, true, false]);
    const owner = (await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.permissions;
    expect(Object.values(owner).every((v) => v === true)).toBe(true);
  });

  it("answers 404 for workspaces outside a scoped token's reach and hides them from lists", async () => {
    const visible = await createWorkspace(t.api, t.org, uniqueName());
    const hidden = await createWorkspace(t.api, t.org, uniqueName());
    const scoped = t.clientFor({ kind: "team", access: "admin", workspaces: [visible.attributes.name] });
    expect((await scoped.get(`/api/v2/workspaces/${visible.id}`)).status).toBe(200);
    expect((await scoped.get(`/api/v2/workspaces/${hidden.id}`)).status).toBe(404);
    expect((await scoped.patch(`/api/v2/workspaces/${hidden.id}`, { data: { type: "workspaces", attributes: {} } })).status).toBe(404);
    const list = await scoped.get(`${base}?page[size]=100`);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([visible.id]);
  });

  it("answers 404 to a reader who tries to change settings or delete", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const reader = t.clientFor({ kind: "team", access: "read" });
    expect((await reader.patch(`/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { description: "x" } } })).status).toBe(404);
    expect((await reader.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`)).status).toBe(404);
    expect((await reader.delete(`/api/v2/workspaces/${ws.id}`)).status).toBe(403);
  });

  it("lets the owner, a manage-all-workspaces team and the organization token create workspaces, and no one else", async () => {
    const manager = t.clientFor({ kind: "team", access: "manage-all-workspaces" });
    const orgToken = t.clientFor({ kind: "organization" });
    const admin = t.clientFor({ kind: "team", access: "admin" });
    expect((await manager.post(base, workspaceBody(uniqueName()))).status).toBe(201);
    const created = await orgToken.post(base, workspaceBody(uniqueName()));
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.permissions["can-lock"]).toBe(false);
    expect((await admin.post(base, workspaceBody(uniqueName()))).status).toBe(404);
  });

  it("hides other organizations entirely", async () => {
    const stranger = t.clientFor({ kind: "owner", organization: uniqueName("org") });
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    expect((await stranger.get(base)).status).toBe(404);
    expect((await stranger.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(404);
    expect((await stranger.post(base, workspaceBody(uniqueName()))).status).toBe(404);
  });

  it("lets workspace admins force delete only when the organization allows it", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const admin = t.clientFor({ kind: "team", access: "admin" });
    expect((await admin.delete(`/api/v2/workspaces/${ws.id}`)).status).toBe(403);
    const setting = await t.api.patch(`/api/v2/organizations/${t.org}`, {
      data: { type: "organizations", attributes: { "allow-force-delete-workspaces": true } },
    });
    expect(setting.status).toBe(200);
    expect(setting.body.data.attributes["allow-force-delete-workspaces"]).toBe(true);
    const shown = await admin.get(`/api/v2/workspaces/${ws.id}`);
    expect(shown.body.data.attributes.permissions["can-force-delete"]).toBe(true);
    expect((await admin.delete(`/api/v2/workspaces/${ws.id}`)).status).toBe(204);
    await t.api.patch(`/api/v2/organizations/${t.org}`, { data: { type: "organizations", attributes: { "allow-force-delete-workspaces": false } } });
  });

  it("scopes team rights to projects", async () => {
    const p = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("p") } } });
    const inside = await createWorkspace(t.api, t.org, uniqueName(), {}, { project: { data: { type: "projects", id: p.body.data.id } } });
    const outside = await createWorkspace(t.api, t.org, uniqueName());
    const team = t.clientFor({ kind: "team", access: "read", projects: [p.body.data.id] });
    expect((await team.get(`/api/v2/workspaces/${inside.id}`)).status).toBe(200);
    expect((await team.get(`/api/v2/workspaces/${outside.id}`)).status).toBe(404);
  });

  it("records the token kind of every request in the log", async () => {
    t.emu.clearRequests();
    const team = t.clientFor({ kind: "team", access: "read" });
    await team.get(base);
    await t.api.get(base, { token: "bogus" });
    expect(t.emu.requests().map((e) => e.tokenKind)).toEqual(["team", "invalid"]);
  });
});

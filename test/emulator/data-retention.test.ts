import { createWorkspace, startTestEmulator, uniqueName, type TestEmulator } from "../support/emulator-http";

const deleteOlder = (days: number): unknown => ({
  data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": days } },
});
const dontDelete = { data: { type: "data-retention-policy-dont-deletes" } };

describe("data retention policies (C11–C13) in the self-managed edition", () => {
  let t: TestEmulator;
  const path = (id: string): string => `/api/v2/workspaces/${id}/relationships/data-retention-policy`;
  beforeAll(async () => {
    t = await startTestEmulator({
      edition: "self-managed",
      fixtures: { organizations: [{ name: "example-org", dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: 90 } }] },
    });
  });
  afterAll(() => t.close());

  it("shows the organization default when the workspace has none (C11)", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const r = await t.api.get(path(ws.id));
    expect(r.status).toBe(200);
    expect(r.body.data.type).toBe("data-retention-policy-delete-olders");
    expect(r.body.data.id).toMatch(/^drp-[A-Za-z0-9]{16}$/);
    expect(r.body.data.attributes).toEqual({ "delete-older-than-n-days": 90 });
    expect(r.body.data.relationships.target.data).toEqual({ id: t.org, type: "organizations" });
    expect(ws.relationships["data-retention-policy"]).toEqual({ data: null });
  });

  it("creates (201) and updates (200) the workspace's own policy (C12), for both kinds", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const created = await t.api.post(path(ws.id), deleteOlder(33));
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^drp-/),
      type: "data-retention-policy-delete-olders",
      attributes: { "delete-older-than-n-days": 33 },
      relationships: { target: { data: { id: ws.id, type: "workspaces" } } },
    });
    const updated = await t.api.post(path(ws.id), dontDelete);
    expect(updated.status).toBe(200);
    expect(updated.body.data.type).toBe("data-retention-policy-dont-deletes");
    expect(updated.body.data.attributes).toEqual({});
    const shown = await t.api.get(path(ws.id));
    expect(shown.body.data.type).toBe("data-retention-policy-dont-deletes");
    const wsDoc = await t.api.get(`/api/v2/workspaces/${ws.id}`);
    expect(wsDoc.body.data.relationships["data-retention-policy"].data).toEqual({
      id: updated.body.data.id,
      type: "data-retention-policy-dont-deletes",
    });
  });

  it("accepts PATCH and the documented camelCase attribute", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const r = await t.api.patch(path(ws.id), { data: { type: "data-retention-policy-delete-olders", attributes: { deleteOlderThanNDays: 7 } } });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes).toEqual({ "delete-older-than-n-days": 7 });
  });

  it("removes the workspace's policy (C13), falling back to the organization default", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    await t.api.post(path(ws.id), deleteOlder(5));
    const removed = await t.api.delete(path(ws.id));
    expect(removed.status).toBe(204);
    const shown = await t.api.get(path(ws.id));
    expect(shown.body.data.attributes).toEqual({ "delete-older-than-n-days": 90 });
    const again = await t.api.delete(path(ws.id));
    expect(again.status).toBe(200);
    expect(again.body.data.relationships.target.data.type).toBe("organizations");
  });

  it("refuses malformed policies with 422", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const badType = await t.api.post(path(ws.id), { data: { type: "data-retention-policies", attributes: {} } });
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0].source.pointer).toBe("/data/type");
    for (const days of [0, -1, 1.5, "10"]) {
      const r = await t.api.post(path(ws.id), { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": days } } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/delete-older-than-n-days");
    }
  });

  it("answers 404 for an unknown workspace and for callers without admin rights on changes", async () => {
    expect((await t.api.get(path("ws-nope"))).status).toBe(404);
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const reader = t.clientFor({ kind: "team", access: "read" });
    expect((await reader.get(path(ws.id))).status).toBe(200);
    expect((await reader.post(path(ws.id), dontDelete)).status).toBe(404);
    expect((await reader.delete(path(ws.id))).status).toBe(404);
  });

  it("manages the organization default through the organization's relationship", async () => {
    const orgPath = `/api/v2/organizations/${t.org}/relationships/data-retention-policy`;
    const shown = await t.api.get(orgPath);
    expect(shown.status).toBe(200);
    const changed = await t.api.post(orgPath, deleteOlder(120));
    expect(changed.status).toBe(200);
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    expect((await t.api.get(path(ws.id))).body.data.attributes).toEqual({ "delete-older-than-n-days": 120 });
    expect((await t.api.delete(orgPath)).status).toBe(204);
    expect((await t.api.get(path(ws.id))).status).toBe(404);
  });
});

describe("data retention policies in the hosted edition", () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ edition: "hosted" });
  });
  afterAll(() => t.close());

  it("do not exist: C11–C13 answer 404", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const path = `/api/v2/workspaces/${ws.id}/relationships/data-retention-policy`;
    expect((await t.api.get(path)).status).toBe(404);
    expect((await t.api.post(path, deleteOlder(3))).status).toBe(404);
    expect((await t.api.delete(path)).status).toBe(404);
    expect((await t.api.get(path, { token: null })).status).toBe(404);
    expect((await t.api.get(`/api/v2/organizations/${t.org}/relationships/data-retention-policy`)).status).toBe(404);
    expect(ws.relationships["data-retention-policy"]).toBeUndefined();
  });
});

describe("assessments-enabled by edition", () => {
  it("is accepted and returned only by the hosted edition", async () => {
    const hosted = await startTestEmulator({ edition: "hosted" });
    const managed = await startTestEmulator({ edition: "self-managed" });
    try {
      const h = await createWorkspace(hosted.api, hosted.org, uniqueName(), { "assessments-enabled": true });
      expect(h.attributes["assessments-enabled"]).toBe(true);
      const m = await createWorkspace(managed.api, managed.org, uniqueName(), { "assessments-enabled": true });
      expect(m.attributes["assessments-enabled"]).toBeUndefined();
      const local = await hosted.api.post(`/api/v2/organizations/${hosted.org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: uniqueName(), "assessments-enabled": true, "execution-mode": "local" } },
      });
      expect(local.status).toBe(422);
      const old = await hosted.api.post(`/api/v2/organizations/${hosted.org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: uniqueName(), "assessments-enabled": true, "engine-version": "0.15.3" } },
      });
      expect(old.status).toBe(422);
      expect(old.body.errors[0].source.pointer).toBe("/data/attributes/assessments-enabled");
    } finally {
      await hosted.close();
      await managed.close();
    }
  });
});

describe("global-remote-state default by edition", () => {
  it("follows the self-managed administrators' default only in the self-managed edition", async () => {
    const fixtures = { defaultGlobalRemoteState: true };
    const hosted = await startTestEmulator({ edition: "hosted", fixtures });
    const managed = await startTestEmulator({ edition: "self-managed", fixtures });
    try {
      expect((await createWorkspace(hosted.api, hosted.org, uniqueName())).attributes["global-remote-state"]).toBe(false);
      expect((await createWorkspace(managed.api, managed.org, uniqueName())).attributes["global-remote-state"]).toBe(true);
      const explicit = await createWorkspace(managed.api, managed.org, uniqueName(), { "global-remote-state": false });
      expect(explicit.attributes["global-remote-state"]).toBe(false);
    } finally {
      await hosted.close();
      await managed.close();
    }
  });
});


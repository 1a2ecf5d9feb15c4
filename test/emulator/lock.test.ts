import { createWorkspace, startTestEmulator, uniqueName, type Client, type TestEmulator, EDITIONS } from "../support/emulator-http";


describe.each(EDITIONS)("lock, unlock, force-unlock and SSH keys in the %s edition", (edition) => {
  let t: TestEmulator;
  const lockPath = (id: string, action: string): string => `/api/v2/workspaces/${id}/actions/${action}`;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  async function stateVersion(client: Client, wsId: string, attributes: Record<string, unknown>): Promise<string> {
    const r = await client.post(`/api/v2/workspaces/${wsId}/state-versions`, { data: { type: "state-versions", attributes } });
    if (r.status !== 201) throw new Error(`state version: ${r.status} ${r.text}`);
    return r.body.data.id;
  }

  describe("B1 lock", () => {
    it("locks with a reason and names the locking user", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.post(lockPath(ws.id, "lock"), { reason: "maintenance" });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.locked).toBe(true);
      expect(r.body.data.attributes["locked-reason"]).toBe("maintenance");
      const lockedBy = r.body.data.relationships["locked-by"];
      expect(lockedBy.data.type).toBe("users");
      expect(lockedBy.data.id).toMatch(/^user-/);
      expect(lockedBy.links.related).toBe(`/api/v2/users/${lockedBy.data.id}`);
      const user = await t.api.get(lockedBy.links.related);
      expect(user.status).toBe(200);
      expect(user.body.data.type).toBe("users");
    });

    it("accepts go-tfe's body shape and no body at all", async () => {
      const a = await createWorkspace(t.api, t.org, uniqueName());
      const b = await createWorkspace(t.api, t.org, uniqueName());
      const ra = await t.api.post(lockPath(a.id, "lock"), { data: { type: "", attributes: { reason: "from go-tfe" } } });
      expect(ra.status).toBe(200);
      expect(ra.body.data.attributes["locked-reason"]).toBe("from go-tfe");
      const rb = await t.api.post(lockPath(b.id, "lock"));
      expect(rb.status).toBe(200);
      expect(rb.body.data.attributes["locked-reason"]).toBe("");
    });

    it("answers 409 when the workspace is already locked", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(lockPath(ws.id, "lock"));
      const r = await t.api.post(lockPath(ws.id, "lock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0]).toEqual({ status: "409", title: "conflict", detail: "Unable to lock workspace. The workspace is already locked." });
    });

    it("answers 404 for an unknown workspace and for a caller without lock rights", async () => {
      expect((await t.api.post(lockPath("ws-unknown", "lock"))).status).toBe(404);
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const reader = t.clientFor({ kind: "team", access: "read" });
      expect((await reader.post(lockPath(ws.id, "lock"))).status).toBe(404);
      const orgToken = t.clientFor({ kind: "organization" });
      expect((await orgToken.post(lockPath(ws.id, "lock"))).status).toBe(404);
    });

    it("includes the locker with include=locked_by", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.post(`${lockPath(ws.id, "lock")}?include=locked_by`);
      expect(r.status).toBe(200);
      expect(r.body.included).toHaveLength(1);
      expect(r.body.included[0].type).toBe("users");
    });
  });

  describe("B2 unlock", () => {
    it("unlocks a lock the caller holds", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(lockPath(ws.id, "lock"));
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.locked).toBe(false);
      expect(r.body.data.attributes["locked-reason"]).toBeNull();
      expect(r.body.data.relationships["locked-by"]).toBeUndefined();
    });

    it("answers 404 for an unknown workspace and for a caller without lock rights", async () => {
      expect((await t.api.post(lockPath("ws-unknown", "unlock"))).status).toBe(404);
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(lockPath(ws.id, "lock"));
      const reader = t.clientFor({ kind: "team", access: "read" });
      expect((await reader.post(lockPath(ws.id, "unlock"))).status).toBe(404);
    });

    it("answers 409 when the workspace is not locked", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0].detail).toBe("Unable to unlock workspace. The workspace is not locked.");
    });

    it("answers 409 naming the team when a team holds the lock", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = t.clientFor({ kind: "team", access: "lock" });
      const locked = await team.post(lockPath(ws.id, "lock"));
      expect(locked.body.data.relationships["locked-by"].data.type).toBe("teams");
      const teamId = locked.body.data.relationships["locked-by"].data.id;
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0].detail).toBe(
        `Unable to unlock workspace. The workspace is locked by Team ${teamId} and may not be unlocked except by them.`,
      );
      expect((await team.post(lockPath(ws.id, "unlock"))).status).toBe(200);
    });

    it("answers 409 naming the user when another user holds the lock", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const other = t.clientFor({ kind: "user", access: "lock" });
      await other.post(lockPath(ws.id, "lock"));
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0].detail).toMatch(/is locked by User user-\S+ and may not be unlocked except by them\.$/);
    });

    it("answers 409 naming the run when a run holds the lock, and releases it when the run finishes", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const run = await t.api.post("/api/v2/runs", {
        data: { type: "runs", attributes: { status: "applying", "lock-workspace": true }, relationships: { workspace: { data: { type: "workspaces", id: ws.id } } } },
      });
      expect(run.status).toBe(201);
      const shown = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      expect(shown.body.data.relationships["locked-by"].data).toEqual({ id: run.body.data.id, type: "runs" });
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0].detail).toContain(`is locked by Run ${run.body.data.id}`);
      await t.api.patch(`/api/v2/runs/${run.body.data.id}`, { data: { type: "runs", attributes: { status: "applied" } } });
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.locked).toBe(false);
    });

    it("answers 503 while the latest intermediate state version is not finalized, then promotes it", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(lockPath(ws.id, "lock"));
      await stateVersion(t.api, ws.id, { serial: 1, intermediate: true, "resource-count": 2 });
      const pending = await stateVersion(t.api, ws.id, { serial: 2, intermediate: true, finalized: false, "resource-count": 3 });
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.status).toBe(503);
      expect(r.body.errors[0].status).toBe("503");
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.locked).toBe(true);
      const fin = await t.api.post(`/api/v2/state-versions/${pending}/actions/finalize`);
      expect(fin.status).toBe(200);
      const ok = await t.api.post(lockPath(ws.id, "unlock"));
      expect(ok.status).toBe(200);
      expect(ok.body.data.relationships["current-state-version"].data.id).toBe(pending);
      expect(ok.body.data.attributes["resource-count"]).toBe(3);
    });

    it("makes the latest finalized intermediate version current on unlock", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(lockPath(ws.id, "lock"));
      const first = await stateVersion(t.api, ws.id, { serial: 1, intermediate: true, "resource-count": 1 });
      const during = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      expect(during.body.data.relationships["current-state-version"].data).toBeNull();
      const r = await t.api.post(lockPath(ws.id, "unlock"));
      expect(r.body.data.relationships["current-state-version"].data.id).toBe(first);
    });
  });

  describe("B3 force-unlock", () => {
    it("lets an admin release someone else's lock", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const team = t.clientFor({ kind: "team", access: "lock" });
      await team.post(lockPath(ws.id, "lock"));
      const r = await t.api.post(lockPath(ws.id, "force-unlock"));
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.locked).toBe(false);
    });

    it("answers 409 when the workspace is not locked", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.post(lockPath(ws.id, "force-unlock"));
      expect(r.status).toBe(409);
      expect(r.body.errors[0].title).toBe("conflict");
    });

    it("answers 404 to a caller without admin access and for an unknown workspace", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(lockPath(ws.id, "lock"));
      const locker = t.clientFor({ kind: "team", access: "lock" });
      expect((await locker.post(lockPath(ws.id, "force-unlock"))).status).toBe(404);
      expect((await t.api.post(lockPath("ws-unknown", "force-unlock"))).status).toBe(404);
    });
  });

  describe("B4 SSH key", () => {
    it("assigns and unassigns a key", async () => {
      const key = await t.api.post(`/api/v2/organizations/${t.org}/ssh-keys`, {
        data: { type: "ssh-keys", attributes: { name: uniqueName("key"), value: "-----BEGIN KEY-----" } },
      });
      expect(key.status).toBe(201);
      const keyId = key.body.data.id;
      expect(keyId).toMatch(/^sshkey-[A-Za-z0-9]{16}$/);
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const path = `/api/v2/workspaces/${ws.id}/relationships/ssh-key`;
      const a = await t.api.patch(path, { data: { type: "workspaces", attributes: { id: keyId } } });
      expect(a.status).toBe(200);
      expect(a.body.data.relationships["ssh-key"]).toEqual({ data: { id: keyId, type: "ssh-keys" }, links: { related: `/api/v2/ssh-keys/${keyId}` } });
      const u = await t.api.patch(path, { data: { type: "workspaces", attributes: { id: null } } });
      expect(u.status).toBe(200);
      expect(u.body.data.relationships["ssh-key"]).toEqual({ data: null });
    });

    it("answers 404 for an unknown key or workspace and 422 for a malformed body", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const path = `/api/v2/workspaces/${ws.id}/relationships/ssh-key`;
      expect((await t.api.patch(path, { data: { type: "workspaces", attributes: { id: "sshkey-nope" } } })).status).toBe(404);
      expect((await t.api.patch("/api/v2/workspaces/ws-nope/relationships/ssh-key", { data: { type: "workspaces", attributes: { id: null } } })).status).toBe(404);
      const bad = await t.api.patch(path, { data: { type: "workspaces", attributes: {} } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].source.pointer).toBe("/data/attributes/id");
    });
  });
});

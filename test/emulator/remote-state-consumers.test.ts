import { createWorkspace, startTestEmulator, uniqueName, type TestEmulator, EDITIONS } from "../support/emulator-http";


describe.each(EDITIONS)("remote state consumers (C1–C4) in the %s edition", (edition) => {
  let t: TestEmulator;
  const path = (id: string): string => `/api/v2/workspaces/${id}/relationships/remote-state-consumers`;
  const ref = (id: string): { type: string; id: string } => ({ type: "workspaces", id });
  const ids = (body: { data: Array<{ id: string }> }): string[] => body.data.map((w) => w.id);

  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  it("adds consumers (C2), ignoring ones already present, and lists them (C1)", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    const b = await createWorkspace(t.api, t.org, uniqueName());
    const r1 = await t.api.post(path(subject.id), { data: [ref(a.id)] });
    expect(r1.status).toBe(204);
    expect(r1.text).toBe("");
    const r2 = await t.api.post(path(subject.id), { data: [ref(a.id), ref(b.id)] });
    expect(r2.status).toBe(204);
    const list = await t.api.get(path(subject.id));
    expect(list.status).toBe(200);
    expect(ids(list.body)).toEqual([a.id, b.id]);
    expect(list.body.data[0].type).toBe("workspaces");
    expect(list.body.meta.pagination["total-count"]).toBe(2);
  });

  it("accepts full workspace objects as members, as go-tfe sends them", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    const r = await t.api.post(path(subject.id), { data: [a] });
    expect(r.status).toBe(204);
  });

  it("paginates the list", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await createWorkspace(t.api, t.org, uniqueName()));
    await t.api.post(path(subject.id), { data: others.map((o) => ref(o.id)) });
    const page = await t.api.get(`${path(subject.id)}?page%5Bsize%5D=2&page%5Bnumber%5D=2`);
    expect(ids(page.body)).toEqual([others[2].id]);
    expect(page.body.meta.pagination).toEqual({
      "current-page": 2,
      "page-size": 2,
      "prev-page": 1,
      "next-page": null,
      "total-pages": 2,
      "total-count": 3,
    });
    expect(page.body.links.self).toBe(`${t.emu.url}${path(subject.id)}?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
  });

  it("replaces the whole list (C3)", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    const b = await createWorkspace(t.api, t.org, uniqueName());
    await t.api.post(path(subject.id), { data: [ref(a.id)] });
    const r = await t.api.patch(path(subject.id), { data: [ref(b.id)] });
    expect(r.status).toBe(204);
    expect(ids((await t.api.get(path(subject.id))).body)).toEqual([b.id]);
  });

  it("removes consumers (C4), ignoring absent ones", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    const b = await createWorkspace(t.api, t.org, uniqueName());
    await t.api.post(path(subject.id), { data: [ref(a.id)] });
    const r = await t.api.delete(path(subject.id), { data: [ref(a.id), ref(b.id)] });
    expect(r.status).toBe(204);
    expect(ids((await t.api.get(path(subject.id))).body)).toEqual([]);
  });

  it("refuses the workspace itself as a consumer with 422", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const r = await t.api.post(path(subject.id), { data: [ref(subject.id)] });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].source.pointer).toBe("/data/0/id");
  });

  it("refuses consumers the token cannot read with 422 and applies none of the list", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const visible = await createWorkspace(t.api, t.org, uniqueName());
    const hidden = await createWorkspace(t.api, t.org, uniqueName());
    const admin = t.clientFor({ kind: "team", access: "admin", workspaces: [subject.id, visible.id] });
    const r = await admin.post(path(subject.id), { data: [ref(visible.id), ref(hidden.id)] });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].source.pointer).toBe("/data/1/id");
    expect(ids((await t.api.get(path(subject.id))).body)).toEqual([]);
    const unknown = await t.api.post(path(subject.id), { data: [ref("ws-doesnotexist")] });
    expect(unknown.status).toBe(422);
  });

  it("omits consumers the caller cannot read from the list", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const visible = await createWorkspace(t.api, t.org, uniqueName());
    const hidden = await createWorkspace(t.api, t.org, uniqueName());
    await t.api.post(path(subject.id), { data: [ref(visible.id), ref(hidden.id)] });
    const reader = t.clientFor({ kind: "team", access: "read", workspaces: [subject.id, visible.id] });
    expect(ids((await reader.get(path(subject.id))).body)).toEqual([visible.id]);
  });

  it("lists every other workspace of the organization when global remote state is on, and refuses changes with 422", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName(), { "global-remote-state": true });
    const all = await t.api.get(`/api/v2/organizations/${t.org}/workspaces?page[size]=100`);
    const list = await t.api.get(`${path(subject.id)}?page[size]=100`);
    expect(ids(list.body).sort()).toEqual(ids(all.body).filter((id) => id !== subject.id).sort());
    const other = await createWorkspace(t.api, t.org, uniqueName());
    for (const method of ["POST", "PATCH", "DELETE"]) {
      const r = await t.api.request(method, path(subject.id), { body: { data: [ref(other.id)] } });
      expect(r.status).toBe(422);
    }
  });

  it("lets only callers who manage all workspaces replace the list (C3)", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    const admin = t.clientFor({ kind: "team", access: "admin", workspaces: [subject.id, a.id] });
    expect((await admin.patch(path(subject.id), { data: [ref(a.id)] })).status).toBe(404);
    expect((await admin.post(path(subject.id), { data: [ref(a.id)] })).status).toBe(204);
    const manager = t.clientFor({ kind: "team", access: "manage-all-workspaces" });
    expect((await manager.patch(path(subject.id), { data: [] })).status).toBe(204);
  });

  it("refuses the workspace itself, unreadable members and malformed bodies with 422 on C3 and C4 too, changing nothing", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    const b = await createWorkspace(t.api, t.org, uniqueName());
    await t.api.post(path(subject.id), { data: [ref(a.id)] });
    for (const method of ["PATCH", "DELETE"]) {
      const self = await t.api.request(method, path(subject.id), { body: { data: [ref(b.id), ref(subject.id)] } });
      expect(self.status).toBe(422);
      expect(self.body.errors[0].source.pointer).toBe("/data/1/id");
      const unknown = await t.api.request(method, path(subject.id), { body: { data: [ref(a.id), ref("ws-doesnotexist")] } });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source.pointer).toBe("/data/1/id");
      const malformed = await t.api.request(method, path(subject.id), { body: { data: { type: "workspaces", id: a.id } } });
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors[0].source.pointer).toBe("/data");
    }
    expect(ids((await t.api.get(path(subject.id))).body)).toEqual([a.id]);
  });

  it("refuses page[size] over 100 on C1 with 422", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const r = await t.api.get(`${path(subject.id)}?page[size]=101`);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ errors: [{ status: "422", title: "invalid attribute", detail: "page[size] must be between 1 and 100" }] });
  });

  it("answers 404 for an unknown workspace and 422 for a malformed body", async () => {
    expect((await t.api.get(path("ws-unknown"))).status).toBe(404);
    expect((await t.api.post(path("ws-unknown"), { data: [] })).status).toBe(404);
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    expect((await t.api.post(path(subject.id), { data: { type: "workspaces" } })).status).toBe(422);
    expect((await t.api.post(path(subject.id), { data: [{ type: "projects", id: subject.id }] })).status).toBe(422);
  });

  it("forgets a deleted consumer", async () => {
    const subject = await createWorkspace(t.api, t.org, uniqueName());
    const a = await createWorkspace(t.api, t.org, uniqueName());
    await t.api.post(path(subject.id), { data: [ref(a.id)] });
    await t.api.delete(`/api/v2/workspaces/${a.id}`);
    expect(ids((await t.api.get(path(subject.id))).body)).toEqual([]);
  });
});

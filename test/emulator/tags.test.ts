import { createWorkspace, startTestEmulator, TIMESTAMP, uniqueName, workspaceBody, type TestEmulator, EDITIONS } from "../support/emulator-http";


describe.each(EDITIONS)("flat tags and tag bindings in the %s edition", (edition) => {
  let t: TestEmulator;
  const tagsPath = (id: string): string => `/api/v2/workspaces/${id}/relationships/tags`;
  const bindingsPath = (id: string): string => `/api/v2/workspaces/${id}/tag-bindings`;
  const byName = (name: string): { type: string; attributes: { name: string } } => ({ type: "tags", attributes: { name } });
  const binding = (key: string, value?: string): { type: string; attributes: Record<string, string> } => ({
    type: "tag-bindings",
    attributes: value === undefined ? { key } : { key, value },
  });

  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  describe("C5–C7 flat tags", () => {
    it("adds tags by name (C6), shows them in tag-names and lists them (C5)", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.post(tagsPath(ws.id), { data: [byName("tag1"), byName("tag2")] });
      expect(r.status).toBe(204);
      const list = await t.api.get(tagsPath(ws.id));
      expect(list.status).toBe(200);
      expect(list.body.data.map((x: { attributes: { name: string } }) => x.attributes.name)).toEqual(["tag1", "tag2"]);
      const tag = list.body.data[0];
      expect(tag.type).toBe("tags");
      expect(tag.id).toMatch(/^tag-[A-Za-z0-9]{16}$/);
      expect(tag.attributes["created-at"]).toMatch(TIMESTAMP);
      expect(tag.attributes["instance-count"]).toBeGreaterThanOrEqual(1);
      expect(tag.relationships.organization.data).toEqual({ id: t.org, type: "organizations" });
      const shown = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      expect(shown.body.data.attributes["tag-names"]).toEqual(["tag1", "tag2"]);
    });

    it("adds an existing tag by id and answers 404 for an unknown id", async () => {
      const a = await createWorkspace(t.api, t.org, uniqueName());
      const b = await createWorkspace(t.api, t.org, uniqueName());
      const name = uniqueName("shared");
      await t.api.post(tagsPath(a.id), { data: [byName(name)] });
      const tagId = (await t.api.get(tagsPath(a.id))).body.data[0].id;
      expect((await t.api.post(tagsPath(b.id), { data: [{ type: "tags", id: tagId }] })).status).toBe(204);
      const list = await t.api.get(tagsPath(b.id));
      expect(list.body.data[0].id).toBe(tagId);
      expect(list.body.data[0].attributes["instance-count"]).toBe(2);
      expect((await t.api.post(tagsPath(b.id), { data: [{ type: "tags", id: "tag-unknown" }] })).status).toBe(404);
    });

    it("removes tags by id or by name (C7), ignores unknown names, and cleans the organization list", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const n1 = uniqueName("t");
      const n2 = uniqueName("t");
      await t.api.post(tagsPath(ws.id), { data: [byName(n1), byName(n2)] });
      const tags = (await t.api.get(tagsPath(ws.id))).body.data;
      const r = await t.api.delete(tagsPath(ws.id), { data: [{ type: "tags", id: tags[0].id }, byName(n2), byName("never-existed")] });
      expect(r.status).toBe(204);
      expect((await t.api.get(tagsPath(ws.id))).body.data).toEqual([]);
      const orgTags = await t.api.get(`/api/v2/organizations/${t.org}/tags?page[size]=100`);
      const names = orgTags.body.data.map((x: { attributes: { name: string } }) => x.attributes.name);
      expect(names).not.toContain(n1);
      expect(names).not.toContain(n2);
    });

    it("answers 404 when removing an unknown tag id or on an unknown workspace", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      expect((await t.api.delete(tagsPath(ws.id), { data: [{ type: "tags", id: "tag-nope" }] })).status).toBe(404);
      expect((await t.api.get(tagsPath("ws-nope"))).status).toBe(404);
      expect((await t.api.post(tagsPath("ws-nope"), { data: [byName("x")] })).status).toBe(404);
    });

    it("adds nothing (C6) when one tag of the list has an unknown id, and creates no tag", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const fresh = uniqueName("fresh");
      const r = await t.api.post(tagsPath(ws.id), { data: [byName(fresh), { type: "tags", id: "tag-unknown" }] });
      expect(r.status).toBe(404);
      expect((await t.api.get(tagsPath(ws.id))).body.data).toEqual([]);
      const orgTags = await t.api.get(`/api/v2/organizations/${t.org}/tags?page[size]=100`);
      expect(orgTags.body.data.map((x: { attributes: { name: string } }) => x.attributes.name)).not.toContain(fresh);
    });

    it("removes nothing (C7) when one tag of the list has an unknown id", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const name = uniqueName("keep");
      await t.api.post(tagsPath(ws.id), { data: [byName(name)] });
      const r = await t.api.delete(tagsPath(ws.id), { data: [byName(name), { type: "tags", id: "tag-unknown" }] });
      expect(r.status).toBe(404);
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes["tag-names"]).toEqual([name]);
    });

    it("refuses page[size] over 100 on C5 with 422", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.get(`${tagsPath(ws.id)}?page%5Bsize%5D=101`);
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ errors: [{ status: "422", title: "invalid attribute", detail: "page[size] must be between 1 and 100" }] });
    });

    it("paginates C5 with a default page size of 20", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(tagsPath(ws.id), { data: Array.from({ length: 22 }, (_, i) => byName(`many-${i}`)) });
      const first = await t.api.get(tagsPath(ws.id));
      expect(first.body.data).toHaveLength(20);
      expect(first.body.meta.pagination["total-count"]).toBe(22);
      expect(first.body.meta.pagination["next-page"]).toBe(2);
    });

    it("accepts flat tags on create, as go-tfe sends them", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {}, { tags: { data: [byName("on-create")] } });
      expect(ws.attributes["tag-names"]).toEqual(["on-create"]);
    });
  });

  describe("C8–C10 tag bindings", () => {
    it("adds bindings additively (C10) and lists them (C8)", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r1 = await t.api.patch(bindingsPath(ws.id), { data: [binding("env", "prod"), binding("team", "a")] });
      expect(r1.status).toBe(200);
      expect(r1.body.data.map((b: { attributes: { key: string; value: string } }) => [b.attributes.key, b.attributes.value])).toEqual([
        ["env", "prod"],
        ["team", "a"],
      ]);
      expect(r1.body.data[0].id).toMatch(/^tb-[A-Za-z0-9]{16}$/);
      const r2 = await t.api.patch(bindingsPath(ws.id), { data: [binding("env", "dev"), binding("cost")] });
      expect(r2.status).toBe(200);
      const list = await t.api.get(bindingsPath(ws.id));
      expect(list.status).toBe(200);
      expect(list.body.links).toEqual({ target: `/api/v2/workspaces/${ws.id}` });
      expect(list.body.data.map((b: { attributes: { key: string; value: string } }) => [b.attributes.key, b.attributes.value])).toEqual([
        ["env", "dev"],
        ["team", "a"],
        ["cost", ""],
      ]);
      expect(list.body.data[0].id).toBe(r1.body.data[0].id);
      expect(list.body.data[0].attributes["created-at"]).toMatch(TIMESTAMP);
    });

    it("replaces all bindings through the workspace update's relationship", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding("a", "1"), binding("b", "2")] } });
      const r = await t.api.patch(`/api/v2/workspaces/${ws.id}`, {
        data: { type: "workspaces", relationships: { "tag-bindings": { data: [binding("c", "3")] } } },
      });
      expect(r.status).toBe(200);
      const list = await t.api.get(bindingsPath(ws.id));
      expect(list.body.data.map((b: { attributes: { key: string } }) => b.attributes.key)).toEqual(["c"]);
      await t.api.patch(`/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", relationships: { "tag-bindings": { data: [] } } } });
      expect((await t.api.get(bindingsPath(ws.id))).body.data).toEqual([]);
    });

    it("shows effective bindings with those inherited from the project (C9)", async () => {
      const project = await t.api.post(`/api/v2/organizations/${t.org}/projects`, {
        data: {
          type: "projects",
          attributes: { name: uniqueName("prj") },
          relationships: { "tag-bindings": { data: [binding("dept", "r+d"), binding("env", "from-project")] } },
        },
      });
      expect(project.status).toBe(201);
      const prjId = project.body.data.id;
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {}, {
        project: { data: { type: "projects", id: prjId } },
        "tag-bindings": { data: [binding("env", "direct")] },
      });
      const r = await t.api.get(`/api/v2/workspaces/${ws.id}/effective-tag-bindings`);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(2);
      const [direct, inherited] = r.body.data;
      expect(direct).toEqual({ id: expect.stringMatching(/^[0-9a-f]{16}$/), type: "effective-tag-bindings", attributes: { key: "env", value: "direct" } });
      expect(inherited.attributes).toEqual({ key: "dept", value: "r+d" });
      expect(inherited.links).toEqual({ "inherited-from": `/api/v2/projects/${prjId}` });
      expect(inherited.relationships["inherited-from"].links.related).toBe(`/api/v2/projects/${prjId}`);
      const again = await t.api.get(`/api/v2/workspaces/${ws.id}/effective-tag-bindings`);
      expect(again.body.data.map((b: { id: string }) => b.id)).toEqual(r.body.data.map((b: { id: string }) => b.id));
    });

    it("combines several tagged filters with AND", async () => {
      const k1 = uniqueName("k").replace(/-/g, "_");
      const k2 = uniqueName("k").replace(/-/g, "_");
      const both = await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding(k1, "a"), binding(k2, "b")] } });
      await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding(k1, "a")] } });
      await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding(k2, "b")] } });
      const q = `filter[tagged][0][key]=${k1}&filter[tagged][0][value]=a&filter[tagged][1][key]=${k2}&filter[tagged][1][value]=b`;
      const r = await t.api.get(`/api/v2/organizations/${t.org}/workspaces?page[size]=100&${q}`);
      expect(r.body.data.map((w: { id: string }) => w.id)).toEqual([both.id]);
    });

    it("filters the list by tagged key and value, inherited ones included", async () => {
      const key = uniqueName("k").replace(/-/g, "_");
      const a = await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding(key, "x")] } });
      const b = await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding(key, "y")] } });
      const base = `/api/v2/organizations/${t.org}/workspaces?page[size]=100`;
      const anyValue = await t.api.get(`${base}&filter%5Btagged%5D%5B0%5D%5Bkey%5D=${key}&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=`);
      expect(anyValue.body.data.map((w: { id: string }) => w.id)).toEqual([a.id, b.id]);
      const onlyY = await t.api.get(`${base}&filter[tagged][0][key]=${key}&filter[tagged][0][value]=y`);
      expect(onlyY.body.data.map((w: { id: string }) => w.id)).toEqual([b.id]);
    });

    it.each([
      ["hc:reserved", "v", "/data/0/attributes/key"],
      ["hcp:reserved", "v", "/data/0/attributes/key"],
      ["k".repeat(129), "v", "/data/0/attributes/key"],
      ["ok", "v".repeat(257), "/data/0/attributes/value"],
      ["bad key", "v", "/data/0/attributes/key"],
      ["ok", "bad/value", "/data/0/attributes/value"],
      ["", "v", "/data/0/attributes/key"],
    ])("refuses key %j / value %j with 422 at %s", async (key, value, pointer) => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.patch(bindingsPath(ws.id), { data: [binding(key, value)] });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].status).toBe("422");
      expect(r.body.errors[0].source).toEqual({ pointer });
    });

    it("accepts the longest key and value and every allowed character", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.patch(bindingsPath(ws.id), { data: [binding("k".repeat(128), "v".repeat(256)), binding("a_.=+-@:Z9", "a_.=+-@:Z9")] });
      expect(r.status).toBe(200);
    });

    it("applies none of a C10 list when one member is invalid", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {}, { "tag-bindings": { data: [binding("env", "prod")] } });
      const r = await t.api.patch(bindingsPath(ws.id), { data: [binding("env", "dev"), binding("team", "a"), binding("hc:x", "v")] });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/2/attributes/key" });
      const list = await t.api.get(bindingsPath(ws.id));
      expect(list.body.data.map((b: { attributes: { key: string; value: string } }) => [b.attributes.key, b.attributes.value])).toEqual([["env", "prod"]]);
    });

    it("refuses an invalid binding in the workspace update's relationship with a pointer, applying nothing of the update", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { description: "before" }, { "tag-bindings": { data: [binding("a", "1")] } });
      const r = await t.api.patch(`/api/v2/workspaces/${ws.id}`, {
        data: { type: "workspaces", attributes: { description: "after" }, relationships: { "tag-bindings": { data: [binding("b", "2"), binding("hcp:x", "v")] } } },
      });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/relationships/tag-bindings/data/1/attributes/key" });
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes.description).toBe("before");
      expect((await t.api.get(bindingsPath(ws.id))).body.data.map((b: { attributes: { key: string } }) => b.attributes.key)).toEqual(["a"]);
    });

    it("creates nothing, not even a flat tag, when a create's tag binding is invalid", async () => {
      const name = uniqueName();
      const tag = uniqueName("never");
      const r = await t.api.post(
        `/api/v2/organizations/${t.org}/workspaces`,
        workspaceBody(name, {}, { tags: { data: [byName(tag)] }, "tag-bindings": { data: [binding("bad key")] } }),
      );
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/relationships/tag-bindings/data/0/attributes/key" });
      expect((await t.api.get(`/api/v2/organizations/${t.org}/workspaces/${name}`)).status).toBe(404);
      const orgTags = await t.api.get(`/api/v2/organizations/${t.org}/tags?page[size]=100`);
      expect(orgTags.body.data.map((x: { attributes: { name: string } }) => x.attributes.name)).not.toContain(tag);
    });

    it("refuses more than 10 direct bindings and applies none of them", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.patch(bindingsPath(ws.id), { data: Array.from({ length: 11 }, (_, i) => binding(`k${i}`, "v")) });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toBe("cannot exceed 10 bindings per resource");
      expect((await t.api.get(bindingsPath(ws.id))).body.data).toEqual([]);
      const create = await t.api.post(
        `/api/v2/organizations/${t.org}/workspaces`,
        workspaceBody(uniqueName(), {}, { "tag-bindings": { data: Array.from({ length: 11 }, (_, i) => binding(`k${i}`)) } }),
      );
      expect(create.status).toBe(422);
      expect(create.body.errors[0].source.pointer).toBe("/data/relationships/tag-bindings/data");
    });

    it("refuses more than 10 bindings on a project, so at most 10 are inherited", async () => {
      const r = await t.api.post(`/api/v2/organizations/${t.org}/projects`, {
        data: {
          type: "projects",
          attributes: { name: uniqueName("prj") },
          relationships: { "tag-bindings": { data: Array.from({ length: 11 }, (_, i) => binding(`k${i}`)) } },
        },
      });
      expect(r.status).toBe(422);
    });

    it("refuses a wrong member type with 422 and answers 404 on unknown workspaces", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.patch(bindingsPath(ws.id), { data: [{ type: "tags", attributes: { key: "a" } }] });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/0/type");
      expect((await t.api.get(bindingsPath("ws-nope"))).status).toBe(404);
      expect((await t.api.get("/api/v2/workspaces/ws-nope/effective-tag-bindings")).status).toBe(404);
      expect((await t.api.patch(bindingsPath("ws-nope"), { data: [] })).status).toBe(404);
    });
  });
});

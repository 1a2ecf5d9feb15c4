// Each finding of a real API client pointed at the emulator (issue 8), reproduced and pinned down:
// the emulator now answers as the service does.
import { createWorkspace, startTestEmulator, uniqueName, EDITIONS, type Doc, type TestEmulator } from "../support/emulator-http";

const ws = (id: string): string => `/api/v2/workspaces/${id}`;

describe.each(EDITIONS)("in the %s edition", (edition) => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  describe("safe delete of a locked workspace", () => {
    it("is refused with 409 saying the workspace is locked, by id and by name, and deletes nothing", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName());
      expect((await t.api.post(`${ws(w.id)}/actions/lock`, { reason: "applying" })).status).toBe(200);
      const byId = await t.api.post(`${ws(w.id)}/actions/safe-delete`);
      const byName = await t.api.post(`/api/v2/organizations/${t.org}/workspaces/${w.attributes.name}/actions/safe-delete`);
      const refusal = {
        errors: [{
          status: "409",
          title: "conflict",
          detail: "Workspace is currently locked. Workspace must be unlocked before it can be safely deleted",
        }],
      };
      expect([byId.status, byName.status]).toEqual([409, 409]);
      expect(byId.body).toEqual(refusal);
      expect(byName.body).toEqual(refusal);
      expect((await t.api.get(ws(w.id))).body.data.attributes.locked).toBe(true);
    });

    it("is refused while a run holds the lock, and succeeds once the workspace is unlocked", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName());
      const run = await t.api.post("/api/v2/runs", {
        data: { type: "runs", attributes: { status: "applying", "lock-workspace": true }, relationships: { workspace: { data: { type: "workspaces", id: w.id } } } },
      });
      expect(run.status).toBe(201);
      expect((await t.api.post(`${ws(w.id)}/actions/safe-delete`)).status).toBe(409);
      await t.api.patch(`/api/v2/runs/${run.body.data.id}`, { data: { type: "runs", attributes: { status: "applied" } } });
      expect((await t.api.post(`${ws(w.id)}/actions/safe-delete`)).status).toBe(204);
      expect((await t.api.get(ws(w.id))).status).toBe(404);
    });

    it("does not stop a force delete", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(`${ws(w.id)}/actions/lock`);
      expect((await t.api.delete(ws(w.id))).status).toBe(204);
    });
  });

  describe("include of tag bindings", () => {
    async function taggedWorkspace(): Promise<Doc> {
      const project = await t.api.post(`/api/v2/organizations/${t.org}/projects`, {
        data: {
          type: "projects",
          attributes: { name: uniqueName("p") },
          relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "web" } }] } },
        },
      });
      expect(project.status).toBe(201);
      return createWorkspace(t.api, t.org, uniqueName(), {}, {
        project: { data: { type: "projects", id: project.body.data.id } },
        "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] },
      });
    }

    const linkage = (rel: Doc): Array<{ id: string; type: string }> => rel.data;
    const keysOf = (doc: Doc, type: string): string[] =>
      doc.included.filter((r: Doc) => r.type === type).map((r: Doc) => r.attributes.key).sort();

    it("links every included effective binding from the workspace's relationship (show by id and by name)", async () => {
      const w = await taggedWorkspace();
      for (const path of [ws(w.id), `/api/v2/organizations/${t.org}/workspaces/${w.attributes.name}`]) {
        const r = await t.api.get(`${path}?include=effective_tag_bindings`);
        expect(r.status).toBe(200);
        const rel = r.body.data.relationships["effective-tag-bindings"];
        expect(rel.links.related).toBe(`${ws(w.id)}/effective-tag-bindings`);
        const included = r.body.included.filter((x: Doc) => x.type === "effective-tag-bindings");
        expect(linkage(rel)).toEqual(included.map((x: Doc) => ({ id: x.id, type: x.type })));
        expect(keysOf(r.body, "effective-tag-bindings")).toEqual(["env", "team"]);
      }
    });

    it("links every included direct binding with include=tag_bindings, and combines with effective bindings", async () => {
      const w = await taggedWorkspace();
      const r = await t.api.get(`${ws(w.id)}?include=tag_bindings,effective_tag_bindings`);
      expect(r.status).toBe(200);
      const direct = r.body.included.filter((x: Doc) => x.type === "tag-bindings");
      expect(direct).toHaveLength(1);
      expect(direct[0].id).toMatch(/^tb-/);
      expect(direct[0].attributes).toMatchObject({ key: "env", value: "prod" });
      expect(linkage(r.body.data.relationships["tag-bindings"])).toEqual([{ id: direct[0].id, type: "tag-bindings" }]);
      expect(linkage(r.body.data.relationships["effective-tag-bindings"])).toHaveLength(2);
    });

    it("links the included bindings of each workspace in a list", async () => {
      const w = await taggedWorkspace();
      const r = await t.api.get(`/api/v2/organizations/${t.org}/workspaces?search[name]=${w.attributes.name}&include=effective_tag_bindings`);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(1);
      const ids = linkage(r.body.data[0].relationships["effective-tag-bindings"]).map((x) => x.id).sort();
      expect(ids).toEqual(r.body.included.map((x: Doc) => x.id).sort());
    });

    it("keeps the relationship link-only when nothing is included", async () => {
      const w = await taggedWorkspace();
      const r = await t.api.get(ws(w.id));
      expect(r.body.data.relationships["effective-tag-bindings"]).toEqual({ links: { related: `${ws(w.id)}/effective-tag-bindings` } });
      expect(r.body.data.relationships["tag-bindings"]).toEqual({ links: { related: `${ws(w.id)}/tag-bindings` } });
      expect(r.body.included).toBeUndefined();
    });
  });

  describe("trigger patterns and trigger prefixes", () => {
    const attrs = async (id: string): Promise<Doc> => (await t.api.get(ws(id))).body.data.attributes;

    it("switches from prefixes to patterns with an update that sends only patterns, and back", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "trigger-prefixes": ["modules/"] });
      const toPatterns = await t.api.patch(ws(w.id), { data: { type: "workspaces", attributes: { "trigger-patterns": ["src/**/*"] } } });
      expect(toPatterns.status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "trigger-patterns": ["src/**/*"], "trigger-prefixes": [] });
      const toPrefixes = await t.api.patch(ws(w.id), { data: { type: "workspaces", attributes: { "trigger-prefixes": ["infra/"] } } });
      expect(toPrefixes.status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "trigger-patterns": [], "trigger-prefixes": ["infra/"] });
    });

    it("clears the other list when either is given empty", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "trigger-patterns": ["src/**/*"] });
      expect((await t.api.patch(ws(w.id), { data: { type: "workspaces", attributes: { "trigger-prefixes": [] } } })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "trigger-patterns": [], "trigger-prefixes": [] });
    });

    it("accepts both lists when one of them is empty", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "trigger-patterns": ["a/**"], "trigger-prefixes": [] });
      expect(w.attributes).toMatchObject({ "trigger-patterns": ["a/**"], "trigger-prefixes": [] });
    });

    it("refuses a request that sends both lists non-empty, on create and on update, and changes nothing", async () => {
      const both = { "trigger-patterns": ["a/**"], "trigger-prefixes": ["b/"] };
      const create = await t.api.post(`/api/v2/organizations/${t.org}/workspaces`, { data: { type: "workspaces", attributes: { name: uniqueName(), ...both } } });
      expect(create.status).toBe(422);
      expect(create.body.errors[0]).toEqual({
        status: "422",
        title: "invalid attribute",
        detail: "trigger-patterns and trigger-prefixes cannot both be set",
        source: { pointer: "/data/attributes/trigger-patterns" },
      });
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "trigger-prefixes": ["keep/"] });
      expect((await t.api.patch(ws(w.id), { data: { type: "workspaces", attributes: both } })).status).toBe(422);
      expect(await attrs(w.id)).toMatchObject({ "trigger-patterns": [], "trigger-prefixes": ["keep/"] });
    });

    it("refuses patterns with file triggers off, on create and on update, and changes nothing (issue 25)", async () => {
      const refusal = {
        status: "422",
        title: "invalid attribute",
        detail: "'trigger_patterns' cannot be populated when 'file_triggers_enabled' is set to false.",
        source: { pointer: "/data/attributes/trigger-patterns" },
      };
      const create = await t.api.post(`/api/v2/organizations/${t.org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: uniqueName(), "file-triggers-enabled": false, "trigger-patterns": ["src/**/*"] } },
      });
      expect(create.status).toBe(422);
      expect(create.body.errors[0]).toEqual(refusal);
      const off = await createWorkspace(t.api, t.org, uniqueName(), { "file-triggers-enabled": false });
      const update = await t.api.patch(ws(off.id), { data: { type: "workspaces", attributes: { "trigger-patterns": ["src/**/*"] } } });
      expect(update.status).toBe(422);
      expect(update.body.errors[0]).toEqual(refusal);
      const withPatterns = await createWorkspace(t.api, t.org, uniqueName(), { "trigger-patterns": ["src/**/*"] });
      const turnOff = await t.api.patch(ws(withPatterns.id), { data: { type: "workspaces", attributes: { "file-triggers-enabled": false } } });
      expect(turnOff.status).toBe(422);
      expect(await attrs(withPatterns.id)).toMatchObject({ "file-triggers-enabled": true, "trigger-patterns": ["src/**/*"] });
      expect(await attrs(off.id)).toMatchObject({ "file-triggers-enabled": false, "trigger-patterns": [] });
    });

    it("accepts prefixes with file triggers off, and an empty pattern list", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "file-triggers-enabled": false, "trigger-prefixes": ["modules/"] });
      expect(w.attributes).toMatchObject({ "file-triggers-enabled": false, "trigger-prefixes": ["modules/"] });
      const empty = await t.api.patch(ws(w.id), { data: { type: "workspaces", attributes: { "trigger-patterns": [] } } });
      expect(empty.status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "file-triggers-enabled": false, "trigger-patterns": [], "trigger-prefixes": [] });
    });
  });

  describe("auto-destroy-at without a duration (issue 25)", () => {
    const attrs = async (id: string): Promise<Doc> => (await t.api.get(ws(id))).body.data.attributes;
    const patch = (id: string, attributes: Doc) => t.api.patch(ws(id), { data: { type: "workspaces", attributes } });
    const project = async (duration: string | null): Promise<Doc> =>
      (await t.api.post(`/api/v2/organizations/${t.org}/projects`, {
        data: { type: "projects", attributes: { name: uniqueName("p"), "auto-destroy-activity-duration": duration } },
      })).body.data;

    it("an update naming auto-destroy-at null and not the duration clears the workspace's own duration", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "3d" });
      expect((await patch(w.id, { "auto-destroy-at": null })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "auto-destroy-at": null, "auto-destroy-activity-duration": null });
    });

    it("an update naming a time and not the duration replaces the duration with the time", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "3d" });
      expect((await patch(w.id, { "auto-destroy-at": "2100-01-01T00:00:00Z" })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({
        "auto-destroy-at": "2100-01-01T00:00:00.000Z", "auto-destroy-activity-duration": null, "inherits-project-auto-destroy": false,
      });
    });

    it("an update naming both keeps the one that is set", async () => {
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "3d" });
      expect((await patch(w.id, { "auto-destroy-at": null, "auto-destroy-activity-duration": "4d" })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "auto-destroy-at": null, "auto-destroy-activity-duration": "4d" });
    });

    it("a workspace in a project with a duration that clears its own time inherits again", async () => {
      const p = await project("6d");
      const inProject = { project: { data: { type: "projects", id: p.id } } };
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-at": "2100-01-01T00:00:00Z" }, inProject);
      expect(w.attributes).toMatchObject({ "inherits-project-auto-destroy": false, "auto-destroy-activity-duration": null });
      expect((await patch(w.id, { "auto-destroy-at": null })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({
        "auto-destroy-at": null, "inherits-project-auto-destroy": true, "auto-destroy-activity-duration": "6d",
      });
    });

    it("a workspace that clears its own time but says it does not inherit keeps not inheriting", async () => {
      const p = await project("6d");
      const inProject = { project: { data: { type: "projects", id: p.id } } };
      const w = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-at": "2100-01-01T00:00:00Z" }, inProject);
      expect((await patch(w.id, { "auto-destroy-at": null, "inherits-project-auto-destroy": false })).status).toBe(200);
      expect(await attrs(w.id)).toMatchObject({ "inherits-project-auto-destroy": false, "auto-destroy-activity-duration": null });
    });
  });

  describe("project-remote-state", () => {
    const consumers = async (id: string): Promise<string[]> =>
      (await t.api.get(`${ws(id)}/relationships/remote-state-consumers`)).body.data.map((x: Doc) => x.id).sort();

    // Both editions: a real client reads back from the hosted one what it wrote there (issue 25).
    it("is stored and returned, false by default, and a PATCH of true reads back", async () => {
      const plain = await createWorkspace(t.api, t.org, uniqueName());
      expect(plain.attributes["project-remote-state"]).toBe(false);
      const shared = await createWorkspace(t.api, t.org, uniqueName(), { "project-remote-state": true });
      expect(shared.attributes["project-remote-state"]).toBe(true);
      const off = await t.api.patch(ws(shared.id), { data: { type: "workspaces", attributes: { "project-remote-state": false } } });
      expect(off.body.data.attributes["project-remote-state"]).toBe(false);
      const on = await t.api.patch(ws(plain.id), { data: { type: "workspaces", attributes: { "project-remote-state": true } } });
      expect(on.status).toBe(200);
      expect((await t.api.get(ws(plain.id))).body.data.attributes["project-remote-state"]).toBe(true);
    });

    it("makes the consumer list every other workspace of the same project", async () => {
      const project = await t.api.post(`/api/v2/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: uniqueName("p") } } });
      const inProject = { project: { data: { type: "projects", id: project.body.data.id } } };
      const subject = await createWorkspace(t.api, t.org, uniqueName(), { "project-remote-state": true }, inProject);
      const sibling = await createWorkspace(t.api, t.org, uniqueName(), {}, inProject);
      await createWorkspace(t.api, t.org, uniqueName()); // another project: not a consumer
      expect(await consumers(subject.id)).toEqual([sibling.id]);
    });

    it("refuses to be combined with global-remote-state, on create and on update", async () => {
      const detail = "Project remote state cannot be enabled when global remote state sharing is enabled";
      const create = await t.api.post(`/api/v2/organizations/${t.org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: uniqueName(), "project-remote-state": true, "global-remote-state": true } },
      });
      expect(create.status).toBe(422);
      expect(create.body.errors[0]).toMatchObject({ title: "invalid attribute", detail, source: { pointer: "/data/attributes/project-remote-state" } });
      const global = await createWorkspace(t.api, t.org, uniqueName(), { "global-remote-state": true });
      const update = await t.api.patch(ws(global.id), { data: { type: "workspaces", attributes: { "project-remote-state": true } } });
      expect(update.status).toBe(422);
      expect(update.body.errors[0].detail).toBe(detail);
      const shared = await createWorkspace(t.api, t.org, uniqueName(), { "project-remote-state": true });
      expect((await t.api.patch(ws(shared.id), { data: { type: "workspaces", attributes: { "global-remote-state": true } } })).status).toBe(422);
      expect((await t.api.get(ws(shared.id))).body.data.attributes).toMatchObject({ "project-remote-state": true, "global-remote-state": false });
    });

    it("refuses changes to the consumer list while it is on", async () => {
      const shared = await createWorkspace(t.api, t.org, uniqueName(), { "project-remote-state": true });
      const other = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.post(`${ws(shared.id)}/relationships/remote-state-consumers`, { data: [{ type: "workspaces", id: other.id }] });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toBe("Remote state consumers cannot be changed while project remote state sharing is enabled");
    });
  });

  describe("organizations", () => {
    const orgBody = (attributes: Record<string, unknown>): Doc => ({ data: { type: "organizations", attributes } });

    it("created with only a name and an email reports null session settings and aggregated commit statuses on (issue 25)", async () => {
      const name = uniqueName("org");
      const created = await t.api.post("/api/v2/organizations", orgBody({ name, email: "owner@example.com" }));
      expect(created.status).toBe(201);
      const expected = { "session-timeout": null, "session-remember": null, "aggregated-commit-status-enabled": true };
      expect(created.body.data.attributes).toMatchObject(expected);
      expect((await t.api.get(`/api/v2/organizations/${name}`)).body.data.attributes).toMatchObject(expected);
    });

    it("keeps session minutes once set, with no upper bound the clients know of", async () => {
      const name = uniqueName("org");
      await t.api.post("/api/v2/organizations", orgBody({ name, email: "owner@example.com" }));
      const r = await t.api.patch(`/api/v2/organizations/${name}`, orgBody({ "session-timeout": 3600, "session-remember": 43200 }));
      expect(r.status).toBe(200);
      expect((await t.api.get(`/api/v2/organizations/${name}`)).body.data.attributes).toMatchObject({ "session-timeout": 3600, "session-remember": 43200 });
    });

    it("POST /organizations keeps default-execution-mode, and new workspaces get it", async () => {
      const name = uniqueName("org");
      const r = await t.api.post("/api/v2/organizations", orgBody({ name, email: "ops@example.com", "default-execution-mode": "local" }));
      expect(r.status).toBe(201);
      expect(r.body.data.attributes["default-execution-mode"]).toBe("local");
      expect((await t.api.get(`/api/v2/organizations/${name}`)).body.data.attributes["default-execution-mode"]).toBe("local");
      const w = await createWorkspace(t.api, name, uniqueName());
      expect(w.attributes["execution-mode"]).toBe("local");
      expect(w.attributes.operations).toBe(false);
    });

    it("POST /organizations refuses what PATCH refuses, and creates nothing", async () => {
      const name = uniqueName("org");
      const bad = await t.api.post("/api/v2/organizations", orgBody({ name, "default-execution-mode": "sometimes" }));
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].source).toEqual({ pointer: "/data/attributes/default-execution-mode" });
      // agent needs a default pool, which a new organization cannot have yet
      const agent = await t.api.post("/api/v2/organizations", orgBody({ name, "default-execution-mode": "agent" }));
      expect(agent.status).toBe(422);
      expect((await t.api.get(`/api/v2/organizations/${name}`)).status).toBe(404);
    });

    it("DELETE /organizations/:name removes the organization and everything in it", async () => {
      const name = uniqueName("org");
      expect((await t.api.post("/api/v2/organizations", orgBody({ name }))).status).toBe(201);
      const w = await createWorkspace(t.api, name, uniqueName());
      const key = await t.api.post(`/api/v2/organizations/${name}/ssh-keys`, { data: { type: "ssh-keys", attributes: { name: "k", value: "ssh-rsa AAAA" } } });
      expect(key.status).toBe(201);
      const orgToken = t.emu.issueToken({ kind: "organization", organization: name });
      expect((await t.api.as(orgToken).get(`/api/v2/organizations/${name}/workspaces`)).status).toBe(200);

      expect((await t.api.delete(`/api/v2/organizations/${name}`)).status).toBe(204);
      expect((await t.api.get(`/api/v2/organizations/${name}`)).status).toBe(404);
      expect((await t.api.get(ws(w.id))).status).toBe(404);
      expect((await t.api.get(`/api/v2/ssh-keys/${key.body.data.id}`)).status).toBe(404);
      expect((await t.api.as(orgToken).get(`/api/v2/organizations/${name}/workspaces`)).status).toBe(401);
      expect((await t.api.get("/api/v2/organizations")).body.data.map((o: Doc) => o.id)).not.toContain(name);
      // the owner's token still works for the default organization, and the name can be taken again
      expect((await t.api.get(`/api/v2/organizations/${t.org}`)).status).toBe(200);
      expect((await t.api.post("/api/v2/organizations", orgBody({ name }))).status).toBe(201);
      expect((await t.api.get(`/api/v2/organizations/${name}/workspaces`)).body.data).toEqual([]);
    });

    it("DELETE /organizations/:name answers 404 to a caller who is not an owner, and deletes nothing", async () => {
      const admin = t.clientFor({ kind: "team", access: "manage-all-workspaces" });
      expect((await admin.delete(`/api/v2/organizations/${t.org}`)).status).toBe(404);
      expect((await t.api.delete("/api/v2/organizations/no-such-org")).status).toBe(404);
      expect((await t.api.get(`/api/v2/organizations/${t.org}`)).status).toBe(200);
    });

    if (edition === "self-managed") {
      it("points at its default data retention policy once it is set, and at none after it is removed", async () => {
        const name = uniqueName("org");
        await t.api.post("/api/v2/organizations", orgBody({ name }));
        const rel = async (): Promise<Doc> => (await t.api.get(`/api/v2/organizations/${name}`)).body.data.relationships["data-retention-policy"];
        expect(await rel()).toEqual({ data: null, links: { related: `/api/v2/organizations/${name}/relationships/data-retention-policy` } });
        const set = await t.api.post(`/api/v2/organizations/${name}/relationships/data-retention-policy`, {
          data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 30 } },
        });
        expect(set.status).toBe(201);
        expect((await rel()).data).toEqual({ id: set.body.data.id, type: "data-retention-policy-delete-olders" });
        const followed = await t.api.get((await rel()).links.related);
        expect(followed.body.data.attributes).toEqual({ "delete-older-than-n-days": 30 });
        await t.api.post(`/api/v2/organizations/${name}/relationships/data-retention-policy`, { data: { type: "data-retention-policy-dont-deletes" } });
        expect((await rel()).data.type).toBe("data-retention-policy-dont-deletes");
        expect((await t.api.delete(`/api/v2/organizations/${name}/relationships/data-retention-policy`)).status).toBe(204);
        expect((await rel()).data).toBeNull();
      });
    } else {
      it("has no data retention policy relationship (the hosted edition has no such policies)", async () => {
        const r = await t.api.get(`/api/v2/organizations/${t.org}`);
        expect(r.body.data.relationships["data-retention-policy"]).toBeUndefined();
      });
    }
  });
});

import {
  createWorkspace,
  startTestEmulator,
  TIMESTAMP,
  uniqueName,
  WORKSPACE_ID,
  workspaceBody,
  type TestEmulator, EDITIONS } from "../support/emulator-http";


const RESPONSE_ATTRIBUTES = [
  "actions",
  "allow-destroy-plan",
  "apply-duration-average",
  "auto-apply",
  "auto-apply-run-trigger",
  "auto-destroy-activity-duration",
  "auto-destroy-at",
  "auto-destroy-status",
  "created-at",
  "description",
  "engine-version",
  "environment",
  "execution-mode",
  "file-triggers-enabled",
  "global-remote-state",
  "inherits-project-auto-destroy",
  "last-assessment-result-at",
  "latest-change-at",
  "locked",
  "locked-reason",
  "name",
  "oauth-client-name",
  "operations",
  "permissions",
  "plan-duration-average",
  "policy-check-failures",
  "queue-all-runs",
  "resource-count",
  "run-failures",
  "setting-overwrites",
  "source",
  "source-name",
  "source-url",
  "speculative-enabled",
  "structured-run-output-enabled",
  "tag-names",
  "trigger-patterns",
  "trigger-prefixes",
  "updated-at",
  "vcs-repo",
  "vcs-repo-identifier",
  "working-directory",
  "workspace-kpis-runs-count",
];

const RELATIONSHIPS = [
  "agent-pool",
  "current-configuration-version",
  "current-run",
  "latest-run",
  "current-state-version",
  "current-assessment-result",
  "organization",
  "outputs",
  "project",
  "readme",
  "remote-state-consumers",
  "ssh-key",
  "tag-bindings",
  "effective-tag-bindings",
  "vars",
];

const PERMISSIONS = [
  "can-update",
  "can-destroy",
  "can-queue-run",
  "can-read-run",
  "can-read-variable",
  "can-update-variable",
  "can-read-state-versions",
  "can-read-state-outputs",
  "can-create-state-versions",
  "can-queue-apply",
  "can-lock",
  "can-unlock",
  "can-force-unlock",
  "can-read-settings",
  "can-manage-tags",
  "can-manage-run-tasks",
  "can-force-delete",
  "can-manage-assessments",
  "can-manage-ephemeral-workspaces",
  "can-read-assessment-results",
  "can-queue-destroy",
];

/** The `include` values the spec allows on A2–A4. */
const SPEC_INCLUDES = [
  "current_configuration_version",
  "current_configuration_version.ingress_attributes",
  "current_run",
  "current_run.configuration_version",
  "current_run.configuration_version.ingress_attributes",
  "current_run.plan",
  "locked_by",
  "organization",
  "outputs",
  "project",
  "readme",
];

describe.each(EDITIONS)("workspaces in the %s edition", (edition) => {
  let t: TestEmulator;
  let base: string;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
    base = `/api/v2/organizations/${t.org}/workspaces`;
  });
  afterAll(() => t.close());

  describe("ping and authentication", () => {
    it("answers ping with 204 and the edition's headers", async () => {
      const r = await t.api.get("/api/v2/ping", { token: null });
      expect(r.status).toBe(204);
      expect(r.headers["tfp-api-version"]).toBe("2.6");
      expect(r.headers["tfp-appname"]).toBe(edition === "hosted" ? "HCP Terraform" : "Terraform Enterprise");
      expect(r.headers["x-tfe-version"]).toBe(edition === "hosted" ? undefined : "v202510-1");
      expect(r.headers["x-ratelimit-limit"]).toBe("30");
      expect(r.headers["x-wsbridge-edition"]).toBe(edition);
      expect(r.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
    });

    it("answers 401 with the same body for a missing and an invalid token", async () => {
      const missing = await t.api.get(base, { token: null });
      const invalid = await t.api.get(base, { token: "nope" });
      expect(missing.status).toBe(401);
      expect(invalid.status).toBe(401);
      expect(missing.body).toEqual({ errors: [{ status: "401", title: "unauthorized" }] });
      expect(invalid.text).toBe(missing.text);
      expect(missing.headers["content-type"]).toBe("application/vnd.api+json");
    });

    it("answers 404 for an unknown route even without a token", async () => {
      const r = await t.api.get("/api/v2/nothing-here", { token: null });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ errors: [{ status: "404", title: "not found" }] });
    });
  });

  describe("A1 create", () => {
    it("returns 201 with every response attribute, relationship and link", async () => {
      const name = uniqueName();
      const r = await t.api.post(base, workspaceBody(name, { description: "first" }));
      expect(r.status).toBe(201);
      expect(r.headers["content-type"]).toBe("application/vnd.api+json");
      const ws = r.body.data;
      expect(ws.type).toBe("workspaces");
      expect(ws.id).toMatch(WORKSPACE_ID);
      const expected = edition === "hosted" ? [...RESPONSE_ATTRIBUTES, "assessments-enabled", "project-remote-state"] : [...RESPONSE_ATTRIBUTES, "project-remote-state"];
      expect(Object.keys(ws.attributes).sort()).toEqual([...expected].sort());
      const rels = edition === "hosted" ? RELATIONSHIPS : [...RELATIONSHIPS, "data-retention-policy"];
      expect(Object.keys(ws.relationships).sort()).toEqual([...rels].sort());
      expect(Object.keys(ws.attributes.permissions).sort()).toEqual([...PERMISSIONS].sort());
      expect(ws.links).toEqual({
        self: `/api/v2/organizations/${t.org}/workspaces/${name}`,
        "self-html": `/app/${t.org}/workspaces/${name}`,
      });
      expect(ws.relationships["remote-state-consumers"]).toEqual({
        links: { related: `/api/v2/workspaces/${ws.id}/relationships/remote-state-consumers` },
      });
      expect(ws.relationships["tag-bindings"]).toEqual({ links: { related: `/api/v2/workspaces/${ws.id}/tag-bindings` } });
      expect(ws.relationships["effective-tag-bindings"]).toEqual({
        links: { related: `/api/v2/workspaces/${ws.id}/effective-tag-bindings` },
      });
      expect(ws.relationships["current-state-version"]).toEqual({
        data: null,
        links: { related: `/api/v2/workspaces/${ws.id}/current-state-version` },
      });
      expect(ws.relationships.outputs.links.related).toBe(`/api/v2/workspaces/${ws.id}/current-state-version-outputs`);
      expect(ws.relationships.organization).toEqual({ data: { id: t.org, type: "organizations" } });
      expect(ws.relationships.project.data.id).toMatch(/^prj-[A-Za-z0-9]{16}$/);
      expect(ws.attributes["created-at"]).toMatch(TIMESTAMP);
      expect(ws.attributes["updated-at"]).toMatch(TIMESTAMP);
      expect(ws.attributes["latest-change-at"]).toBe(ws.attributes["created-at"]);
    });

    it("applies the spec's defaults on create", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const a = ws.attributes;
      expect(a["allow-destroy-plan"]).toBe(true);
      expect(a["auto-apply"]).toBe(false);
      expect(a["auto-apply-run-trigger"]).toBe(false);
      expect(a["file-triggers-enabled"]).toBe(true);
      expect(a["global-remote-state"]).toBe(false);
      expect(a["queue-all-runs"]).toBe(false);
      expect(a["speculative-enabled"]).toBe(true);
      expect(a.operations).toBe(true);
      expect(a["execution-mode"]).toBe("remote");
      expect(a["trigger-prefixes"]).toEqual([]);
      expect(a["trigger-patterns"]).toEqual([]);
      expect(a["engine-version"]).toBe("1.14.1");
      expect(a.locked).toBe(false);
      expect(a["resource-count"]).toBe(0);
      expect(a.source).toBe("tfe-api");
      expect(a["vcs-repo"]).toBeNull();
      expect(a["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
      if (edition === "hosted") expect(a["assessments-enabled"]).toBe(false);
    });

    it("stores every basic writable attribute", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), {
        "allow-destroy-plan": false,
        "auto-apply": true,
        "auto-apply-run-trigger": true,
        "auto-destroy-activity-duration": "14d",
        description: "desc",
        "execution-mode": "local",
        "file-triggers-enabled": false,
        "global-remote-state": true,
        "queue-all-runs": true,
        "source-name": "my-tool",
        "source-url": "https://example.com/tool",
        "speculative-enabled": false,
        "structured-run-output-enabled": false,
        "engine-version": "1.5.7",
        "trigger-prefixes": ["modules/"],
        "working-directory": "infra",
      });
      const a = ws.attributes;
      expect(a["allow-destroy-plan"]).toBe(false);
      expect(a["auto-apply"]).toBe(true);
      expect(a["auto-apply-run-trigger"]).toBe(true);
      expect(a["auto-destroy-at"]).toBeNull();
      expect(a["auto-destroy-activity-duration"]).toBe("14d");
      expect(a["inherits-project-auto-destroy"]).toBe(false);
      expect(a["structured-run-output-enabled"]).toBe(false);
      expect(a.description).toBe("desc");
      expect(a["execution-mode"]).toBe("local");
      expect(a.operations).toBe(false);
      expect(a["file-triggers-enabled"]).toBe(false);
      expect(a["global-remote-state"]).toBe(true);
      expect(a["queue-all-runs"]).toBe(true);
      expect(a["source-name"]).toBe("my-tool");
      expect(a["source-url"]).toBe("https://example.com/tool");
      expect(a["speculative-enabled"]).toBe(false);
      expect(a["engine-version"]).toBe("1.5.7");
      expect(a["trigger-prefixes"]).toEqual(["modules/"]);
      expect(a["working-directory"]).toBe("infra");
    });

    it("requires a name and names the pointer", async () => {
      const r = await t.api.post(base, { data: { type: "workspaces", attributes: {} } });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({
        errors: [{ status: "422", title: "invalid attribute", detail: "Name can't be blank", source: { pointer: "/data/attributes/name" } }],
      });
    });

    it.each(["has space", "slash/name", "dot.name", "ümlaut"])("rejects the name %j with 422", async (name) => {
      const r = await t.api.post(base, workspaceBody(name));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/name" });
    });

    it("rejects a taken name with the service's error", async () => {
      const name = uniqueName();
      await createWorkspace(t.api, t.org, name);
      const r = await t.api.post(base, workspaceBody(name));
      expect(r.status).toBe(422);
      expect(r.body).toEqual({
        errors: [
          {
            status: "422",
            title: "invalid attribute",
            detail: "Name has already been taken",
            source: { pointer: "/data/attributes/name" },
          },
        ],
      });
    });

    it("rejects a wrong data.type with 422 pointing at /data/type", async () => {
      const r = await t.api.post(base, { data: { type: "projects", attributes: { name: uniqueName() } } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/type" });
    });

    it("rejects malformed JSON with 400", async () => {
      const r = await t.api.request("POST", base, { raw: '{"data":' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errors: [{ status: "400", title: "bad request", detail: "Malformed request body: not valid JSON" }] });
    });

    it("rejects a wrong content type with 415", async () => {
      const r = await t.api.request("POST", base, { raw: JSON.stringify(workspaceBody(uniqueName())), contentType: "text/plain" });
      expect(r.status).toBe(415);
      expect(r.body.errors[0].status).toBe("415");
      expect(r.body.errors[0].title).toBe("unsupported media type");
    });

    it("rejects an oversize body with 413 and stays up", async () => {
      const big = JSON.stringify({ data: { type: "workspaces", attributes: { name: "x", description: "a".repeat(9 * 1024 * 1024) } } });
      const r = await t.api.request("POST", base, { raw: big });
      expect(r.status).toBe(413);
      expect(r.body.errors[0].title).toBe("payload too large");
      const ping = await t.api.get("/api/v2/ping");
      expect(ping.status).toBe(204);
    });

    it("rejects a body that is not a document with 422", async () => {
      for (const body of [[], "text", { data: [] }, { data: { type: "workspaces", attributes: [] } }]) {
        const r = await t.api.post(base, body);
        expect(r.status).toBe(422);
        expect(r.body.errors[0].status).toBe("422");
      }
    });

    it("rejects wrongly typed attributes with 422 and a pointer, creating nothing", async () => {
      const name = uniqueName();
      const r = await t.api.post(base, workspaceBody(name, { "auto-apply": "yes" }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/auto-apply" });
      const show = await t.api.get(`${base}/${name}`);
      expect(show.status).toBe(404);
    });

    it("ignores unknown attributes, like the service", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "resource-count": 7, "made-up": true, "terraform-version": "0.0.1" });
      expect(ws.attributes["resource-count"]).toBe(0);
      expect(ws.attributes["made-up"]).toBeUndefined();
      expect(ws.attributes["terraform-version"]).toBeUndefined();
    });

    it("answers 404 for an organization that does not exist", async () => {
      const r = await t.api.post("/api/v2/organizations/no-such-org/workspaces", workspaceBody(uniqueName()));
      expect(r.status).toBe(404);
    });

    it("echoes an engine version constraint and rejects unknown versions", async () => {
      const ok = await createWorkspace(t.api, t.org, uniqueName(), { "engine-version": "~> 1.5.0" });
      expect(ok.attributes["engine-version"]).toBe("~> 1.5.0");
      for (const v of ["9.9.9", "nonexisting", "~> 7.0"]) {
        const r = await t.api.post(base, workspaceBody(uniqueName(), { "engine-version": v }));
        expect(r.status).toBe(422);
        expect(r.body.errors[0].source).toEqual({ pointer: "/data/attributes/engine-version" });
      }
    });

    it("validates auto-destroy-activity-duration", async () => {
      for (const v of ["0d", "12345d", "5m", "d", "1.5h"]) {
        const r = await t.api.post(base, workspaceBody(uniqueName(), { "auto-destroy-activity-duration": v }));
        expect(r.status).toBe(422);
        expect(r.body.errors[0].source.pointer).toBe("/data/attributes/auto-destroy-activity-duration");
      }
      const ok = await createWorkspace(t.api, t.org, uniqueName(), { "auto-destroy-activity-duration": "9999h" });
      expect(ok.attributes["auto-destroy-activity-duration"]).toBe("9999h");
    });

    it("refuses execution-mode together with operations", async () => {
      const r = await t.api.post(base, workspaceBody(uniqueName(), { "execution-mode": "remote", operations: true }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/operations");
    });

    it("maps the deprecated operations flag to an execution mode", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { operations: false });
      expect(ws.attributes["execution-mode"]).toBe("local");
      expect(ws.attributes.operations).toBe(false);
    });

    it("rejects an unknown execution mode", async () => {
      const r = await t.api.post(base, workspaceBody(uniqueName(), { "execution-mode": "cloud" }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/execution-mode");
    });

    it("requires an agent pool in agent mode and refuses one in remote mode", async () => {
      const noPool = await t.api.post(base, workspaceBody(uniqueName(), { "execution-mode": "agent" }));
      expect(noPool.status).toBe(422);
      expect(noPool.body.errors[0].source.pointer).toBe("/data/attributes/agent-pool-id");
      const withRemote = await t.api.post(base, workspaceBody(uniqueName(), { "execution-mode": "remote", "agent-pool-id": "apool-x" }));
      expect(withRemote.status).toBe(422);
      expect(withRemote.body.errors[0].source.pointer).toBe("/data/attributes/agent-pool-id");
      const unknown = await t.api.post(base, workspaceBody(uniqueName(), { "execution-mode": "agent", "agent-pool-id": "apool-none" }));
      expect(unknown.status).toBe(422);
    });

    it("treats an empty agent-pool-id as none", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "execution-mode": "remote", "agent-pool-id": "" });
      expect(ws.relationships["agent-pool"]).toEqual({ data: null });
    });

    it("requires execution-mode when setting-overwrites.execution-mode is true", async () => {
      const r = await t.api.post(base, workspaceBody(uniqueName(), { "setting-overwrites": { "execution-mode": true } }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/execution-mode");
    });

    it("refuses trigger-prefixes together with trigger-patterns", async () => {
      const r = await t.api.post(base, workspaceBody(uniqueName(), { "trigger-prefixes": ["a/"], "trigger-patterns": ["b/**"] }));
      expect(r.status).toBe(422);
    });
  });

  describe("A2 list", () => {
    it("lists with absolute, percent-encoded pagination links and meta.pagination", async () => {
      const r = await t.api.get(`${base}?page%5Bsize%5D=2&page%5Bnumber%5D=2`);
      expect(r.status).toBe(200);
      const total = r.body.meta.pagination["total-count"];
      expect(total).toBeGreaterThan(4);
      const pages = Math.ceil(total / 2);
      expect(r.body.meta.pagination).toEqual({
        "current-page": 2,
        "page-size": 2,
        "prev-page": 1,
        "next-page": 3,
        "total-pages": pages,
        "total-count": total,
      });
      expect(r.body.data).toHaveLength(2);
      expect(r.body.links.self).toBe(`${t.emu.url}${base}?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
      expect(r.body.links.first).toBe(`${t.emu.url}${base}?page%5Bnumber%5D=1&page%5Bsize%5D=2`);
      expect(r.body.links.prev).toBe(`${t.emu.url}${base}?page%5Bnumber%5D=1&page%5Bsize%5D=2`);
      expect(r.body.links.next).toBe(`${t.emu.url}${base}?page%5Bnumber%5D=3&page%5Bsize%5D=2`);
      expect(r.body.links.last).toBe(`${t.emu.url}${base}?page%5Bnumber%5D=${pages}&page%5Bsize%5D=2`);
    });

    it("uses a page size of 20 by default and null prev on the first page", async () => {
      const r = await t.api.get(base);
      expect(r.body.meta.pagination["page-size"]).toBe(20);
      expect(r.body.meta.pagination["prev-page"]).toBeNull();
      expect(r.body.links.prev).toBeNull();
    });

    it("answers a page past the end with 200 and no data", async () => {
      const r = await t.api.get(`${base}?page[number]=999`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
      expect(r.body.meta.pagination["current-page"]).toBe(999);
      expect(r.body.meta.pagination["next-page"]).toBeNull();
    });

    it("refuses page[size] over 100 with 422", async () => {
      const r = await t.api.get(`${base}?page[size]=101`);
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ errors: [{ status: "422", title: "invalid attribute", detail: "page[size] must be between 1 and 100" }] });
      expect((await t.api.get(`${base}?page%5Bsize%5D=100`)).status).toBe(200);
    });

    it("refuses a malformed query string with 400", async () => {
      const r = await t.api.get(`${base}?page%ZZ=1`);
      expect(r.status).toBe(400);
    });

    it("keeps a stable default order", async () => {
      const a = await t.api.get(`${base}?page[size]=100`);
      const b = await t.api.get(`${base}?page[size]=100`);
      expect(a.body.data.map((w: { id: string }) => w.id)).toEqual(b.body.data.map((w: { id: string }) => w.id));
    });
  });

  describe("A3/A4 show", () => {
    it("shows the same document by id and by name", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const byId = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      const byName = await t.api.get(`${base}/${ws.attributes.name}`);
      expect(byId.status).toBe(200);
      expect(byName.status).toBe(200);
      expect(byName.body).toEqual(byId.body);
      expect(byId.body.data).toEqual(ws);
    });

    it("answers 404 for unknown ids and names", async () => {
      expect((await t.api.get("/api/v2/workspaces/nonexisting")).status).toBe(404);
      expect((await t.api.get(`${base}/nonexisting`)).status).toBe(404);
    });

    it("embeds included organization and project", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.get(`/api/v2/workspaces/${ws.id}?include=organization,project`);
      expect(r.status).toBe(200);
      const types = r.body.included.map((i: { type: string }) => i.type).sort();
      expect(types).toEqual(["organizations", "projects"]);
      expect(r.body.included.find((i: { type: string }) => i.type === "organizations").id).toBe(t.org);
    });

    it.each(SPEC_INCLUDES)("accepts include=%s on A2, A3 and A4", async (include) => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      for (const path of [`${base}?include=${include}`, `${base}/${ws.attributes.name}?include=${include}`, `/api/v2/workspaces/${ws.id}?include=${include}`]) {
        const r = await t.api.get(path);
        expect(r.status).toBe(200);
        expect(Array.isArray(r.body.included)).toBe(true);
      }
    });

    it("embeds the organization, project, locker and outputs of every listed workspace once", async () => {
      const prefix = uniqueName("inc").replace(/-/g, "");
      const a = await createWorkspace(t.api, t.org, `${prefix}-a`);
      await createWorkspace(t.api, t.org, `${prefix}-b`);
      await t.api.post(`/api/v2/workspaces/${a.id}/actions/lock`);
      const state = Buffer.from(JSON.stringify({ version: 4, serial: 1, lineage: "l", outputs: { url: { value: "u", type: "string" } }, resources: [] })).toString("base64");
      await t.api.post(`/api/v2/workspaces/${a.id}/state-versions`, { data: { type: "state-versions", attributes: { serial: 1, md5: "m", state } } });
      const r = await t.api.get(`${base}?search[name]=${prefix}&include=organization,project,locked_by,outputs`);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(2);
      const types = r.body.included.map((i: { type: string }) => i.type).sort();
      expect(types).toEqual(["organizations", "projects", "users", "workspace-outputs"]);
      const output = r.body.included.find((i: { type: string }) => i.type === "workspace-outputs");
      expect(r.body.data[0].relationships.outputs.data).toEqual([{ id: output.id, type: "workspace-outputs" }]);
    });

    it("refuses an unknown include value with 400", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.get(`/api/v2/workspaces/${ws.id}?include=nonsense`);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].detail).toContain("include parameter");
    });
  });

  describe("A5/A6 update", () => {
    it("updates only the attributes given", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { description: "before", "auto-apply": true });
      const r = await t.api.patch(`/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { description: "after" } } });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.description).toBe("after");
      expect(r.body.data.attributes["auto-apply"]).toBe(true);
      expect(r.body.data.attributes["updated-at"]).toMatch(TIMESTAMP);
    });

    it("renames through A6 and moves the workspace's URL", async () => {
      const oldName = uniqueName();
      const ws = await createWorkspace(t.api, t.org, oldName);
      const newName = uniqueName("renamed");
      const r = await t.api.patch(`${base}/${oldName}`, { data: { type: "workspaces", attributes: { name: newName } } });
      expect(r.status).toBe(200);
      expect(r.body.data.id).toBe(ws.id);
      expect(r.body.data.links.self).toBe(`/api/v2/organizations/${t.org}/workspaces/${newName}`);
      expect((await t.api.get(`${base}/${oldName}`)).status).toBe(404);
      expect((await t.api.get(`${base}/${newName}`)).status).toBe(200);
    });

    it("refuses renaming onto a taken name", async () => {
      const a = await createWorkspace(t.api, t.org, uniqueName());
      const b = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.patch(`/api/v2/workspaces/${b.id}`, { data: { type: "workspaces", attributes: { name: a.attributes.name } } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toBe("Name has already been taken");
    });

    it("does not change source-name on update", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { "source-name": "first" });
      const r = await t.api.patch(`/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { "source-name": "second" } } });
      expect(r.body.data.attributes["source-name"]).toBe("first");
    });

    it("clears nullable attributes with null", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { description: "x", "auto-destroy-activity-duration": "3h" });
      const r = await t.api.patch(`/api/v2/workspaces/${ws.id}`, {
        data: { type: "workspaces", attributes: { description: null, "auto-destroy-activity-duration": null } },
      });
      expect(r.body.data.attributes.description).toBeNull();
      expect(r.body.data.attributes["auto-destroy-activity-duration"]).toBeNull();
    });

    it("applies nothing when one attribute of an update is invalid", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName(), { description: "keep" });
      const r = await t.api.patch(`/api/v2/workspaces/${ws.id}`, {
        data: { type: "workspaces", attributes: { description: "changed", "engine-version": "0.0.1" } },
      });
      expect(r.status).toBe(422);
      const show = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      expect(show.body.data.attributes.description).toBe("keep");
    });

    it("refuses a new name outside the charset on update by id (A5) and by name (A6), changing nothing", async () => {
      const name = uniqueName();
      const ws = await createWorkspace(t.api, t.org, name);
      const byId = await t.api.patch(`/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { name: "bad name", description: "x" } } });
      const byName = await t.api.patch(`${base}/${name}`, { data: { type: "workspaces", attributes: { name: "bad/name" } } });
      expect([byId.status, byName.status]).toEqual([422, 422]);
      expect(byId.body.errors[0].source).toEqual({ pointer: "/data/attributes/name" });
      expect(byName.body.errors[0].source).toEqual({ pointer: "/data/attributes/name" });
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data).toEqual(ws);
    });

    it("answers 404 when updating an unknown workspace", async () => {
      const r = await t.api.patch("/api/v2/workspaces/ws-doesnotexist0000", { data: { type: "workspaces", attributes: {} } });
      expect(r.status).toBe(404);
    });
  });

  describe("A7–A10 delete", () => {
    it("safe-deletes by id (A7) and by name (A8) with 204", async () => {
      const a = await createWorkspace(t.api, t.org, uniqueName());
      const b = await createWorkspace(t.api, t.org, uniqueName());
      const r1 = await t.api.post(`/api/v2/workspaces/${a.id}/actions/safe-delete`);
      expect(r1.status).toBe(204);
      expect(r1.text).toBe("");
      const r2 = await t.api.post(`${base}/${b.attributes.name}/actions/safe-delete`);
      expect(r2.status).toBe(204);
      expect((await t.api.get(`/api/v2/workspaces/${a.id}`)).status).toBe(404);
      expect((await t.api.get(`/api/v2/workspaces/${b.id}`)).status).toBe(404);
    });

    it("refuses (409) to safe-delete a workspace that manages resources, by id and by name", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const sv = await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, {
        data: { type: "state-versions", attributes: { serial: 1, "resource-count": 3 } },
      });
      expect(sv.status).toBe(201);
      const r1 = await t.api.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`);
      const r2 = await t.api.post(`${base}/${ws.attributes.name}/actions/safe-delete`);
      expect([r1.status, r2.status]).toEqual([409, 409]);
      expect(r1.body).toEqual({
        errors: [{ status: "409", title: "conflict", detail: "workspace cannot be safely deleted because it is still managing resources" }],
      });
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes["resource-count"]).toBe(3);
      expect((await t.api.delete(`/api/v2/workspaces/${ws.id}`)).status).toBe(204);
    });

    it("answers 404 when safe-deleting an unknown workspace", async () => {
      expect((await t.api.post("/api/v2/workspaces/ws-unknown/actions/safe-delete")).status).toBe(404);
      expect((await t.api.post(`${base}/unknown-name/actions/safe-delete`)).status).toBe(404);
    });

    it("force-deletes by id (A9) and by name (A10) as an owner", async () => {
      const a = await createWorkspace(t.api, t.org, uniqueName());
      const b = await createWorkspace(t.api, t.org, uniqueName());
      expect((await t.api.delete(`/api/v2/workspaces/${a.id}`)).status).toBe(204);
      expect((await t.api.delete(`${base}/${b.attributes.name}`)).status).toBe(204);
      expect((await t.api.delete(`/api/v2/workspaces/${a.id}`)).status).toBe(404);
    });

    it("answers 403 to a workspace admin who may not force delete, by id (A9) and by name (A10)", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const admin = t.clientFor({ kind: "team", access: "admin" });
      const forbidden = {
        errors: [{ status: "403", title: "forbidden", detail: "Not authorized to perform a force delete on the workspace" }],
      };
      const r = await admin.delete(`/api/v2/workspaces/${ws.id}`);
      expect(r.status).toBe(403);
      expect(r.body).toEqual(forbidden);
      const byName = await admin.delete(`${base}/${ws.attributes.name}`);
      expect(byName.status).toBe(403);
      expect(byName.body).toEqual(forbidden);
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
    });

    it("force-deletes a workspace that manages resources without checking them", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, { data: { type: "state-versions", attributes: { serial: 1, "resource-count": 2 } } });
      expect((await t.api.delete(`${base}/${ws.attributes.name}`)).status).toBe(204);
      expect((await t.api.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(404);
    });
  });

  describe("the request log", () => {
    it("records API requests with status and token kind", async () => {
      t.emu.clearRequests();
      await t.api.get(`${base}?page[size]=1`);
      await t.api.get("/api/v2/ping", { token: null });
      const log = t.emu.requests();
      expect(log.map((e) => [e.method, e.path, e.query, e.status, e.tokenKind])).toEqual([
        ["GET", base, "page[size]=1", 200, "owner"],
        ["GET", "/api/v2/ping", "", 204, undefined],
      ]);
      expect(log[0]?.at).toMatch(TIMESTAMP);
    });
  });
});

describe("workspaces with the terraform-version wire name", () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ versionAttribute: "terraform-version" });
  });
  afterAll(() => t.close());

  it("reads and writes terraform-version and ignores engine-version", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName(), { "terraform-version": "0.15.4", "engine-version": "bogus" });
    expect(ws.attributes["terraform-version"]).toBe("0.15.4");
    expect(ws.attributes["engine-version"]).toBeUndefined();
    const bad = await t.api.post(`/api/v2/organizations/${t.org}/workspaces`, workspaceBody(uniqueName(), { "terraform-version": "nonexisting" }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/data/attributes/terraform-version");
  });

  it("serves service discovery", async () => {
    const r = await t.api.get("/.well-known/terraform.json", { token: null });
    expect(r.status).toBe(200);
    expect(r.body["tfe.v2"]).toBe("/api/v2/");
    expect(r.body["modules.v1"]).toBe("/api/registry/v1/modules/");
  });
});

describe("service discovery in the engine-version mode", () => {
  it("is not served", async () => {
    const t = await startTestEmulator();
    try {
      expect((await t.api.get("/.well-known/terraform.json", { token: null })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { createWorkspace, startTestEmulator, uniqueName, EDITIONS, type Client, type Doc, type TestEmulator } from "../support/emulator-http";

/** Pretty-printed, with a trailing newline and non-ASCII text: a re-serialized copy would differ. */
function stateText(serial: number): string {
  const doc = {
    version: 4,
    terraform_version: "1.9.5",
    serial,
    lineage: "lin-çà-1",
    outputs: {
      url: { value: "https://example.test/crème-brûlée", type: "string" },
      zones: { value: ["a", "b"], type: ["tuple", ["string", "string"]] },
      pw: { value: "hunter2", type: "string", sensitive: true },
      // No `type`: the detailed type is implied by the value, as the engine reads JSON.
      count: { value: 3 },
    },
    resources: [
      { mode: "managed", type: "null_resource", name: "a", instances: [{ attributes: {} }, { attributes: {} }] },
      { mode: "data", type: "null_data_source", name: "d", instances: [{}] },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

interface ExpectedOutput {
  name: string;
  sensitive: boolean;
  type: string;
  value: unknown;
  detailedType: unknown;
}

const OUTPUTS: ExpectedOutput[] = [
  { name: "url", sensitive: false, type: "string", value: "https://example.test/crème-brûlée", detailedType: "string" },
  { name: "zones", sensitive: false, type: "array", value: ["a", "b"], detailedType: ["tuple", ["string", "string"]] },
  { name: "pw", sensitive: true, type: "string", value: "hunter2", detailedType: "string" },
  { name: "count", sensitive: false, type: "number", value: 3, detailedType: "number" },
];

/** A state-version-outputs resource as the service writes it; sensitive values only where revealed. */
function svOutput(id: string, o: ExpectedOutput, reveal = false): Doc {
  return {
    id,
    type: "state-version-outputs",
    attributes: { name: o.name, sensitive: o.sensitive, type: o.type, value: o.sensitive && !reveal ? null : o.value, "detailed-type": o.detailedType },
    links: { self: `/api/v2/state-version-outputs/${id}` },
  };
}

async function download(url: string): Promise<{ status: number; contentType: string | undefined; bytes: Buffer }> {
  const res = await request(url);
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const ct = res.headers["content-type"];
  return { status: res.statusCode, contentType: Array.isArray(ct) ? ct.join(", ") : ct, bytes };
}

async function createStateVersion(client: Client, wsId: string, attributes: Record<string, unknown>): Promise<Doc> {
  const r = await client.post(`/api/v2/workspaces/${wsId}/state-versions`, { data: { type: "state-versions", attributes } });
  if (r.status !== 201) throw new Error(`state version: ${r.status} ${r.text}`);
  return r.body.data;
}

/** A workspace whose current state version came from `stateText` through the base64 `state` attribute. */
async function workspaceWithState(t: TestEmulator): Promise<{ ws: Doc; sv: Doc; text: string }> {
  const ws = await createWorkspace(t.api, t.org, uniqueName());
  const text = stateText(7);
  const sv = await createStateVersion(t.api, ws.id, { serial: 7, md5: "m", state: Buffer.from(text, "utf8").toString("base64") });
  return { ws, sv, text };
}

describe.each(EDITIONS)("state versions, their outputs and the state download in the %s edition", (edition) => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  describe("the download URL", () => {
    it("is null while the version waits for its upload, then serves the uploaded bytes without a token", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const pending = await createStateVersion(t.api, ws.id, { serial: 7, md5: "m", finalized: false });
      expect(pending.attributes).toMatchObject({
        status: "pending",
        "hosted-state-download-url": null,
        "hosted-json-state-download-url": null,
        size: null,
        "state-version": null,
        "terraform-version": null,
        "resources-processed": false,
      });
      const before = await t.api.get(`/api/v2/state-versions/${pending.id}`);
      expect(before.body.data.attributes["hosted-state-download-url"]).toBeNull();
      expect((await download(`${t.emu.url}/api/v2/state-versions/${pending.id}/download`)).status).toBe(404);

      const text = stateText(7);
      const up = await request(pending.attributes["hosted-state-upload-url"], { method: "PUT", body: text, headers: { "content-type": "application/octet-stream" } });
      await up.body.text();
      expect(up.statusCode).toBe(200);

      const after = await t.api.get(`/api/v2/state-versions/${pending.id}`);
      expect(after.status).toBe(200);
      const url = `${t.emu.url}/api/v2/state-versions/${pending.id}/download`;
      expect(after.body.data.attributes).toMatchObject({
        status: "finalized",
        "hosted-state-upload-url": null,
        "hosted-state-download-url": url,
        "hosted-json-state-download-url": null,
        size: Buffer.byteLength(text, "utf8"),
        "state-version": 4,
        "terraform-version": "1.9.5",
        "resources-processed": true,
        "resource-count": 2,
        serial: 7,
        lineage: "lin-çà-1",
      });
      const got = await download(url);
      expect(got.status).toBe(200);
      expect(got.contentType).toBe("application/json");
      expect(got.bytes.equals(Buffer.from(text, "utf8"))).toBe(true);
    });

    it("serves the state given as base64 on create byte for byte", async () => {
      const { sv, text } = await workspaceWithState(t);
      expect(sv.attributes["hosted-state-download-url"]).toBe(`${t.emu.url}/api/v2/state-versions/${sv.id}/download`);
      expect(sv.attributes.size).toBe(Buffer.byteLength(text, "utf8"));
      const got = await download(sv.attributes["hosted-state-download-url"]);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(Buffer.from(text, "utf8"))).toBe(true);
    });

    it("is null for a version created with only a resource count, whose download answers 404", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const sv = await createStateVersion(t.api, ws.id, { serial: 1, "resource-count": 3 });
      expect(sv.attributes).toMatchObject({ status: "finalized", "hosted-state-download-url": null, size: null, "state-version": null, "terraform-version": null });
      const shown = await t.api.get(`/api/v2/state-versions/${sv.id}`);
      expect(shown.body.data.attributes["hosted-state-download-url"]).toBeNull();
      const got = await download(`${t.emu.url}/api/v2/state-versions/${sv.id}/download`);
      expect(got.status).toBe(404);
      expect(JSON.parse(got.bytes.toString("utf8"))).toEqual({ errors: [{ status: "404", title: "not found" }] });
      expect((await download(`${t.emu.url}/api/v2/state-versions/sv-doesnotexist0000/download`)).status).toBe(404);
    });

    it("refuses an upload that is not UTF-8 JSON, so what is served is always what was sent", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const pending = await createStateVersion(t.api, ws.id, { serial: 1, finalized: false });
      const invalid = Buffer.concat([Buffer.from('{"version":4,"serial":1,"lineage":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","outputs":{},"resources":[]}')]);
      const up = await request(pending.attributes["hosted-state-upload-url"], { method: "PUT", body: invalid });
      await up.body.text();
      expect(up.statusCode).toBe(422);
      const viaCreate = await t.api.post(`/api/v2/workspaces/${ws.id}/state-versions`, {
        data: { type: "state-versions", attributes: { serial: 2, state: invalid.toString("base64") } },
      });
      expect(viaCreate.status).toBe(422);
      expect(viaCreate.body.errors[0].source).toEqual({ pointer: "/data/attributes/state" });
      const shown = await t.api.get(`/api/v2/state-versions/${pending.id}`);
      expect(shown.body.data.attributes.status).toBe("pending");
    });
  });

  describe("outputs of a state version", () => {
    it("lists them paginated, with sensitive values null", async () => {
      const { sv } = await workspaceWithState(t);
      const ids: string[] = sv.relationships.outputs.data.map((d: { id: string }) => d.id);
      expect(sv.relationships.outputs.data).toEqual(ids.map((id) => ({ id, type: "state-version-outputs" })));
      expect(ids).toHaveLength(4);
      for (const id of ids) expect(id).toMatch(/^wsout-[A-Za-z0-9]{16}$/);

      const all = await t.api.get(`/api/v2/state-versions/${sv.id}/outputs`);
      expect(all.status).toBe(200);
      expect(all.body.data).toEqual(OUTPUTS.map((o, i) => svOutput(ids[i] as string, o)));
      expect(all.body.meta.pagination).toEqual({ "current-page": 1, "page-size": 20, "prev-page": null, "next-page": null, "total-pages": 1, "total-count": 4 });

      const second = await t.api.get(`/api/v2/state-versions/${sv.id}/outputs?page[number]=2&page[size]=3`);
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual([svOutput(ids[3] as string, OUTPUTS[3] as ExpectedOutput)]);
      expect(second.body.meta.pagination).toEqual({ "current-page": 2, "page-size": 3, "prev-page": 1, "next-page": null, "total-pages": 2, "total-count": 4 });
      expect(second.body.links.first).toBe(`${t.emu.url}/api/v2/state-versions/${sv.id}/outputs?page%5Bnumber%5D=1&page%5Bsize%5D=3`);
    });

    it("lists none for a version without content", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const sv = await createStateVersion(t.api, ws.id, { serial: 1, "resource-count": 1 });
      const r = await t.api.get(`/api/v2/state-versions/${sv.id}/outputs`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
      expect(r.body.meta.pagination["total-count"]).toBe(0);
    });

    it("shows one output, revealing a sensitive value only there", async () => {
      const { sv } = await workspaceWithState(t);
      const ids: string[] = sv.relationships.outputs.data.map((d: { id: string }) => d.id);
      const pw = await t.api.get(`/api/v2/state-version-outputs/${ids[2]}`);
      expect(pw.status).toBe(200);
      expect(pw.body).toEqual({ data: svOutput(ids[2] as string, OUTPUTS[2] as ExpectedOutput, true) });
      expect(pw.body.data.attributes.value).toBe("hunter2");
      const zones = await t.api.get(`/api/v2/state-version-outputs/${ids[1]}`);
      expect(zones.body).toEqual({ data: svOutput(ids[1] as string, OUTPUTS[1] as ExpectedOutput) });
      const missing = await t.api.get("/api/v2/state-version-outputs/wsout-J2zM24JPAAAAAAAA");
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ errors: [{ status: "404", title: "not found" }] });
    });

    it("embeds them with include=outputs on the state version and the current state version, linkage matching included", async () => {
      const { ws, sv } = await workspaceWithState(t);
      const ids: string[] = sv.relationships.outputs.data.map((d: { id: string }) => d.id);
      const expected = OUTPUTS.map((o, i) => svOutput(ids[i] as string, o));
      for (const p of [`/api/v2/state-versions/${sv.id}?include=outputs`, `/api/v2/workspaces/${ws.id}/current-state-version?include=outputs`]) {
        const r = await t.api.get(p);
        expect(r.status).toBe(200);
        expect(r.body.data.id).toBe(sv.id);
        expect(r.body.included).toEqual(expected);
        expect(r.body.data.relationships.outputs.data).toEqual(r.body.included.map((i: Doc) => ({ id: i.id, type: i.type })));
      }
      const plain = await t.api.get(`/api/v2/state-versions/${sv.id}`);
      expect(plain.body.included).toBeUndefined();
    });

    it("refuses includes it does not serve with 400, like the workspace show", async () => {
      const { ws, sv } = await workspaceWithState(t);
      for (const p of [`/api/v2/state-versions/${sv.id}?include=created_by`, `/api/v2/workspaces/${ws.id}/current-state-version?include=outputs,run`]) {
        const r = await t.api.get(p);
        expect(r.status).toBe(400);
        expect(r.body.errors[0].title).toBe("bad request");
        expect(r.body.errors[0].detail).toMatch(/^Invalid include parameter: (created_by|run)$/);
      }
    });
  });

  describe("outputs of a workspace", () => {
    it("embeds workspace-outputs with include=outputs on the workspace show, with the ids of the state version's outputs", async () => {
      const { ws, sv } = await workspaceWithState(t);
      const ids: string[] = sv.relationships.outputs.data.map((d: { id: string }) => d.id);
      const org = await t.api.get(`/api/v2/organizations/${t.org}`);
      const r = await t.api.get(`/api/v2/workspaces/${ws.id}?include=outputs`);
      expect(r.status).toBe(200);
      expect(r.body.data.relationships.outputs.data).toEqual(ids.map((id) => ({ id, type: "workspace-outputs" })));
      expect(r.body.included).toEqual(
        OUTPUTS.map((o, i) => ({
          id: ids[i],
          type: "workspace-outputs",
          attributes: {
            name: o.name,
            sensitive: o.sensitive,
            "output-type": o.type,
            value: o.sensitive ? null : o.value,
            "workspace-attributes": { id: ws.id, name: ws.attributes.name },
            "organization-attributes": { id: org.body.data.attributes["external-id"], name: t.org },
          },
        })),
      );
      expect(r.body.data.relationships.outputs.data).toEqual(r.body.included.map((i: Doc) => ({ id: i.id, type: i.type })));
    });

    it("lists the current outputs as state-version-outputs with the ids of the workspace's outputs relationship", async () => {
      const { ws, sv } = await workspaceWithState(t);
      const shown = await t.api.get(`/api/v2/workspaces/${ws.id}`);
      const relIds: string[] = shown.body.data.relationships.outputs.data.map((d: { id: string }) => d.id);
      const r = await t.api.get(`/api/v2/workspaces/${ws.id}/current-state-version-outputs`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual(OUTPUTS.map((o, i) => svOutput(relIds[i] as string, o)));
      expect(relIds).toEqual(sv.relationships.outputs.data.map((d: { id: string }) => d.id));
      // What the tfe_outputs data source does for a sensitive output: read it by the id it was given.
      const revealed = await t.api.get(`/api/v2/state-version-outputs/${relIds[2]}`);
      expect(revealed.body.data.attributes.value).toBe("hunter2");
    });

    it("lists no current outputs for a workspace without state", async () => {
      const ws = await createWorkspace(t.api, t.org, uniqueName());
      const r = await t.api.get(`/api/v2/workspaces/${ws.id}/current-state-version-outputs`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    });
  });

  describe("permissions", () => {
    it("answers 404 to a caller without read access on the workspace, and 200 to a reader", async () => {
      const { ws, sv } = await workspaceWithState(t);
      const outputId: string = sv.relationships.outputs.data[0].id;
      const paths = [
        `/api/v2/state-versions/${sv.id}`,
        `/api/v2/state-versions/${sv.id}?include=outputs`,
        `/api/v2/state-versions/${sv.id}/outputs`,
        `/api/v2/state-version-outputs/${outputId}`,
        `/api/v2/workspaces/${ws.id}/current-state-version`,
        `/api/v2/workspaces/${ws.id}/current-state-version-outputs`,
      ];
      const other = await createWorkspace(t.api, t.org, uniqueName());
      const outsider = t.clientFor({ kind: "team", access: "admin", workspaces: [other.id] });
      const reader = t.clientFor({ kind: "team", access: "read", workspaces: [ws.id] });
      for (const p of paths) {
        const denied = await outsider.get(p);
        expect([p, denied.status]).toEqual([p, 404]);
        expect(denied.body).toEqual({ errors: [{ status: "404", title: "not found" }] });
        expect([p, (await reader.get(p)).status]).toEqual([p, 200]);
      }
      const anonymous = await t.api.get(`/api/v2/state-versions/${sv.id}/outputs`, { token: null });
      expect(anonymous.status).toBe(401);
    });
  });
});

describe("state content across a restart", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-sv-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(EDITIONS)("keeps the uploaded content, its attributes and the outputs in the %s edition", async (edition) => {
    const file = path.join(dir, `kept-${edition}.json`);
    const first = await startTestEmulator({ stateFile: file, edition });
    const { ws, sv, text } = await workspaceWithState(first);
    const outputsBefore = (await first.api.get(`/api/v2/state-versions/${sv.id}/outputs`)).body.data;
    const svBefore = (await first.api.get(`/api/v2/state-versions/${sv.id}`)).body.data;
    await first.close();

    const second = await startTestEmulator({ stateFile: file, edition });
    try {
      const after = await second.api.get(`/api/v2/state-versions/${sv.id}`);
      expect(after.status).toBe(200);
      const url = `${second.emu.url}/api/v2/state-versions/${sv.id}/download`;
      expect(after.body.data).toEqual({ ...svBefore, attributes: { ...svBefore.attributes, "hosted-state-download-url": url } });
      const got = await download(url);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(Buffer.from(text, "utf8"))).toBe(true);
      expect((await second.api.get(`/api/v2/state-versions/${sv.id}/outputs`)).body.data).toEqual(outputsBefore);
      const current = await second.api.get(`/api/v2/workspaces/${ws.id}/current-state-version-outputs`);
      expect(current.body.data).toEqual(outputsBefore);
    } finally {
      await second.close();
    }
  });

  it("loads a state file written before state content was kept, with no download URL and types implied by the values", async () => {
    const file = path.join(dir, "earlier.json");
    const first = await startTestEmulator({ stateFile: file });
    const { sv } = await workspaceWithState(first);
    await first.close();
    // Take the new fields out again, as an emulator from before this change wrote the file.
    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const rec of saved.state.stateVersions) {
      delete rec.content;
      delete rec.stateFormatVersion;
      delete rec.terraformVersion;
      for (const o of rec.outputs) delete o.detailedType;
    }
    fs.writeFileSync(file, JSON.stringify(saved));

    const second = await startTestEmulator({ stateFile: file });
    try {
      const r = await second.api.get(`/api/v2/state-versions/${sv.id}`);
      expect(r.status).toBe(200);
      expect(r.body.data.attributes).toMatchObject({
        status: "finalized",
        "hosted-state-download-url": null,
        size: null,
        "state-version": null,
        "terraform-version": null,
        "resource-count": 2,
      });
      expect((await download(`${second.emu.url}/api/v2/state-versions/${sv.id}/download`)).status).toBe(404);
      const outputs = await second.api.get(`/api/v2/state-versions/${sv.id}/outputs`);
      expect(outputs.body.data.map((o: Doc) => o.attributes["detailed-type"])).toEqual(["string", ["tuple", ["string", "string"]], "string", "number"]);
    } finally {
      await second.close();
    }
  });
});

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createWorkspace, startTestEmulator, uniqueName, EDITIONS } from "../support/emulator-http";


describe("persistence with a state file", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-emu-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(EDITIONS)("keeps workspaces, locks, tags, bindings, consumers, tokens and the owner token across a restart in the %s edition", async (edition) => {
    const file = path.join(dir, `state-${edition}.json`);
    const first = await startTestEmulator({ stateFile: file, edition });
    const name = uniqueName();
    const ws = await createWorkspace(first.api, first.org, name, { description: "persisted" });
    await first.api.post(`/api/v2/workspaces/${ws.id}/actions/lock`, { reason: "kept" });
    await first.api.post(`/api/v2/workspaces/${ws.id}/relationships/tags`, { data: [{ type: "tags", attributes: { name: "t1" } }] });
    await first.api.patch(`/api/v2/workspaces/${ws.id}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] });
    const consumer = await createWorkspace(first.api, first.org, uniqueName());
    await first.api.post(`/api/v2/workspaces/${ws.id}/relationships/remote-state-consumers`, { data: [{ type: "workspaces", id: consumer.id }] });
    if (edition === "self-managed") {
      await first.api.post(`/api/v2/workspaces/${ws.id}/relationships/data-retention-policy`, {
        data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 12 } },
      });
    }
    const teamToken = first.emu.issueToken({ kind: "team", access: "read" });
    const ownerToken = first.emu.token;
    const before = (await first.api.get(`/api/v2/workspaces/${ws.id}`)).body;
    await first.close();

    const second = await startTestEmulator({ stateFile: file, edition });
    try {
      expect(second.emu.token).toBe(ownerToken);
      const after = await second.api.get(`/api/v2/workspaces/${ws.id}`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(before);
      expect(after.body.data.attributes.locked).toBe(true);
      expect(after.body.data.attributes["locked-reason"]).toBe("kept");
      expect(after.body.data.attributes["tag-names"]).toEqual(["t1"]);
      const bindings = await second.api.get(`/api/v2/workspaces/${ws.id}/tag-bindings`);
      expect(bindings.body.data[0].attributes).toMatchObject({ key: "env", value: "prod" });
      const consumers = await second.api.get(`/api/v2/workspaces/${ws.id}/relationships/remote-state-consumers`);
      expect(consumers.body.data.map((w: { id: string }) => w.id)).toEqual([consumer.id]);
      if (edition === "self-managed") {
        const drp = await second.api.get(`/api/v2/workspaces/${ws.id}/relationships/data-retention-policy`);
        expect(drp.body.data.attributes).toEqual({ "delete-older-than-n-days": 12 });
      }
      expect((await second.api.as(teamToken).get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
      expect((await second.api.post(`/api/v2/workspaces/${ws.id}/actions/unlock`)).status).toBe(200);
      const again = await createWorkspace(second.api, second.org, uniqueName());
      expect(again.id).not.toBe(ws.id);
    } finally {
      await second.close();
    }
  });

  it("has written every change before the server is closed", async () => {
    const file = path.join(dir, "live.json");
    const t = await startTestEmulator({ stateFile: file });
    try {
      const name = uniqueName("live");
      await createWorkspace(t.api, t.org, name);
      const text = fs.readFileSync(file, "utf8");
      expect(text).toContain(`"name":"${name}"`);
      expect(JSON.parse(text).format).toBe("wsbridge-emulator-state");
      expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("does not persist refused requests", async () => {
    const file = path.join(dir, "refused.json");
    const t = await startTestEmulator({ stateFile: file });
    try {
      const before = fs.readFileSync(file, "utf8");
      const r = await t.api.post(`/api/v2/organizations/${t.org}/workspaces`, { data: { type: "workspaces", attributes: { name: "bad name" } } });
      expect(r.status).toBe(422);
      expect(fs.readFileSync(file, "utf8")).toBe(before);
    } finally {
      await t.close();
    }
  });

  it("uses fixtures only for a fresh state", async () => {
    const file = path.join(dir, "fixtures.json");
    const first = await startTestEmulator({ stateFile: file, fixtures: { organizations: [{ name: "example-org", ownerToken: "fixed-owner-token" }] } });
    expect(first.emu.token).toBe("fixed-owner-token");
    await first.close();
    const second = await startTestEmulator({
      stateFile: file,
      fixtures: { organizations: [{ name: "example-org", ownerToken: "ignored", workspaces: [{ name: "ignored-ws" }] }] },
    });
    try {
      expect(second.emu.token).toBe("fixed-owner-token");
      expect((await second.api.get(`/api/v2/organizations/${second.org}/workspaces/ignored-ws`)).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  it("refuses a file that is not a state file", async () => {
    const file = path.join(dir, "other.json");
    fs.writeFileSync(file, JSON.stringify({ hello: "world" }));
    await expect(startTestEmulator({ stateFile: file })).rejects.toThrow("is not a wsbridge emulator state file");
  });
});

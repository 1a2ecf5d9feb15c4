// The emulator after a kill -9 during a write, and requests a careless client sends: each is
// answered clearly and changes nothing it should not.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createWorkspace, startTestEmulator, uniqueName, EDITIONS, type TestEmulator } from "../support/emulator-http";

describe("a state file left mid-write by a kill -9", () => {
  it("loads, and the stale temporary files beside it are removed at start", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-stale-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startTestEmulator({ stateFile: file });
      const ws = await createWorkspace(first.api, first.org, uniqueName());
      await first.close();
      // What a kill between "write the temporary file" and "rename it" leaves.
      const stale = path.join(dir, ".state.json.4242.deadbeef.tmp");
      fs.writeFileSync(stale, "{\"half\":");
      const unrelated = path.join(dir, "notes.tmp");
      fs.writeFileSync(unrelated, "mine");
      const second = await startTestEmulator({ stateFile: file });
      try {
        expect(fs.existsSync(stale)).toBe(false);
        expect(fs.existsSync(unrelated)).toBe(true);
        expect((await second.api.get(`/api/v2/workspaces/${ws.id}`)).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(EDITIONS)("odd requests in the %s edition", (edition) => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ edition });
  });
  afterAll(() => t.close());

  it("HEAD answers like GET, without a body", async () => {
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    const head = await t.api.request("HEAD", `/api/v2/workspaces/${ws.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers["content-type"]).toBe("application/vnd.api+json");
    expect((await t.api.request("HEAD", "/api/v2/workspaces/ws-unknown")).status).toBe(404);
  });

  it("POST /_emulator/tokens with null is a 422 that says what a spec looks like", async () => {
    const r = await t.api.post("/_emulator/tokens", null, { contentType: "application/json" });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].detail).toContain("the token spec must be a JSON object");
  });

  it("a fault script with nested values where plain ones belong is refused whole, and nothing is applied", async () => {
    await t.api.request("DELETE", "/_emulator/faults");
    const nested = { script: [{ match: { path: { a: { b: { c: [1, { d: 2 }] } } } }, status: 503 }] };
    const r = await t.api.request("PUT", "/_emulator/faults", { body: nested, contentType: "application/json" });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].detail).toBe("match.path must be a string");
    expect((await t.api.get("/_emulator/faults")).body).toEqual({ script: [] });
    expect((await t.api.get(`/api/v2/organizations/${t.org}`)).status).toBe(200);
    const unknownKey = await t.api.request("PUT", "/_emulator/faults", { body: { script: [{ status: 503, when: "always" }] }, contentType: "application/json" });
    expect(unknownKey.status).toBe(422);
    expect(unknownKey.body.errors[0].detail).toBe("unknown scripted fault key(s): when");
  });
});

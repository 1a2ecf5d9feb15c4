import { request } from "undici";
import { createWorkspace, startTestEmulator, uniqueName, workspaceBody, type TestEmulator } from "../support/emulator-http";

describe("fault injection and the emulator controls", () => {
  let t: TestEmulator;
  let base: string;
  beforeAll(async () => {
    t = await startTestEmulator();
    base = `/api/v2/organizations/${t.org}/workspaces`;
  });
  afterEach(() => {
    t.emu.clearFaults();
    t.emu.clearRequests();
  });
  afterAll(() => t.close());

  it("answers a scripted status with an error document without applying the request", async () => {
    const name = uniqueName();
    t.emu.setFaults({ script: [{ match: { method: "POST", path: base }, status: 503 }] });
    const r = await t.api.post(base, workspaceBody(name));
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ errors: [{ status: "503", title: "service unavailable", detail: "Injected fault" }] });
    expect((await t.api.get(`${base}/${name}`)).status).toBe(404);
    expect((await t.api.post(base, workspaceBody(name))).status).toBe(201);
    expect(t.emu.requests().map((e) => [e.method, e.status, e.fault])).toEqual([
      ["POST", 503, "status"],
      ["GET", 404, undefined],
      ["POST", 201, undefined],
    ]);
  });

  it("consumes scripted faults in order, `times` each, only for matching requests", async () => {
    t.emu.setFaults({
      script: [
        { match: { method: "GET", path: /\/workspaces\/ws-/ }, status: 502, times: 2 },
        { status: 500 },
      ],
    });
    const ws = "/api/v2/workspaces/ws-anything";
    const statuses = [];
    statuses.push((await t.api.get(ws)).status);
    statuses.push((await t.api.get(ws)).status);
    statuses.push((await t.api.get("/api/v2/ping")).status);
    statuses.push((await t.api.get("/api/v2/ping")).status);
    expect(statuses).toEqual([502, 502, 500, 204]);
  });

  it("drops the connection before handling: the client sees an error and nothing is applied", async () => {
    const name = uniqueName();
    t.emu.setFaults({ script: [{ match: { method: "POST" }, drop: "before" }] });
    await expect(request(`${t.emu.url}${base}`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.emu.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify(workspaceBody(name)),
    })).rejects.toThrow();
    expect((await t.api.get(`${base}/${name}`)).status).toBe(404);
    const entry = t.emu.requests()[0];
    expect(entry?.status).toBeNull();
    expect(entry?.fault).toBe("drop-before");
  });

  it("drops the connection after applying: the client sees an error but the workspace exists", async () => {
    const name = uniqueName();
    t.emu.setFaults({ script: [{ match: { method: "POST" }, drop: "after" }] });
    await expect(request(`${t.emu.url}${base}`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.emu.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify(workspaceBody(name)),
    })).rejects.toThrow();
    expect((await t.api.get(`${base}/${name}`)).status).toBe(200);
    expect(t.emu.requests()[0]?.fault).toBe("drop-after");
  });

  it("rate-limits with 429 and the rate-limit headers; another team's token has its own budget", async () => {
    t.emu.setFaults({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const ping = await t.api.get("/api/v2/ping");
    expect(ping.headers["x-ratelimit-limit"]).toBe("2");
    await t.api.get(base);
    const limited = await t.api.get(base);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ errors: [{ status: "429", title: "too many requests", detail: "You have exceeded the API's rate limit." }] });
    expect(limited.headers["x-ratelimit-limit"]).toBe("2");
    expect(limited.headers["x-ratelimit-reset"]).toMatch(/^\d+\.\d{3}$/);
    const reset = Number(limited.headers["x-ratelimit-reset"]);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(limited.headers["retry-after"]).toBe(String(Math.max(1, Math.ceil(reset))));
    const other = t.clientFor({ kind: "team", access: "read" });
    expect((await other.get(base)).status).toBe(200);
    expect(t.emu.requests().filter((e) => e.fault === "rate-limit")).toHaveLength(1);
  });

  it("counts the rate limit per user, not per token: two tokens of one user share one budget, another user has their own", async () => {
    const first = t.clientFor({ kind: "user", access: "read", username: "rate-shared" });
    const second = t.clientFor({ kind: "user", access: "read", username: "rate-shared" });
    const someoneElse = t.clientFor({ kind: "user", access: "read", username: "rate-other" });
    t.emu.setFaults({ rateLimit: { limit: 2, windowMs: 60_000 } });
    expect((await first.get(base)).status).toBe(200);
    expect((await second.get(base)).status).toBe(200);
    expect((await second.get(base)).status).toBe(429);
    expect((await first.get(base)).status).toBe(429);
    expect((await someoneElse.get(base)).status).toBe(200);
  });

  it("sets Retry-After and X-RateLimit-Reset from a scripted 429", async () => {
    t.emu.setFaults({ script: [{ status: 429, retryAfterSeconds: 2 }] });
    const r = await t.api.get(base);
    expect(r.status).toBe(429);
    expect(r.headers["retry-after"]).toBe("2");
    expect(r.headers["x-ratelimit-reset"]).toBe("2.000");
    expect(r.headers["x-ratelimit-limit"]).toBe("30");
  });

  it("answers every request with the server error status when the share is 1, applying nothing", async () => {
    const name = uniqueName();
    t.emu.setFaults({ serverErrorRate: 1, serverErrorStatus: 502 });
    const r = await t.api.post(base, workspaceBody(name));
    expect(r.status).toBe(502);
    expect(r.body.errors[0].status).toBe("502");
    t.emu.clearFaults();
    expect((await t.api.get(`${base}/${name}`)).status).toBe(404);
  });

  it("repeats the same random shares with the same seed", async () => {
    const run = async (): Promise<number[]> => {
      t.emu.setFaults({ serverErrorRate: 0.5, seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await t.api.get("/api/v2/ping")).status);
      return out;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a).toContain(503);
    expect(a).toContain(204);
  });

  it("drops connections with a drop share of 1 and keeps serving afterwards", async () => {
    t.emu.setFaults({ dropRate: 1 });
    await expect(request(`${t.emu.url}/api/v2/ping`)).rejects.toThrow();
    t.emu.clearFaults();
    expect((await t.api.get("/api/v2/ping")).status).toBe(204);
  });

  it("adds latency without changing the answer", async () => {
    t.emu.setFaults({ latencyMs: 20 });
    const ws = await createWorkspace(t.api, t.org, uniqueName());
    expect(ws.type).toBe("workspaces");
  });

  it("offers the same controls over HTTP, unlogged and without a token", async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      t.api.request(method, path, { token: null, body, contentType: "application/json" });
    const put = await admin("PUT", "/_emulator/faults", { script: [{ match: { path: "/api/v2/ping" }, status: 500 }] });
    expect(put.status).toBe(200);
    expect(put.body.script).toEqual([{ match: { path: "/api/v2/ping" }, status: 500, times: 1 }]);
    expect((await t.api.get("/api/v2/ping")).status).toBe(500);
    expect((await admin("GET", "/_emulator/faults")).body.script).toEqual([]);
    const bad = await admin("PUT", "/_emulator/faults", { serverErrorRate: 2 });
    expect(bad.status).toBe(422);
    expect((await admin("DELETE", "/_emulator/faults")).status).toBe(204);
    const log = await admin("GET", "/_emulator/requests");
    expect(log.body.map((e: { path: string; status: number }) => [e.path, e.status])).toEqual([["/api/v2/ping", 500]]);
    expect((await admin("DELETE", "/_emulator/requests")).status).toBe(204);
    expect((await admin("GET", "/_emulator/requests")).body).toEqual([]);
    const token = await admin("POST", "/_emulator/tokens", { kind: "team", access: "read" });
    expect(token.status).toBe(201);
    expect(token.body.kind).toBe("team");
    expect((await t.api.as(token.body.token).get(base)).status).toBe(200);
    const badToken = await admin("POST", "/_emulator/tokens", { kind: "team", access: "everything" });
    expect(badToken.status).toBe(422);
    const info = await admin("GET", "/_emulator/info");
    expect(info.body).toMatchObject({ url: t.emu.url, organization: t.org, edition: "hosted", versionAttribute: "engine-version" });
    expect((await admin("GET", "/_emulator/nothing")).status).toBe(404);
  });

  it("survives malformed requests of every kind", async () => {
    const raw = async (path: string): Promise<number> => {
      const r = await request(`${t.emu.url}${path}`, { headers: { authorization: `Bearer ${t.emu.token}` } });
      await r.body.text();
      return r.statusCode;
    };
    expect(await raw("/api/v2/workspaces/%E0%A4%A")).toBeGreaterThanOrEqual(400);
    expect(await raw(`${base}?page[number]=abc`)).toBe(422);
    expect(await raw(`${base}?page[size]=0`)).toBe(422);
    expect(await raw(`${base}?%5B=1`)).toBe(400);
    expect((await t.api.request("PATCH", "/api/v2/workspaces/ws-x", { raw: "\u0000\u0001" })).status).toBe(400);
    expect((await t.api.get("/api/v2/ping")).status).toBe(204);
  });
});

describe("faults given at start", () => {
  it("apply from the first request until they are cleared at run time", async () => {
    const t = await startTestEmulator({ faults: { script: [{ match: { method: "GET" }, status: 503, times: 2 }], rateLimit: { limit: 100, windowMs: 60_000 } } });
    try {
      const base = `/api/v2/organizations/${t.org}/workspaces`;
      const first = await t.api.get(base);
      expect(first.status).toBe(503);
      expect(first.body).toEqual({ errors: [{ status: "503", title: "service unavailable", detail: "Injected fault" }] });
      expect((await t.api.get(base)).status).toBe(503);
      const third = await t.api.get(base);
      expect(third.status).toBe(200);
      expect(third.headers["x-ratelimit-limit"]).toBe("100");
      t.emu.clearFaults();
      expect((await t.api.get("/api/v2/ping")).headers["x-ratelimit-limit"]).toBe("30");
    } finally {
      await t.close();
    }
  });
});

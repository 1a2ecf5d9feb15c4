import { DEPRECATION_REASON_SUFFIX } from "../../emulator";
import { startTestEmulator, type TestEmulator, EDITIONS } from "../support/emulator-http";


describe.each(EDITIONS)("module version deprecation (D1–D4) in the %s edition", (edition) => {
  let t: TestEmulator;
  const v2 = (version: string, org = "example-org"): string =>
    `/api/v2/organizations/${org}/registry-modules/private/${org}/vpc/aws/${version}`;
  const deprecate = (reason?: string, link?: string): unknown => ({
    data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", reason, link } } },
  });
  const undeprecate = { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Undeprecated" } } } };

  beforeAll(async () => {
    t = await startTestEmulator({
      edition,
      fixtures: {
        organizations: [
          { name: "example-org", registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "2.0.0"] }] },
          { name: "other-org", registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0"] }] },
          { name: "no-entitlement", moduleDeprecations: false, registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0"] }] },
        ],
      },
    });
  });
  afterAll(() => t.close());

  it("deprecates a version (D1) with the reference response shape and an amended reason", async () => {
    const r = await t.api.patch(v2("1.0.0"), deprecate("Use 2.x", "https://example.com/upgrade"));
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/vnd.api+json");
    const depId = r.body.data.relationships.deprecation.data.id;
    expect(r.body).toEqual({
      data: { type: "module-versions", id: expect.stringMatching(/^modver-/), relationships: { deprecation: { data: { id: depId, type: "deprecations" } } } },
      included: [{ type: "deprecations", id: depId, attributes: { link: "https://example.com/upgrade", reason: `Use 2.x${DEPRECATION_REASON_SUFFIX}` } }],
    });
  });

  it("shows the deprecation in the registry read of one version (D3)", async () => {
    await t.api.patch(v2("1.1.0"), deprecate("Old", "https://example.com/old"));
    const r = await t.api.get("/api/registry/v1/modules/example-org/vpc/aws/1.1.0");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.body.id).toBe("example-org/vpc/aws/1.1.0");
    expect(r.body.namespace).toBe("example-org");
    expect(r.body.name).toBe("vpc");
    expect(r.body.provider).toBe("aws");
    expect(r.body.version).toBe("1.1.0");
    expect(typeof r.body.description).toBe("string");
    expect(r.body.deprecation).toEqual({ reason: `Old${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/old" });
    const fresh = await t.api.get("/api/registry/v1/modules/example-org/vpc/aws/2.0.0");
    expect(fresh.body.deprecation).toBeUndefined();
  });

  it("lists every version with its deprecation or null (D4)", async () => {
    await t.api.patch(v2("1.0.0"), deprecate("Use 2.x", "https://example.com/upgrade"));
    const r = await t.api.get("/api/registry/v1/modules/example-org/vpc/aws/versions");
    expect(r.status).toBe(200);
    expect(r.body.modules).toHaveLength(1);
    expect(r.body.modules[0].source).toBe("example-org/vpc/aws");
    const byVersion = Object.fromEntries(r.body.modules[0].versions.map((v: { version: string; deprecation: unknown }) => [v.version, v.deprecation]));
    expect(byVersion["1.0.0"]).toEqual({ reason: `Use 2.x${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/upgrade" });
    expect(byVersion["2.0.0"]).toBeNull();
    expect(r.body.modules[0].versions[0]).toEqual({
      version: "1.0.0",
      submodules: [],
      root: { dependencies: [], providers: [{ name: "aws", version: "" }] },
      deprecation: expect.anything(),
    });
  });

  it("reverts a deprecation (D2) with the reference response shape", async () => {
    await t.api.patch(v2("2.0.0"), deprecate("Temporary"));
    const r = await t.api.patch(v2("2.0.0"), undeprecate);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { type: "module-versions", id: expect.stringMatching(/^modver-/) } });
    const read = await t.api.get("/api/registry/v1/modules/example-org/vpc/aws/2.0.0");
    expect(read.body.deprecation).toBeUndefined();
  });

  it("answers 404 for an unknown version, module or organization, and for another organization's token", async () => {
    expect((await t.api.patch(v2("9.9.9"), deprecate("x"))).status).toBe(404);
    expect((await t.api.patch(v2("1.0.0").replace("/vpc/", "/nope/"), deprecate("x"))).status).toBe(404);
    expect((await t.api.patch(v2("1.0.0", "missing-org"), deprecate("x"))).status).toBe(404);
    const other = t.clientFor({ kind: "owner", organization: "other-org" });
    expect((await other.patch(v2("1.0.0"), deprecate("x"))).status).toBe(404);
    const mismatched = "/api/v2/organizations/example-org/registry-modules/private/other-org/vpc/aws/1.0.0";
    expect((await t.api.patch(mismatched, deprecate("x"))).status).toBe(404);
    const noEntitlement = t.clientFor({ kind: "owner", organization: "no-entitlement" });
    expect((await noEntitlement.patch(v2("1.0.0", "no-entitlement"), deprecate("x"))).status).toBe(404);
    const readOnly = t.clientFor({ kind: "team", access: "read" });
    expect((await readOnly.patch(v2("1.0.0"), deprecate("x"))).status).toBe(404);
  });

  it.each([
    ["no deprecation object", { data: { type: "module-versions", attributes: {} } }, "/data/attributes/deprecation"],
    ["an unknown status", { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Gone" } } } }, "/data/attributes/deprecation/deprecated-status"],
    ["a numeric reason", { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", reason: 5 } } } }, "/data/attributes/deprecation/reason"],
    ["a link that is no URL", { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", link: "nope" } } } }, "/data/attributes/deprecation/link"],
    ["a wrong type", { data: { type: "workspaces", attributes: { deprecation: { "deprecated-status": "Deprecated" } } } }, "/data/type"],
  ])("answers 422 for a malformed body with %s", async (_what, body, pointer) => {
    const r = await t.api.patch(v2("1.0.0"), body);
    expect(r.status).toBe(422);
    expect(r.body.errors[0].source.pointer).toBe(pointer);
  });

  it("answers 500 or 503 when the deprecation fails (injected)", async () => {
    t.emu.setFaults({ script: [{ match: { method: "PATCH", path: "*/registry-modules/*" }, status: 500 }, { match: { method: "PATCH" }, status: 503 }] });
    const a = await t.api.patch(v2("1.0.0"), deprecate("x"));
    const b = await t.api.patch(v2("1.0.0"), deprecate("x"));
    t.emu.clearFaults();
    expect([a.status, b.status]).toEqual([500, 503]);
    expect(a.body.errors[0]).toEqual({ status: "500", title: "internal server error", detail: "Injected fault" });
  });

  it("answers registry 404s in the registry's shape", async () => {
    for (const path of [
      "/api/registry/v1/modules/example-org/vpc/aws/9.9.9",
      "/api/registry/v1/modules/example-org/none/aws/versions",
      "/api/registry/v1/modules/missing-org/vpc/aws/1.0.0",
    ]) {
      const r = await t.api.get(path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ errors: ["Not Found"] });
    }
    const other = t.clientFor({ kind: "owner", organization: "other-org" });
    expect((await other.get("/api/registry/v1/modules/example-org/vpc/aws/versions")).body).toEqual({ errors: ["Not Found"] });
    const anonymous = await t.api.get("/api/registry/v1/modules/example-org/vpc/aws/versions", { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ errors: ["Unauthorized"] });
  });

  it("creates modules and versions through the setup calls", async () => {
    const mod = await t.api.post("/api/v2/organizations/example-org/registry-modules", {
      data: { type: "registry-modules", attributes: { name: "network", provider: "google", "registry-name": "private" } },
    });
    expect(mod.status).toBe(201);
    expect(mod.body.data.id).toMatch(/^mod-/);
    const ver = await t.api.post("/api/v2/organizations/example-org/registry-modules/private/example-org/network/google/versions", {
      data: { type: "registry-module-versions", attributes: { version: "0.1.0" } },
    });
    expect(ver.status).toBe(201);
    expect(ver.body.data.type).toBe("registry-module-versions");
    const dup = await t.api.post("/api/v2/organizations/example-org/registry-modules/private/example-org/network/google/versions", {
      data: { type: "registry-module-versions", attributes: { version: "0.1.0" } },
    });
    expect(dup.status).toBe(422);
    const read = await t.api.get("/api/registry/v1/modules/example-org/network/google/0.1.0");
    expect(read.status).toBe(200);
    expect(read.body.versions).toEqual(["0.1.0"]);
  });
});

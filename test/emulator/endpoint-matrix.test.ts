/**
 * The rows every endpoint shares, checked for all of A1–A10, B1–B4, C1–C13 and D1–D4 in both
 * editions: 401 without a valid token, 404 for a caller who may not see the target and for an
 * unknown target, and 400 / 415 / 422 for a malformed body. Every refused request must leave the
 * state exactly as it was.
 */
import { createWorkspace, startTestEmulator, workspaceBody, type Doc, type TestEmulator, EDITIONS } from "../support/emulator-http";


/** What an endpoint's path and body point at. */
interface Target {
  org: string;
  wsId: string;
  wsName: string;
  /** A workspace that is not yet a consumer. */
  otherId: string;
  /** A workspace that already is a consumer. */
  consumerId: string;
  /** A module version that is not deprecated, and one that is. */
  version: string;
  deprecatedVersion: string;
}

interface Endpoint {
  row: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: (t: Target) => string;
  body?: (t: Target) => unknown;
  /** The same body with a wrong `type`: 422. */
  wrongType?: (t: Target) => unknown;
  /** Registry read API: plain-JSON errors. */
  registry?: boolean;
  /** Data retention: the route exists only in the self-managed edition. */
  selfManagedOnly?: boolean;
}

const ws = (t: Target): string => `/api/v2/workspaces/${t.wsId}`;
const byName = (t: Target): string => `/api/v2/organizations/${t.org}/workspaces/${t.wsName}`;
const moduleVersion = (t: Target, v: string): string => `/api/v2/organizations/${t.org}/registry-modules/private/${t.org}/vpc/aws/${v}`;
const settings = { data: { type: "workspaces", attributes: { description: "changed" } } };
const wrongSettings = { data: { type: "projects", attributes: { description: "changed" } } };
const deprecate = { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", reason: "r" } } } };
const undeprecate = { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Undeprecated" } } } };
const drp = { data: { type: "data-retention-policy-dont-deletes" } };

const ENDPOINTS: Endpoint[] = [
  {
    row: "A1 create",
    method: "POST",
    path: (t) => `/api/v2/organizations/${t.org}/workspaces`,
    body: () => workspaceBody("matrix-new"),
    wrongType: () => ({ data: { type: "projects", attributes: { name: "matrix-new" } } }),
  },
  { row: "A2 list", method: "GET", path: (t) => `/api/v2/organizations/${t.org}/workspaces` },
  { row: "A3 show by name", method: "GET", path: byName },
  { row: "A4 show by id", method: "GET", path: ws },
  { row: "A5 update by id", method: "PATCH", path: ws, body: () => settings, wrongType: () => wrongSettings },
  { row: "A6 update by name", method: "PATCH", path: byName, body: () => settings, wrongType: () => wrongSettings },
  { row: "A7 safe delete by id", method: "POST", path: (t) => `${ws(t)}/actions/safe-delete` },
  { row: "A8 safe delete by name", method: "POST", path: (t) => `${byName(t)}/actions/safe-delete` },
  { row: "A9 force delete by id", method: "DELETE", path: ws },
  { row: "A10 force delete by name", method: "DELETE", path: byName },
  { row: "B1 lock", method: "POST", path: (t) => `${ws(t)}/actions/lock`, body: () => ({ reason: "matrix" }) },
  { row: "B2 unlock", method: "POST", path: (t) => `${ws(t)}/actions/unlock` },
  { row: "B3 force-unlock", method: "POST", path: (t) => `${ws(t)}/actions/force-unlock` },
  {
    row: "B4 SSH key",
    method: "PATCH",
    path: (t) => `${ws(t)}/relationships/ssh-key`,
    body: () => ({ data: { type: "workspaces", attributes: { id: null } } }),
    wrongType: () => ({ data: { type: "ssh-keys", attributes: { id: null } } }),
  },
  { row: "C1 list consumers", method: "GET", path: (t) => `${ws(t)}/relationships/remote-state-consumers` },
  {
    row: "C2 add consumers",
    method: "POST",
    path: (t) => `${ws(t)}/relationships/remote-state-consumers`,
    body: (t) => ({ data: [{ type: "workspaces", id: t.otherId }] }),
    wrongType: (t) => ({ data: [{ type: "projects", id: t.otherId }] }),
  },
  {
    row: "C3 replace consumers",
    method: "PATCH",
    path: (t) => `${ws(t)}/relationships/remote-state-consumers`,
    body: (t) => ({ data: [{ type: "workspaces", id: t.otherId }] }),
    wrongType: (t) => ({ data: [{ type: "projects", id: t.otherId }] }),
  },
  {
    row: "C4 remove consumers",
    method: "DELETE",
    path: (t) => `${ws(t)}/relationships/remote-state-consumers`,
    body: (t) => ({ data: [{ type: "workspaces", id: t.consumerId }] }),
    wrongType: (t) => ({ data: [{ type: "projects", id: t.consumerId }] }),
  },
  { row: "C5 list tags", method: "GET", path: (t) => `${ws(t)}/relationships/tags` },
  {
    row: "C6 add tags",
    method: "POST",
    path: (t) => `${ws(t)}/relationships/tags`,
    body: () => ({ data: [{ type: "tags", attributes: { name: "matrix-tag" } }] }),
    wrongType: () => ({ data: [{ type: "tag", attributes: { name: "matrix-tag" } }] }),
  },
  {
    row: "C7 remove tags",
    method: "DELETE",
    path: (t) => `${ws(t)}/relationships/tags`,
    body: () => ({ data: [{ type: "tags", attributes: { name: "kept" } }] }),
    wrongType: () => ({ data: [{ type: "tag", attributes: { name: "kept" } }] }),
  },
  { row: "C8 list tag bindings", method: "GET", path: (t) => `${ws(t)}/tag-bindings` },
  { row: "C9 list effective tag bindings", method: "GET", path: (t) => `${ws(t)}/effective-tag-bindings` },
  {
    row: "C10 add tag bindings",
    method: "PATCH",
    path: (t) => `${ws(t)}/tag-bindings`,
    body: () => ({ data: [{ type: "tag-bindings", attributes: { key: "matrix", value: "x" } }] }),
    wrongType: () => ({ data: [{ type: "tags", attributes: { key: "matrix", value: "x" } }] }),
  },
  { row: "C11 show data retention policy", method: "GET", path: (t) => `${ws(t)}/relationships/data-retention-policy`, selfManagedOnly: true },
  {
    row: "C12 set data retention policy",
    method: "POST",
    path: (t) => `${ws(t)}/relationships/data-retention-policy`,
    body: () => drp,
    wrongType: () => ({ data: { type: "data-retention-policies" } }),
    selfManagedOnly: true,
  },
  { row: "C13 remove data retention policy", method: "DELETE", path: (t) => `${ws(t)}/relationships/data-retention-policy`, selfManagedOnly: true },
  {
    row: "D1 deprecate",
    method: "PATCH",
    path: (t) => moduleVersion(t, t.version),
    body: () => deprecate,
    wrongType: () => ({ data: { ...deprecate.data, type: "workspaces" } }),
  },
  {
    row: "D2 undeprecate",
    method: "PATCH",
    path: (t) => moduleVersion(t, t.deprecatedVersion),
    body: () => undeprecate,
    wrongType: () => ({ data: { ...undeprecate.data, type: "workspaces" } }),
  },
  { row: "D3 registry read of one version", method: "GET", path: (t) => `/api/registry/v1/modules/${t.org}/vpc/aws/${t.version}`, registry: true },
  { row: "D4 registry read of all versions", method: "GET", path: (t) => `/api/registry/v1/modules/${t.org}/vpc/aws/versions`, registry: true },
];

const UNKNOWN: Target = {
  org: "no-such-org",
  wsId: "ws-doesnotexist0000",
  wsName: "does-not-exist",
  otherId: "ws-doesnotexist0001",
  consumerId: "ws-doesnotexist0002",
  version: "9.9.9",
  deprecatedVersion: "9.9.8",
};

const API_404 = { errors: [{ status: "404", title: "not found" }] };
const REGISTRY_404 = { errors: ["Not Found"] };

describe.each(EDITIONS)("every endpoint's shared status rows in the %s edition", (edition) => {
  let t: TestEmulator;
  let target: Target;
  const bodyEndpoints = ENDPOINTS.filter((e) => e.body !== undefined);
  const typedEndpoints = ENDPOINTS.filter((e) => e.wrongType !== undefined);
  /** Whether the route is absent in this edition (data retention in the hosted edition). */
  const absent = (e: Endpoint): boolean => e.selfManagedOnly === true && edition === "hosted";

  beforeAll(async () => {
    t = await startTestEmulator({
      edition,
      fixtures: { organizations: [{ name: "example-org", registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0"] }] }] },
    });
    const subject = await createWorkspace(t.api, t.org, "matrix-subject");
    const consumer = await createWorkspace(t.api, t.org, "matrix-consumer");
    const other = await createWorkspace(t.api, t.org, "matrix-other");
    const base = `/api/v2/workspaces/${subject.id}`;
    const key = await t.api.post(`/api/v2/organizations/${t.org}/ssh-keys`, { data: { type: "ssh-keys", attributes: { name: "matrix-key", value: "k" } } });
    const setup = [
      await t.api.post(`${base}/relationships/remote-state-consumers`, { data: [{ type: "workspaces", id: consumer.id }] }),
      await t.api.post(`${base}/relationships/tags`, { data: [{ type: "tags", attributes: { name: "kept" } }] }),
      await t.api.patch(`${base}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] }),
      await t.api.patch(`${base}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: key.body.data.id } } }),
      await t.api.patch(moduleVersion({ org: t.org } as Target, "1.0.0"), deprecate),
    ];
    if (edition === "self-managed") {
      setup.push(await t.api.post(`${base}/relationships/data-retention-policy`, { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 30 } } }));
    }
    for (const r of setup) if (r.status >= 300) throw new Error(`setup: ${r.status} ${r.text}`);
    target = {
      org: t.org,
      wsId: subject.id,
      wsName: "matrix-subject",
      otherId: other.id,
      consumerId: consumer.id,
      version: "1.1.0",
      deprecatedVersion: "1.0.0",
    };
  });
  afterAll(() => t.close());

  /** Everything the endpoints above could change, read with the owner token. */
  async function snapshot(): Promise<Doc[]> {
    const base = `/api/v2/workspaces/${target.wsId}`;
    const paths = [
      base,
      `/api/v2/organizations/${t.org}/workspaces?page[size]=100`,
      `${base}/relationships/remote-state-consumers`,
      `${base}/relationships/tags`,
      `${base}/tag-bindings`,
      `/api/v2/organizations/${t.org}/tags`,
      `/api/registry/v1/modules/${t.org}/vpc/aws/versions`,
      ...(edition === "self-managed" ? [`${base}/relationships/data-retention-policy`] : []),
    ];
    return Promise.all(
      paths.map(async (p) => {
        const r = await t.api.get(p);
        return [p, r.status, r.body];
      }),
    );
  }

  it.each(ENDPOINTS.map((e) => [e.row, e]))("%s answers 401 with an error document for a missing or an invalid token, changing nothing", async (_row, e) => {
    const before = await snapshot();
    const body = e.body?.(target);
    const missing = await t.api.request(e.method, e.path(target), { token: null, body });
    const invalid = await t.api.request(e.method, e.path(target), { token: "not-a-token", body });
    if (absent(e)) {
      // A route that does not exist in this edition is unknown, with or without a token.
      expect([missing.status, invalid.status]).toEqual([404, 404]);
      expect(missing.body).toEqual(API_404);
    } else {
      expect([missing.status, invalid.status]).toEqual([401, 401]);
      expect(missing.body).toEqual(e.registry ? { errors: ["Unauthorized"] } : { errors: [{ status: "401", title: "unauthorized" }] });
      expect(missing.headers["content-type"]).toBe(e.registry ? "application/json" : "application/vnd.api+json");
    }
    expect(invalid.text).toBe(missing.text);
    expect(await snapshot()).toEqual(before);
  });

  it.each(ENDPOINTS.map((e) => [e.row, e]))("%s answers 404 to the owner of another organization, changing nothing", async (_row, e) => {
    const stranger = t.clientFor({ kind: "owner", organization: "stranger-org" });
    const before = await snapshot();
    const r = await stranger.request(e.method, e.path(target), { body: e.body?.(target) });
    expect(r.status).toBe(404);
    expect(r.body).toEqual(e.registry ? REGISTRY_404 : API_404);
    expect(await snapshot()).toEqual(before);
  });

  it.each(ENDPOINTS.map((e) => [e.row, e]))("%s answers 404 for an unknown target, changing nothing", async (_row, e) => {
    const before = await snapshot();
    const r = await t.api.request(e.method, e.path(UNKNOWN), { body: e.body?.(UNKNOWN) });
    expect(r.status).toBe(404);
    expect(r.body).toEqual(e.registry ? REGISTRY_404 : API_404);
    expect(await snapshot()).toEqual(before);
  });

  it.each(bodyEndpoints.map((e) => [e.row, e]))("%s answers 400 to malformed JSON and 415 to a wrong content type, changing nothing", async (_row, e) => {
    const before = await snapshot();
    const malformed = await t.api.request(e.method, e.path(target), { raw: '{"data":[' });
    const wrongContentType = await t.api.request(e.method, e.path(target), { raw: JSON.stringify(e.body?.(target)), contentType: "text/plain" });
    if (absent(e)) {
      expect([malformed.status, wrongContentType.status]).toEqual([404, 404]);
    } else {
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ errors: [{ status: "400", title: "bad request", detail: "Malformed request body: not valid JSON" }] });
      expect(wrongContentType.status).toBe(415);
      expect(wrongContentType.body.errors[0]).toMatchObject({ status: "415", title: "unsupported media type" });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each(typedEndpoints.map((e) => [e.row, e]))("%s answers 422 with a pointer to a wrong type, changing nothing", async (_row, e) => {
    const before = await snapshot();
    const r = await t.api.request(e.method, e.path(target), { body: e.wrongType?.(target) });
    if (absent(e)) {
      expect(r.status).toBe(404);
    } else {
      expect(r.status).toBe(422);
      expect(r.body.errors).toHaveLength(1);
      expect(r.body.errors[0].status).toBe("422");
      expect(r.body.errors[0].source.pointer).toMatch(/^\/data(\/\d+)?\/type$/);
    }
    expect(await snapshot()).toEqual(before);
  });
});

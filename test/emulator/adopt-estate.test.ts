/**
 * The seeder of the `wsbridge adopt` estate (test/support/adopt-estate.ts) builds what its manifest
 * says: everything is read back through the API with GETs, in both editions, as the admin and as the
 * read-only token.
 */
import { Pool } from "undici";
import { DEPRECATION_REASON_SUFFIX, startEmulator, type Edition, type RunningEmulator } from "../../emulator";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";

interface Linkage {
  id: string;
  type: string;
}
interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data?: Linkage | Linkage[] | null }>;
}
interface Doc {
  data: Resource | Resource[];
  links?: { next?: string | null };
  modules?: Array<{ versions: Array<{ version: string; deprecation: { reason: string; link: string } | null }> }>;
}
interface Reply {
  status: number;
  body: Doc;
}

const WORKSPACES = 200;

async function get(pool: Pool, path: string, token: string): Promise<Reply> {
  const res = await pool.request({ method: "GET", path, headers: { authorization: `Bearer ${token}` } });
  const text = await res.body.text();
  return { status: res.statusCode, body: (text === "" ? { data: [] } : JSON.parse(text)) as Doc };
}

async function getOk(pool: Pool, path: string, token: string): Promise<Doc> {
  const r = await get(pool, path, token);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

function many(doc: Doc): Resource[] {
  if (!Array.isArray(doc.data)) throw new Error("expected a list");
  return doc.data;
}

function one(doc: Doc): Resource {
  if (Array.isArray(doc.data)) throw new Error("expected one resource");
  return doc.data;
}

/** Every page of a list. */
async function listAll(pool: Pool, path: string, token: string): Promise<Resource[]> {
  const out: Resource[] = [];
  for (let page = 1; ; page++) {
    const doc = await getOk(pool, `${path}${path.includes("?") ? "&" : "?"}page[size]=100&page[number]=${page}`, token);
    out.push(...many(doc));
    if (!doc.links?.next) return out;
  }
}

/** The linkage id of a to-one relationship, or null. */
function related(r: Resource, name: string): string | null {
  const data = r.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : null;
}

const bindingsOf = (list: Resource[]): Record<string, string> =>
  Object.fromEntries(list.map((b) => [String(b.attributes["key"]), String(b.attributes["value"])]));

async function inParallel<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < items.length) await fn(items[next++] as T);
  }));
}

describe.each<Edition>(["self-managed", "hosted"])("the adopt estate, %s", (edition) => {
  let emu: RunningEmulator;
  let pool: Pool;
  let m: EstateManifest;
  let listed: Map<string, Resource>;

  beforeAll(async () => {
    emu = await startEmulator({ edition, quiet: true });
    pool = new Pool(emu.url, { connections: 8, pipelining: 0 });
    m = await seedEstate(emu.url, emu.token, { workspaces: WORKSPACES, edition });
    const all = await listAll(pool, `/api/v2/organizations/${m.organization}/workspaces`, m.tokens.admin);
    listed = new Map(all.map((w) => [w.id, w]));
  });

  afterAll(async () => {
    await pool.close();
    await emu.close();
  });

  test("has the distribution the adopt tests need", () => {
    const ws = m.workspaces;
    expect(ws).toHaveLength(WORKSPACES);
    const names = ws.map((w) => w.name);
    expect(new Set(names).size).toBe(WORKSPACES);
    expect(names).toEqual(expect.arrayContaining(["api-prod", "api_prod", "a-b", "a_b", "9-lives", "class", "app-0006", "net-0012"]));
    const tagged = ws.filter((w) => Object.keys(w.tags).length > 0);
    expect(tagged.length / WORKSPACES).toBeGreaterThan(0.35);
    expect(tagged.length / WORKSPACES).toBeLessThan(0.65);
    expect(Math.max(...tagged.map((w) => Object.keys(w.tags).length))).toBeLessThanOrEqual(4);
    expect(tagged.some((w) => Object.values(w.tags).includes(""))).toBe(true);
    expect(ws.filter((w) => w.tagNames.length > 0).length).toBeGreaterThan(3);
    expect(ws.some((w) => w.globalRemoteState)).toBe(true);
    expect(m.consumers.length / WORKSPACES).toBeGreaterThan(0.25);
    expect(m.consumers.every((c) => c.consumerIds.length >= 1 && c.consumerIds.length <= 3)).toBe(true);
    const projectOf = new Map(ws.map((w) => [w.id, w.projectId]));
    const crossing = m.consumers.filter((c) => c.consumerIds.some((id) => projectOf.get(id) !== projectOf.get(c.workspaceId)));
    expect(crossing.length).toBeGreaterThan(0);
    expect(crossing.length).toBeLessThan(m.consumers.length);
    const globalIds = new Set(ws.filter((w) => w.globalRemoteState).map((w) => w.id));
    expect(m.consumers.some((c) => globalIds.has(c.workspaceId))).toBe(false);
    const lockCount = m.locks.length + m.runLocks.length;
    expect(lockCount / WORKSPACES).toBeCloseTo(0.1, 1);
    const byTeams = m.locks.filter((l) => l.lockedBy.type === "teams").length;
    expect(byTeams).toBeGreaterThan(0);
    expect(m.locks.length - byTeams).toBeGreaterThan(byTeams);
    expect(new Set(m.locks.filter((l) => l.lockedBy.type === "users").map((l) => l.lockedBy.id)).size).toBe(3);
    expect(m.runLocks.length).toBeGreaterThan(0);
    expect(m.sshKeys.length / WORKSPACES).toBeCloseTo(0.2, 1);
    expect(new Set(m.sshKeys.map((k) => k.sshKeyId)).size).toBeGreaterThanOrEqual(2);
    expect(m.retentionPolicies.length > 0).toBe(edition === "self-managed");
    expect(m.foreignConsumers).toEqual([]);
    expect(m.projectTags).toHaveLength(4);
    expect(m.modules.length).toBeGreaterThanOrEqual(3);
    expect(m.modules.every((mod) => mod.versions.length >= 2 && mod.versions.length <= 4)).toBe(true);
    const versions = m.modules.flatMap((mod) => mod.versions);
    const deprecated = versions.filter((v) => v.deprecation);
    expect(deprecated.length / versions.length).toBeGreaterThan(0.2);
    expect(deprecated.length / versions.length).toBeLessThan(0.5);
    expect(deprecated.some((v) => v.deprecation?.link) && deprecated.some((v) => !v.deprecation?.link)).toBe(true);
    expect(m.unreadableWorkspaceId).toBeDefined();
  });

  test("every workspace reads back as the manifest says: name, project, sharing, flat tags, lock, SSH key", () => {
    expect(listed.size).toBe(WORKSPACES);
    const locks = new Map(m.locks.map((l) => [l.workspaceId, l]));
    const runLocks = new Set(m.runLocks);
    const keys = new Map(m.sshKeys.map((k) => [k.workspaceId, k.sshKeyId]));
    for (const w of m.workspaces) {
      const r = listed.get(w.id);
      if (!r) throw new Error(`workspace ${w.name} not listed`);
      expect(r.attributes["name"]).toBe(w.name);
      expect(related(r, "project")).toBe(w.projectId);
      expect(r.attributes["global-remote-state"]).toBe(w.globalRemoteState);
      expect([...(r.attributes["tag-names"] as string[])].sort()).toEqual([...w.tagNames].sort());
      const lock = locks.get(w.id);
      expect(r.attributes["locked"]).toBe(lock !== undefined || runLocks.has(w.id));
      if (lock) {
        expect(r.attributes["locked-reason"]).toBe(lock.reason);
        expect(r.relationships?.["locked-by"]?.data).toEqual(lock.lockedBy);
      }
      if (runLocks.has(w.id)) expect(r.relationships?.["locked-by"]?.data).toMatchObject({ type: "runs" });
      expect(related(r, "ssh-key")).toBe(keys.get(w.id) ?? null);
    }
  });

  test("direct and effective tag bindings, and the projects' tags", async () => {
    const projectTags = new Map(m.projectTags.map((p) => [p.projectId, p.tags]));
    for (const p of m.projectTags) {
      expect(bindingsOf(many(await getOk(pool, `/api/v2/projects/${p.projectId}/tag-bindings`, m.tokens.admin)))).toEqual(p.tags);
    }
    await inParallel(m.workspaces, async (w) => {
      const direct = many(await getOk(pool, `/api/v2/workspaces/${w.id}/tag-bindings`, m.tokens.admin));
      expect(bindingsOf(direct)).toEqual(w.tags);
      const effective = many(await getOk(pool, `/api/v2/workspaces/${w.id}/effective-tag-bindings`, m.tokens.admin));
      expect(bindingsOf(effective)).toEqual({ ...(projectTags.get(w.projectId) ?? {}), ...w.tags });
    });
  });

  test("remote-state consumers", async () => {
    const consumers = new Map(m.consumers.map((c) => [c.workspaceId, c.consumerIds]));
    await inParallel(m.workspaces.filter((w) => !w.globalRemoteState), async (w) => {
      const list = await listAll(pool, `/api/v2/workspaces/${w.id}/relationships/remote-state-consumers`, m.tokens.admin);
      expect(list.map((c) => c.id).sort()).toEqual([...(consumers.get(w.id) ?? [])].sort());
    });
  });

  test("data retention policies (self-managed only)", async () => {
    const own = new Set(m.retentionPolicies.map((p) => p.workspaceId));
    const other = m.workspaces.find((w) => !own.has(w.id));
    if (!other) throw new Error("every workspace has a policy");
    const otherPath = `/api/v2/workspaces/${other.id}/relationships/data-retention-policy`;
    if (edition === "hosted") {
      expect(m.retentionPolicies).toEqual([]);
      expect(m.organizationRetentionPolicy).toBeUndefined();
      expect((await get(pool, otherPath, m.tokens.admin)).status).toBe(404);
      return;
    }
    for (const p of m.retentionPolicies) {
      const r = one(await getOk(pool, `/api/v2/workspaces/${p.workspaceId}/relationships/data-retention-policy`, m.tokens.admin));
      expect({ id: r.id, type: r.type, ...r.attributes }).toEqual(p.policy);
      expect(r.relationships?.["target"]?.data).toEqual({ id: p.workspaceId, type: "workspaces" });
    }
    expect(new Set(m.retentionPolicies.map((p) => p.policy["type"])).size).toBe(2);
    const inherited = one(await getOk(pool, otherPath, m.tokens.admin));
    expect({ id: inherited.id, type: inherited.type, ...inherited.attributes }).toEqual(m.organizationRetentionPolicy);
    expect(inherited.relationships?.["target"]?.data).toEqual({ id: m.organization, type: "organizations" });
  });

  test("registry modules and deprecations, from the registry read API", async () => {
    for (const mod of m.modules) {
      const doc = await getOk(pool, `/api/registry/v1/modules/${m.organization}/${mod.name}/${mod.provider}/versions`, m.tokens.readOnly);
      const read = (doc.modules?.[0]?.versions ?? []).map((v) => ({
        version: v.version,
        ...(v.deprecation ? { deprecation: { reason: v.deprecation.reason, ...(v.deprecation.link ? { link: v.deprecation.link } : {}) } } : {}),
      }));
      expect(read).toEqual(mod.versions);
    }
    const reasons = m.modules.flatMap((mod) => mod.versions.flatMap((v) => (v.deprecation ? [v.deprecation.reason] : [])));
    expect(reasons.every((r) => r.endsWith(DEPRECATION_REASON_SUFFIX))).toBe(true);
  });

  test("the read-only token reads every workspace but one, and may change nothing", async () => {
    const ro = m.tokens.readOnly;
    const hidden = m.unreadableWorkspaceId ?? "";
    const seen = await listAll(pool, `/api/v2/organizations/${m.organization}/workspaces`, ro);
    expect(seen.map((w) => w.id).sort()).toEqual(m.workspaces.map((w) => w.id).filter((id) => id !== hidden).sort());
    expect((await get(pool, `/api/v2/workspaces/${hidden}`, ro)).status).toBe(404);
    for (const w of seen.slice(0, 5)) {
      const perms = w.attributes["permissions"] as Record<string, boolean>;
      expect(perms["can-read-settings"]).toBe(true);
      for (const right of ["can-update", "can-lock", "can-manage-tags", "can-queue-run", "can-create-state-versions"]) expect(perms[right]).toBe(false);
    }
    const first = m.consumers[0];
    if (!first) throw new Error("no consumers");
    expect(first.consumerIds).toContain(hidden);
    const consumers = await listAll(pool, `/api/v2/workspaces/${first.workspaceId}/relationships/remote-state-consumers`, ro);
    expect(consumers.map((c) => c.id).sort()).toEqual(first.consumerIds.filter((id) => id !== hidden).sort());
    const target = m.workspaces[0]?.id ?? "";
    const write = async (method: string, path: string, body: unknown): Promise<number> => {
      const res = await pool.request({ method: method as "POST", path, body: JSON.stringify(body), headers: { authorization: `Bearer ${ro}`, "content-type": "application/vnd.api+json" } });
      await res.body.text();
      return res.statusCode;
    };
    expect(await write("POST", `/api/v2/workspaces/${target}/actions/lock`, { reason: "no" })).toBe(404);
    expect(await write("PATCH", `/api/v2/workspaces/${target}`, { data: { type: "workspaces", attributes: { description: "no" } } })).toBe(404);
    expect(await write("PATCH", `/api/v2/workspaces/${target}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "x" } }] })).toBe(404);
  });

  test("the same options give the same estate (another organization, same names and shape)", async () => {
    const again = await seedEstate(emu.url, emu.token, { workspaces: WORKSPACES, edition, organization: "estate-org-again" });
    const index = (man: EstateManifest): Map<string, number> => new Map(man.workspaces.map((w, i) => [w.id, i]));
    const shape = (man: EstateManifest): unknown => {
      const at = index(man);
      const projects = new Map([...new Set(man.workspaces.map((w) => w.projectId))].map((id, i) => [id, i]));
      return {
        workspaces: man.workspaces.map((w) => ({ ...w, id: at.get(w.id), projectId: projects.get(w.projectId) })),
        consumers: man.consumers.map((c) => [at.get(c.workspaceId), c.consumerIds.map((id) => at.get(id))]),
        locks: man.locks.map((l) => [at.get(l.workspaceId), l.reason, l.lockedBy.type]),
        runLocks: man.runLocks.map((id) => at.get(id)),
        sshKeys: man.sshKeys.map((k) => at.get(k.workspaceId)),
        retention: man.retentionPolicies.map((p) => [at.get(p.workspaceId), p.policy["type"], p.policy["delete-older-than-n-days"]]),
        projectTags: man.projectTags.map((p) => p.tags),
      };
    };
    expect(shape(again)).toEqual(shape(m));
  });
});

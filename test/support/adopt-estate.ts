/**
 * Seeds an "estate" (an organization full of workspaces and what hangs on them) for the tests and
 * the benchmark of the read-only `wsbridge adopt`, through the emulator's HTTP API only: its public
 * endpoints, its setup endpoints (organizations, projects, SSH keys, teams, team access, runs, the
 * registry) and `POST /_emulator/tokens` for the two users that hold locks (users exist only through
 * that door or fixtures). Nothing is written to the store directly, so no fixtures are needed:
 * `seedEstate(emu.url, emu.token, options)` on a fresh emulator of the same edition.
 *
 * Everything is planned first, by a pure function of the options (names, tags, who consumes whom,
 * who locks what), then sent 16 requests at a time on a keep-alive pool of its own (the seeding never
 * blocks the process, so no connection can go stale, unlike the test helpers' requests). The admin
 * token must be a user's (the emulator's default owner token is): it creates the organization with
 * `POST /organizations` and so becomes its owner. Seeding leaves about 2.7 requests per workspace in
 * the emulator's request log (2,659 for 1,000): clear it before counting requests. Seeding 1,000
 * workspaces took 1.2 to 2.9 s against an in-process emulator (sharing the event loop).
 *
 * What the emulator could not give through its API: consumers in another organization (see
 * `foreignConsumers`). Side effects to know: each of the two lockers' `/_emulator/tokens` calls adds
 * a team `team-<n>` with lock access on every workspace to the organization, besides
 * `estate-readers` and `estate-platform`; run locks leave a run (status "planning") as current run.
 */
import { Pool } from "undici";
import { mulberry32 } from "../../emulator/faults";

export interface EstateOptions {
  workspaces: number; // e.g. 200 in tests, 1000 in the bench; at least 12
  edition: "self-managed" | "hosted";
  organization?: string; // default "estate-org"
  projects?: number; // default 4 (plus the default project)
}

export interface EstateManifest {
  organization: string;
  /** Every workspace created: id, name, project id, direct tags, flat tags (`unreadableWorkspaceId` is one of them). */
  workspaces: { id: string; name: string; projectId: string; tags: Record<string, string>; tagNames: string[]; globalRemoteState: boolean }[];
  /** Locks held by a user or a team (adoptable), by workspace id, with reason and locker ({type:'users'|'teams', id}). */
  locks: { workspaceId: string; reason: string; lockedBy: { type: string; id: string } }[];
  /** Locks held by a run (not adoptable): made with `POST /runs` `lock-workspace: true` and a status that is not final. */
  runLocks: string[];
  sshKeys: { workspaceId: string; sshKeyId: string }[];
  /** Self-managed only: workspaces with their own data-retention policy (`{id, type, ...attributes}` as the API reports them). */
  retentionPolicies: { workspaceId: string; policy: Record<string, unknown> }[];
  /**
   * Self-managed only: the organization's default policy (same shape). Every workspace without its own
   * reports it from `GET …/relationships/data-retention-policy` (target: the organization): not adoptable.
   */
  organizationRetentionPolicy?: Record<string, unknown>;
  /**
   * Remote-state consumers of workspaces whose global-remote-state is false: subject id -> consumer ids
   * (same organization). The first entry also lists `unreadableWorkspaceId`, which the read-only token's
   * consumer list leaves out (the API lists only the consumers the caller can read).
   */
  consumers: { workspaceId: string; consumerIds: string[] }[];
  /**
   * Always empty: the emulator refuses (422 "Workspace … not found") a consumer of another organization,
   * as every member must be a workspace of the subject's organization (remote-state-consumers.ts).
   */
  foreignConsumers: { workspaceId: string; consumerId: string; organization: string }[];
  /** Project-level tags that workspaces inherit (not adoptable as workspace tags); every non-default project. */
  projectTags: { projectId: string; tags: Record<string, string> }[];
  /** Registry modules and their versions; `reason` as the API reads it back (the emulator appends DEPRECATION_REASON_SUFFIX). */
  modules: { name: string; provider: string; versions: { version: string; deprecation?: { reason: string; link?: string } }[] }[];
  /**
   * The owner token used to seed, and a READ-ONLY team token: the team has `read` team access
   * (`/team-workspaces`) on every workspace but `unreadableWorkspaceId`, and no organization access.
   */
  tokens: { admin: string; readOnly: string };
  /** A workspace the read-only token cannot read (no team access for the readers' team). */
  unreadableWorkspaceId?: string;
  /** The read-only team (give it `read` on a workspace made later, so the read-only token sees it). */
  readersTeamId: string;
  /** A user's token that may lock workspaces (alice's), for locks made later. */
  userLockToken: string;
  /** The organization's SSH keys, by creation order. */
  sshKeyIds: string[];
}

// The plan: a pure function of the options.

const PROJECT_PREFIXES = ["app", "net", "data", "ops", "web", "sec", "ml", "edge"];
/** Names that collide once turned into identifiers (and a leading digit, a reserved word). */
const SPECIAL_NAMES = ["api-prod", "api_prod", "a-b", "a_b", "9-lives", "class"];
const UNREADABLE_NAME = "restricted-vault";
const TAG_VALUES: Record<string, string[]> = {
  env: ["prod", "staging", "dev"],
  team: ["payments", "platform", "search"],
  "cost-center": ["cc-100", "cc-200"],
  tier: ["gold", "silver"],
  owner: ["alice@example.com", "bob@example.com"],
  critical: [""],
  "pci:scope": [""],
};
const TAG_KEYS = Object.keys(TAG_VALUES);
const FLAT_TAGS = ["legacy", "team:core", "batch", "pci"];
const LOCK_REASONS = ["maintenance window", "incident INC-1042", "", "migrating state", "frozen for audit"];
const SSH_KEYS = ["deploy-key", "github-readonly", "legacy-bastion"];
const RETENTION: Array<{ type: string; days?: number }> = [
  { type: "data-retention-policy-delete-olders", days: 30 },
  { type: "data-retention-policy-dont-deletes" },
  { type: "data-retention-policy-delete-olders", days: 90 },
];
const MODULES: Array<{ name: string; provider: string; versions: Array<{ version: string; deprecation?: { reason: string; link?: string } }> }> = [
  { name: "vpc", provider: "aws", versions: [
    { version: "1.0.0", deprecation: { reason: "NAT gateway misconfiguration", link: "https://example.com/advisories/vpc-1.0.0" } },
    { version: "1.1.0" }, { version: "2.0.0" } ] },
  { name: "network", provider: "azurerm", versions: [{ version: "0.9.0", deprecation: { reason: "Use 1.x" } }, { version: "1.0.0" }] },
  { name: "bucket", provider: "google", versions: [
    { version: "1.0.0" }, { version: "1.2.0", deprecation: { reason: "Public ACL by default", link: "https://example.com/bucket/1.2" } },
    { version: "1.3.0" }, { version: "2.0.0" } ] },
  { name: "eks-cluster", provider: "aws", versions: [{ version: "3.0.0", deprecation: { reason: "End of life" } }, { version: "3.1.0" }] },
];

type LockPlan = { kind: "user"; user: 0 | 1 | 2; reason: string } | { kind: "team"; reason: string } | { kind: "run" };

/** One workspace: `project` 0 is the default project; consumers, SSH keys and policies by index. */
interface WorkspacePlan {
  name: string;
  project: number;
  tags: Record<string, string>;
  tagNames: string[];
  globalRemoteState: boolean;
  consumers: number[];
  lock: LockPlan | null;
  sshKey: number | null;
  retention: number | null;
  unreadable: boolean;
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

function projectPrefix(p: number): string {
  if (p === 0) return "core";
  const base = pick(PROJECT_PREFIXES, p - 1);
  const round = Math.floor((p - 1) / PROJECT_PREFIXES.length);
  return round === 0 ? base : `${base}${round + 1}`;
}

function planWorkspaces(n: number, projects: number, edition: EstateOptions["edition"]): WorkspacePlan[] {
  // The emulator's seeded PRNG, so the same options give the same estate every time.
  const rnd = mulberry32(0x5eed + n * 31 + projects);
  const groups = projects + 1;
  const unreadable = n - 1;
  const plans: WorkspacePlan[] = [];
  for (let i = 0; i < n; i++) {
    const project = i % groups;
    const name = i === unreadable ? UNREADABLE_NAME : (SPECIAL_NAMES[i] ?? `${projectPrefix(project)}-${String(i).padStart(4, "0")}`);
    const tags: Record<string, string> = {};
    if (rnd() < 0.5) {
      const count = 1 + Math.floor(rnd() * 4);
      const start = Math.floor(rnd() * TAG_KEYS.length);
      for (let k = 0; k < count; k++) {
        const key = pick(TAG_KEYS, start + k);
        tags[key] = pick(TAG_VALUES[key] ?? [""], Math.floor(rnd() * 3));
      }
    }
    const plan: WorkspacePlan = {
      name,
      project,
      tags,
      tagNames: i % 16 === 5 ? [pick(FLAT_TAGS, i), ...(i % 32 === 5 ? [pick(FLAT_TAGS, i + 1)] : [])] : [],
      globalRemoteState: i % 10 === 3,
      consumers: [],
      lock: null,
      sshKey: i % 5 === 2 ? Math.floor(i / 5) % SSH_KEYS.length : null,
      retention: edition === "self-managed" && i % 40 === 11 ? Math.floor(i / 40) % RETENTION.length : null,
      unreadable: i === unreadable,
    };
    if (i % 3 === 1 && !plan.globalRemoteState) {
      // Same project (a multiple of `groups` away) first, then across projects.
      const offsets = [groups, 1, 2 * groups + 1];
      const count = 1 + (Math.floor(i / 3) % 3);
      for (const off of offsets.slice(0, count)) {
        const j = (i + off) % n;
        if (j !== i && j !== unreadable && !plan.consumers.includes(j)) plan.consumers.push(j);
      }
    }
    if (i % 10 === 7) {
      const k = Math.floor(i / 10);
      const reason = pick(LOCK_REASONS, k);
      const user = (Math.floor(k / 2) % 3) as 0 | 1 | 2;
      plan.lock = k % 10 === 5 ? { kind: "run" } : k % 3 === 1 ? { kind: "team", reason } : { kind: "user", user, reason };
    }
    if (plan.unreadable) Object.assign(plan, { tags: {}, tagNames: [], globalRemoteState: false, consumers: [], lock: null, sshKey: null, retention: null });
    plans.push(plan);
  }
  // The unreadable workspace consumes the first subject's state: a read-only listing cannot see it.
  const first = plans.find((p) => p.consumers.length > 0);
  if (first) first.consumers = [...first.consumers.slice(0, 2), unreadable];
  return plans;
}

function projectTagsOf(p: number): Record<string, string> {
  const tags: Record<string, string> = { env: pick(["prod", "staging", "dev"], p), "cost-center": `cc-${p}00` };
  if (p % 2 === 1) tags["managed-by"] = "";
  return tags;
}

// HTTP

type Json = Record<string, unknown>;

class Api {
  readonly pool: Pool;
  constructor(address: string) {
    this.pool = new Pool(address.replace(/\/+$/, ""), { connections: 16 });
  }

  /** A request that must succeed (2xx); its parsed body, `{}` when empty. */
  async call(method: string, path: string, token: string | null, body?: unknown): Promise<Json> {
    const headers: Record<string, string> = { "content-type": "application/vnd.api+json" };
    if (token !== null) headers["authorization"] = `Bearer ${token}`;
    const res = await this.pool.request({ method: method as "GET", path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`seedEstate: ${method} ${path} answered ${res.statusCode}: ${text.slice(0, 500)}`);
    return text === "" ? {} : (JSON.parse(text) as Json);
  }
}

function field(doc: Json, ...path: string[]): unknown {
  let cur: unknown = doc;
  for (const key of path) cur = typeof cur === "object" && cur !== null ? (cur as Json)[key] : undefined;
  return cur;
}

/** The string at `path` in `doc`; throws when there is none. */
function text(doc: Json, ...path: string[]): string {
  const value = field(doc, ...path);
  if (typeof value !== "string") throw new Error(`seedEstate: no ${path.join(".")} in ${JSON.stringify(doc).slice(0, 300)}`);
  return value;
}

const idOf = (doc: Json): string => text(doc, "data", "id");

/** Runs `fn` over `items`, `limit` at a time; results in input order. */
async function pooled<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const bindings = (tags: Record<string, string>): Json => ({
  data: Object.entries(tags).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })),
});

// Seeding

const CONCURRENCY = 16;

export async function seedEstate(address: string, adminToken: string, options: EstateOptions): Promise<EstateManifest> {
  const n = options.workspaces;
  const projectCount = options.projects ?? 4;
  const org = options.organization ?? "estate-org";
  if (!Number.isInteger(n) || n < 12) throw new Error("seedEstate: workspaces must be an integer of at least 12");
  const plans = planWorkspaces(n, projectCount, options.edition);
  const api = new Api(address);
  const admin = (method: string, path: string, body?: unknown): Promise<Json> => api.call(method, path, adminToken, body);
  const O = `/api/v2/organizations/${org}`;
  try {
    // The organization (the admin token's user becomes its owner), its projects and SSH keys.
    const orgDoc = await admin("POST", "/api/v2/organizations", { data: { type: "organizations", attributes: { name: org, email: `admin@${org}.example.com` } } });
    const defaultProject = text(orgDoc, "data", "relationships", "default-project", "data", "id");
    const projectNums = Array.from({ length: projectCount }, (_, k) => k + 1);
    const created = await pooled(projectNums, CONCURRENCY, async (p) =>
      idOf(await admin("POST", `${O}/projects`, { data: { type: "projects", attributes: { name: projectPrefix(p) }, relationships: { "tag-bindings": bindings(projectTagsOf(p)) } } })),
    );
    const projectIds = [defaultProject, ...created];
    const sshKeyIds = await pooled(SSH_KEYS, CONCURRENCY, async (name) =>
      idOf(await admin("POST", `${O}/ssh-keys`, { data: { type: "ssh-keys", attributes: { name, value: `-----BEGIN OPENSSH PRIVATE KEY-----\n${name}\n-----END OPENSSH PRIVATE KEY-----` } } })),
    );

    // Teams: the readers (read access per workspace, below) and the platform team that holds locks.
    const team = async (name: string, access: Json): Promise<{ id: string; token: string }> => {
      const id = idOf(await admin("POST", `${O}/teams`, { data: { type: "teams", attributes: { name, visibility: "organization", "organization-access": access } } }));
      return { id, token: text(await admin("POST", `/api/v2/teams/${id}/authentication-token`), "data", "attributes", "token") };
    };
    const readers = await team("estate-readers", {});
    const platform = await team("estate-platform", { "manage-workspaces": true });
    // Users who lock: two issued by the emulator's admin door (users exist no other way), and the admin itself.
    const userToken = async (username: string): Promise<string> =>
      text(await api.call("POST", "/_emulator/tokens", null, { kind: "user", organization: org, username, access: "lock" }), "token");
    const users = [await userToken(`${org}-alice`), await userToken(`${org}-bob`), adminToken];
    const userIds = await Promise.all(users.map(async (t) => idOf(await api.call("GET", "/api/v2/account/details", t))));

    // Workspaces, with their project, direct and flat tags and remote-state sharing in the create.
    const wsIds = await pooled(plans, CONCURRENCY, async (p) => {
      const relationships: Json = { project: { data: { type: "projects", id: projectIds[p.project] } }, "tag-bindings": bindings(p.tags) };
      if (p.tagNames.length > 0) relationships["tags"] = { data: p.tagNames.map((name) => ({ type: "tags", attributes: { name } })) };
      const attributes = { name: p.name, "global-remote-state": p.globalRemoteState, description: `estate workspace ${p.name}` };
      return idOf(await admin("POST", `${O}/workspaces`, { data: { type: "workspaces", attributes, relationships } }));
    });
    const wsId = (i: number): string => wsIds[i] as string;

    // Per workspace: consumers, SSH key, own retention policy, the readers' access.
    const policies = await pooled(plans, CONCURRENCY, async (p, i) => {
      const W = `/api/v2/workspaces/${wsId(i)}`;
      if (p.consumers.length > 0) {
        await admin("POST", `${W}/relationships/remote-state-consumers`, { data: p.consumers.map((j) => ({ type: "workspaces", id: wsId(j) })) });
      }
      if (p.sshKey !== null) await admin("PATCH", `${W}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: sshKeyIds[p.sshKey] } } });
      if (!p.unreadable) {
        await admin("POST", "/api/v2/team-workspaces", {
          data: { type: "team-workspaces", attributes: { access: "read" }, relationships: { workspace: { data: { type: "workspaces", id: wsId(i) } }, team: { data: { type: "teams", id: readers.id } } } },
        });
      }
      if (p.retention === null) return [];
      const r = pick(RETENTION, p.retention);
      const doc = await admin("POST", `${W}/relationships/data-retention-policy`, { data: { type: r.type, attributes: r.days === undefined ? {} : { "delete-older-than-n-days": r.days } } });
      return [{ workspaceId: wsId(i), policy: resourceFields(doc) }];
    });
    let organizationRetentionPolicy: Record<string, unknown> | undefined;
    if (options.edition === "self-managed") {
      const doc = await admin("POST", `${O}/relationships/data-retention-policy`, { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 365 } } });
      organizationRetentionPolicy = resourceFields(doc);
    }

    // Registry modules, their versions and deprecations (reason as read back).
    const modules = await pooled(MODULES, CONCURRENCY, async (m) => {
      const M = `${O}/registry-modules/private/${org}/${m.name}/${m.provider}`;
      await admin("POST", `${O}/registry-modules`, { data: { type: "registry-modules", attributes: { name: m.name, provider: m.provider, "registry-name": "private" } } });
      const versions: EstateManifest["modules"][number]["versions"] = [];
      for (const v of m.versions) {
        await admin("POST", `${M}/versions`, { data: { type: "registry-module-versions", attributes: { version: v.version } } });
        if (!v.deprecation) {
          versions.push({ version: v.version });
          continue;
        }
        const dep = { "deprecated-status": "Deprecated", reason: v.deprecation.reason, link: v.deprecation.link ?? "" };
        const doc = await admin("PATCH", `${M}/${v.version}`, { data: { type: "module-versions", attributes: { deprecation: dep } } });
        const included = field(doc, "included");
        const reason = text(Array.isArray(included) ? (included[0] as Json) : {}, "attributes", "reason");
        versions.push({ version: v.version, deprecation: v.deprecation.link ? { reason, link: v.deprecation.link } : { reason } });
      }
      return { name: m.name, provider: m.provider, versions };
    });

    // Locks last: users and the platform team lock, runs hold the rest (status "planning": not final).
    const locks = await pooled(plans, CONCURRENCY, async (p, i): Promise<EstateManifest["locks"]> => {
      const lock = p.lock;
      const id = wsId(i);
      if (lock?.kind === "run") {
        await admin("POST", "/api/v2/runs", { data: { type: "runs", attributes: { status: "planning", "lock-workspace": true, message: "estate run" }, relationships: { workspace: { data: { type: "workspaces", id } } } } });
      }
      if (!lock || lock.kind === "run") return [];
      const token = lock.kind === "team" ? platform.token : (users[lock.user] as string);
      await api.call("POST", `/api/v2/workspaces/${id}/actions/lock`, token, { reason: lock.reason });
      const lockedBy = lock.kind === "team" ? { type: "teams", id: platform.id } : { type: "users", id: userIds[lock.user] as string };
      return [{ workspaceId: id, reason: lock.reason, lockedBy }];
    });

    return {
      organization: org,
      workspaces: plans.map((p, i) => ({ id: wsId(i), name: p.name, projectId: projectIds[p.project] as string, tags: p.tags, tagNames: p.tagNames, globalRemoteState: p.globalRemoteState })),
      locks: locks.flat(),
      runLocks: plans.flatMap((p, i) => (p.lock?.kind === "run" ? [wsId(i)] : [])),
      sshKeys: plans.flatMap((p, i) => (p.sshKey === null ? [] : [{ workspaceId: wsId(i), sshKeyId: sshKeyIds[p.sshKey] as string }])),
      retentionPolicies: policies.flat(),
      ...(organizationRetentionPolicy ? { organizationRetentionPolicy } : {}),
      consumers: plans.flatMap((p, i) => (p.consumers.length === 0 ? [] : [{ workspaceId: wsId(i), consumerIds: p.consumers.map(wsId) }])),
      foreignConsumers: [],
      projectTags: projectNums.map((p) => ({ projectId: projectIds[p] as string, tags: projectTagsOf(p) })),
      modules,
      tokens: { admin: adminToken, readOnly: readers.token },
      unreadableWorkspaceId: wsId(n - 1),
      readersTeamId: readers.id,
      userLockToken: users[0] as string,
      sshKeyIds,
    };
  } finally {
    await api.pool.close();
  }
}

/** `{id, type, ...attributes}` of a single-resource document. */
function resourceFields(doc: Json): Record<string, unknown> {
  const attributes = field(doc, "data", "attributes");
  return { id: field(doc, "data", "id"), type: field(doc, "data", "type"), ...(typeof attributes === "object" && attributes !== null ? attributes : {}) };
}

// What an omitted input means, on the real Pulumi CLI against the emulator (hosted edition), on both
// routes (issue 40): a program means one server state, whatever the stack's history. Table-driven from
// the kinds' omission tables (provider/schemas/*.ts, `*_OMITTED`): every optional input of every kind
// has a case below, so an input added later without a rule (or without a case) fails the first test.
//
// One stack per route, each case on a resource of its own, all cases side by side (a real-CLI
// operation costs seconds; one per input would cost minutes):
//
//  1. up with each case's input set;
//  2. each input removed from the program: the preview shows, per resource, exactly the restore (the
//     plugin route's property paths; the dynamic route's changed inputs) or, for an input with no fixed
//     value, no change at all;
//  3. up: each resource sends exactly the request its restore needs (none for a provider switch), and
//     the server holds what a create without the input gives (or the inheritance);
//  4. the next preview shows no change and sends nothing;
//  5. each restored input changed on the server (through the API) while the program leaves it out:
//     `preview --refresh` shows the restore again.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import type { Omission } from "../../provider/schemas/omission";
import { WORKSPACE_OMITTED } from "../../provider/schemas/workspace";
import { WORKSPACE_LOCK_OMITTED } from "../../provider/schemas/workspace-lock";
import { REMOTE_STATE_CONSUMERS_OMITTED } from "../../provider/schemas/remote-state-consumers";
import { WORKSPACE_TAG_BINDINGS_OMITTED } from "../../provider/schemas/workspace-tag-bindings";
import { SSH_KEY_ASSIGNMENT_OMITTED } from "../../provider/schemas/ssh-key-assignment";
import { DATA_RETENTION_POLICY_OMITTED } from "../../provider/schemas/data-retention-policy";
import { MODULE_VERSION_DEPRECATION_OMITTED } from "../../provider/schemas/module-version-deprecation";
import { stepsOf } from "../support/engine-events";
import { plannedSteps } from "../support/plugin-route";
import { useRealCliStack, type RealCliStack } from "../support/real-cli-stack";

type Route = "dynamic" | "plugin";
type Args = Record<string, unknown>;
type Kind = "Workspace" | "WorkspaceLock" | "RemoteStateConsumers" | "WorkspaceTagBindings" | "SshKeyAssignment" | "DataRetentionPolicy" | "ModuleVersionDeprecation";

const ORG = DEFAULT_ORGANIZATION;
const PROJECT = "prj-omittedinputs0001";
const OTHER_PROJECT = "prj-omittedinputs0002";
const POOL = "apool-omittedinputs01";
const OAUTH = "ot-omittedinputs00001";
/** The project's inactivity duration, which a workspace inherits while it declares none. */
const PROJECT_DURATION = "7d";

const FIXTURES = {
  organizations: [{
    name: ORG,
    projects: [{ id: PROJECT, name: "inherits" }, { id: OTHER_PROJECT, name: "elsewhere" }],
    agentPools: [{ id: POOL, name: "runners" }],
    oauthClients: [{ name: "github", oauthTokenId: OAUTH }],
    registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "1.2.0"] }],
  }],
};

const TABLES: Record<Kind, Readonly<Record<string, Omission>>> = {
  Workspace: WORKSPACE_OMITTED,
  WorkspaceLock: WORKSPACE_LOCK_OMITTED,
  RemoteStateConsumers: REMOTE_STATE_CONSUMERS_OMITTED,
  WorkspaceTagBindings: WORKSPACE_TAG_BINDINGS_OMITTED,
  SshKeyAssignment: SSH_KEY_ASSIGNMENT_OMITTED,
  DataRetentionPolicy: DATA_RETENTION_POLICY_OMITTED,
  ModuleVersionDeprecation: MODULE_VERSION_DEPRECATION_OMITTED,
};

/** What the server holds of a workspace, as the cases read it. */
interface Live {
  id: string;
  a: Record<string, unknown>;
  rel: Record<string, { data?: { id: string } | null }>;
}

/** A change made through the API while the program leaves the input out: a workspace's attributes, or a request of its own. */
type Drift = Record<string, unknown>;

interface Case {
  kind: Kind;
  /** The omission table's key. */
  input: string;
  /** The resource's args with the input set, and without it (`{ws}` in a value: the id of the case's own workspace). */
  set: Args;
  omitted: Args;
  /**
   * The restore: the plugin route's paths (`path: kind`, sorted; the dynamic route shows their top-level
   * keys as changed inputs), its step, the requests `up` sends for it (`ws` for the workspace's id), and
   * what the server holds after it. Undefined: the input has no fixed value, nothing is shown or sent.
   */
  restore?: { op?: string; paths: string[]; requests: string[]; live?: [(w: Live) => unknown, unknown]; dynamic?: string[] };
  /** A change made through the API while the input is left out, which `preview --refresh` then shows restored (the same paths unless given). */
  drift?: { attributes?: Drift; request?: [method: string, path: string, body: unknown]; paths?: string[] };
}

/** Why a table entry has no case of its own (checked to be only these). */
const NOT_EXERCISED: Record<string, string> = {
  "Workspace.vcsRepo.githubAppInstallationId":
    "the service takes it only on an update that switches an existing connection to a GitHub App installation; its omission is unmanaged like oauthTokenId's, which is exercised",
  "DataRetentionPolicy.deleteOlderThanNDays": "one of two forms, exactly one of which is declared: check refuses both left out (test/runtime/data-retention-policy.test.ts)",
  "DataRetentionPolicy.dontDelete": "one of two forms, exactly one of which is declared: check refuses both left out (test/runtime/data-retention-policy.test.ts)",
};

const patch = ["PATCH /workspaces/ws"];
const upd = (...paths: string[]): string[] => paths.map((p) => `${p}: update`);
const ws = (name: string, extra: Args = {}): Args => ({ name, ...extra });
const REPO = { identifier: "acme/infrastructure", oauthTokenId: OAUTH };

/** A Workspace case: `set` is added to `base` and removed again (a nested key is removed from its object only). */
function workspaceCase(input: string, base: Args, set: Args, rest: Omit<Case, "kind" | "input" | "set" | "omitted">, omitted?: Args): Case {
  const name = `om-${input.replace(/\./g, "-")}`.toLowerCase();
  return { kind: "Workspace", input, set: ws(name, { ...base, ...set }), omitted: ws(name, omitted ?? base), ...rest };
}

const attr = (key: string) => (w: Live): unknown => w.a[key];
const overwrites = (w: Live): unknown => w.a["setting-overwrites"];

const CASES: Case[] = [
  // Fixed create defaults: check fills them in, so a removal previews and applies the restore.
  workspaceCase("description", {}, { description: "declared" }, { restore: { paths: upd("description"), requests: patch, live: [attr("description"), ""] }, drift: { attributes: { description: "by hand" } } }),
  workspaceCase("allowDestroyPlan", {}, { allowDestroyPlan: false }, { restore: { paths: upd("allowDestroyPlan"), requests: patch, live: [attr("allow-destroy-plan"), true] }, drift: { attributes: { "allow-destroy-plan": false } } }),
  workspaceCase("autoApply", {}, { autoApply: true }, { restore: { paths: upd("autoApply"), requests: patch, live: [attr("auto-apply"), false] }, drift: { attributes: { "auto-apply": true } } }),
  workspaceCase("autoApplyRunTrigger", {}, { autoApplyRunTrigger: true }, { restore: { paths: upd("autoApplyRunTrigger"), requests: patch, live: [attr("auto-apply-run-trigger"), false] }, drift: { attributes: { "auto-apply-run-trigger": true } } }),
  workspaceCase("fileTriggersEnabled", {}, { fileTriggersEnabled: false }, { restore: { paths: upd("fileTriggersEnabled"), requests: patch, live: [attr("file-triggers-enabled"), true] }, drift: { attributes: { "file-triggers-enabled": false } } }),
  workspaceCase("triggerPatterns", {}, { triggerPatterns: ["/modules/**"] }, { restore: { paths: ["triggerPatterns[0]: delete"], requests: patch, live: [attr("trigger-patterns"), []] }, drift: { attributes: { "trigger-patterns": ["/by-hand/**"] } } }),
  workspaceCase("triggerPrefixes", {}, { triggerPrefixes: ["modules/"] }, { restore: { paths: ["triggerPrefixes[0]: delete"], requests: patch, live: [attr("trigger-prefixes"), []] }, drift: { attributes: { "trigger-prefixes": ["by-hand/"] } } }),
  workspaceCase("queueAllRuns", {}, { queueAllRuns: true }, { restore: { paths: upd("queueAllRuns"), requests: patch, live: [attr("queue-all-runs"), false] }, drift: { attributes: { "queue-all-runs": true } } }),
  workspaceCase("speculativeEnabled", {}, { speculativeEnabled: false }, { restore: { paths: upd("speculativeEnabled"), requests: patch, live: [attr("speculative-enabled"), true] }, drift: { attributes: { "speculative-enabled": false } } }),
  workspaceCase("workingDirectory", {}, { workingDirectory: "stacks/prod" }, { restore: { paths: upd("workingDirectory"), requests: patch, live: [attr("working-directory"), null] }, drift: { attributes: { "working-directory": "by-hand" } } }),
  workspaceCase("vcsRepo.branch", { vcsRepo: REPO }, { vcsRepo: { ...REPO, branch: "release" } }, { restore: { paths: upd("vcsRepo.branch"), requests: patch, live: [(w) => (w.a["vcs-repo"] as Args)["branch"], ""] }, drift: { attributes: { "vcs-repo": { branch: "by-hand" } } } }),
  workspaceCase("vcsRepo.ingressSubmodules", { vcsRepo: REPO }, { vcsRepo: { ...REPO, ingressSubmodules: true } }, { restore: { paths: upd("vcsRepo.ingressSubmodules"), requests: patch, live: [(w) => (w.a["vcs-repo"] as Args)["ingress-submodules"], false] }, drift: { attributes: { "vcs-repo": { "ingress-submodules": true } } } }),
  workspaceCase("vcsRepo.tagsRegex", { vcsRepo: REPO, fileTriggersEnabled: false }, { vcsRepo: { ...REPO, tagsRegex: "^v\\d+" } }, { restore: { paths: upd("vcsRepo.tagsRegex"), requests: patch, live: [(w) => (w.a["vcs-repo"] as Args)["tags-regex"], null] }, drift: { attributes: { "vcs-repo": { "tags-regex": "^release-" } } } }),
  workspaceCase("forceDelete", {}, { forceDelete: true }, { restore: { paths: upd("forceDelete"), requests: [] } }),
  workspaceCase("adoptExisting", {}, { adoptExisting: true }, { restore: { paths: upd("adoptExisting"), requests: [] } }),
  // Nothing: the update sends null.
  workspaceCase("autoDestroyAt", {}, { autoDestroyAt: "2031-01-31T18:00:00Z" }, { restore: { paths: ["autoDestroyAt: delete"], requests: patch, live: [attr("auto-destroy-at"), null] }, drift: { attributes: { "auto-destroy-at": "2032-06-30T12:00:00Z" } } }),
  workspaceCase("vcsRepo", {}, { vcsRepo: REPO }, { restore: { paths: ["vcsRepo: delete"], requests: patch, live: [attr("vcs-repo"), null] }, drift: { attributes: { "vcs-repo": REPO_WIRE() } } }),
  // Inherited again: the project's auto-destroy duration, the organization's execution mode and agent pool.
  workspaceCase("autoDestroyActivityDuration", { projectId: PROJECT }, { autoDestroyActivityDuration: "3d" }, {
    restore: { paths: ["autoDestroyActivityDuration: delete"], requests: patch, live: [(w) => [w.a["auto-destroy-activity-duration"], w.a["inherits-project-auto-destroy"]], [PROJECT_DURATION, true]] },
    drift: { attributes: { "auto-destroy-activity-duration": "5d" } },
  }),
  workspaceCase("executionMode", {}, { executionMode: "local" }, {
    restore: { paths: ["executionMode: delete", ...upd("settingOverwrites.agentPool", "settingOverwrites.executionMode")], requests: patch, live: [(w) => [overwrites(w), w.a["execution-mode"]], [{ "execution-mode": false, "agent-pool": false }, "remote"]] },
    drift: { attributes: { "execution-mode": "local" } },
  }),
  workspaceCase("operations", {}, { operations: false }, {
    restore: { paths: ["operations: delete", ...upd("settingOverwrites.agentPool", "settingOverwrites.executionMode")], requests: patch, live: [(w) => [overwrites(w), w.a["execution-mode"]], [{ "execution-mode": false, "agent-pool": false }, "remote"]] },
    // The state holds the workspace's own mode by its current name now (read reports it so).
    drift: { attributes: { operations: false }, paths: ["executionMode: delete", ...upd("settingOverwrites.agentPool", "settingOverwrites.executionMode")] },
  }),
  workspaceCase("agentPoolId", {}, { executionMode: "agent", agentPoolId: POOL }, {
    restore: { paths: ["agentPoolId: delete", "executionMode: delete", ...upd("settingOverwrites.agentPool", "settingOverwrites.executionMode")], requests: patch, live: [(w) => [w.a["execution-mode"], w.rel["agent-pool"]?.data ?? null], ["remote", null]] },
    drift: { attributes: { "execution-mode": "agent", "agent-pool-id": POOL } },
  }),
  // Derived by check from what the program declares.
  workspaceCase("settingOverwrites", { executionMode: "remote" }, { settingOverwrites: { executionMode: false, agentPool: false } }, {
    restore: { paths: upd("settingOverwrites.agentPool", "settingOverwrites.executionMode"), requests: patch, live: [overwrites, { "execution-mode": true, "agent-pool": true }] },
    drift: { attributes: { "setting-overwrites": { "execution-mode": false, "agent-pool": false } } },
  }),
  workspaceCase("settingOverwrites.executionMode", { executionMode: "local" }, { settingOverwrites: { executionMode: false } }, {
    // The mode in effect was the inherited one: the plugin route shows it change back to the declared one;
    // the dynamic route shows the inputs that change.
    restore: {
      paths: upd("executionMode", "settingOverwrites.executionMode"), dynamic: ["settingOverwrites"], requests: patch,
      live: [(w) => [overwrites(w), w.a["execution-mode"]], [{ "execution-mode": true, "agent-pool": true }, "local"]],
    },
  }),
  workspaceCase("settingOverwrites.agentPool", { executionMode: "remote" }, { settingOverwrites: { agentPool: false } }, {
    restore: { paths: upd("settingOverwrites.agentPool"), requests: patch, live: [overwrites, { "execution-mode": true, "agent-pool": true }] },
    drift: { attributes: { "setting-overwrites": { "agent-pool": false } } },
  }),
  // No fixed value: left out, not managed. No change is shown and none is made; the server keeps it.
  workspaceCase("assessmentsEnabled", {}, { assessmentsEnabled: true }, { restore: undefined }),
  workspaceCase("globalRemoteState", {}, { globalRemoteState: true }, { restore: undefined }),
  workspaceCase("projectRemoteState", {}, { projectRemoteState: true }, { restore: undefined }),
  workspaceCase("engineVersion", {}, { engineVersion: "1.9.5" }, { restore: undefined }),
  workspaceCase("sourceName", {}, { sourceName: "platform-pipeline" }, { restore: undefined }),
  workspaceCase("sourceUrl", {}, { sourceUrl: "https://ci.example.com/pipelines/7" }, { restore: undefined }),
  workspaceCase("projectId", {}, { projectId: OTHER_PROJECT }, { restore: undefined }),
  workspaceCase("tagBindings", {}, { tagBindings: { env: "prod" } }, { restore: undefined }),
  workspaceCase("tagNames", {}, { tagNames: ["prod"] }, { restore: undefined }),
  workspaceCase("vcsRepo.oauthTokenId", {}, { vcsRepo: REPO }, { restore: undefined }, { vcsRepo: { identifier: REPO.identifier } }),
  workspaceCase("organization", {}, { organization: ORG }, { restore: undefined }),
  // The other kinds.
  { kind: "WorkspaceLock", input: "reason", set: { workspaceId: "{ws}", reason: "release freeze" }, omitted: { workspaceId: "{ws}" },
    // The service cannot change a held lock's reason: unlock, then lock again.
    restore: { op: "replace", paths: ["reason: update-replace"], requests: ["POST /workspaces/ws/actions/unlock", "POST /workspaces/ws/actions/lock"], live: [attr("locked-reason"), ""] } },
  { kind: "WorkspaceLock", input: "forceUnlockOnDestroy", set: { workspaceId: "{ws}", forceUnlockOnDestroy: true }, omitted: { workspaceId: "{ws}" },
    restore: { paths: upd("forceUnlockOnDestroy"), requests: [] } },
  { kind: "RemoteStateConsumers", input: "exclusive", set: { workspaceId: "{ws}", consumerIds: ["{other}"], exclusive: true }, omitted: { workspaceId: "{ws}", consumerIds: ["{other}"] },
    restore: { paths: upd("exclusive"), requests: [] } },
  { kind: "WorkspaceTagBindings", input: "exclusive", set: { workspaceId: "{ws}", tags: { team: "a" }, exclusive: true }, omitted: { workspaceId: "{ws}", tags: { team: "a" } },
    restore: { paths: upd("exclusive"), requests: [] } },
  { kind: "ModuleVersionDeprecation", input: "reason", set: { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "opens port 22" }, omitted: { moduleName: "vpc", provider: "aws", version: "1.0.0" },
    restore: { paths: ["reason: delete"], requests: [`PATCH /organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/1.0.0`] } },
  { kind: "ModuleVersionDeprecation", input: "link", set: { moduleName: "vpc", provider: "aws", version: "1.1.0", link: "https://example.com/upgrade" }, omitted: { moduleName: "vpc", provider: "aws", version: "1.1.0" },
    restore: { paths: ["link: delete"], requests: [`PATCH /organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/1.1.0`] },
    // (A reason added outside is not seen: the service appends text to every reason, so a stored reason
    // is judged by whether it starts with the declared one; docs/resources/module-version-deprecation.md.)
    drift: { request: ["PATCH", `/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/1.1.0`, {
      data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", link: "https://example.com/elsewhere" } } },
    }] } },
  { kind: "ModuleVersionDeprecation", input: "organization", set: { organization: ORG, moduleName: "vpc", provider: "aws", version: "1.2.0" }, omitted: { moduleName: "vpc", provider: "aws", version: "1.2.0" } },
];

/** The repository as the API takes it (a drift connects one). */
function REPO_WIRE(): Args {
  return { identifier: REPO.identifier, "oauth-token-id": OAUTH };
}

/** A workspace whose program leaves inputs out and lists them in ignoreChanges. */
const IGNORED = "om-ignored";

const resourceOf = (c: Case): string => c.kind === "Workspace" ? String(c.set["name"]) : `om-${c.kind}-${c.input}`.toLowerCase();
/** The workspace a case's resource is about (its own for a Workspace; one made for it otherwise). */
const workspaceOf = (c: Case): string | undefined => c.kind === "Workspace" ? resourceOf(c) : c.kind === "ModuleVersionDeprecation" ? undefined : `${resourceOf(c)}-ws`;

test("every optional input of every kind has a case here, or a reason it has none", () => {
  const tabled = Object.entries(TABLES).flatMap(([kind, table]) => Object.keys(table).map((input) => `${kind}.${input}`)).sort();
  const covered = [...CASES.map((c) => `${c.kind}.${c.input}`), ...Object.keys(NOT_EXERCISED)].sort();
  expect(covered).toEqual(tabled);
  // A case's expectation follows its table entry: restored exactly when the input has a meaning to restore.
  for (const c of CASES) {
    const omission = TABLES[c.kind][c.input] as Omission;
    const managed = omission.means !== "unmanaged" && omission.means !== "setting";
    expect([`${c.kind}.${c.input}`, c.restore !== undefined]).toEqual([`${c.kind}.${c.input}`, managed]);
  }
});

describe.each<[Route]>([["dynamic"], ["plugin"]])("the %s route", (route) => {
  let phase: "set" | "omitted" = "set";
  const e2e: RealCliStack = useRealCliStack({
    projectName: `wsbridge-omitted-${route}`,
    plugin: route === "plugin",
    emulator: { edition: "hosted", fixtures: FIXTURES },
    program: async () => {
      const sdk = (route === "plugin" ? await import("@pulumi-wsbridge/wsbridge") : await import("pulumi-wsbridge")) as unknown as
        Record<Kind, new (name: string, args: Args, opts?: Args) => { id: unknown }>;
      const byName = new Map<string, { id: unknown }>();
      const workspace = (name: string): { id: unknown } => {
        let made = byName.get(name);
        if (made === undefined) byName.set(name, (made = new sdk.Workspace(name, { name })));
        return made;
      };
      // Left to others: what the program leaves out, ignoreChanges keeps as the server holds it (the last test).
      new sdk.Workspace(IGNORED, { name: IGNORED }, { ignoreChanges: ["autoApply", "vcsRepo", "executionMode"] });
      for (const c of CASES) {
        const args = phase === "set" ? c.set : c.omitted;
        if (c.kind === "Workspace") {
          byName.set(resourceOf(c), new sdk.Workspace(resourceOf(c), args));
          continue;
        }
        const own = workspaceOf(c);
        const ref = (value: unknown): unknown => value === "{ws}" ? workspace(own ?? "").id : value === "{other}" ? workspace(`${own}-other`).id : value;
        const withRefs = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, Array.isArray(value) ? value.map(ref) : ref(value)]));
        new sdk[c.kind](resourceOf(c), withRefs);
      }
      return {};
    },
  });

  const TYPE_PREFIX = route === "plugin" ? "wsbridge:index:" : "pulumi-nodejs:dynamic/wsbridge:";
  const ids = new Map<string, string>();

  async function live(name: string): Promise<Live> {
    const { status, doc } = await e2e.api<{ data: { id: string; attributes: Record<string, unknown>; relationships: Live["rel"] } }>("GET", `/organizations/${ORG}/workspaces/${name}`);
    expect([name, status]).toEqual([name, 200]);
    ids.set(doc.data.id, name);
    return { id: doc.data.id, a: doc.data.attributes, rel: doc.data.relationships };
  }

  /** Each non-same step by resource name: `op` and the paths (plugin) or changed inputs (dynamic). */
  function steps(events: EngineEvent[]): Record<string, string> {
    const out: Record<string, string> = {};
    // A replacement is announced as several steps (create-replacement, replace, delete-replaced): its `replace` says it.
    const shown = (op: string): boolean => ["update", "replace", "create", "delete"].includes(op);
    for (const kind of Object.keys(TABLES)) {
      const type = `${TYPE_PREFIX}${kind}`;
      if (route === "plugin") for (const s of plannedSteps(events, type)) { if (shown(s.op)) out[s.name] = `${s.op} ${s.paths.join(", ")}`; }
      else for (const s of stepsOf(events, type)) { if (shown(s.op)) out[s.name] = `${s.op} ${s.changedInputs.join(", ")}`; }
    }
    return out;
  }

  /** What a restore previews as, on this route. */
  function expected(op: string, paths: string[], dynamic?: string[]): string {
    if (route === "plugin") return `${op} ${[...paths].sort().join(", ")}`;
    const keys = dynamic ?? [...new Set(paths.map((p) => p.replace(/[.[].*$/, "").replace(/:.*$/, "")))].sort();
    return `${op} ${keys.join(", ")}`;
  }

  /** The requests since the last clear, by the case they are about (a workspace id shown as `ws`). */
  function requestsByCase(): Record<string, string[]> {
    const byCase: Record<string, string[]> = {};
    for (const r of e2e.emulator.requests()) {
      const path = r.path.replace("/api/v2", "");
      const id = /ws-[A-Za-z0-9]+/.exec(path)?.[0];
      const c = CASES.find((k) => (id !== undefined && workspaceOf(k) === ids.get(id)) || (k.kind === "ModuleVersionDeprecation" && path.endsWith(`/${String(k.set["version"])}`)));
      const key = c === undefined ? "(none)" : resourceOf(c);
      (byCase[key] ??= []).push(`${r.method} ${path.replace(/ws-[A-Za-z0-9]+/, "ws")}`);
    }
    return byCase;
  }

  test("each input set: up creates every case", async () => {
    expect((await e2e.api("PATCH", `/projects/${PROJECT}`, { data: { type: "projects", attributes: { "auto-destroy-activity-duration": PROJECT_DURATION } } })).status).toBe(200);
    phase = "set";
    const result = await e2e.stack.up({ onOutput: e2e.log });
    expect(result.summary.result).toBe("succeeded");
    for (const c of CASES) {
      const own = workspaceOf(c);
      if (own !== undefined) await live(own);
    }
  });

  test("each input removed: the preview shows exactly its restore, or nothing for an input with no fixed value, and sends no write", async () => {
    phase = "omitted";
    e2e.emulator.clearRequests();
    const events: EngineEvent[] = [];
    await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
    expect(e2e.writes()).toEqual([]);
    const want = Object.fromEntries(CASES.filter((c) => c.restore !== undefined).map((c) => [resourceOf(c), expected(c.restore?.op ?? "update", c.restore?.paths ?? [], c.restore?.dynamic)]));
    expect(steps(events)).toEqual(want);
  });

  test("up applies each restore with exactly the requests it needs, and the server holds what a create without the input gives", async () => {
    e2e.emulator.clearRequests();
    const result = await e2e.stack.up({ onOutput: e2e.log });
    expect(result.summary.result).toBe("succeeded");
    const got = requestsByCase();
    const want = Object.fromEntries(CASES.filter((c) => (c.restore?.requests.length ?? 0) > 0).map((c) => [resourceOf(c), [...(c.restore?.requests ?? [])].sort()]));
    expect(Object.fromEntries(Object.entries(got).map(([k, v]) => [k, (v ?? []).filter((line) => !line.startsWith("GET ")).sort()] as const).filter(([, v]) => v.length > 0))).toEqual(want);
    for (const c of CASES) {
      const check = c.restore?.live;
      const own = workspaceOf(c);
      if (check === undefined || own === undefined) continue;
      expect([resourceOf(c), check[0](await live(own))]).toEqual([resourceOf(c), check[1]]);
    }
    // The inputs without a fixed value are where they were: nothing was sent for them.
    expect((await live("om-globalremotestate")).a["global-remote-state"]).toBe(true);
    expect((await live("om-engineversion")).a["engine-version"]).toBe("1.9.5");
    expect((await live("om-projectid")).rel["project"]?.data?.id).toBe(OTHER_PROJECT);
  });

  test("the next preview shows no change and sends nothing", async () => {
    e2e.emulator.clearRequests();
    const events: EngineEvent[] = [];
    const preview = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
    expect(steps(events)).toEqual({});
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(e2e.requestLines()).toEqual([]);
  });

  test("each restored input changed on the server while the program leaves it out: preview --refresh shows the restore, except where ignoreChanges leaves it to others", async () => {
    const drifted = CASES.filter((c) => c.drift !== undefined);
    for (const c of drifted) {
      const request = c.drift?.request;
      const reply = request !== undefined
        ? await e2e.api(request[0], request[1], request[2])
        : await e2e.api("PATCH", `/workspaces/${(await live(workspaceOf(c) ?? "")).id}`, { data: { type: "workspaces", attributes: c.drift?.attributes } });
      expect([resourceOf(c), reply.status]).toEqual([resourceOf(c), 200]);
    }
    const ignored = await live(IGNORED);
    const changed = { "auto-apply": true, "vcs-repo": REPO_WIRE(), "execution-mode": "local" };
    expect((await e2e.api("PATCH", `/workspaces/${ignored.id}`, { data: { type: "workspaces", attributes: changed } })).status).toBe(200);
    e2e.emulator.clearRequests();
    const events: EngineEvent[] = [];
    await e2e.stack.preview({ refresh: true, onEvent: (e) => events.push(e), onOutput: e2e.log });
    expect(e2e.writes()).toEqual([]);
    const want = Object.fromEntries(drifted.map((c) => [resourceOf(c), expected("update", c.drift?.paths ?? c.restore?.paths ?? [])]));
    expect(steps(events)).toEqual(want);
  });
});

// WorkspaceLock, SshKeyAssignment and DataRetentionPolicy through both routes on the real Pulumi CLI,
// against a self-managed emulator (the policy exists only there): the dynamic route (`pulumi-wsbridge`,
// run by the dynamic-provider host) and the plugin route (the provider plugin installed from its
// archive, with the generated SDK `@pulumi-wsbridge/wsbridge`). One program per route, one stack each,
// the same scenario: up; a no-op preview without a request; each updatable property changed alone (one
// per resource in each step) previewed exactly and applied; the three moved to another workspace
// (replacements); drift made through the emulator's API found by refresh and restored exactly; a bad
// WorkspaceLock failing the preview, naming each property and its rule (the CLI's framing on each
// route; the rules of every kind are tables at the runtime: test/runtime/workspace-lock,
// ssh-key-assignment, data-retention-policy), without a request; a second lock on one workspace
// refused; destroy. The emulator's requests of every operation are recorded, and the last test asserts
// that both routes made exactly the same ones.
//
// The one request a preview may send: a DataRetentionPolicy whose declaration changed asks the server's
// edition once per provider process (`GET /ping`, read-only; kinds/data-retention-policy.ts, check),
// because the policy exists only in the self-managed edition. Both routes send it, and only then.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type * as pulumi from "@pulumi/pulumi";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { stepsOf } from "../support/engine-events";
import { failureOf } from "../support/failure";
import { plannedSteps, stackOutputsOf } from "../support/plugin-route";
import { realMaskedLike, unknownOutputs } from "../support/preview-exactness";
import { useRealCliStack, type RealCliStack } from "../support/real-cli-stack";

type Route = "dynamic" | "plugin";

const ORG = DEFAULT_ORGANIZATION;
const KEY_A = "sshkey-routeaaaaaaaaaaa01";
const KEY_B = "sshkey-routebbbbbbbbbbb02";
const THEIRS = "sshkey-routetheirsssss03";
const ORG_DEFAULT_DAYS = 90;
const WS_NAMES = { first: "attach-first", second: "attach-second" } as const;
type On = keyof typeof WS_NAMES;

const KINDS = ["WorkspaceLock", "SshKeyAssignment", "DataRetentionPolicy"] as const;
type Kind = (typeof KINDS)[number];
const typeOf = (route: Route, kind: Kind): string =>
  route === "plugin" ? `wsbridge:index:${kind}` : `pulumi-nodejs:dynamic/wsbridge:${kind}`;

/** What one route's program declares; its tests change it between operations. */
interface Desired {
  lock: { on: On; reason: string; forceUnlockOnDestroy?: boolean };
  key: { on: On; sshKeyId: string };
  policy: { on: On; deleteOlderThanNDays?: number; dontDelete?: boolean };
  /** Extra resources with literal inputs (bad inputs, a second lock). */
  extra: { kind: Kind; name: string; args: Record<string, unknown> }[];
}

/** The classes a program uses, as both packages export them (their argument types differ in detail). */
type Ctor = new (name: string, args: Record<string, unknown>) => { id: pulumi.Output<string> } & Record<string, pulumi.Output<unknown>>;
type Classes = { Workspace: Ctor } & Record<Kind, Ctor>;

const programOf = (route: Route, d: Desired) => async () => {
  const mod = (route === "plugin" ? await import("@pulumi-wsbridge/wsbridge") : await import("pulumi-wsbridge")) as unknown as Classes;
  const ws = { first: new mod.Workspace("first", { name: WS_NAMES.first }), second: new mod.Workspace("second", { name: WS_NAMES.second }) };
  const lock = new mod.WorkspaceLock("lock", {
    workspaceId: ws[d.lock.on].id, reason: d.lock.reason,
    ...(d.lock.forceUnlockOnDestroy === undefined ? {} : { forceUnlockOnDestroy: d.lock.forceUnlockOnDestroy }),
  });
  const key = new mod.SshKeyAssignment("key", { workspaceId: ws[d.key.on].id, sshKeyId: d.key.sshKeyId });
  const { on, ...form } = d.policy;
  const policy = new mod.DataRetentionPolicy("policy", { workspaceId: ws[on].id, ...form });
  for (const e of d.extra) new mod[e.kind](e.name, e.args);
  return {
    lockedReason: lock["lockedReason"], lockedByKind: lock["lockedByKind"], held: lock["heldByThisResource"],
    sshKeyId: key["sshKeyId"], policyKind: policy["kind"], days: policy["deleteOlderThanNDays"], source: policy["source"],
  };
};

/** Each route's requests per operation: "METHOD /path" below /api/v2, the workspaces' ids named, sorted. */
const recorded: Record<Route, Record<string, string[]>> = { dynamic: {}, plugin: {} };
const OPERATIONS = [
  "up", "no-op preview", "preview of reason, key, days", "up of reason, key, days", "preview of forceUnlockOnDestroy, dontDelete",
  "up of forceUnlockOnDestroy, dontDelete", "preview of the move", "up of the move", "refresh after drift", "preview of the restore",
  "up of the restore", "bad WorkspaceLock", "second lock", "destroy",
];

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

type Relationships = Record<string, { data?: { id: string; type: string } | null }>;
type WorkspaceDoc = { data: { id: string; attributes: Record<string, unknown>; relationships: Relationships } };
type PolicyDoc = { data: { type: string; attributes: Record<string, unknown>; relationships: { target: { data: { id: string; type: string } } } } };

/** A step of one of the three kinds as both routes show it (see `shownSteps`). */
interface ShownStep {
  kind: Kind;
  name: string;
  op: string;
  changed?: string[];
}

const LOCK = { kind: "WorkspaceLock", name: "lock" } as const;
const KEY = { kind: "SshKeyAssignment", name: "key" } as const;
const POLICY = { kind: "DataRetentionPolicy", name: "policy" } as const;

describe.each<[Route]>([["dynamic"], ["plugin"]])("on the %s route", (route) => {
  const desired: Desired = {
    lock: { on: "first", reason: "change freeze" },
    key: { on: "first", sshKeyId: KEY_A },
    policy: { on: "first", deleteOlderThanNDays: 30 },
    extra: [],
  };
  const e2e: RealCliStack = useRealCliStack({
    projectName: `wsbridge-attachments-${route}`,
    plugin: route === "plugin",
    emulator: {
      edition: "self-managed",
      fixtures: {
        organizations: [{
          name: ORG,
          sshKeys: [{ id: KEY_A, name: "deploy-a" }, { id: KEY_B, name: "deploy-b" }, { id: THEIRS, name: "someone-elses" }],
          dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: ORG_DEFAULT_DAYS },
        }],
      },
    },
    program: programOf(route, desired),
  });

  // ---- helpers -------------------------------------------------------------------------------

  const ids: Partial<Record<On, string>> = {};
  const id = (on: On): string => String(ids[on]);
  /** A request path below /api/v2, each workspace's id replaced by `ws-FIRST` or `ws-SECOND`. */
  const named = (path: string): string => {
    let shown = path.replace("/api/v2", "");
    for (const on of ["first", "second"] as const) if (ids[on] !== undefined) shown = shown.split(id(on)).join(`ws-${on.toUpperCase()}`);
    return shown;
  };
  /** The requests since the last clear (or `requests`), in order; recorded (sorted) as operation `op` of this route. */
  const record = (op: string, requests = e2e.emulator.requests()): string[] => {
    const lines = requests.map((r) => `${r.method} ${named(r.path)}`);
    recorded[route][op] = [...lines].sort();
    return lines;
  };
  const sorted = (lines: string[]): string[] => [...lines].sort();

  async function live(on: On): Promise<WorkspaceDoc["data"]> {
    const { status, doc } = await e2e.api<WorkspaceDoc>("GET", `/organizations/${ORG}/workspaces/${WS_NAMES[on]}`);
    expect(status).toBe(200);
    return doc.data;
  }

  /** What the server holds of the three on workspace `on`. */
  async function attachments(on: On): Promise<{ locked: unknown; reason: unknown; by: unknown; sshKey: unknown; policy: unknown; policyOf: unknown }> {
    const ws = await live(on);
    const { doc } = await e2e.api<PolicyDoc>("GET", `/workspaces/${ws.id}/relationships/data-retention-policy`);
    return {
      locked: ws.attributes["locked"], reason: ws.attributes["locked-reason"], by: ws.relationships["locked-by"]?.data?.type ?? null,
      sshKey: ws.relationships["ssh-key"]?.data?.id ?? null,
      policy: doc.data.type === "data-retention-policy-dont-deletes" ? "dont-delete" : doc.data.attributes["delete-older-than-n-days"],
      policyOf: doc.data.relationships.target.data.type,
    };
  }

  /**
   * The steps of the three kinds, in a form both routes show: the op, and what changes. The plugin
   * route answers with a detailed diff, whose top-level keys the engine reports as `diffs`; a dynamic
   * provider cannot, so there the CLI shows the inputs whose values differ. A create and the
   * delete-replaced half of a replacement carry no `changed` (the plugin reports none for them; the
   * dynamic route's input comparison says nothing about the change there).
   */
  function shownSteps(events: EngineEvent[]): ShownStep[] {
    return KINDS.flatMap((kind) => {
      const steps = route === "plugin"
        ? plannedSteps(events, typeOf(route, kind)).map((s) => ({ name: s.name, op: s.op, changed: s.diffs }))
        : stepsOf(events, typeOf(route, kind)).map((s) => ({ name: s.name, op: s.op, changed: s.changedInputs }));
      return steps.map(({ name, op, changed }) => (op === "create" || op === "delete-replaced" ? { kind, name, op } : { kind, name, op, changed }));
    });
  }

  /** Each resource's detailed-diff paths (`path: kind`) in its replace, update or create step: the plugin's; none on the dynamic route. */
  function detailedPaths(events: EngineEvent[]): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const kind of KINDS) {
      for (const s of plannedSteps(events, typeOf(route, kind))) if (["replace", "update", "create"].includes(s.op)) out[s.name] = s.paths;
    }
    return out;
  }

  interface Previewed { steps: ShownStep[]; paths: Record<string, string[]>; planned: Record<string, unknown>; requests: string[] }

  async function preview(op: string): Promise<Previewed> {
    const events: EngineEvent[] = [];
    e2e.emulator.clearRequests();
    await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
    return { steps: shownSteps(events), paths: detailedPaths(events), planned: stackOutputsOf(events) ?? {}, requests: record(op) };
  }

  async function up(op: string): Promise<{ changes: Record<string, number | undefined>; requests: string[]; outputs: Record<string, unknown> }> {
    e2e.emulator.clearRequests();
    const result = await e2e.stack.up({ onOutput: e2e.log });
    expect(result.summary.result).toBe("succeeded");
    const requests = e2e.emulator.requests();
    // The first up: learn the workspaces' ids (after taking its requests: these reads are not its).
    if (ids.first === undefined) [ids.first, ids.second] = [(await live("first")).id, (await live("second")).id];
    const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
    return { changes: result.summary.resourceChanges ?? {}, requests: record(op, requests), outputs };
  }

  /**
   * The preview's planned outputs were exact: every one it knew is what the up produced. The plugin
   * plans the outputs itself (kinds' previewCreate/previewUpdate); on the dynamic route the engine
   * leaves the outputs of a changed resource unknown, except those the classes derive from inputs.
   */
  function expectExactPlan(planned: Record<string, unknown>, outputs: Record<string, unknown>, unknown: Record<Route, string[]>): void {
    expect(planned).toEqual(realMaskedLike(planned, outputs));
    expect(unknownOutputs(planned)).toEqual(unknown[route]);
  }

  /** The outputs of a changed lock and policy that the dynamic classes do not derive from inputs. */
  const UNKNOWN_ON_THE_DYNAMIC_ROUTE = ["held", "lockedByKind", "lockedReason", "source"];

  // ---- create and no-op ----------------------------------------------------------------------

  test("up creates the two workspaces, locks the first, assigns its key and sets its policy", async () => {
    const { changes, requests, outputs } = await up("up");
    expect(changes).toEqual({ create: 6 }); // with the stack
    expect(sorted(requests)).toEqual([
      "GET /ping", // the policy's edition check, once per provider process
      "GET /workspaces/ws-FIRST", // the lock's read before it locks
      "PATCH /workspaces/ws-FIRST/relationships/ssh-key",
      `POST /organizations/${ORG}/workspaces`,
      `POST /organizations/${ORG}/workspaces`,
      "POST /workspaces/ws-FIRST/actions/lock",
      "POST /workspaces/ws-FIRST/relationships/data-retention-policy",
    ]);
    expect(outputs).toEqual({
      lockedReason: "change freeze", lockedByKind: "users", held: true, sshKeyId: KEY_A, policyKind: "delete-older", days: 30, source: "workspace",
    });
    expect(await attachments("first")).toEqual({ locked: true, reason: "change freeze", by: "users", sshKey: KEY_A, policy: 30, policyOf: "workspaces" });
  });

  test("a preview with nothing changed plans nothing and sends no request", async () => {
    const { steps, requests } = await preview("no-op preview");
    expect(steps).toEqual([]);
    expect(requests).toEqual([]);
  });

  // ---- each property alone -------------------------------------------------------------------

  test("a new reason (replace), sshKeyId (update) and days (update), one per resource, preview exactly and up applies them", async () => {
    desired.lock.reason = "release 42 in progress";
    desired.key.sshKeyId = KEY_B;
    desired.policy.deleteOlderThanNDays = 45;
    const previewed = await preview("preview of reason, key, days");
    // The lock is replaced delete-first: a workspace has one lock.
    expect(previewed.steps).toEqual([
      { ...LOCK, op: "delete-replaced" }, { ...LOCK, op: "replace", changed: ["reason"] }, { ...LOCK, op: "create-replacement", changed: ["reason"] },
      { ...KEY, op: "update", changed: ["sshKeyId"] },
      { ...POLICY, op: "update", changed: ["deleteOlderThanNDays"] },
    ]);
    expect(previewed.paths).toEqual(route === "plugin"
      ? { lock: ["reason: update-replace"], key: ["sshKeyId: update"], policy: ["deleteOlderThanNDays: update"] }
      : { lock: [], key: [], policy: [] });
    expect(previewed.requests).toEqual(["GET /ping"]);

    const applied = await up("up of reason, key, days");
    expect(applied.changes).toEqual({ same: 3, update: 2, replace: 1 });
    expect(sorted(applied.requests)).toEqual([
      "GET /ping",
      "GET /workspaces/ws-FIRST", "GET /workspaces/ws-FIRST", // the lock's read before the unlock and before the lock
      "PATCH /workspaces/ws-FIRST/relationships/ssh-key",
      "POST /workspaces/ws-FIRST/actions/lock",
      "POST /workspaces/ws-FIRST/actions/unlock",
      "POST /workspaces/ws-FIRST/relationships/data-retention-policy",
    ]);
    expect(applied.requests.filter((r) => r.includes("/actions/"))).toEqual(["POST /workspaces/ws-FIRST/actions/unlock", "POST /workspaces/ws-FIRST/actions/lock"]);
    expect(await attachments("first")).toEqual({ locked: true, reason: "release 42 in progress", by: "users", sshKey: KEY_B, policy: 45, policyOf: "workspaces" });
    expectExactPlan(previewed.planned, applied.outputs, { dynamic: UNKNOWN_ON_THE_DYNAMIC_ROUTE, plugin: ["lockedByKind"] });
  });

  test("forceUnlockOnDestroy (update, nothing sent) and the policy's switch to dontDelete (update) preview exactly and up applies them", async () => {
    desired.lock.forceUnlockOnDestroy = true;
    desired.policy = { on: "first", dontDelete: true };
    const previewed = await preview("preview of forceUnlockOnDestroy, dontDelete");
    expect(previewed.steps).toEqual([
      { ...LOCK, op: "update", changed: ["forceUnlockOnDestroy"] },
      { ...POLICY, op: "update", changed: ["deleteOlderThanNDays", "dontDelete"] },
    ]);
    // Switching the form: the days go, dontDelete comes; an update in place, not a replacement.
    expect(previewed.paths).toEqual(route === "plugin"
      ? { lock: ["forceUnlockOnDestroy: update"], policy: ["deleteOlderThanNDays: delete", "dontDelete: add"] }
      : { lock: [], policy: [] });
    expect(previewed.requests).toEqual(["GET /ping"]);

    const applied = await up("up of forceUnlockOnDestroy, dontDelete");
    expect(applied.changes).toEqual({ same: 4, update: 2 });
    // The lock's update sends nothing; the policy's is one request, never a removal on the way.
    expect(sorted(applied.requests)).toEqual(["GET /ping", "POST /workspaces/ws-FIRST/relationships/data-retention-policy"]);
    expect(await attachments("first")).toMatchObject({ locked: true, policy: "dont-delete", policyOf: "workspaces" });
    expectExactPlan(previewed.planned, applied.outputs, { dynamic: UNKNOWN_ON_THE_DYNAMIC_ROUTE, plugin: [] });
  });

  test("workspaceId changed alone replaces each of the three: previewed exactly, and up moves them in the right order", async () => {
    desired.lock.on = "second";
    desired.key.on = "second";
    desired.policy.on = "second";
    const previewed = await preview("preview of the move");
    // The lock goes delete-first; the key and the policy are set on the new workspace first.
    expect(previewed.steps).toEqual([
      { ...LOCK, op: "delete-replaced" }, { ...LOCK, op: "replace", changed: ["workspaceId"] }, { ...LOCK, op: "create-replacement", changed: ["workspaceId"] },
      { ...KEY, op: "create-replacement", changed: ["workspaceId"] }, { ...KEY, op: "replace", changed: ["workspaceId"] }, { ...KEY, op: "delete-replaced" },
      { ...POLICY, op: "create-replacement", changed: ["workspaceId"] }, { ...POLICY, op: "replace", changed: ["workspaceId"] }, { ...POLICY, op: "delete-replaced" },
    ]);
    expect(previewed.paths).toEqual(route === "plugin"
      ? { lock: ["workspaceId: update-replace"], key: ["workspaceId: update-replace"], policy: ["workspaceId: update-replace"] }
      : { lock: [], key: [], policy: [] });
    expect(previewed.requests).toEqual(["GET /ping"]);

    const applied = await up("up of the move");
    expect(applied.changes).toEqual({ same: 3, replace: 3 });
    expect(sorted(applied.requests)).toEqual([
      "DELETE /workspaces/ws-FIRST/relationships/data-retention-policy",
      "GET /ping",
      "GET /workspaces/ws-FIRST", // the lock's read before its force-unlock
      "GET /workspaces/ws-FIRST", // the key's read before it unassigns
      "GET /workspaces/ws-SECOND", // the lock's read before it locks
      "PATCH /workspaces/ws-FIRST/relationships/ssh-key",
      "PATCH /workspaces/ws-SECOND/relationships/ssh-key",
      "POST /workspaces/ws-FIRST/actions/force-unlock", // forceUnlockOnDestroy: true
      "POST /workspaces/ws-SECOND/actions/lock",
      "POST /workspaces/ws-SECOND/relationships/data-retention-policy",
    ]);
    const inOrder = (part: string) => applied.requests.filter((r) => r.includes(part) && !r.startsWith("GET"));
    expect(inOrder("/actions/")).toEqual(["POST /workspaces/ws-FIRST/actions/force-unlock", "POST /workspaces/ws-SECOND/actions/lock"]);
    expect(inOrder("/ssh-key")).toEqual(["PATCH /workspaces/ws-SECOND/relationships/ssh-key", "PATCH /workspaces/ws-FIRST/relationships/ssh-key"]);
    expect(inOrder("/data-retention-policy")).toEqual([
      "POST /workspaces/ws-SECOND/relationships/data-retention-policy", "DELETE /workspaces/ws-FIRST/relationships/data-retention-policy",
    ]);
    expect(await attachments("second")).toEqual({ locked: true, reason: "release 42 in progress", by: "users", sshKey: KEY_B, policy: "dont-delete", policyOf: "workspaces" });
    // The first workspace: unlocked, no key, back on its organization's default policy.
    expect(await attachments("first")).toEqual({ locked: false, reason: null, by: null, sshKey: null, policy: ORG_DEFAULT_DAYS, policyOf: "organizations" });
    expectExactPlan(previewed.planned, applied.outputs, {
      dynamic: ["days", ...UNKNOWN_ON_THE_DYNAMIC_ROUTE, "policyKind"].sort(), plugin: ["lockedByKind"],
    });
  });

  // ---- drift ---------------------------------------------------------------------------------

  test("drift made through the API (lock released, another key, other days) is found by refresh, previewed as exactly the restore, and restored by up", async () => {
    const ws = id("second");
    expect((await e2e.api("POST", `/workspaces/${ws}/actions/unlock`)).status).toBe(200);
    expect((await e2e.api("PATCH", `/workspaces/${ws}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: THEIRS } } })).status).toBe(200);
    expect((await e2e.api("POST", `/workspaces/${ws}/relationships/data-retention-policy`, {
      data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 5 } },
    })).status).toBe(200);

    e2e.emulator.clearRequests();
    const refreshed = await e2e.stack.refresh({ onOutput: e2e.log });
    const reads = record("refresh after drift");
    // The released lock leaves the state; the key and the policy take the server's values.
    expect(refreshed.summary.resourceChanges).toEqual({ same: 3, update: 2, delete: 1 });
    // One read per resource: the two workspaces, the lock's and the key's workspace, the policy.
    expect(sorted(reads)).toEqual([
      "GET /workspaces/ws-FIRST", "GET /workspaces/ws-SECOND", "GET /workspaces/ws-SECOND", "GET /workspaces/ws-SECOND",
      "GET /workspaces/ws-SECOND/relationships/data-retention-policy",
    ]);

    const previewed = await preview("preview of the restore");
    expect(previewed.steps).toEqual([
      { ...LOCK, op: "create" },
      { ...KEY, op: "update", changed: ["sshKeyId"] },
      { ...POLICY, op: "update", changed: ["deleteOlderThanNDays", "dontDelete"] },
    ]);
    expect(previewed.paths).toEqual(route === "plugin"
      ? { lock: [], key: ["sshKeyId: update"], policy: ["deleteOlderThanNDays: delete", "dontDelete: add"] }
      : { lock: [], key: [], policy: [] });
    // The refreshed policy (5 days) differs from the declaration, so its check asks the edition again.
    expect(previewed.requests).toEqual(["GET /ping"]);

    const applied = await up("up of the restore");
    expect(applied.changes).toEqual({ same: 3, update: 2, create: 1 });
    expect(sorted(applied.requests)).toEqual([
      "GET /ping",
      "GET /workspaces/ws-SECOND",
      "PATCH /workspaces/ws-SECOND/relationships/ssh-key",
      "POST /workspaces/ws-SECOND/actions/lock",
      "POST /workspaces/ws-SECOND/relationships/data-retention-policy",
    ]);
    expect(await attachments("second")).toEqual({ locked: true, reason: "release 42 in progress", by: "users", sshKey: KEY_B, policy: "dont-delete", policyOf: "workspaces" });
    expectExactPlan(previewed.planned, applied.outputs, { dynamic: UNKNOWN_ON_THE_DYNAMIC_ROUTE, plugin: ["lockedByKind"] });
  });

  // ---- what preview refuses ------------------------------------------------------------------

  test("a bad WorkspaceLock fails the preview, naming each property and its rule, with no request", async () => {
    // One bad resource per preview: the engine stops at the first failed check. The other kinds' rules
    // are the runtime's check tables; this is the CLI's framing of them, on each route.
    desired.extra = [{ kind: "WorkspaceLock", name: "bad", args: { workspaceId: "attach-first", reason: 7, forceUnlockOnDestroy: "yes", force: true } }];
    try {
      e2e.emulator.clearRequests();
      const message = await messageOf(e2e.stack.preview({ onOutput: e2e.log }));
      const requests = record("bad WorkspaceLock");
      for (const line of [
        'property workspaceId value {attach-first} has a problem: must be a workspace id ("ws-…")',
        "property reason value {7} has a problem: must be a string",
        "property forceUnlockOnDestroy value {yes} has a problem: must be a boolean",
      ]) expect(message).toContain(`${typeOf(route, "WorkspaceLock")} resource 'bad': ${line}`);
      // The generated SDK passes on only the properties the schema declares (its types refuse others),
      // so an unknown one never reaches the plugin's check; the dynamic class passes everything on.
      expect(message.includes("property force value {true} has a problem: is not a property of WorkspaceLock")).toBe(route === "dynamic");
      expect(requests).toEqual([]);
    } finally {
      desired.extra = [];
    }
  });

  test("a second lock on the same workspace fails the preview on both routes, naming both resources, with no request", async () => {
    desired.extra = [{ kind: "WorkspaceLock", name: "second-lock", args: { workspaceId: ids.second, reason: "two" } }];
    try {
      e2e.emulator.clearRequests();
      const outcome = await e2e.stack.preview({ onOutput: e2e.log }).then(() => "succeeded", (e: Error) => e.message);
      const requests = record("second lock");
      // The dynamic classes see the whole program (dynamic/program-checks.ts); the plugin sees every
      // resource of its deployment (plugin/resource-operations.ts): one rule, runtime/one-per-key.ts.
      // Which of the two is named first follows the order the resources are checked in.
      expect(outcome).toMatch(new RegExp(
        `WorkspaceLock resources "(second-lock|lock)" and "(second-lock|lock)" both declare "${id("second")}"; a workspace has one lock`));
      expect(requests).toEqual([]);
    } finally {
      desired.extra = [];
    }
  });

  // ---- destroy -------------------------------------------------------------------------------

  test("destroy force-unlocks, unassigns the key, removes the policy, then deletes the workspaces, and the token is nowhere", async () => {
    e2e.emulator.clearRequests();
    const result = await e2e.stack.destroy({ onOutput: e2e.log });
    const requests = record("destroy");
    expect(result.summary.resourceChanges).toEqual({ delete: 6 });
    expect(sorted(requests)).toEqual([
      "DELETE /workspaces/ws-SECOND/relationships/data-retention-policy",
      "GET /workspaces/ws-SECOND", // the lock's read: still this resource's lock?
      "GET /workspaces/ws-SECOND", // the key's read: still this resource's key?
      "PATCH /workspaces/ws-SECOND/relationships/ssh-key",
      "POST /workspaces/ws-FIRST/actions/safe-delete",
      "POST /workspaces/ws-SECOND/actions/force-unlock",
      "POST /workspaces/ws-SECOND/actions/safe-delete",
    ]);
    // The workspace the three were on goes after them (a locked workspace refuses a safe delete).
    expect(requests.filter((r) => r.includes("ws-SECOND")).pop()).toBe("POST /workspaces/ws-SECOND/actions/safe-delete");
    for (const on of ["first", "second"] as const) expect((await e2e.api("GET", `/workspaces/${id(on)}`)).status).toBe(404);
    expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
    expect(e2e.printed).not.toContain(e2e.emulator.token);
  });
});

test("both routes made exactly the same requests in every operation", () => {
  expect(Object.keys(recorded.dynamic)).toEqual(OPERATIONS);
  expect(Object.keys(recorded.plugin)).toEqual(OPERATIONS);
  expect(recorded.plugin).toEqual(recorded.dynamic);
});

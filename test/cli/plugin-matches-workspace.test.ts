// Every writable attribute of a Workspace on the real Pulumi CLI against the emulator (hosted
// edition), through both routes: the dynamic route (`pulumi-wsbridge`) and the plugin route
// (`pulumi-resource-wsbridge`, with the generated SDK `@pulumi-wsbridge/wsbridge`). The scenario runs
// identically on each route, one stack (and one emulator) per route:
//
//  1. bad inputs fail `pulumi preview`, naming each property and its rule, without a request (every
//     input rule of a Workspace, one by one: test/runtime/workspace-input-rules.test.ts);
//  2. up creates every workspace with every declared attribute; two readers consume one's id,
//     workspaceId, name, organization, htmlUrl and apiUrl;
//  3. drift made through the API (a changed setting, a deleted workspace, a workspace made in the UI)
//     is found by refresh;
//  4. one preview and one up in which each subject workspace changes exactly one attribute, its own:
//     every change is alone on its resource, and two operations cover them all (a real-CLI operation
//     on this program costs 2-4 s, one per attribute would cost minutes). Every writable attribute,
//     agent execution and back, a rename (a second workspace reading the renamed one's outputs
//     follows), a project move of the workspace a consumer reads (htmlUrl, apiUrl, name,
//     organization, workspaceId: it previews as unchanged), a repository removed, a declaration
//     dropped (restored to what a create without it gives), reordered sets, the deprecated attributes, forceDelete, the drift restored, the
//     deleted workspace created again, the UI's workspace adopted;
//  5. a preview with nothing changed sends no request (after the round: so every apply did what its
//     preview said); a create-only change is refused at preview;
//  6. one up (continue-on-error) refuses to safe-delete a workspace with resources and a locked one,
//     force-deletes the one with forceDelete, deletes one dropped from the program, refuses a foreign
//     workspace's name; destroy refuses the locked one again and force-deletes a locked one with
//     forceDelete; once unlocked, destroy deletes the last.
//
// On the plugin route each change previews as its property paths (`triggerPrefixes[1]`,
// `vcsRepo.branch`, `tagBindings.team`), whose top-level keys (`diffs`) are exactly the inputs the
// dynamic route shows as changed. The last test compares the emulator's request log of every
// operation (sorted, ids replaced by the workspace they name, statuses kept) across the routes.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type * as pulumiSdk from "@pulumi/pulumi";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { engineUnreachable, realProcess } from "../support/engine-gone";
import { notesOf, stepsOf } from "../support/engine-events";
import { failureOf } from "../support/failure";
import { plannedSteps, stackOutputsOf } from "../support/plugin-route";
import { useRealCliStack, type RealCliStack } from "../support/real-cli-stack";

type Route = "dynamic" | "plugin";
type Args = Record<string, unknown>;

const ORG = DEFAULT_ORGANIZATION;
const PROJECT_A = "prj-teamaaaaaaaaaa01";
const PROJECT_B = "prj-teambbbbbbbbbb02";
const POOL = "apool-fixturepool0001";
const OAUTH = "ot-fixturetoken00001";
const TYPE: Record<Route, string> = { dynamic: "pulumi-nodejs:dynamic/wsbridge:Workspace", plugin: "wsbridge:index:Workspace" };

const FIXTURES = {
  organizations: [{
    name: ORG,
    projects: [
      { id: PROJECT_A, name: "team-a", tagBindings: [{ key: "cost-center", value: "cc-1" }] },
      { id: PROJECT_B, name: "team-b" },
    ],
    agentPools: [{ id: POOL, name: "private-runners" }],
    oauthClients: [{ name: "github", oauthTokenId: OAUTH }],
  }],
};

/** Every writable attribute, declared (the model's, with both remote-state flags off so that each can be turned on alone). */
const everyAttribute = (name: string): Args => ({
  name,
  description: "all settings declared",
  executionMode: "remote",
  settingOverwrites: { executionMode: true },
  allowDestroyPlan: false,
  assessmentsEnabled: true,
  autoApply: true,
  autoApplyRunTrigger: true,
  autoDestroyActivityDuration: "14d",
  fileTriggersEnabled: false,
  // Prefixes, not patterns: the service refuses trigger patterns with file triggers off (issue 25).
  triggerPrefixes: ["modules/", "envs/"],
  globalRemoteState: false,
  projectRemoteState: false,
  queueAllRuns: true,
  speculativeEnabled: false,
  engineVersion: "1.9.5",
  workingDirectory: "stacks/prod",
  sourceName: "platform-pipeline",
  sourceUrl: "https://ci.example.com/pipelines/42",
  vcsRepo: { identifier: "acme/infrastructure", oauthTokenId: OAUTH, branch: "main", ingressSubmodules: true },
  projectId: PROJECT_A,
  tagBindings: { env: "prod", team: "platform" },
  tagNames: ["prod", "networking"],
  forceDelete: false,
});

/** The deprecated and rarer attributes, on a workspace of their own (operations excludes executionMode). */
const legacy = (name: string): Args => ({ name, operations: true, autoDestroyAt: "2031-01-31T18:00:00Z", settingOverwrites: { agentPool: false } });

/** What the server holds of a workspace, as the tests read it. */
interface Live {
  id: string;
  a: Record<string, unknown>;
  rel: Record<string, { data?: { id: string } | null }>;
  bindings: Record<string, string>;
}

/**
 * One subject of the round: a workspace declared with `base`, then with `change` applied alone. The
 * preview must show exactly `keys` changed (the dynamic route's changed inputs, the plugin route's
 * `diffs`) and, on the plugin route, exactly `paths`; `up` must send exactly `requests` about it
 * (`ws(<name>)` for its id); `live` reads back what the change set.
 */
interface Subject {
  name: string;
  base: Args;
  change: (args: Args) => Args;
  keys: string[];
  paths: string[];
  requests: string[];
  /** Absent for the provider's own switch (the server holds nothing of it). */
  live: [(w: Live) => unknown, unknown] | undefined;
}

const patched = (name: string): string[] => [`PATCH /workspaces/ws(${name}) 200`];
const set = <T>(key: string, value: T) => (args: Args): Args => ({ ...args, [key]: value });
const without = (...keys: string[]) => (args: Args): Args => Object.fromEntries(Object.entries(args).filter(([k]) => !keys.includes(k)));
const sorted = (v: unknown): unknown => [...(v as string[])].sort();
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One attribute of an every-attribute workspace changed alone, previewed as the one path `<key>: update`. */
function attribute(key: string, value: unknown, live: (w: Live) => unknown, expected: unknown, paths = [`${key}: update`]): Subject & { live: [(w: Live) => unknown, unknown] } {
  const name = `attr-${key}`;
  return { name, base: everyAttribute(name), change: set(key, value), keys: [key], paths, requests: patched(name), live: [live, expected] };
}

const SUBJECTS: Subject[] = [
  attribute("description", "changed alone", (w) => w.a["description"], "changed alone"),
  attribute("allowDestroyPlan", true, (w) => w.a["allow-destroy-plan"], true),
  attribute("assessmentsEnabled", false, (w) => w.a["assessments-enabled"], false),
  attribute("autoApply", false, (w) => w.a["auto-apply"], false),
  attribute("autoApplyRunTrigger", false, (w) => w.a["auto-apply-run-trigger"], false),
  attribute("autoDestroyActivityDuration", "36h", (w) => w.a["auto-destroy-activity-duration"], "36h"),
  attribute("fileTriggersEnabled", true, (w) => w.a["file-triggers-enabled"], true),
  // A set: the member that differs, at its index in the sorted set (envs/, modules/ → envs/, stacks/).
  attribute("triggerPrefixes", ["stacks/", "envs/"], (w) => sorted(w.a["trigger-prefixes"]), ["envs/", "stacks/"], ["triggerPrefixes[1]: update"]),
  attribute("globalRemoteState", true, (w) => w.a["global-remote-state"], true),
  attribute("projectRemoteState", true, (w) => w.a["project-remote-state"], true),
  attribute("queueAllRuns", false, (w) => w.a["queue-all-runs"], false),
  attribute("speculativeEnabled", true, (w) => w.a["speculative-enabled"], true),
  attribute("engineVersion", "~> 1.10.0", (w) => w.a["engine-version"] ?? w.a["terraform-version"], "~> 1.10.0"),
  attribute("workingDirectory", "stacks/staging", (w) => w.a["working-directory"], "stacks/staging"),
  // A declared sub-key of the repository: only it.
  attribute("vcsRepo", { identifier: "acme/infrastructure", oauthTokenId: OAUTH, branch: "release", ingressSubmodules: true },
    (w) => (w.a["vcs-repo"] as Record<string, unknown>)["branch"], "release", ["vcsRepo.branch: update"]),
  // Flat tags are not part of the PATCH: one add and one removal, each on its own endpoint.
  { ...attribute("tagNames", ["prod", "edge"], (w) => sorted(w.a["tag-names"]), ["edge", "prod"], ["tagNames[0]: update"]),
    requests: ["DELETE /workspaces/ws(attr-tagNames)/relationships/tags 204", "POST /workspaces/ws(attr-tagNames)/relationships/tags 204"] },
  // The bindings are replaced as a set: a removed key is unbound.
  attribute("tagBindings", { env: "staging" }, (w) => w.bindings, { env: "staging" }, ["tagBindings.env: update", "tagBindings.team: delete"]),
  {
    name: "attr-executionMode", base: everyAttribute("attr-executionMode"), change: (a) => ({ ...a, executionMode: "agent", agentPoolId: POOL }),
    // The server reported no pool (null): the pool's path is an update from null, not an add.
    keys: ["agentPoolId", "executionMode"], paths: ["agentPoolId: update", "executionMode: update"], requests: patched("attr-executionMode"),
    live: [(w) => [w.a["execution-mode"], w.rel["agent-pool"]?.data?.id], ["agent", POOL]],
  },
  // And back: remote execution, the pool no longer declared.
  {
    // (Health assessments need remote execution: off while the workspace runs on agents.)
    name: "attr-executionMode-back", base: { ...everyAttribute("attr-executionMode-back"), executionMode: "agent", agentPoolId: POOL, assessmentsEnabled: false },
    change: (a) => without("agentPoolId")({ ...a, executionMode: "remote" }),
    keys: ["agentPoolId", "executionMode"], paths: ["agentPoolId: delete", "executionMode: update"], requests: patched("attr-executionMode-back"),
    live: [(w) => [w.a["execution-mode"], w.rel["agent-pool"]?.data?.id ?? null], ["remote", null]],
  },
  // The provider's own switch: recorded, nothing sent; the removal below then force-deletes.
  { ...attribute("forceDelete", true, () => null, null), requests: [], live: undefined },
  // The same switch on a workspace left to destroy, which then force-deletes it (locked).
  { ...attribute("forceDelete", true, () => null, null), name: "forced-at-destroy", base: everyAttribute("forced-at-destroy"), requests: [], live: undefined },
  attribute("name", "attr-name-renamed", (w) => w.a["name"], "attr-name-renamed"),
  // The workspace the consumer reads. A project move leaves the most outputs unknown in the plan (execution mode,
  // tags, permissions), but never its id, name, organization or URLs: the consumer previews as unchanged.
  { ...attribute("projectId", PROJECT_B, (w) => w.rel["project"]?.data?.id, PROJECT_B), name: "full", base: everyAttribute("full"), requests: patched("full") },
  { name: "repo-removed", base: everyAttribute("repo-removed"), change: without("vcsRepo"), keys: ["vcsRepo"], paths: ["vcsRepo: delete"],
    requests: patched("repo-removed"), live: [(w) => w.a["vcs-repo"], null] },
  // A declaration dropped means what a create without it gives (issue 40): the description restored to none, one PATCH.
  { name: "undeclared", base: everyAttribute("undeclared"), change: without("description"), keys: ["description"], paths: ["description: update"],
    requests: patched("undeclared"), live: [(w) => w.a["description"], ""] },
  { name: "reordered", base: everyAttribute("reordered"),
    change: (a) => ({ ...a, triggerPrefixes: [...(a.triggerPrefixes as string[])].reverse(), tagNames: [...(a.tagNames as string[])].reverse() }),
    keys: [], paths: [], requests: [], live: [(w) => [sorted(w.a["trigger-prefixes"]), sorted(w.a["tag-names"])], [["envs/", "modules/"], ["networking", "prod"]]] },
  { name: "legacy-operations", base: legacy("legacy-operations"), change: set("operations", false), keys: ["operations"], paths: ["operations: update"],
    requests: patched("legacy-operations"), live: [(w) => w.a["execution-mode"], "local"] },
  { name: "legacy-autoDestroyAt", base: legacy("legacy-autoDestroyAt"), change: set("autoDestroyAt", "2032-06-30T12:00:00Z"), keys: ["autoDestroyAt"],
    paths: ["autoDestroyAt: update"], requests: patched("legacy-autoDestroyAt"), live: [(w) => w.a["auto-destroy-at"], "2032-06-30T12:00:00.000Z"] },
  { name: "legacy-settingOverwrites", base: legacy("legacy-settingOverwrites"), change: set("settingOverwrites", { agentPool: true }), keys: ["settingOverwrites"],
    paths: ["settingOverwrites.agentPool: update"], requests: patched("legacy-settingOverwrites"),
    live: [(w) => (w.a["setting-overwrites"] as Record<string, unknown>)["agent-pool"], true] },
  // Changed through the API before the refresh: the preview shows exactly the restore.
  { name: "drifted", base: { name: "drifted", autoApply: false, workingDirectory: "stacks/prod" }, change: (a) => a,
    keys: ["autoApply", "workingDirectory"], paths: ["autoApply: update", "workingDirectory: update"], requests: patched("drifted"),
    live: [(w) => [w.a["auto-apply"], w.a["working-directory"]], [false, "stacks/prod"]] },
];

/**
 * Bad inputs on one workspace, each independent of the others (a rule between two properties is
 * checked only when every property has the right type, so no wrong type is among them): the check
 * reports them all, and the CLI prints each. [property, a part of the rule].
 */
const BAD_RULES: [string, string][] = [
  ["projectRemoteState", "must not be true together with globalRemoteState"],
  ["settingOverwrites.vcs", "is not a property of Workspace"],
];
const BAD_INPUTS: Args = { name: "ok", globalRemoteState: true, projectRemoteState: true, settingOverwrites: { vcs: true } };
/** Misspelt: the dynamic route refuses it, the generated SDK drops it (only the schema's properties are inputs). */
const MISSPELT: Args = { autoAply: true };

/** Per route, per operation: the emulator's requests, as sorted lines (the last test compares the routes). */
const recorded: Record<Route, Record<string, string[]>> = { dynamic: {}, plugin: {} };

// Counted so that a preview the engine could not reach is run again (see previewFailure below).
let unreachableSeen = 0;
const onRejection = (reason: unknown): void => {
  if (engineUnreachable(reason)) unreachableSeen++;
};
beforeAll(() => { realProcess.on("unhandledRejection", onRejection); });
afterAll(() => { realProcess.off("unhandledRejection", onRejection); });

interface WorkspaceLike extends pulumiSdk.CustomResource {
  workspaceId: pulumiSdk.Output<string>;
  name: pulumiSdk.Output<string>;
  organization: pulumiSdk.Output<string>;
  htmlUrl: pulumiSdk.Output<string>;
  apiUrl: pulumiSdk.Output<string>;
  description: pulumiSdk.Output<string>;
}
type WorkspaceClass = new (name: string, args: Args) => WorkspaceLike;

describe.each<[Route]>([["dynamic"], ["plugin"]])("the %s route", (route) => {
  /** What the program declares: one bad workspace, or the scenario's workspaces by resource name. */
  let bad: Args | undefined;
  let declared: Record<string, Args> = {};

  const e2e: RealCliStack = useRealCliStack({
    projectName: `wsbridge-every-attribute-${route}`,
    plugin: route === "plugin",
    emulator: { edition: "hosted", fixtures: FIXTURES },
    program: async () => {
      const pulumi = await import("@pulumi/pulumi");
      const sdk = route === "plugin" ? await import("@pulumi-wsbridge/wsbridge") : await import("pulumi-wsbridge");
      const Workspace = (sdk as unknown as { Workspace: WorkspaceClass }).Workspace;
      if (bad !== undefined) {
        new Workspace("subject", bad);
        return {};
      }
      const made: Record<string, WorkspaceLike> = {};
      for (const [name, args] of Object.entries(declared)) made[name] = new Workspace(name, args);
      // A workspace built from another's id, name, organization and URLs (the model's consumer).
      const reader = (name: string, ws: WorkspaceLike): WorkspaceLike => new Workspace(name, {
        name,
        description: pulumi.interpolate`reads ${ws.workspaceId} at ${ws.htmlUrl}`,
        workingDirectory: ws.name,
        tagBindings: ws.organization.apply((org) => ({ upstream: org })),
        engineVersion: ws.apiUrl.apply((u) => (u.includes("/api/v2/workspaces/ws-") ? "1.9.5" : "bad")),
      });
      const full = made["full"] as WorkspaceLike;
      const consumer = reader("consumer", full);
      const follower = reader("follower", made["attr-name"] as WorkspaceLike);
      return {
        workspaceId: full.workspaceId, htmlUrl: full.htmlUrl, apiUrl: full.apiUrl, name: full.name, organization: full.organization,
        consumer: consumer.description, follower: follower.description,
      };
    },
  });

  // ---- helpers -------------------------------------------------------------------------------

  /** Workspace ids to the name each was first seen with (renames keep the first), filled after each operation. */
  const nameOfId = new Map<string, string>();

  async function learnIds(): Promise<void> {
    const { doc } = await e2e.api<{ data: { id: string; attributes: { name: string } }[] }>("GET", `/organizations/${ORG}/workspaces?page%5Bsize%5D=100`);
    for (const ws of doc.data) if (!nameOfId.has(ws.id)) nameOfId.set(ws.id, ws.attributes.name);
  }

  /** The requests since the last clear as sorted lines, `ws(<name>)` for each id, with the status; recorded under `op`. */
  async function record(op: string): Promise<string[]> {
    const requests = e2e.emulator.requests();
    await learnIds();
    const lines = requests.map((r) => `${r.method} ${r.path.replace("/api/v2", "").replace(/ws-[A-Za-z0-9]+/g, (id) => `ws(${nameOfId.get(id) ?? "?"})`)} ${r.status}`).sort();
    recorded[route][op] = lines;
    e2e.emulator.clearRequests();
    return lines;
  }

  /** A preview's events, its requests and what the CLI printed. */
  async function preview(op: string): Promise<{ events: EngineEvent[]; requests: string[]; printed: string }> {
    const events: EngineEvent[] = [];
    let printed = "";
    e2e.emulator.clearRequests();
    await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: (text) => { printed += text; e2e.log(text); } });
    return { events, requests: await record(op), printed };
  }

  async function up(op: string): Promise<{ changes: Record<string, number | undefined>; requests: string[]; events: EngineEvent[] }> {
    const events: EngineEvent[] = [];
    e2e.emulator.clearRequests();
    const result = await e2e.stack.up({ onEvent: (e) => events.push(e), onOutput: e2e.log });
    expect(result.summary.result).toBe("succeeded");
    return { changes: result.summary.resourceChanges ?? {}, requests: await record(op), events };
  }

  /** The steps of a preview, one per changed workspace, by name: the changed keys (and on the plugin route the paths). */
  function stepsByName(events: EngineEvent[]): Record<string, { op: string; keys: string[]; paths?: string[] }> {
    if (route === "dynamic") return Object.fromEntries(stepsOf(events, TYPE.dynamic).map((s) => [s.name, { op: s.op, keys: s.changedInputs }]));
    return Object.fromEntries(plannedSteps(events, TYPE.plugin).map((s) => [s.name, { op: s.op, keys: s.diffs, paths: s.paths }]));
  }

  async function live(name: string): Promise<Live> {
    const { status, doc } = await e2e.api<{ data: { id: string; attributes: Record<string, unknown>; relationships: Live["rel"] } }>(
      "GET", `/organizations/${ORG}/workspaces/${name}`);
    expect([name, status]).toEqual([name, 200]);
    const tags = await e2e.api<{ data: { attributes: { key: string; value: string } }[] }>("GET", `/workspaces/${doc.data.id}/tag-bindings`);
    return { id: doc.data.id, a: doc.data.attributes, rel: doc.data.relationships, bindings: Object.fromEntries(tags.doc.data.map((b) => [b.attributes.key, b.attributes.value])) };
  }

  /** A preview that must fail, run again only when the program lost the engine part-way (then it says nothing). */
  async function previewFailure(op: string): Promise<{ message: string; requests: string[] }> {
    for (let attempt = 1; ; attempt++) {
      const before = unreachableSeen;
      e2e.emulator.clearRequests();
      let message: string;
      try {
        const result = await e2e.stack.preview({ onOutput: e2e.log });
        const registered = Object.values(result.changeSummary).reduce((sum, n) => sum + (n ?? 0), 0);
        if (unreachableSeen !== before || registered < 2) { if (attempt < 3) continue; }
        message = `preview succeeded: ${JSON.stringify(result.changeSummary)}`;
      } catch (error) {
        if (unreachableSeen !== before && attempt < 3) continue;
        message = String((error as Error).message);
      }
      return { message, requests: await record(op) };
    }
  }

  // ---- bad inputs (on the empty stack) ---------------------------------------------------------

  /** The CLI's framing of a failed check: the property, its value, the rule. */
  const framed = (property: string, rule: string): RegExp =>
    new RegExp(`property ${escaped(property)} value \\{[^\\n]*\\} has a problem: ${escaped(rule)}`);

  test("bad inputs fail the preview, naming each property and its rule, without a request; the generated SDK never passes a misspelt property on", async () => {
    bad = { ...BAD_INPUTS, ...MISSPELT };
    const { message, requests } = await previewFailure("bad inputs");
    for (const [property, rule] of BAD_RULES) expect(message).toMatch(framed(property, rule));
    if (route === "dynamic") {
      expect(message).toMatch(framed("autoAply", "is not a property of Workspace"));
    } else {
      // By design of Pulumi's generated SDKs: the class copies only the schema's properties into the
      // inputs (and TypeScript refuses the misspelling at compile time), so the plugin, whose check
      // refuses it on the other route, never sees it (the create below shows the inputs it gets).
      expect(message).not.toContain("autoAply");
    }
    expect(requests).toEqual([]);
  });

  // ---- create and no-op ------------------------------------------------------------------------

  // On the plugin route it also declares the misspelt property, which the generated SDK drops.
  const ephemeral: Args = route === "plugin" ? { name: "ephemeral", ...MISSPELT } : { name: "ephemeral" };
  /** Each workspace's id after the create, by name: updates keep them. */
  const created = new Map<string, string>();

  test("up creates every workspace, each with one create request (plus its flat tags), and the consumers read the first one's outputs", async () => {
    bad = undefined;
    declared = Object.fromEntries([...SUBJECTS.map((s) => [s.name, s.base]), ["ephemeral", ephemeral]]);
    const { changes, requests, events } = await up("create");
    for (const [id, name] of nameOfId) created.set(name, id);
    if (route === "plugin") {
      const planned = events.flatMap((e) => {
        const m = e.resourcePreEvent?.metadata;
        return m?.type === TYPE.plugin && m.urn.endsWith("::ephemeral") ? [[m.op, Object.keys(m.new?.inputs ?? {}).sort()]] : [];
      });
      // With what check fills in for the inputs the program leaves out (docs/resources/workspace.md, "Leaving an input out").
      expect(planned).toEqual([["create", [
        "adoptExisting", "allowDestroyPlan", "autoApply", "autoApplyRunTrigger", "description", "fileTriggersEnabled", "forceDelete", "name",
        "organization", "queueAllRuns", "settingOverwrites", "speculativeEnabled", "triggerPatterns", "triggerPrefixes", "workingDirectory",
      ]]]);
    }
    const count = SUBJECTS.length + 1 + 2; // the subjects, the ephemeral one, two readers
    expect(changes).toEqual({ create: count + 1 }); // and the stack
    const withFlatTags = SUBJECTS.filter((s) => s.base.tagNames !== undefined).map((s) => `POST /workspaces/ws(${s.name})/relationships/tags 204`);
    // Once per provider process: the edition, behind assessmentsEnabled's check.
    expect(requests).toEqual([
      "GET /ping 204",
      ...Array.from({ length: count }, () => `POST /organizations/${ORG}/workspaces 201`),
      ...withFlatTags,
    ].sort());

    const full = await live("full");
    expect(full.a).toMatchObject({
      description: "all settings declared", "execution-mode": "remote", "allow-destroy-plan": false, "assessments-enabled": true,
      "auto-apply": true, "auto-apply-run-trigger": true, "auto-destroy-activity-duration": "14d", "file-triggers-enabled": false,
      "global-remote-state": false, "project-remote-state": false, "queue-all-runs": true, "speculative-enabled": false,
      "working-directory": "stacks/prod", "source-name": "platform-pipeline",
    });
    expect(sorted(full.a["trigger-prefixes"])).toEqual(["envs/", "modules/"]);
    expect(String(full.a["source-url"])).toBe(`https://ci.example.com/pipelines/42#owner=wsbridge-every-attribute-${route}/dev/Workspace/full`);
    expect(full.a["vcs-repo"]).toMatchObject({ identifier: "acme/infrastructure", "oauth-token-id": OAUTH, branch: "main", "ingress-submodules": true });
    expect(full.rel["project"]?.data?.id).toBe(PROJECT_A);
    expect(sorted(full.a["tag-names"])).toEqual(["networking", "prod"]);
    expect(full.bindings).toEqual({ env: "prod", team: "platform" });
    const consumer = await live("consumer");
    expect(consumer.a["description"]).toBe(`reads ${full.id} at ${e2e.emulator.url}/app/${ORG}/workspaces/full`);
    expect(consumer.a["working-directory"]).toBe("full");
    expect(consumer.bindings).toEqual({ upstream: ORG });
    expect(consumer.a["engine-version"]).toBe("1.9.5");
    e2e.emulator.clearRequests();
  });

  // ---- changes made outside Pulumi, found by refresh ---------------------------------------------

  let uiWorkspaceId = "";

  test("refresh reads every workspace once and finds a changed setting and a deleted workspace", async () => {
    const drifted = await live("drifted");
    expect((await e2e.api("PATCH", `/workspaces/${drifted.id}`, {
      data: { type: "workspaces", attributes: { "auto-apply": true, "working-directory": "elsewhere" } },
    })).status).toBe(200);
    const ephemeral = await live("ephemeral");
    expect((await e2e.api("DELETE", `/workspaces/${ephemeral.id}`)).status).toBe(204);
    // Made in the UI, for the adoption below.
    const made = await e2e.api<{ data: { id: string } }>("POST", `/organizations/${ORG}/workspaces`, {
      data: { type: "workspaces", attributes: { name: "made-in-the-ui", "auto-apply": true } },
    });
    expect(made.status).toBe(201);
    uiWorkspaceId = made.doc.data.id;
    await learnIds();
    e2e.emulator.clearRequests();

    const result = await e2e.stack.refresh({ onOutput: e2e.log });
    expect(result.summary.resourceChanges).toMatchObject({ delete: 1, update: 1 });
    const requests = await record("refresh");
    const workspaces = [...SUBJECTS.map((s) => s.name), "consumer", "follower"];
    // The deleted one: a 404, then the ping that proves the address serves the API (so the resource may leave the state).
    expect(requests).toEqual([
      ...workspaces.map((n) => `GET /workspaces/ws(${n}) 200`), "GET /workspaces/ws(ephemeral) 404", "GET /ping 204",
    ].sort());
  });

  // ---- one round: each subject changes one attribute ----------------------------------------------

  let round: { events: EngineEvent[]; requests: string[]; printed: string } = { events: [], requests: [], printed: "" };
  let before: Record<string, unknown> = {};

  test("the preview of the round sends only the edition ping and the adoption's lookup; the deprecated operations is named with its replacement", async () => {
    before = Object.fromEntries(Object.entries(await e2e.stack.outputs()).map(([k, v]) => [k, v.value]));
    declared = Object.fromEntries([
      ...SUBJECTS.map((s) => [s.name, s.change(s.base)]),
      ["ephemeral", ephemeral],
      ["adopted", { name: "made-in-the-ui", autoApply: false, description: "now managed", adoptExisting: true }],
    ]);
    round = await preview("round preview");
    expect(round.requests).toEqual([`GET /organizations/${ORG}/workspaces/made-in-the-ui 200`, "GET /ping 204"]);
    expect(notesOf(round.events).filter((n) => n.includes("deprecated"))).toEqual(Array.from({ length: 3 }, () =>
      expect.stringContaining("`operations` is deprecated by the service; use `executionMode`")));
  });

  test.each(SUBJECTS.map((s) => [s.name, s] as const))("%s previews exactly its own change", (_name, subject) => {
    const step = stepsByName(round.events)[subject.name];
    if (subject.keys.length === 0) {
      expect(step).toBeUndefined();
      return;
    }
    expect(step).toEqual({ op: "update", keys: subject.keys, ...(route === "plugin" && { paths: subject.paths }) });
  });

  test("the preview shows nothing else but the readers' and the creates: the consumer of the moved workspace is unchanged, the follower of the renamed one updates; the CLI prints the adoption note", () => {
    const steps = stepsByName(round.events);
    const others = Object.fromEntries(Object.entries(steps).filter(([name]) => !SUBJECTS.some((s) => s.name === name)));
    expect(Object.keys(others).sort()).toEqual(["adopted", "ephemeral", "follower"]);
    expect([others.adopted?.op, others.ephemeral?.op]).toEqual(["create", "create"]);
    // It reads the renamed workspace's name and page: both change, and both are known on either route.
    expect(others.follower).toEqual({ op: "update", keys: ["description", "workingDirectory"], ...(route === "plugin" && { paths: ["description: update", "workingDirectory: update"] }) });
    const note = `Workspace "${ORG}/made-in-the-ui" exists (${uiWorkspaceId}): \`up\` will adopt it (adoptExisting)`;
    expect(notesOf(round.events).filter((n) => n.includes("adopt"))).toEqual([expect.stringContaining(note)]);
    // And the user reads it where the CLI prints the preview.
    expect(round.printed).toContain(note);
  });

  test("the round's planned outputs: the moved workspace's id, name, organization and URLs stay as they were, the follower reads the new name", () => {
    // Both routes plan them: the plugin from the kind's previewUpdate, the dynamic route from the last outputs.
    const planned = stackOutputsOf(round.events) ?? {};
    const url = e2e.emulator.url;
    expect(planned).toEqual({
      ...before,
      follower: String(before.follower).replace(`${url}/app/${ORG}/workspaces/attr-name`, `${url}/app/${ORG}/workspaces/attr-name-renamed`),
    });
    expect(before.follower).toMatch(new RegExp(`^reads ws-\\w+ at ${url}/app/${ORG}/workspaces/attr-name$`));
    expect(before.consumer).toBe(`reads ${String(before.workspaceId)} at ${url}/app/${ORG}/workspaces/full`);
  });

  test("up applies the round: per workspace exactly its request, the adoption keeps the UI's workspace", async () => {
    const { changes, requests } = await up("round up");
    expect(changes).toEqual({ same: SUBJECTS.filter((s) => s.keys.length === 0).length + 2, update: SUBJECTS.filter((s) => s.keys.length > 0).length + 1, create: 2 });
    const about = (name: string): string[] => requests.filter((l) => l.includes(`ws(${name})`));
    for (const s of SUBJECTS) expect([s.name, about(s.name)]).toEqual([s.name, [...s.requests].sort()]);
    expect(about("follower")).toEqual(patched("follower"));
    expect(about("made-in-the-ui")).toEqual(patched("made-in-the-ui"));
    // The adoption: the check's lookup, the create refused (the name is taken), the lookup that finds the one to adopt.
    expect(requests.filter((l) => !l.includes("ws("))).toEqual([
      "GET /ping 204",
      `GET /organizations/${ORG}/workspaces/made-in-the-ui 200`,
      `GET /organizations/${ORG}/workspaces/made-in-the-ui 200`,
      `POST /organizations/${ORG}/workspaces 201`,
      `POST /organizations/${ORG}/workspaces 422`,
    ].sort());
    const adopted = await live("made-in-the-ui");
    expect([adopted.id, adopted.a["auto-apply"], adopted.a["description"]]).toEqual([uiWorkspaceId, false, "now managed"]);
    e2e.emulator.clearRequests();
  });

  test.each(SUBJECTS.flatMap((s) => (s.live ? [[s.name, s.live] as const] : [])))("%s holds its change on the server, in the same workspace", async (name, [read, expected]) => {
    const w = await live(name === "attr-name" ? "attr-name-renamed" : name);
    expect(read(w)).toEqual(expected);
    // An update, never a replacement: a rename and a project move too keep the id.
    expect(w.id).toBe(created.get(name));
    if (name === "attr-name") expect((await live("follower")).a["working-directory"]).toBe("attr-name-renamed");
    e2e.emulator.clearRequests();
  });

  test("a preview with nothing changed (after the round) shows no step and sends no request: every apply did exactly what its preview said; the deprecated operations is still named", async () => {
    const { events, requests } = await preview("preview after the round");
    expect(stepsByName(events)).toEqual({});
    expect(requests).toEqual([]);
    // The deprecated input is still named with its replacement when nothing changes.
    expect(notesOf(events).filter((n) => n.includes("deprecated"))).toEqual(Array.from({ length: 3 }, () =>
      expect.stringContaining("`operations` is deprecated by the service; use `executionMode`")));
  });

  test("changing the create-only sourceName fails at preview, naming it, without a request", async () => {
    const full = declared["full"] as Args;
    declared = { ...declared, full: { ...full, sourceName: "another-pipeline" } };
    try {
      const { message, requests } = await previewFailure("sourceName refused");
      expect(message).toContain("sourceName can only be set when the workspace is created");
      expect(requests).toEqual([]);
    } finally {
      declared = { ...declared, full };
    }
  });

  // ---- deletes ------------------------------------------------------------------------------------

  const stateVersion = (id: string, serial: number, resources: number) => e2e.api("POST", `/workspaces/${id}/state-versions`, {
    data: { type: "state-versions", attributes: { serial, md5: "d41d8cd98f00b204e9800998ecf8427e", "resource-count": resources } },
  });

  test("one up refuses to safe-delete a workspace that manages resources and one that is locked, force-deletes the one with forceDelete, deletes one dropped from the program, and refuses a foreign name", async () => {
    const drifted = await live("drifted");
    const forced = await live("attr-forceDelete");
    const dropped = await live("legacy-autoDestroyAt");
    expect((await stateVersion(uiWorkspaceId, 1, 2)).status).toBe(201);
    expect((await e2e.api("POST", `/workspaces/${drifted.id}/actions/lock`, { reason: "maintenance" })).status).toBe(200);
    // Both at once on the one with forceDelete (set alone in the round, with no request).
    expect((await stateVersion(forced.id, 1, 2)).status).toBe(201);
    expect((await e2e.api("POST", `/workspaces/${forced.id}/actions/lock`, { reason: "maintenance" })).status).toBe(200);
    expect((await e2e.api("POST", `/organizations/${ORG}/workspaces`, { data: { type: "workspaces", attributes: { name: "someone-elses" } } })).status).toBe(201);
    await learnIds();
    e2e.emulator.clearRequests();
    const { adopted: _a, drifted: _d, "attr-forceDelete": _f, "legacy-autoDestroyAt": _l, ...rest } = declared;
    const kept = { ...rest, adopted: _a as Args, drifted: _d as Args };
    declared = { ...rest, clash: { name: "someone-elses" } };
    // Every step is tried (continue-on-error), so that one up shows all the refusals.
    let message: string;
    let requests: string[];
    try {
      message = String((await failureOf(e2e.stack.up({ onOutput: e2e.log, continueOnError: true }))).message);
      requests = await record("deletes refused and forced");
    } finally {
      declared = kept;
    }
    expect(message).toContain(`Workspace "${ORG}/made-in-the-ui" (${uiWorkspaceId}) was not deleted because it still manages resources`);
    expect(message).toContain("set `forceDelete: true` on the Workspace, run `pulumi up`, then try again");
    expect(message).toContain(`Workspace "${ORG}/drifted" (${drifted.id}) was not deleted because it is locked`);
    expect(message).toContain(`Workspace "${ORG}/someone-elses" already exists and was not created by a pulumi-wsbridge stack resource`);
    expect(message).toContain("adoptExisting: true");
    expect(requests).toEqual([
      `GET /organizations/${ORG}/workspaces/someone-elses 200`,
      `POST /organizations/${ORG}/workspaces 422`,
      "DELETE /workspaces/ws(attr-forceDelete) 204",
      "POST /workspaces/ws(drifted)/actions/safe-delete 409",
      "POST /workspaces/ws(legacy-autoDestroyAt)/actions/safe-delete 204",
      "POST /workspaces/ws(made-in-the-ui)/actions/safe-delete 409",
    ].sort());
    expect((await e2e.api("GET", `/workspaces/${forced.id}`)).status).toBe(404);
    expect((await e2e.api("GET", `/workspaces/${dropped.id}`)).status).toBe(404);
    e2e.emulator.clearRequests();
  });

  test("destroy refuses the locked workspace too, force-deletes a locked one with forceDelete, and safe-deletes the rest", async () => {
    const drifted = await live("drifted");
    const forced = await live("forced-at-destroy");
    // Locked, with forceDelete set in the round (no request then): destroy uses the recorded switch.
    expect((await e2e.api("POST", `/workspaces/${forced.id}/actions/lock`, { reason: "maintenance" })).status).toBe(200);
    // The adopted workspace no longer manages resources.
    expect((await stateVersion(uiWorkspaceId, 2, 0)).status).toBe(201);
    e2e.emulator.clearRequests();
    let message: string;
    let requests: string[];
    try {
      message = String((await failureOf(e2e.stack.destroy({ onOutput: e2e.log, continueOnError: true }))).message);
    } finally {
      requests = await record("destroy refused and forced");
    }
    expect(message).toContain(`Workspace "${ORG}/drifted" (${drifted.id}) was not deleted because it is locked`);
    const gone = ["attr-forceDelete", "legacy-autoDestroyAt", "drifted", "forced-at-destroy"];
    const names = [...SUBJECTS.map((s) => s.name).filter((n) => !gone.includes(n)), "consumer", "follower", "ephemeral", "made-in-the-ui"];
    expect(requests).toEqual([
      ...names.map((n) => `POST /workspaces/ws(${n})/actions/safe-delete 204`),
      "DELETE /workspaces/ws(forced-at-destroy) 204",
      "POST /workspaces/ws(drifted)/actions/safe-delete 409",
    ].sort());
    expect((await e2e.api("GET", `/workspaces/${forced.id}`)).status).toBe(404);
  });

  test("once unlocked, destroy deletes the last workspace, and no token is stored or printed", async () => {
    const drifted = await live("drifted");
    expect((await e2e.api("POST", `/workspaces/${drifted.id}/actions/unlock`)).status).toBe(200);
    e2e.emulator.clearRequests();
    const result = await e2e.stack.destroy({ onOutput: e2e.log });
    expect(result.summary.result).toBe("succeeded");
    expect(await record("destroy")).toEqual(["POST /workspaces/ws(drifted)/actions/safe-delete 204"]);
    const { doc } = await e2e.api<{ data: { attributes: { name: string } }[] }>("GET", `/organizations/${ORG}/workspaces`);
    expect(doc.data.map((w) => w.attributes.name)).toEqual(["someone-elses"]);
    expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
    expect(e2e.printed).not.toContain(e2e.emulator.token);
  });
});

test("both routes made exactly the same requests in every operation", () => {
  expect(Object.keys(recorded.plugin)).toEqual(Object.keys(recorded.dynamic));
  // The bad inputs, create, refresh, the round's preview and up, the preview after it, sourceName, the deletes, two destroys.
  expect(Object.keys(recorded.dynamic).length).toBe(10);
  expect(recorded.plugin).toEqual(recorded.dynamic);
});

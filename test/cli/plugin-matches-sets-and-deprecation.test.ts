// WorkspaceTagBindings, RemoteStateConsumers and ModuleVersionDeprecation on the real Pulumi CLI, through
// the provider plugin (`pulumi-resource-wsbridge`, installed from its archive, and the generated SDK) and
// through the dynamic route (`pulumi-wsbridge`): one stack and one emulator per route (same fixtures,
// same ids), one program that holds the three kinds (two of each) and a Workspace, and the very same
// scenario on each route. This file is the end-to-end proof of those three kinds: it holds what only the
// engine does, and what the former per-kind files (tag bindings, consumers, deprecation, the set
// resources beside a Workspace) proved on one stack each.
//
//  1. a preview of the creates: a consumer list holding the id of a Workspace being created (an
//     unknown element) and a deprecation whose organization comes from the stack config, no request;
//  2. up creates all (a second additive WorkspaceTagBindings beside the first); a no-op preview
//     (consumers reordered) plans exactly the outputs, without a request: no perpetual diff;
//  3. round A: the tags made exclusive (the second tag resource dropped: the engine deletes it, and
//     the UI's key goes), the consumers moved to another workspace and the version changed: two
//     create-first replacements whose requests the engine orders;
//  4. round B: the tags moved to another workspace (a replacement: bound on the new workspace, then
//     unbound from the old), a consumer added, the link changed;
//  5. drift made through the API (exclusive tags, additive consumers, a link, a deprecation reverted)
//     found by refresh (the reverted one leaves the state), previewed as exactly the restore, restored;
//  6. bad inputs printed by the CLI as `property … has a problem: <rule>`, without a request; the
//     checks that need the whole program (a key or a workspace claimed twice, consumers of a workspace
//     that shares its state, one deprecation per version) on each route;
//  7. destroy removes only what the resources managed; the token is in no state and was never printed.
//
// The last test proves both routes sent exactly the same requests for every operation. Each
// property changed alone, the per-kind input rules, the request counts of each operation and the
// plugin's planned outputs of plain updates do not depend on the engine: the same scenario's rounds run
// at the runtime, through both routes' entry points, in test/plugin/sets-and-deprecation-routes.test.ts.
//
// Where the routes differ by design, each test asserts what each route does: the plugin plans more
// outputs of a preview; the dynamic classes check the whole program, which the plugin (one resource at a
// time) cannot, except for the keys the server holds one object per; the generated SDK sends only the
// properties it declares.
import type { EngineEvent, PulumiFn } from "@pulumi/pulumi/automation";
import { DEPRECATION_REASON_SUFFIX } from "../../emulator";
import { stepsOf } from "../support/engine-events";
import { failureOf } from "../support/failure";
import { plannedSteps, stackOutputsOf, UNKNOWN_IN_EVENTS as U } from "../support/plugin-route";
import { belowApi, useRealCliStack } from "../support/real-cli-stack";

type Route = "dynamic" | "plugin";
type Kind = "WorkspaceTagBindings" | "RemoteStateConsumers" | "ModuleVersionDeprecation";
type Args = Record<string, unknown>;

const KINDS: Kind[] = ["WorkspaceTagBindings", "RemoteStateConsumers", "ModuleVersionDeprecation"];
const TYPE_PREFIX: Record<Route, string> = { dynamic: "pulumi-nodejs:dynamic/wsbridge:", plugin: "wsbridge:index:" };

// ---- the emulator's fixtures: fixed ids, so both routes' requests name the same paths ----------------

const ORG = "example-org";
const PROJECT = "prj-threekinds";
const TAGGED = "ws-tagged";
const MOVED = "ws-tagsmoved";
const SUBJECT = "ws-subject";
const SUBJECT2 = "ws-subjectnext";
/** The workspace whose consumer is the Workspace the program creates. */
const MADE_SUBJECT = "ws-madesubject";
const [A, B, C, OUTSIDER] = ["ws-consumera", "ws-consumerb", "ws-consumerc", "ws-outsider"];
/** The Workspace the program creates: its id is the emulator's, so request lines show it as this. */
const MADE = "ws-MADE";
const MADE_NAME = "three-kinds-made";

const FIXTURES = {
  organizations: [{
    name: ORG,
    projects: [{ id: PROJECT, name: "Apps", tagBindings: [{ key: "cost-center", value: "web" }] }],
    workspaces: [
      { id: TAGGED, name: "tagged", project: "Apps", tagBindings: [{ key: "owner", value: "ui" }] },
      { id: MOVED, name: "tags-moved", project: "Apps" },
      ...[SUBJECT, SUBJECT2, MADE_SUBJECT, A, B, C, OUTSIDER].map((id) => ({
        id, name: id.replace("ws-", "n-"), attributes: { "global-remote-state": false, "project-remote-state": false },
      })),
    ],
    registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "2.0.0"] }],
  }],
};

// The requests' paths (below /api/v2, except the registry's own API).
const bindings = (ws: string): string => `/workspaces/${ws}/tag-bindings`;
const effective = (ws: string): string => `/workspaces/${ws}/effective-tag-bindings`;
const rel = (ws: string): string => `/workspaces/${ws}/relationships/remote-state-consumers`;
const d1 = (version: string): string => `/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/${version}`;
const d3 = (version: string): string => `/api/registry/v1/modules/${ORG}/vpc/aws/${version}`;

const REASON = "opens port 22";
const RETIRED = { reason: "retired", link: "https://example.com/retired" };
const deprecated = (reason: string, link: string) => ({ reason: `${reason}${DEPRECATION_REASON_SUFFIX}`, link });

// ---- what the program declares ---------------------------------------------------------------------

interface Declaration {
  tags: Args;
  /** A second additive WorkspaceTagBindings on the first one's workspace, or none. */
  moreTags: Args | null;
  consumers: Args;
  deprecation: Args;
  /** A deprecation that stays as declared (version 2.0.0). */
  retired: Args;
  /** Preview only: one resource of one kind with bad inputs, declared alone. */
  bad?: { kind: Kind; args: Args };
  /**
   * Preview only. "claimed twice": beside all the rest, resources that clash with another resource of
   * the program (see {@link programOf}); "a second deprecation": the deprecation declared twice, alone.
   */
  clash?: "claimed twice" | "a second deprecation";
}

const initialDeclaration = (): Declaration => ({
  tags: { workspaceId: TAGGED, tags: { env: "prod", team: "web" } },
  moreTags: { workspaceId: TAGGED, tags: { region: "eu" } },
  consumers: { workspaceId: SUBJECT, consumerIds: [B, A] },
  deprecation: { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: REASON, link: "https://example.com/upgrade" },
  retired: { moduleName: "vpc", provider: "aws", version: "2.0.0", ...RETIRED },
});

type Resource = Record<string, unknown> & { id: unknown };
type Classes = Record<Kind | "Workspace", new (name: string, args: Args, opts?: { dependsOn?: unknown[] }) => Resource>;

function programOf(route: Route, d: Declaration): PulumiFn {
  return async () => {
    const lib = (route === "plugin" ? await import("@pulumi-wsbridge/wsbridge") : await import("pulumi-wsbridge")) as unknown as Classes;
    if (d.bad !== undefined) {
      // Only the bad resource and no outputs: nothing is left awaiting the engine once it stops the preview.
      new lib[d.bad.kind]("bad", d.bad.args);
      return {};
    }
    if (d.clash === "a second deprecation") {
      // Only the two (and no outputs), as for bad inputs: the plugin route stops at the failing check.
      new lib.ModuleVersionDeprecation("vpc-old", d.deprecation);
      new lib.ModuleVersionDeprecation("vpc-again", { ...d.deprecation, reason: "another reason" });
      return {};
    }
    const made = new lib.Workspace("made", { name: MADE_NAME, tagBindings: { env: "prod" } });
    const tags = new lib.WorkspaceTagBindings("tags", d.tags);
    if (d.moreTags !== null) new lib.WorkspaceTagBindings("more-tags", d.moreTags, { dependsOn: [tags] });
    const readers = new lib.RemoteStateConsumers("readers", d.consumers);
    const madeReaders = new lib.RemoteStateConsumers("made-readers", { workspaceId: MADE_SUBJECT, consumerIds: [made.id] });
    const deprecation = new lib.ModuleVersionDeprecation("vpc-old", d.deprecation);
    new lib.ModuleVersionDeprecation("vpc-two", d.retired);
    if (d.clash === "claimed twice") {
      // An additive WorkspaceTagBindings beside the exclusive one, and an exclusive RemoteStateConsumers
      // beside the additive one; one tag key declared by two additive resources, and by a Workspace and
      // a WorkspaceTagBindings; consumers of Workspaces that share their state. The dynamic classes see
      // the whole program and refuse each; the plugin is asked about one resource at a time.
      new lib.WorkspaceTagBindings("more-tags", { workspaceId: d.tags.workspaceId, tags: { region: "eu" } });
      new lib.RemoteStateConsumers("more-readers", { workspaceId: d.consumers.workspaceId, consumerIds: [OUTSIDER], exclusive: true });
      new lib.WorkspaceTagBindings("twice-a", { workspaceId: TAGGED, tags: { tier: "1" } });
      new lib.WorkspaceTagBindings("twice-b", { workspaceId: TAGGED, tags: { tier: "2" } });
      new lib.WorkspaceTagBindings("extra", { workspaceId: made.id, tags: { env: "staging" } });
      const shared = new lib.Workspace("shared", { name: "three-kinds-shared", globalRemoteState: true });
      new lib.RemoteStateConsumers("shared-readers", { workspaceId: shared.id, consumerIds: [A] });
      const projectShared = new lib.Workspace("project-shared", { name: "three-kinds-project-shared", projectRemoteState: true });
      new lib.RemoteStateConsumers("project-readers", { workspaceId: projectShared.id, consumerIds: [A] });
      // The plugin refuses this one at its check, which stops the preview: there it has its own.
      if (route === "dynamic") new lib.ModuleVersionDeprecation("vpc-again", { ...d.deprecation, reason: "another reason" });
    }
    return {
      tags: tags.tags, allDirectTags: tags.allDirectTags, effectiveTags: tags.effectiveTags,
      consumerIds: readers.consumerIds, allConsumerIds: readers.allConsumerIds, madeConsumerIds: madeReaders.consumerIds,
      deprecationId: deprecation.id, reason: deprecation.reason, link: deprecation.link, registryReason: deprecation.registryReason,
      registryLink: deprecation.registryLink, moduleSource: deprecation.moduleSource, moduleVersionId: deprecation.moduleVersionId,
    };
  };
}

// ---- what each route showed, and the requests of each operation ------------------------------------

interface Shown {
  op: string;
  name: string;
  /** Plugin route: the detailed diff's `path: kind`, sorted. Dynamic route: the input keys that differ, sorted. */
  changes: string[];
}

/** The steps of the three kinds: the plugin's detailed diffs, or the dynamic route's changed inputs. */
function shownSteps(route: Route, events: EngineEvent[]): Shown[] {
  return KINDS.flatMap((kind) => {
    const type = TYPE_PREFIX[route] + kind;
    if (route === "dynamic") return stepsOf(events, type).map((s) => ({ op: s.op, name: s.name, changes: s.changedInputs }));
    return plannedSteps(events, type).map((s) => {
      // The engine's `diffs` are the top-level properties of the detailed diff's paths.
      const tops = s.paths.map((p) => /^[^.[]+/.exec(p.slice(0, p.lastIndexOf(": ")))?.[0]);
      expect(s.diffs).toEqual([...new Set(tops)].sort());
      return { op: s.op, name: s.name, changes: s.paths };
    });
  });
}

/** A step as each route shows it. */
interface ExpectedStep {
  op: string;
  name: string;
  plugin: string[];
  dynamic: string[];
}
const step = (op: string, name: string, plugin: string[], dynamic: string[]): ExpectedStep => ({ op, name, plugin, dynamic });
const update = (name: string, plugin: string[], dynamic: string[]): ExpectedStep => step("update", name, plugin, dynamic);
/**
 * A replace (create the new one, then delete the old one): its three steps. The dynamic route's
 * delete-replaced step differs in every input the old resource had (the new inputs are empty).
 */
const replaced = (name: string, property: string, oldInputs: string[]): ExpectedStep[] => [
  step("create-replacement", name, [`${property}: update-replace`], [property]),
  step("replace", name, [`${property}: update-replace`], [property]),
  step("delete-replaced", name, [], oldInputs),
];
const as = (route: Route, steps: ExpectedStep[]): Shown[] => steps.map((s) => ({ op: s.op, name: s.name, changes: s[route] }));
const byName = (x: { name: string }, y: { name: string }): number => x.name.localeCompare(y.name);

/** Which resource a request line belongs to (the three tag resources share theirs: one key, "tags"). */
function resourceOf(line: string): number {
  if (line.includes(MADE_SUBJECT)) return 3;
  if (line.includes(MADE) || line.includes(`/organizations/${ORG}/workspaces`)) return 0;
  if (line.includes("tag-bindings") || line.includes(TAGGED) || line.includes(MOVED)) return 1;
  if (line.includes(SUBJECT)) return 2;
  if (line.includes("/2.0.0")) return 5;
  return 4;
}
/** The Workspace's requests, the tags', the consumers', the made workspace's consumers', then each deprecation's; each resource's in the order sent. */
function groupedByResource(lines: string[]): string[] {
  return lines.map((line, i) => ({ line, i })).sort((x, y) => resourceOf(x.line) - resourceOf(y.line) || x.i - y.i).map((x) => x.line);
}

// ---- the scenario, once per route --------------------------------------------------------------------

/** Per route, per operation: the emulator's request lines. */
const requestsOf: Record<Route, Map<string, string[]>> = { dynamic: new Map(), plugin: new Map() };

/** The stack's outputs right after the create (and planned by a preview that changes nothing). */
const OUTPUTS_AT_CREATE = {
  tags: { env: "prod", team: "web" },
  allDirectTags: { owner: "ui", env: "prod", team: "web" },
  effectiveTags: [
    { key: "owner", value: "ui", inheritedFrom: null }, { key: "env", value: "prod", inheritedFrom: null },
    { key: "team", value: "web", inheritedFrom: null }, { key: "cost-center", value: "web", inheritedFrom: PROJECT },
  ],
  consumerIds: [A, B], allConsumerIds: [A, B], madeConsumerIds: [MADE],
  deprecationId: `${ORG}/vpc/aws/1.0.0`, reason: REASON, link: "https://example.com/upgrade", registryReason: `${REASON}${DEPRECATION_REASON_SUFFIX}`,
  registryLink: "https://example.com/upgrade", moduleSource: `${ORG}/vpc/aws`, moduleVersionId: expect.stringMatching(/^modver-/),
};

interface Round {
  /** What changes. */
  what: string;
  change(d: Declaration): void;
  steps: ExpectedStep[];
  /** Check's reads: a changed declaration of tags (additive) or consumers is checked against the server. */
  previewRequests: string[];
  /** The outputs both routes plan; {@link pluginAlsoPlans}: those only the plugin knows (the dynamic route: unknown). */
  planned: Record<string, unknown>;
  pluginAlsoPlans?: Record<string, unknown>;
  changes: Record<string, number>;
  upRequests: string[];
  /** What the emulator holds after up (see `world`). */
  world: Record<string, unknown>;
}

const ROUNDS: Round[] = [
  {
    what: "A: the tags made exclusive and the second tag resource dropped, the consumers' workspace, the version",
    change(d) {
      d.tags.exclusive = true;
      d.moreTags = null;
      d.consumers.workspaceId = SUBJECT2;
      d.deprecation.version = "1.1.0";
    },
    steps: [
      // Exclusive: every other direct key the server reported at the create is unbound (the UI's).
      update("tags", ["exclusive: update", "tags.owner: delete"], ["exclusive"]),
      // No longer declared: the engine deletes it, after the rest (its key is gone by then).
      step("delete", "more-tags", [], ["exclusive", "tags", "workspaceId"]),
      ...replaced("readers", "workspaceId", ["__owner", "consumerIds", "exclusive", "workspaceId"]),
      ...replaced("vpc-old", "version", ["link", "moduleName", "organization", "provider", "reason", "version"]),
    ],
    // A replacement is checked twice (against the old inputs, then as a new resource): two reads.
    previewRequests: [`GET /workspaces/${SUBJECT2}`, `GET /workspaces/${SUBJECT2}`],
    planned: {
      tags: { env: "prod", team: "web" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, B], allConsumerIds: U, madeConsumerIds: [MADE],
      deprecationId: U, reason: U, link: U, registryReason: U, registryLink: U, moduleSource: U, moduleVersionId: U,
    },
    pluginAlsoPlans: { allDirectTags: { env: "prod", team: "web" }, reason: REASON, link: "https://example.com/upgrade", moduleSource: `${ORG}/vpc/aws` },
    changes: { same: 4, update: 1, replace: 2, delete: 1 },
    upRequests: [
      `PATCH /workspaces/${TAGGED}`, `GET ${bindings(TAGGED)}`,
      // The new consumer list first, the old one emptied last.
      `GET /workspaces/${SUBJECT2}`, `GET /workspaces/${SUBJECT2}`, `POST ${rel(SUBJECT2)}`, `GET ${rel(SUBJECT2)}`, `DELETE ${rel(SUBJECT)}`,
      // The new version deprecated first, then the old one reinstated.
      `PATCH ${d1("1.1.0")}`, `PATCH ${d1("1.0.0")}`,
    ],
    world: {
      [TAGGED]: { env: "prod", team: "web" }, [MOVED]: {}, [SUBJECT]: [], [SUBJECT2]: [A, B], [MADE_SUBJECT]: [MADE],
      "1.0.0": null, "1.1.0": deprecated(REASON, "https://example.com/upgrade"), "2.0.0": deprecated(RETIRED.reason, RETIRED.link),
    },
  },
  {
    what: "B: the tags' workspace, a consumer added, the link",
    change(d) {
      d.tags.workspaceId = MOVED;
      d.consumers.consumerIds = [A, B, C];
      d.deprecation.link = "https://example.com/v2";
    },
    steps: [
      ...replaced("tags", "workspaceId", ["exclusive", "tags", "workspaceId"]),
      update("readers", ["consumerIds[2]: add"], ["consumerIds"]),
      update("vpc-old", ["link: update"], ["link"]),
    ],
    previewRequests: [`GET /workspaces/${SUBJECT2}`],
    planned: {
      tags: { env: "prod", team: "web" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, B, C], allConsumerIds: U, madeConsumerIds: [MADE],
      deprecationId: `${ORG}/vpc/aws/1.1.0`, reason: REASON, link: "https://example.com/v2", registryReason: U, registryLink: U,
      moduleSource: `${ORG}/vpc/aws`, moduleVersionId: U,
    },
    pluginAlsoPlans: { allDirectTags: { env: "prod", team: "web" }, moduleVersionId: expect.stringMatching(/^modver-/) },
    changes: { same: 4, update: 2, replace: 1 },
    upRequests: [
      // Bound on the new workspace, then unbound from the old one (read, then replaced without them).
      `PATCH /workspaces/${MOVED}`, `GET ${bindings(TAGGED)}`, `PATCH /workspaces/${TAGGED}`,
      `GET /workspaces/${SUBJECT2}`, `POST ${rel(SUBJECT2)}`, `GET ${rel(SUBJECT2)}`,
      `PATCH ${d1("1.1.0")}`,
    ],
    world: {
      [TAGGED]: {}, [MOVED]: { env: "prod", team: "web" }, [SUBJECT]: [], [SUBJECT2]: [A, B, C], [MADE_SUBJECT]: [MADE],
      "1.0.0": null, "1.1.0": deprecated(REASON, "https://example.com/v2"), "2.0.0": deprecated(RETIRED.reason, RETIRED.link),
    },
  },
];

/**
 * The one bad-input preview per route (the per-kind rules are at the runtime): a deprecation's bad
 * properties, as the CLI names them, with a part of each rule; and the problem only the dynamic route
 * reports: a property the kind does not have reaches the provider through the dynamic class (which
 * passes every argument), while the generated SDK's class sends only the properties of its schema
 * (TypeScript refuses the others at compile time).
 */
const BAD_ARGS: Args = { moduleName: "my vpc", provider: "AWS", version: "v1.0.0", link: "ftp://x", deprecated: true };
const BAD_PROBLEMS: [string, string][] = [
  ["moduleName", "letters, digits, - and _ only"],
  ["provider", "lower-case letters, digits and _ only"],
  ["version", 'no leading "v"'],
  ["link", "absolute http or https URL"],
];
const DYNAMIC_ONLY_PROBLEM: [string, string] = ["deprecated", "is not a property of ModuleVersionDeprecation"];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ONE_DEPRECATION = `ModuleVersionDeprecation resources (?:"vpc-old" and "vpc-again"|"vpc-again" and "vpc-old") both declare "${ORG}/vpc/aws/1.1.0"; ` +
  "a module version has one deprecation, so only one resource may declare each";

describe.each<[Route]>([["dynamic"], ["plugin"]])("the %s route", (route) => {
  const d = initialDeclaration();
  const e2e = useRealCliStack({
    projectName: "wsbridge-three-kinds",
    plugin: route === "plugin",
    emulator: { edition: "hosted", fixtures: FIXTURES },
    program: programOf(route, d),
  });
  /** The created Workspace's id, once known: request lines name it {@link MADE}. */
  let madeId = "";
  const shown = (path: string): string => (madeId === "" ? belowApi(path) : belowApi(path).split(madeId).join(MADE));
  const named = (ids: string[]): string[] => ids.map((id) => (id === madeId ? MADE : id));

  /**
   * The requests since the last clear (or those given), recorded as those of `operation`: grouped by
   * resource, or `sorted` where several resources of one group are checked in no fixed order.
   */
  function take(operation: string, sent = e2e.emulator.requests(), sorted = false): string[] {
    const shownLines = sent.map((r) => `${r.method} ${shown(r.path)}`);
    const lines = sorted ? shownLines.sort() : groupedByResource(shownLines);
    requestsOf[route].set(operation, lines);
    e2e.emulator.clearRequests();
    return lines;
  }
  const outputsOf = (outputs: Record<string, { value: unknown }>): Record<string, unknown> => {
    const values = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
    return { ...values, madeConsumerIds: named((values.madeConsumerIds ?? []) as string[]) };
  };

  async function preview(operation: string): Promise<{ steps: Shown[]; requests: string[]; planned: Record<string, unknown> }> {
    const events: EngineEvent[] = [];
    e2e.emulator.clearRequests();
    await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
    const planned = stackOutputsOf(events) ?? {};
    if (Array.isArray(planned.madeConsumerIds)) planned.madeConsumerIds = named(planned.madeConsumerIds as string[]);
    return { steps: shownSteps(route, events), requests: take(operation), planned };
  }

  async function up(operation: string): Promise<{ changes: Record<string, number | undefined>; requests: string[]; outputs: Record<string, unknown> }> {
    e2e.emulator.clearRequests();
    const result = await e2e.stack.up({ onOutput: e2e.log });
    const sent = e2e.emulator.requests();
    if (madeId === "") madeId = (await e2e.api<{ data: { id: string } }>("GET", `/organizations/${ORG}/workspaces/${MADE_NAME}`)).doc.data.id;
    const requests = take(operation, sent);
    return { changes: result.summary.resourceChanges ?? {}, requests, outputs: outputsOf(result.outputs) };
  }

  /** A failing preview's message, and its requests. */
  async function failingPreview(operation: string): Promise<{ message: string; requests: string[] }> {
    e2e.emulator.clearRequests();
    const message = String((await failureOf(e2e.stack.preview({ onOutput: e2e.log }))).message);
    return { message, requests: take(operation) };
  }

  /** What the emulator holds of every object the resources may touch (read after the requests are taken). */
  async function world(): Promise<Record<string, unknown>> {
    const tagsOn = async (id: string) => Object.fromEntries(
      (await e2e.api<{ data: { attributes: { key: string; value: string } }[] }>("GET", bindings(id))).doc.data
        .map((b) => [b.attributes.key, b.attributes.value]));
    const consumersOf = async (id: string) =>
      named((await e2e.api<{ data: { id: string }[] }>("GET", `${rel(id)}?page%5Bsize%5D=100`)).doc.data.map((w) => w.id)).sort();
    const deprecationOf = async (version: string) =>
      (await e2e.api<{ deprecation?: unknown }>("GET", `${e2e.emulator.url}${d3(version)}`)).doc.deprecation ?? null;
    return {
      [TAGGED]: await tagsOn(TAGGED), [MOVED]: await tagsOn(MOVED),
      [SUBJECT]: await consumersOf(SUBJECT), [SUBJECT2]: await consumersOf(SUBJECT2), [MADE_SUBJECT]: await consumersOf(MADE_SUBJECT),
      "1.0.0": await deprecationOf("1.0.0"), "1.1.0": await deprecationOf("1.1.0"), "2.0.0": await deprecationOf("2.0.0"),
    };
  }

  test("a preview of the creates, with a consumer being created in the same program, plans them all, reading only what check reads", async () => {
    const planned = await preview("create preview");
    // The engine registers the resources in parallel: their order is not the program's.
    expect([...planned.steps].sort(byName)).toEqual(as(route, [
      step("create", "tags", [], ["exclusive", "tags", "workspaceId"]),
      step("create", "more-tags", [], ["exclusive", "tags", "workspaceId"]),
      step("create", "readers", [], ["__owner", "consumerIds", "exclusive", "workspaceId"]),
      // Its consumer list holds the id of the Workspace being created: unknown until up.
      step("create", "made-readers", [], ["__owner", "consumerIds", "exclusive", "workspaceId"]),
      // The organization comes from the stack config.
      step("create", "vpc-old", [], ["link", "moduleName", "organization", "provider", "reason", "version"]),
      step("create", "vpc-two", [], ["link", "moduleName", "organization", "provider", "reason", "version"]),
    ]).sort(byName));
    // Additive tags are counted against the keys already bound; each consumer list's workspace is
    // read (the list of made-readers is not known yet). Nothing is written; the deprecations send nothing.
    expect(planned.requests).toEqual([
      `GET ${bindings(TAGGED)}`, `GET ${bindings(TAGGED)}`, `GET /workspaces/${SUBJECT}`, `GET /workspaces/${MADE_SUBJECT}`,
    ]);
  });

  test("up creates them: the tags beside the UI's key and the second tag resource's, the consumers, the deprecations", async () => {
    const applied = await up("up creates");
    expect(applied.changes).toEqual({ create: 8 });
    expect(applied.requests).toEqual([
      `POST /organizations/${ORG}/workspaces`,
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /workspaces/${SUBJECT}`, `POST ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `GET /workspaces/${MADE_SUBJECT}`, `POST ${rel(MADE_SUBJECT)}`, `GET ${rel(MADE_SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
      `PATCH ${d1("2.0.0")}`,
    ]);
    expect(applied.outputs).toEqual(OUTPUTS_AT_CREATE);
    expect(await world()).toEqual({
      [TAGGED]: { owner: "ui", env: "prod", team: "web", region: "eu" }, [MOVED]: {}, [SUBJECT]: [A, B], [SUBJECT2]: [], [MADE_SUBJECT]: [MADE],
      "1.0.0": deprecated(REASON, "https://example.com/upgrade"), "1.1.0": null, "2.0.0": deprecated(RETIRED.reason, RETIRED.link),
    });
  });

  test("a preview with nothing changed (the consumers reordered, a second tag resource beside) plans nothing, the same outputs, and sends no request", async () => {
    d.consumers.consumerIds = [A, B];
    expect(await preview("no-op preview")).toEqual({ steps: [], requests: [], planned: OUTPUTS_AT_CREATE });
  });

  test.each(ROUNDS.map((round) => [round.what, round] as const))(
    "round %s: each previews as exactly its path and op, writing nothing, and up applies exactly that in the engine's order",
    async (what, round) => {
      round.change(d);
      const name = what.slice(0, 1);
      const planned = await preview(`round ${name} preview`);
      expect(planned.steps).toEqual(as(route, round.steps));
      expect(planned.requests).toEqual(round.previewRequests);
      const unknownOnTheDynamicRoute = Object.fromEntries(Object.keys(round.pluginAlsoPlans ?? {}).map((key) => [key, U]));
      expect(planned.planned).toEqual({ ...round.planned, ...(route === "plugin" ? round.pluginAlsoPlans : unknownOnTheDynamicRoute) });
      const applied = await up(`round ${name} up`);
      expect(applied.changes).toEqual(round.changes);
      expect(applied.requests).toEqual(round.upRequests);
      expect(await world()).toEqual(round.world);
    },
  );

  test("drift made through the API is found by refresh, previewed as exactly the restoring change, and restored by up", async () => {
    // The tags (exclusive): a managed value changed and an unmanaged key added. The consumers
    // (additive): a managed one removed and an unmanaged one added. One deprecation's link changed,
    // the other deprecation reverted.
    const tag = (key: string, value: string) => ({ type: "tag-bindings", attributes: { key, value } });
    const deprecation = (attributes: Args) => ({ data: { type: "module-versions", attributes: { deprecation: attributes } } });
    expect((await e2e.api("PATCH", bindings(MOVED), { data: [tag("env", "hacked"), tag("extra", "x")] })).status).toBe(200);
    expect((await e2e.api("DELETE", rel(SUBJECT2), { data: [{ type: "workspaces", id: A }] })).status).toBe(204);
    expect((await e2e.api("POST", rel(SUBJECT2), { data: [{ type: "workspaces", id: OUTSIDER }] })).status).toBe(204);
    const elsewhere = { "deprecated-status": "Deprecated", reason: REASON, link: "https://example.com/elsewhere" };
    expect((await e2e.api("PATCH", d1("1.1.0"), deprecation(elsewhere))).status).toBe(200);
    expect((await e2e.api("PATCH", d1("2.0.0"), deprecation({ "deprecated-status": "Undeprecated" }))).status).toBe(200);

    e2e.emulator.clearRequests();
    const refreshed = await e2e.stack.refresh({ onOutput: e2e.log });
    // The reverted deprecation is gone: refresh drops it from the state.
    expect(refreshed.summary.resourceChanges).toEqual({ same: 3, update: 3, delete: 1 });
    expect(take("refresh")).toEqual([
      `GET /workspaces/${MADE}`,
      `GET /workspaces/${MOVED}`, `GET ${rel(SUBJECT2)}`, `GET ${rel(MADE_SUBJECT)}`, `GET ${d3("1.1.0")}`, `GET ${d3("2.0.0")}`,
    ]);

    const planned = await preview("drift preview");
    // (Of the two deprecations, one is updated and one created: in no fixed order.)
    expect([...planned.steps].sort(byName)).toEqual(as(route, [
      update("tags", ["tags.env: update", "tags.extra: delete"], ["tags"]),
      update("readers", ["consumerIds[0]: add"], ["consumerIds"]),
      update("vpc-old", ["link: update"], ["link"]),
      step("create", "vpc-two", [], ["link", "moduleName", "organization", "provider", "reason", "version"]),
    ]).sort(byName));
    // The consumers' declaration now differs from what refresh found: checked against the server again.
    expect(planned.requests).toEqual([`GET /workspaces/${SUBJECT2}`]);

    const applied = await up("drift up");
    expect(applied.changes).toEqual({ same: 3, update: 3, create: 1 });
    expect(applied.requests).toEqual([
      `PATCH /workspaces/${MOVED}`,
      `GET /workspaces/${SUBJECT2}`, `POST ${rel(SUBJECT2)}`, `GET ${rel(SUBJECT2)}`,
      `PATCH ${d1("1.1.0")}`,
      `PATCH ${d1("2.0.0")}`,
    ]);
    // The unmanaged consumer stays, and is among all the consumers.
    expect(applied.outputs.allConsumerIds).toEqual([A, B, C, OUTSIDER]);
    expect(await world()).toEqual({
      [TAGGED]: {}, [MOVED]: { env: "prod", team: "web" }, [SUBJECT]: [], [SUBJECT2]: [A, B, C, OUTSIDER], [MADE_SUBJECT]: [MADE],
      // The reverted one deprecated again as declared, with its link.
      "1.0.0": null, "1.1.0": deprecated(REASON, "https://example.com/v2"), "2.0.0": deprecated(RETIRED.reason, RETIRED.link),
    });
  });

  test("bad inputs fail the preview, the CLI naming each property and its rule, without a request", async () => {
    d.bad = { kind: "ModuleVersionDeprecation", args: BAD_ARGS };
    try {
      const { message, requests } = await failingPreview("bad inputs");
      // The CLI prints "<type> resource 'bad': property <name> value {…} has a problem: <rule>".
      const reported = ([property, rule]: [string, string]): RegExp =>
        new RegExp(`${escape(`${TYPE_PREFIX[route]}ModuleVersionDeprecation`)} resource 'bad': property ${escape(property)} value \\{[^}]*\\} has a problem: [^\\n]*${escape(rule)}`);
      for (const problem of BAD_PROBLEMS) expect(message).toMatch(reported(problem));
      if (route === "dynamic") expect(message).toMatch(reported(DYNAMIC_ONLY_PROBLEM));
      else expect(message).not.toContain(`property ${DYNAMIC_ONLY_PROBLEM[0]} `);
      expect(requests).toEqual([]);
    } finally {
      delete d.bad;
    }
  });

  test("resources that claim what another declares fail the dynamic route's preview in the program; the plugin, one resource at a time, plans their creates", async () => {
    d.clash = "claimed twice";
    try {
      const events: EngineEvent[] = [];
      e2e.emulator.clearRequests();
      const outcome = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log }).then(() => "succeeded", (e: Error) => e.message);
      if (route === "dynamic") {
        for (const message of [
          `WorkspaceTagBindings "tags" and WorkspaceTagBindings "more-tags" both declare tags of workspace "${MOVED}", and one is exclusive`,
          `RemoteStateConsumers resources "readers" and "more-readers" both manage workspace "${SUBJECT2}" and at least one has exclusive: true`,
          `WorkspaceTagBindings "twice-a" and WorkspaceTagBindings "twice-b" both declare the tag key "tier" on workspace "${TAGGED}"`,
          `Workspace "made" and WorkspaceTagBindings "extra" both declare the tag key "env"`,
          'RemoteStateConsumers "shared-readers": workspaceId is Workspace "shared", which declares globalRemoteState: true',
          'RemoteStateConsumers "project-readers": workspaceId is Workspace "project-shared", which declares projectRemoteState: true',
        ]) expect(outcome).toContain(message);
        expect(outcome).toMatch(new RegExp(`error: ${ONE_DEPRECATION}`));
      } else {
        expect(outcome).toBe("succeeded");
      }
      // Either way the engine planned the creates and nothing else (what the drift test restored shows
      // no change), and only the new resources' checks read the server.
      // (The consumers of the two new Workspaces register once those have, in no fixed order.)
      expect(shownSteps(route, events).map((s) => `${s.op} ${s.name}`).sort()).toEqual([
        "create more-tags", "create twice-a", "create twice-b", "create extra",
        "create more-readers", "create shared-readers", "create project-readers",
        ...(route === "dynamic" ? ["create vpc-again"] : []),
      ].sort());
      expect(take("claimed twice", e2e.emulator.requests(), true)).toEqual([
        `GET ${bindings(MADE)}`, `GET ${bindings(TAGGED)}`, `GET ${bindings(TAGGED)}`, `GET ${bindings(MOVED)}`,
        `GET /workspaces/${SUBJECT2}`,
      ].sort());
    } finally {
      delete d.clash;
    }
  });

  // The dynamic route refused the second deprecation in the test above (its program sees both).
  if (route === "plugin") {
    test("a second deprecation of the same version fails the plugin's check, naming both resources, without a request", async () => {
      // The plugin refuses it at the check of whichever of the two it is asked about second (the
      // order of the engine's checks decides which one is named first).
      d.clash = "a second deprecation";
      try {
        const { message, requests } = await failingPreview("a second deprecation");
        expect(message).toMatch(new RegExp(`resource '(vpc-old|vpc-again)': property version value \\{1\\.1\\.0\\} has a problem: ${ONE_DEPRECATION}`));
        expect(requests).toEqual([]);
      } finally {
        delete d.clash;
      }
    });
  }

  test("destroy removes only what the resources managed, and the token is in no state or output", async () => {
    expect((await e2e.api("PATCH", bindings(MOVED), { data: [{ type: "tag-bindings", attributes: { key: "late", value: "1" } }] })).status).toBe(200);
    e2e.emulator.clearRequests();
    const result = await e2e.stack.destroy({ onOutput: e2e.log });
    expect(result.summary.resourceChanges).toEqual({ delete: 7 });
    expect(take("destroy")).toEqual([
      `POST /workspaces/${MADE}/actions/safe-delete`,
      `GET ${bindings(MOVED)}`, `PATCH /workspaces/${MOVED}`,
      `DELETE ${rel(SUBJECT2)}`,
      `DELETE ${rel(MADE_SUBJECT)}`,
      `PATCH ${d1("1.1.0")}`,
      `PATCH ${d1("2.0.0")}`,
    ]);
    expect(await world()).toEqual({
      [TAGGED]: {}, [MOVED]: { late: "1" }, [SUBJECT]: [], [SUBJECT2]: [OUTSIDER], [MADE_SUBJECT]: [],
      "1.0.0": null, "1.1.0": null, "2.0.0": null,
    });
    expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
    expect(e2e.printed).not.toContain(e2e.emulator.token);
  });
});

test("both routes sent exactly the same requests, in the same number, for every operation", () => {
  const operations = [
    "create preview", "up creates", "no-op preview",
    ...ROUNDS.flatMap((round) => [`round ${round.what.slice(0, 1)} preview`, `round ${round.what.slice(0, 1)} up`]),
    "refresh", "drift preview", "drift up", "bad inputs", "claimed twice",
  ];
  expect([...requestsOf.dynamic.keys()]).toEqual([...operations, "destroy"]);
  expect([...requestsOf.plugin.keys()]).toEqual([...operations, "a second deprecation", "destroy"]);
  requestsOf.plugin.delete("a second deprecation");
  expect(Object.fromEntries(requestsOf.plugin)).toEqual(Object.fromEntries(requestsOf.dynamic));
});

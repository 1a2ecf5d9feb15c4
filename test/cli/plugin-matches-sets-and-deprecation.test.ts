// WorkspaceTagBindings, RemoteStateConsumers and ModuleVersionDeprecation through the provider plugin
// (`pulumi-resource-wsbridge`, installed from its archive, and the generated SDK) on the real Pulumi
// CLI, and the very same scenario through the dynamic route (`pulumi-wsbridge`): one stack and one
// emulator per route (same fixtures, same ids), the three kinds in one program. Up; a no-op preview
// without a request; per round one property of each kind changed alone, previewed as exactly its path
// and op (plugin: the detailed diff; dynamic: the changed input) and applied; drift made through the
// emulator's API found by refresh and restored exactly; bad inputs failing the preview, naming the
// property and the rule, without a request; destroy removing only what was managed. The last test
// proves both routes sent exactly the same requests for every operation.
//
// Where the routes differ by design, each test asserts what each route does: the plugin plans more
// outputs of a preview; the dynamic classes check the exclusive modes across resources in the program,
// which the plugin (one resource at a time) cannot; the generated SDK sends only the properties it declares.
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
const [A, B, C, OUTSIDER] = ["ws-consumera", "ws-consumerb", "ws-consumerc", "ws-outsider"];

const FIXTURES = {
  organizations: [{
    name: ORG,
    projects: [{ id: PROJECT, name: "Apps", tagBindings: [{ key: "cost-center", value: "web" }] }],
    workspaces: [
      { id: TAGGED, name: "tagged", project: "Apps", tagBindings: [{ key: "owner", value: "ui" }] },
      { id: MOVED, name: "tags-moved", project: "Apps" },
      ...[SUBJECT, SUBJECT2, A, B, C, OUTSIDER].map((id) => ({
        id, name: id.replace("ws-", "n-"), attributes: { "global-remote-state": false, "project-remote-state": false },
      })),
    ],
    registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0"] }],
  }],
};

// The requests' paths (below /api/v2, except the registry's own API).
const bindings = (ws: string): string => `/workspaces/${ws}/tag-bindings`;
const effective = (ws: string): string => `/workspaces/${ws}/effective-tag-bindings`;
const rel = (ws: string): string => `/workspaces/${ws}/relationships/remote-state-consumers`;
const d1 = (version: string): string => `/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/${version}`;
const d3 = (version: string): string => `/api/registry/v1/modules/${ORG}/vpc/aws/${version}`;

const REASON = "opens port 22; use 1.1.0";
const deprecated = (reason: string, link: string) => ({ reason: `${reason}${DEPRECATION_REASON_SUFFIX}`, link });

// ---- what the program declares ---------------------------------------------------------------------

interface Declaration {
  tags: Args;
  consumers: Args;
  deprecation: Args;
  /** Preview only: one resource of one kind with bad inputs, declared alone. */
  bad?: { kind: Kind; args: Args };
  /**
   * Preview only: beside the three, an additive WorkspaceTagBindings on the exclusive one's workspace and
   * an exclusive RemoteStateConsumers on the other's; or a second deprecation of the same version.
   */
  clash?: "exclusive beside another" | "a second deprecation";
}

const initialDeclaration = (): Declaration => ({
  tags: { workspaceId: TAGGED, tags: { env: "prod", team: "web" } },
  consumers: { workspaceId: SUBJECT, consumerIds: [B, A] },
  deprecation: { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "opens port 22", link: "https://example.com/upgrade" },
});

type Classes = Record<Kind, new (name: string, args: Args) => Record<string, unknown>>;

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
    const tags = new lib.WorkspaceTagBindings("tags", d.tags);
    const readers = new lib.RemoteStateConsumers("readers", d.consumers);
    const deprecation = new lib.ModuleVersionDeprecation("vpc-old", d.deprecation);
    if (d.clash === "exclusive beside another") {
      new lib.WorkspaceTagBindings("more-tags", { workspaceId: d.tags.workspaceId, tags: { region: "eu" } });
      new lib.RemoteStateConsumers("more-readers", { workspaceId: d.consumers.workspaceId, consumerIds: [OUTSIDER], exclusive: true });
    }
    return {
      tags: tags.tags, allDirectTags: tags.allDirectTags, effectiveTags: tags.effectiveTags,
      consumerIds: readers.consumerIds, allConsumerIds: readers.allConsumerIds,
      reason: deprecation.reason, link: deprecation.link, registryReason: deprecation.registryReason,
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
const update = (name: string, plugin: string[], dynamic: string[]): ExpectedStep => ({ op: "update", name, plugin, dynamic });
/**
 * A replace (create the new one, then delete the old one): its three steps. The dynamic route's
 * delete-replaced step differs in every input the old resource had (the new inputs are empty).
 */
const replaced = (name: string, property: string, oldInputs: string[]): ExpectedStep[] => [
  { op: "create-replacement", name, plugin: [`${property}: update-replace`], dynamic: [property] },
  { op: "replace", name, plugin: [`${property}: update-replace`], dynamic: [property] },
  { op: "delete-replaced", name, plugin: [], dynamic: oldInputs },
];

/** The tag bindings' requests, then the consumers', then the deprecation's, each resource's in the order sent. */
function groupedByResource(lines: string[]): string[] {
  const resourceOf = (line: string): number =>
    line.includes("tag-bindings") || line.includes(TAGGED) || line.includes(MOVED) ? 0 : line.includes(SUBJECT) ? 1 : 2;
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
  consumerIds: [A, B], allConsumerIds: [A, B],
  reason: "opens port 22", link: "https://example.com/upgrade", registryReason: `opens port 22${DEPRECATION_REASON_SUFFIX}`,
};

interface Round {
  /** What changes: one property of each kind. */
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
    what: "a tag's value, a consumer added, the reason",
    change(d) {
      d.tags.tags = { env: "staging", team: "web" };
      d.consumers.consumerIds = [A, B, C];
      d.deprecation.reason = REASON;
    },
    steps: [
      update("tags", ["tags.env: update"], ["tags"]),
      update("readers", ["consumerIds[2]: add"], ["consumerIds"]),
      update("vpc-old", ["reason: update"], ["reason"]),
    ],
    previewRequests: [`GET ${bindings(TAGGED)}`, `GET /workspaces/${SUBJECT}`],
    planned: {
      tags: { env: "staging", team: "web" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, B, C], allConsumerIds: U,
      reason: REASON, link: "https://example.com/upgrade", registryReason: U,
    },
    changes: { same: 1, update: 3 },
    upRequests: [
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /workspaces/${SUBJECT}`, `POST ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: {
      [TAGGED]: { owner: "ui", env: "staging", team: "web" }, [MOVED]: {}, [SUBJECT]: [A, B, C], [SUBJECT2]: [],
      "1.0.0": deprecated(REASON, "https://example.com/upgrade"), "1.1.0": null,
    },
  },
  {
    what: "a tag added, a consumer removed, the link",
    change(d) {
      d.tags.tags = { env: "staging", team: "web", tier: "1" };
      d.consumers.consumerIds = [A, C];
      d.deprecation.link = "https://example.com/v1.1";
    },
    steps: [
      update("tags", ["tags.tier: add"], ["tags"]),
      update("readers", ["consumerIds[1]: delete"], ["consumerIds"]),
      update("vpc-old", ["link: update"], ["link"]),
    ],
    previewRequests: [`GET ${bindings(TAGGED)}`, `GET /workspaces/${SUBJECT}`],
    planned: {
      tags: { env: "staging", team: "web", tier: "1" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, C], allConsumerIds: U,
      reason: REASON, link: "https://example.com/v1.1", registryReason: U,
    },
    changes: { same: 1, update: 3 },
    upRequests: [
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /workspaces/${SUBJECT}`, `DELETE ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: {
      [TAGGED]: { owner: "ui", env: "staging", team: "web", tier: "1" }, [MOVED]: {}, [SUBJECT]: [A, C], [SUBJECT2]: [],
      "1.0.0": deprecated(REASON, "https://example.com/v1.1"), "1.1.0": null,
    },
  },
  {
    what: "a tag removed, the consumers made exclusive, the link removed",
    change(d) {
      d.tags.tags = { env: "staging", tier: "1" };
      d.consumers.exclusive = true;
      delete d.deprecation.link;
    },
    steps: [
      update("tags", ["tags.team: delete"], ["tags"]),
      update("readers", ["exclusive: update"], ["exclusive"]),
      update("vpc-old", ["link: delete"], ["link"]),
    ],
    previewRequests: [`GET ${bindings(TAGGED)}`, `GET /workspaces/${SUBJECT}`],
    planned: {
      tags: { env: "staging", tier: "1" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, C], allConsumerIds: U,
      reason: REASON, link: null, registryReason: U,
    },
    // Exclusive, the whole list is what is declared.
    pluginAlsoPlans: { allConsumerIds: [A, C] },
    changes: { same: 1, update: 3 },
    upRequests: [
      // Unbinding a key: the current set read, then replaced without it.
      `GET ${bindings(TAGGED)}`, `GET ${bindings(TAGGED)}`, `PATCH /workspaces/${TAGGED}`,
      `GET /workspaces/${SUBJECT}`, `PATCH ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: {
      [TAGGED]: { owner: "ui", env: "staging", tier: "1" }, [MOVED]: {}, [SUBJECT]: [A, C], [SUBJECT2]: [],
      "1.0.0": deprecated(REASON, ""), "1.1.0": null,
    },
  },
  {
    what: "the tags made exclusive, the consumers' workspace, the version",
    change(d) {
      d.tags.exclusive = true;
      d.consumers.workspaceId = SUBJECT2;
      d.deprecation.version = "1.1.0";
    },
    steps: [
      update("tags", ["exclusive: update", "tags.owner: delete"], ["exclusive"]),
      ...replaced("readers", "workspaceId", ["__owner", "consumerIds", "exclusive", "workspaceId"]),
      ...replaced("vpc-old", "version", ["moduleName", "organization", "provider", "reason", "version"]),
    ],
    // A replacement is checked twice (against the old inputs, then as a new resource): two reads.
    previewRequests: [`GET /workspaces/${SUBJECT2}`, `GET /workspaces/${SUBJECT2}`],
    planned: { tags: { env: "staging", tier: "1" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, C], allConsumerIds: U, reason: U, link: U, registryReason: U },
    pluginAlsoPlans: { allDirectTags: { env: "staging", tier: "1" }, allConsumerIds: [A, C], reason: REASON, link: null },
    changes: { same: 1, update: 1, replace: 2 },
    upRequests: [
      `PATCH /workspaces/${TAGGED}`,
      `GET /workspaces/${SUBJECT2}`, `GET /workspaces/${SUBJECT2}`, `PATCH ${rel(SUBJECT2)}`, `DELETE ${rel(SUBJECT)}`,
      // The new version deprecated first, then the old one reinstated.
      `PATCH ${d1("1.1.0")}`, `PATCH ${d1("1.0.0")}`,
    ],
    world: {
      [TAGGED]: { env: "staging", tier: "1" }, [MOVED]: {}, [SUBJECT]: [], [SUBJECT2]: [A, C],
      "1.0.0": null, "1.1.0": deprecated(REASON, ""),
    },
  },
  {
    what: "the tags' workspace, the consumers no longer exclusive, a link again",
    change(d) {
      d.tags.workspaceId = MOVED;
      delete d.consumers.exclusive;
      d.deprecation.link = "https://example.com/v2";
    },
    steps: [
      ...replaced("tags", "workspaceId", ["exclusive", "tags", "workspaceId"]),
      update("readers", ["exclusive: delete"], ["exclusive"]),
      update("vpc-old", ["link: add"], ["link"]),
    ],
    previewRequests: [`GET /workspaces/${SUBJECT2}`],
    planned: {
      tags: { env: "staging", tier: "1" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, C], allConsumerIds: U,
      reason: REASON, link: "https://example.com/v2", registryReason: U,
    },
    pluginAlsoPlans: { allDirectTags: { env: "staging", tier: "1" } },
    changes: { same: 1, update: 2, replace: 1 },
    upRequests: [
      // Bound on the new workspace, then unbound from the old one (read, then replaced without them).
      `PATCH /workspaces/${MOVED}`, `GET ${bindings(TAGGED)}`, `PATCH /workspaces/${TAGGED}`,
      `GET /workspaces/${SUBJECT2}`, `GET ${rel(SUBJECT2)}`,
      `PATCH ${d1("1.1.0")}`,
    ],
    world: {
      [TAGGED]: {}, [MOVED]: { env: "staging", tier: "1" }, [SUBJECT]: [], [SUBJECT2]: [A, C],
      "1.0.0": null, "1.1.0": deprecated(REASON, "https://example.com/v2"),
    },
  },
];

/**
 * Per kind: one resource's bad inputs; for each bad property (as the CLI names it) a part of the rule;
 * and the problems only the dynamic route reports: a property the kind does not have reaches the
 * provider through the dynamic class (which passes every argument), while the generated SDK's class
 * sends only the properties of its schema (TypeScript refuses the others at compile time).
 */
const BAD: [Kind, Args, [string, string][], [string, string][]][] = [
  ["WorkspaceTagBindings", { workspaceId: "tagged", tags: { "hcp:owner": "x", env: "a b" }, exclusive: "yes" }, [
    ["workspaceId", 'must be a workspace id ("ws-…")'],
    ["tags.hcp:owner", 'tag key "hcp:owner" must not start with the reserved prefixes hc: or hcp:'],
    ["tags.env", "may contain only letters, digits and _ . = + - @ :"],
    ["exclusive", "must be a boolean"],
  ], []],
  ["RemoteStateConsumers", { workspaceId: SUBJECT, consumerIds: [A, SUBJECT, A] }, [
    ["consumerIds[1]", `is "${SUBJECT}", the workspace itself (workspaceId)`],
    ["consumerIds[2]", `repeats consumerIds[0] ("${A}")`],
  ], []],
  ["ModuleVersionDeprecation", { moduleName: "my vpc", provider: "AWS", version: "v1.0.0", link: "ftp://x", deprecated: true }, [
    ["moduleName", "letters, digits, - and _ only"],
    ["provider", "lower-case letters, digits and _ only"],
    ["version", 'no leading "v"'],
    ["link", "absolute http or https URL"],
  ], [["deprecated", "is not a property of ModuleVersionDeprecation"]]],
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each<[Route]>([["dynamic"], ["plugin"]])("the %s route", (route) => {
  const d = initialDeclaration();
  const e2e = useRealCliStack({
    projectName: "wsbridge-three-kinds",
    plugin: route === "plugin",
    emulator: { edition: "hosted", fixtures: FIXTURES },
    program: programOf(route, d),
  });

  /** The requests since the last clear, recorded as those of `operation`. */
  function take(operation: string): string[] {
    const lines = groupedByResource(e2e.requestLines(belowApi));
    requestsOf[route].set(operation, lines);
    e2e.emulator.clearRequests();
    return lines;
  }

  async function preview(operation: string): Promise<{ steps: Shown[]; requests: string[]; planned: Record<string, unknown> }> {
    const events: EngineEvent[] = [];
    e2e.emulator.clearRequests();
    await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
    return { steps: shownSteps(route, events), requests: take(operation), planned: stackOutputsOf(events) ?? {} };
  }

  async function up(operation: string): Promise<{ changes: Record<string, number | undefined>; requests: string[]; outputs: Record<string, unknown> }> {
    e2e.emulator.clearRequests();
    const result = await e2e.stack.up({ onOutput: e2e.log });
    const requests = take(operation);
    const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
    return { changes: result.summary.resourceChanges ?? {}, requests, outputs };
  }

  /** A failing preview's message, and its requests. */
  async function failingPreview(operation: string): Promise<{ message: string; requests: string[] }> {
    e2e.emulator.clearRequests();
    const message = String((await failureOf(e2e.stack.preview({ onOutput: e2e.log }))).message);
    return { message, requests: take(operation) };
  }

  /** What the emulator holds of every object the three resources may touch (read after the requests are taken). */
  async function world(): Promise<Record<string, unknown>> {
    const tagsOn = async (id: string) => Object.fromEntries(
      (await e2e.api<{ data: { attributes: { key: string; value: string } }[] }>("GET", bindings(id))).doc.data
        .map((b) => [b.attributes.key, b.attributes.value]));
    const consumersOf = async (id: string) =>
      (await e2e.api<{ data: { id: string }[] }>("GET", `${rel(id)}?page%5Bsize%5D=100`)).doc.data.map((w) => w.id).sort();
    const deprecationOf = async (version: string) =>
      (await e2e.api<{ deprecation?: unknown }>("GET", `${e2e.emulator.url}${d3(version)}`)).doc.deprecation ?? null;
    return {
      [TAGGED]: await tagsOn(TAGGED), [MOVED]: await tagsOn(MOVED),
      [SUBJECT]: await consumersOf(SUBJECT), [SUBJECT2]: await consumersOf(SUBJECT2),
      "1.0.0": await deprecationOf("1.0.0"), "1.1.0": await deprecationOf("1.1.0"),
    };
  }

  test("up creates the three: the tags beside the UI's key, the consumers, the deprecation", async () => {
    const applied = await up("up creates");
    expect(applied.changes).toEqual({ create: 4 });
    expect(applied.requests).toEqual([
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /workspaces/${SUBJECT}`, `POST ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ]);
    expect(applied.outputs).toEqual(OUTPUTS_AT_CREATE);
    expect(await world()).toEqual({
      [TAGGED]: { owner: "ui", env: "prod", team: "web" }, [MOVED]: {}, [SUBJECT]: [A, B], [SUBJECT2]: [],
      "1.0.0": deprecated("opens port 22", "https://example.com/upgrade"), "1.1.0": null,
    });
  });

  test("a preview with nothing changed (the consumers reordered) plans nothing, the same outputs, and sends no request", async () => {
    d.consumers.consumerIds = [A, B];
    expect(await preview("no-op preview")).toEqual({ steps: [], requests: [], planned: OUTPUTS_AT_CREATE });
  });

  test.each(ROUNDS.map((round, i) => [i + 1, round.what, round] as const))(
    "round %i (%s): each previews as exactly its path and op, writing nothing, and up applies exactly that",
    async (n, _what, round) => {
      round.change(d);
      const planned = await preview(`round ${n} preview`);
      expect(planned.steps).toEqual(round.steps.map((s) => ({ op: s.op, name: s.name, changes: s[route] })));
      expect(planned.requests).toEqual(round.previewRequests);
      const unknownOnTheDynamicRoute = Object.fromEntries(Object.keys(round.pluginAlsoPlans ?? {}).map((key) => [key, U]));
      expect(planned.planned).toEqual({ ...round.planned, ...(route === "plugin" ? round.pluginAlsoPlans : unknownOnTheDynamicRoute) });
      const applied = await up(`round ${n} up`);
      expect(applied.changes).toEqual(round.changes);
      expect(applied.requests).toEqual(round.upRequests);
      expect(await world()).toEqual(round.world);
    },
  );

  test("drift made through the API is found by refresh, previewed as exactly the restoring change, and restored by up", async () => {
    // The tags (exclusive): a managed value changed and an unmanaged key added. The consumers
    // (additive): a managed one removed and an unmanaged one added. The deprecation: its link changed.
    const tag = (key: string, value: string) => ({ type: "tag-bindings", attributes: { key, value } });
    expect((await e2e.api("PATCH", bindings(MOVED), { data: [tag("env", "hacked"), tag("extra", "x")] })).status).toBe(200);
    expect((await e2e.api("DELETE", rel(SUBJECT2), { data: [{ type: "workspaces", id: A }] })).status).toBe(204);
    expect((await e2e.api("POST", rel(SUBJECT2), { data: [{ type: "workspaces", id: OUTSIDER }] })).status).toBe(204);
    const elsewhere = { "deprecated-status": "Deprecated", reason: REASON, link: "https://example.com/elsewhere" };
    expect((await e2e.api("PATCH", d1("1.1.0"), { data: { type: "module-versions", attributes: { deprecation: elsewhere } } })).status).toBe(200);

    e2e.emulator.clearRequests();
    const refreshed = await e2e.stack.refresh({ onOutput: e2e.log });
    expect(refreshed.summary.resourceChanges).toEqual({ same: 1, update: 3 });
    expect(take("refresh")).toEqual([`GET /workspaces/${MOVED}`, `GET ${rel(SUBJECT2)}`, `GET ${d3("1.1.0")}`]);

    const planned = await preview("drift preview");
    expect(planned.steps).toEqual([
      update("tags", ["tags.env: update", "tags.extra: delete"], ["tags"]),
      update("readers", ["consumerIds[0]: add"], ["consumerIds"]),
      update("vpc-old", ["link: update"], ["link"]),
    ].map((s) => ({ op: s.op, name: s.name, changes: s[route] })));
    // The consumers' declaration now differs from what refresh found: checked against the server again.
    expect(planned.requests).toEqual([`GET /workspaces/${SUBJECT2}`]);

    const applied = await up("drift up");
    expect(applied.requests).toEqual([
      `PATCH /workspaces/${MOVED}`,
      `GET /workspaces/${SUBJECT2}`, `POST ${rel(SUBJECT2)}`, `GET ${rel(SUBJECT2)}`,
      `PATCH ${d1("1.1.0")}`,
    ]);
    expect(await world()).toEqual({
      [TAGGED]: {}, [MOVED]: { env: "staging", tier: "1" }, [SUBJECT]: [], [SUBJECT2]: [A, C, OUTSIDER],
      "1.0.0": null, "1.1.0": deprecated(REASON, "https://example.com/v2"),
    });
  });

  test.each(BAD)("bad inputs of a %s fail the preview, naming each property and its rule, without a request", async (kind, args, problems, dynamicOnly) => {
    d.bad = { kind, args };
    try {
      const { message, requests } = await failingPreview(`bad ${kind}`);
      // The CLI prints "<type> resource 'bad': property <name> value {…} has a problem: <rule>".
      const reported = ([property, rule]: [string, string]): RegExp =>
        new RegExp(`${escape(TYPE_PREFIX[route] + kind)} resource 'bad': property ${escape(property)} value \\{[^}]*\\} has a problem: [^\\n]*${escape(rule)}`);
      for (const problem of problems) expect(message).toMatch(reported(problem));
      for (const problem of dynamicOnly) {
        if (route === "dynamic") expect(message).toMatch(reported(problem));
        else expect(message).not.toContain(`property ${problem[0]} `);
      }
      expect(requests).toEqual([]);
    } finally {
      delete d.bad;
    }
  });

  test("an exclusive resource beside another fails the dynamic route's preview in the program; the plugin, one resource at a time, plans both creates", async () => {
    // An additive WorkspaceTagBindings on the exclusive one's workspace, an exclusive RemoteStateConsumers
    // beside the additive one: the dynamic classes see the whole program and refuse each; the plugin is
    // asked about one resource at a time and cannot see the other.
    d.clash = "exclusive beside another";
    try {
      const events: EngineEvent[] = [];
      e2e.emulator.clearRequests();
      const outcome = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log }).then(() => "succeeded", (e: Error) => e.message);
      if (route === "dynamic") {
        expect(outcome).toContain(`WorkspaceTagBindings "tags" and WorkspaceTagBindings "more-tags" both declare tags of workspace "${MOVED}", and one is exclusive`);
        expect(outcome).toContain(`RemoteStateConsumers resources "readers" and "more-readers" both manage workspace "${SUBJECT2}" and at least one has exclusive: true`);
      } else {
        expect(outcome).toBe("succeeded");
      }
      // Either way the engine planned the two creates and nothing else (the three restored by the
      // drift test show no change), and only the new resources' checks read the server.
      expect(shownSteps(route, events).map((s) => `${s.op} ${s.name}`)).toEqual(["create more-tags", "create more-readers"]);
      expect(take("exclusive beside another")).toEqual([`GET ${bindings(MOVED)}`, `GET /workspaces/${SUBJECT2}`]);
    } finally {
      delete d.clash;
    }
  });

  test("a second deprecation of the same version fails the preview on both routes, naming both resources, without a request", async () => {
    // The dynamic class refuses it in the program; the plugin at the check of whichever of the two it
    // is asked about second (the order of the engine's checks decides which one is named first).
    d.clash = "a second deprecation";
    try {
      const { message, requests } = await failingPreview("a second deprecation");
      const both = `ModuleVersionDeprecation resources (?:"vpc-old" and "vpc-again"|"vpc-again" and "vpc-old") both declare "${ORG}/vpc/aws/1.1.0"; ` +
        "a module version has one deprecation, so only one resource may declare each";
      expect(message).toMatch(new RegExp(route === "dynamic" ? `error: ${both}` : `resource '(vpc-old|vpc-again)': property version value \\{1\\.1\\.0\\} has a problem: ${both}`));
      expect(requests).toEqual([]);
    } finally {
      delete d.clash;
    }
  });

  test("destroy removes only what the resources managed, and the token is in no state or output", async () => {
    expect((await e2e.api("PATCH", bindings(MOVED), { data: [{ type: "tag-bindings", attributes: { key: "late", value: "1" } }] })).status).toBe(200);
    e2e.emulator.clearRequests();
    const result = await e2e.stack.destroy({ onOutput: e2e.log });
    expect(result.summary.resourceChanges).toEqual({ delete: 4 });
    expect(take("destroy")).toEqual([
      `GET ${bindings(MOVED)}`, `PATCH /workspaces/${MOVED}`,
      `DELETE ${rel(SUBJECT2)}`,
      `PATCH ${d1("1.1.0")}`,
    ]);
    expect(await world()).toEqual({
      [TAGGED]: {}, [MOVED]: { late: "1" }, [SUBJECT]: [], [SUBJECT2]: [OUTSIDER], "1.0.0": null, "1.1.0": null,
    });
    expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
    expect(e2e.printed).not.toContain(e2e.emulator.token);
  });
});

test("both routes sent exactly the same requests, in the same number, for every operation", () => {
  const operations = [
    "up creates", "no-op preview",
    ...ROUNDS.flatMap((_round, i) => [`round ${i + 1} preview`, `round ${i + 1} up`]),
    "refresh", "drift preview", "drift up",
    ...BAD.map(([kind]) => `bad ${kind}`), "exclusive beside another", "a second deprecation", "destroy",
  ];
  expect([...requestsOf.dynamic.keys()]).toEqual(operations);
  expect([...requestsOf.plugin.keys()]).toEqual(operations);
  expect(Object.fromEntries(requestsOf.plugin)).toEqual(Object.fromEntries(requestsOf.dynamic));
});

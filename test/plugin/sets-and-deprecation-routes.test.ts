// The three set-like kinds (WorkspaceTagBindings, RemoteStateConsumers, ModuleVersionDeprecation)
// through both routes' entry points at the runtime, against two in-process emulators with the same
// fixtures and ids: the dynamic route's (the runtime lifecycle its serialized providers call, with the
// inputs its classes register) and the plugin's (provider/plugin/resource-operations.ts, which the
// plugin's gRPC handlers call, with the URN the engine sends). Each operation is called as the engine
// calls it: a preview checks every resource and diffs it (the plugin also answers an update's preview
// with its planned outputs), an up checks, diffs and applies.
//
// The scenario is the one test/cli/plugin-matches-sets-and-deprecation.test.ts runs on the real CLI,
// for what the engine does not change: the create; per round one property of each kind changed alone
// (a tag's value, added, removed, all made exclusive; a consumer added, removed, the list made exclusive
// and back, with an unmanaged consumer; a deprecation's reason, link changed, removed, added), each
// previewed as exactly its path and op (plugin: the detailed diff, whose top-level keys are `diffs`;
// dynamic: the inputs that differ) with exactly the reads of check, applied with exactly the requests
// of each resource, leaving exactly the server's state; every kind's bad inputs refused by check on
// both routes with the message the CLI prints after `has a problem:`, without a request. The last test
// proves both routes sent the same requests for every operation.
import { DEPRECATION_REASON_SUFFIX } from "../../emulator";
import * as runtime from "../../provider/runtime";
import { UNKNOWN as U, type KindLifecycle, type Props } from "../../provider/runtime/lifecycle";
import { ownerUrl } from "../../provider/runtime/ownership";
import { checkResource, createResource, diffResource, topLevelKey, updateResource } from "../../provider/plugin/resource-operations";
import { useRuntimeEmulator, type RuntimeEmulator } from "../support/runtime-emulator";

type Route = "dynamic" | "plugin";
type Kind = "WorkspaceTagBindings" | "RemoteStateConsumers" | "ModuleVersionDeprecation";

const PROJECT_NAME = "wsbridge-three-kinds";
const STACK = "dev";

// ---- the emulator's fixtures: fixed ids, so both routes' requests name the same paths ----------------

const ORG = "example-org";
const PROJECT = "prj-threekinds";
const TAGGED = "ws-tagged";
const SUBJECT = "ws-subject";
const [A, B, C, OUTSIDER] = ["ws-consumera", "ws-consumerb", "ws-consumerc", "ws-outsider"];

const FIXTURES = {
  organizations: [{
    name: ORG,
    projects: [{ id: PROJECT, name: "Apps", tagBindings: [{ key: "cost-center", value: "web" }] }],
    workspaces: [
      { id: TAGGED, name: "tagged", project: "Apps", tagBindings: [{ key: "owner", value: "ui" }] },
      ...[SUBJECT, A, B, C, OUTSIDER].map((id) => ({
        id, name: id.replace("ws-", "n-"), attributes: { "global-remote-state": false, "project-remote-state": false },
      })),
    ],
    registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0"] }],
  }],
};

const bindings = (ws: string): string => `/api/v2/workspaces/${ws}/tag-bindings`;
const effective = (ws: string): string => `/api/v2/workspaces/${ws}/effective-tag-bindings`;
const rel = (ws: string): string => `/api/v2/workspaces/${ws}/relationships/remote-state-consumers`;
const d1 = (version: string): string => `/api/v2/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/${version}`;
const d3 = (version: string): string => `/api/registry/v1/modules/${ORG}/vpc/aws/${version}`;

const REASON = "opens port 22; use 1.1.0";
const deprecated = (reason: string, link: string) => ({ reason: `${reason}${DEPRECATION_REASON_SUFFIX}`, link });

const fixtures: Record<Route, RuntimeEmulator> = {
  dynamic: useRuntimeEmulator({ emulator: { edition: "hosted", fixtures: FIXTURES }, configureEachTest: false, resetEditionCache: true }),
  plugin: useRuntimeEmulator({ emulator: { edition: "hosted", fixtures: FIXTURES }, configureEachTest: false, resetEditionCache: true }),
};

// ---- the program, and the two routes' doors ------------------------------------------------------------

/** The three resources as the program declares them. */
interface Declaration {
  tags: Props;
  readers: Props;
  "vpc-old": Props;
}
type Name = keyof Declaration;
const KIND_OF: Record<Name, Kind> = { tags: "WorkspaceTagBindings", readers: "RemoteStateConsumers", "vpc-old": "ModuleVersionDeprecation" };
const NAMES: Name[] = ["tags", "readers", "vpc-old"];

const LIFECYCLE: Record<Kind, KindLifecycle> = {
  WorkspaceTagBindings: runtime.workspaceTagBindings,
  RemoteStateConsumers: runtime.remoteStateConsumers,
  ModuleVersionDeprecation: runtime.moduleVersionDeprecation,
};

const urnOf = (kind: Kind, name: string): string => `urn:pulumi:${STACK}::${PROJECT_NAME}::wsbridge:index:${kind}::${name}`;

/**
 * What the dynamic classes register as inputs beside the declared ones: the serialized provider (which
 * check drops), and for RemoteStateConsumers the owner marker (provider/dynamic/resources/*.ts).
 */
function dynamicInputs(kind: Kind, name: string, declared: Props): Props {
  return {
    __provider: "exports.handler = …",
    ...declared,
    ...(kind === "RemoteStateConsumers" && { __owner: ownerUrl({ project: PROJECT_NAME, stack: STACK, kind, name }) }),
  };
}

/** One resource in the state: the inputs check returned, the outputs the last apply (or create) stored. */
interface Stored {
  id: string;
  inputs: Props;
  outputs: Props;
}

interface Diffed {
  changes: boolean;
  /** Plugin: the detailed diff's `path: kind`, sorted. Dynamic: the input keys that differ, sorted. */
  shown: string[];
}

/** The calls the engine makes of a resource, through one route's door. */
interface Door {
  check(kind: Kind, name: string, oldInputs: Props, declared: Props): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }>;
  diff(kind: Kind, name: string, state: Stored, inputs: Props): Promise<Diffed>;
  create(kind: Kind, name: string, inputs: Props): Promise<{ id: string; outputs: Props }>;
  /** The outputs a preview of an update plans (the dynamic route answers none: the engine makes them). */
  previewUpdate(kind: Kind, name: string, state: Stored, inputs: Props): Promise<Props | undefined>;
  update(kind: Kind, name: string, state: Stored, inputs: Props): Promise<Props>;
}

const changedInputs = (before: Props, after: Props): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => k !== "__provider" && JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();

const DOORS: Record<Route, Door> = {
  dynamic: {
    check: (kind, name, oldInputs, declared) => LIFECYCLE[kind].check(oldInputs, dynamicInputs(kind, name, declared)),
    async diff(kind, _name, state, inputs) {
      const outcome = await LIFECYCLE[kind].diff(state.id, state.outputs, inputs);
      return { changes: outcome.changes, shown: outcome.changes ? changedInputs(state.inputs, inputs) : [] };
    },
    async create(kind, _name, inputs) {
      const { id, outs } = await LIFECYCLE[kind].create(inputs);
      return { id, outputs: outs };
    },
    previewUpdate: async () => undefined,
    update: async (kind, _name, state, inputs) => (await LIFECYCLE[kind].update(state.id, state.outputs, inputs)).outs,
  },
  plugin: {
    check: (kind, name, oldInputs, declared) => checkResource(`wsbridge:index:${kind}`, urnOf(kind, name), oldInputs, declared),
    async diff(kind, name, state, inputs) {
      const outcome = await diffResource(`wsbridge:index:${kind}`, urnOf(kind, name), state.id, state.outputs, inputs, state.inputs);
      const shown = outcome.detailedDiff.map((c) => `${c.path}: ${c.kind}${c.replace ? "-replace" : ""}`).sort();
      // The engine's `diffs` are the top-level properties of the detailed diff's paths.
      expect([...outcome.diffs].sort()).toEqual([...new Set(outcome.detailedDiff.map((c) => topLevelKey(c.path)))].sort());
      return { changes: outcome.changes, shown };
    },
    async create(kind, name, inputs) {
      const { id, props } = await createResource(`wsbridge:index:${kind}`, urnOf(kind, name), inputs, false);
      return { id, outputs: props };
    },
    previewUpdate: (kind, name, state, inputs) =>
      updateResource(`wsbridge:index:${kind}`, urnOf(kind, name), state.id, state.outputs, inputs, state.inputs, true),
    update: (kind, name, state, inputs) =>
      updateResource(`wsbridge:index:${kind}`, urnOf(kind, name), state.id, state.outputs, inputs, state.inputs, false),
  },
};

/** The stack outputs of the program (test/cli/plugin-matches-sets-and-deprecation.test.ts) from its resources' outputs. */
function stackOutputs(outputs: Record<Name, Props>): Props {
  const { tags, readers } = outputs;
  const deprecation = outputs["vpc-old"];
  return {
    tags: tags.tags, allDirectTags: tags.allDirectTags, effectiveTags: tags.effectiveTags,
    consumerIds: readers.consumerIds, allConsumerIds: readers.allConsumerIds,
    reason: deprecation.reason, link: deprecation.link, registryReason: deprecation.registryReason,
  };
}

/** The tag bindings' requests, then the consumers', then the deprecation's, each resource's in the order sent. */
function groupedByResource(lines: string[]): string[] {
  const resourceOf = (line: string): number => (line.includes("tag-bindings") || line.includes(TAGGED) ? 0 : line.includes(SUBJECT) ? 1 : 2);
  return lines.map((line, i) => ({ line, i })).sort((x, y) => resourceOf(x.line) - resourceOf(y.line) || x.i - y.i).map((x) => x.line);
}

// ---- the scenario ----------------------------------------------------------------------------------------

const initialDeclaration = (): Declaration => ({
  tags: { workspaceId: TAGGED, tags: { env: "prod", team: "web" } },
  readers: { workspaceId: SUBJECT, consumerIds: [B, A] },
  "vpc-old": { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "opens port 22", link: "https://example.com/upgrade" },
});

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
  what: string;
  /** A change made outside Pulumi before the round, through the emulator's API. */
  outside?: (api: RuntimeEmulator["api"]) => Promise<void>;
  change(d: Declaration): void;
  /** Per resource that changes: what each route shows. */
  steps: { name: Name; plugin: string[]; dynamic: string[] }[];
  previewRequests: string[];
  /** The stack outputs the plugin plans. */
  planned: Props;
  upRequests: string[];
  world: Props;
}

const ROUNDS: Round[] = [
  {
    what: "a tag's value, a consumer added, the reason",
    change(d) {
      d.tags.tags = { env: "staging", team: "web" };
      d.readers.consumerIds = [A, B, C];
      d["vpc-old"].reason = REASON;
    },
    steps: [
      { name: "tags", plugin: ["tags.env: update"], dynamic: ["tags"] },
      { name: "readers", plugin: ["consumerIds[2]: add"], dynamic: ["consumerIds"] },
      { name: "vpc-old", plugin: ["reason: update"], dynamic: ["reason"] },
    ],
    previewRequests: [`GET ${bindings(TAGGED)}`, `GET /api/v2/workspaces/${SUBJECT}`],
    planned: {
      tags: { env: "staging", team: "web" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, B, C], allConsumerIds: U,
      reason: REASON, link: "https://example.com/upgrade", registryReason: U,
    },
    upRequests: [
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /api/v2/workspaces/${SUBJECT}`, `POST ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: { tags: { owner: "ui", env: "staging", team: "web" }, consumers: [A, B, C], "1.0.0": deprecated(REASON, "https://example.com/upgrade") },
  },
  {
    what: "a tag added, a consumer removed, the link",
    change(d) {
      d.tags.tags = { env: "staging", team: "web", tier: "1" };
      d.readers.consumerIds = [A, C];
      d["vpc-old"].link = "https://example.com/v1.1";
    },
    steps: [
      { name: "tags", plugin: ["tags.tier: add"], dynamic: ["tags"] },
      { name: "readers", plugin: ["consumerIds[1]: delete"], dynamic: ["consumerIds"] },
      { name: "vpc-old", plugin: ["link: update"], dynamic: ["link"] },
    ],
    previewRequests: [`GET ${bindings(TAGGED)}`, `GET /api/v2/workspaces/${SUBJECT}`],
    planned: {
      tags: { env: "staging", team: "web", tier: "1" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, C], allConsumerIds: U,
      reason: REASON, link: "https://example.com/v1.1", registryReason: U,
    },
    upRequests: [
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /api/v2/workspaces/${SUBJECT}`, `DELETE ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: { tags: { owner: "ui", env: "staging", team: "web", tier: "1" }, consumers: [A, C], "1.0.0": deprecated(REASON, "https://example.com/v1.1") },
  },
  {
    what: "a tag removed, the consumers made exclusive (an unmanaged one added before), the link removed",
    // Additive, the unmanaged consumer is no change; exclusive, the one request replaces the whole list.
    outside: async (api) => {
      expect((await api("POST", rel(SUBJECT).replace("/api/v2", ""), { data: [{ type: "workspaces", id: OUTSIDER }] })).status).toBe(204);
    },
    change(d) {
      d.tags.tags = { env: "staging", tier: "1" };
      d.readers.exclusive = true;
      delete d["vpc-old"].link;
    },
    steps: [
      { name: "tags", plugin: ["tags.team: delete"], dynamic: ["tags"] },
      { name: "readers", plugin: ["exclusive: update"], dynamic: ["exclusive"] },
      { name: "vpc-old", plugin: ["link: delete"], dynamic: ["link"] },
    ],
    previewRequests: [`GET ${bindings(TAGGED)}`, `GET /api/v2/workspaces/${SUBJECT}`],
    // Exclusive, the whole list is what is declared.
    planned: {
      tags: { env: "staging", tier: "1" }, allDirectTags: U, effectiveTags: U, consumerIds: [A, C], allConsumerIds: [A, C],
      reason: REASON, link: null, registryReason: U,
    },
    upRequests: [
      // Unbinding a key: the current set read, then replaced without it.
      `GET ${bindings(TAGGED)}`, `GET ${bindings(TAGGED)}`, `PATCH /api/v2/workspaces/${TAGGED}`,
      `GET /api/v2/workspaces/${SUBJECT}`, `PATCH ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: { tags: { owner: "ui", env: "staging", tier: "1" }, consumers: [A, C], "1.0.0": deprecated(REASON, "") },
  },
  {
    what: "the tags made exclusive, the consumers back to additive, a link added",
    change(d) {
      d.tags.exclusive = true;
      delete d.readers.exclusive;
      d["vpc-old"].link = "https://example.com/v2";
    },
    steps: [
      // Exclusive: every other direct key is unbound (the UI's).
      { name: "tags", plugin: ["exclusive: update", "tags.owner: delete"], dynamic: ["exclusive"] },
      // Left out, exclusive is false (check fills it in): an update back to false, not the input's delete.
      { name: "readers", plugin: ["exclusive: update"], dynamic: ["exclusive"] },
      { name: "vpc-old", plugin: ["link: add"], dynamic: ["link"] },
    ],
    previewRequests: [`GET /api/v2/workspaces/${SUBJECT}`],
    planned: {
      tags: { env: "staging", tier: "1" }, allDirectTags: { env: "staging", tier: "1" }, effectiveTags: U, consumerIds: [A, C], allConsumerIds: U,
      reason: REASON, link: "https://example.com/v2", registryReason: U,
    },
    upRequests: [
      `PATCH /api/v2/workspaces/${TAGGED}`,
      `GET /api/v2/workspaces/${SUBJECT}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ],
    world: { tags: { env: "staging", tier: "1" }, consumers: [A, C], "1.0.0": deprecated(REASON, "https://example.com/v2") },
  },
];

/**
 * Per kind: one resource's bad inputs, and for each bad property (as the CLI names it) the rule, as
 * the CLI prints it after "has a problem:" (the message is check's reason).
 */
const BAD: [Kind, Props, [string, string][]][] = [
  ["WorkspaceTagBindings", { workspaceId: "tagged", tags: { "hcp:owner": "x", env: "a b" }, exclusive: "yes" }, [
    ["workspaceId", 'must be a workspace id ("ws-…")'],
    ["tags.hcp:owner", 'tag key "hcp:owner" must not start with the reserved prefixes hc: or hcp:'],
    ["tags.env", "may contain only letters, digits and _ . = + - @ :"],
    ["exclusive", "must be a boolean"],
  ]],
  ["RemoteStateConsumers", { workspaceId: SUBJECT, consumerIds: [A, SUBJECT, A] }, [
    ["consumerIds[1]", `is "${SUBJECT}", the workspace itself (workspaceId)`],
    ["consumerIds[2]", `repeats consumerIds[0] ("${A}")`],
  ]],
  ["ModuleVersionDeprecation", { moduleName: "my vpc", provider: "AWS", version: "v1.0.0", link: "ftp://x", deprecated: true }, [
    ["moduleName", "letters, digits, - and _ only"],
    ["provider", "lower-case letters, digits and _ only"],
    ["version", 'no leading "v"'],
    ["link", "absolute http or https URL"],
    // The plugin route's SDK never sends it (TypeScript refuses it): the CLI test shows the difference.
    ["deprecated", "is not a property of ModuleVersionDeprecation"],
  ]],
];

/** Per route, per operation: the emulator's request lines. */
const requestsOf: Record<Route, Map<string, string[]>> = { dynamic: new Map(), plugin: new Map() };

describe.each<[Route]>([["dynamic"], ["plugin"]])("the %s route", (route) => {
  const fixture = fixtures[route];
  const door = DOORS[route];
  const d = initialDeclaration();
  const state = {} as Record<Name, Stored>;

  beforeEach(async () => {
    await fixture.configureWith();
    fixture.emulator.clearRequests();
  });

  function take(operation: string): string[] {
    const lines = groupedByResource(fixture.takeRequests());
    requestsOf[route].set(operation, lines);
    return lines;
  }

  async function world(): Promise<Props> {
    const tags = Object.fromEntries((await fixture.api<{ data: { attributes: { key: string; value: string } }[] }>("GET", bindings(TAGGED).replace("/api/v2", "")))
      .doc.data.map((b) => [b.attributes.key, b.attributes.value]));
    const consumers = (await fixture.api<{ data: { id: string }[] }>("GET", `${rel(SUBJECT).replace("/api/v2", "")}?page%5Bsize%5D=100`)).doc.data.map((w) => w.id).sort();
    const deprecation = (await fixture.api<{ deprecation?: unknown }>("GET", `${fixture.emulator.url}${d3("1.0.0")}`)).doc.deprecation ?? null;
    return { tags, consumers, "1.0.0": deprecation };
  }

  /** check and diff of every resource, as a preview calls them; the plugin also plans each update's outputs. */
  async function preview(): Promise<{ steps: { name: Name; shown: string[] }[]; inputs: Record<Name, Props>; planned: Record<Name, Props> }> {
    const steps: { name: Name; shown: string[] }[] = [];
    const inputs = {} as Record<Name, Props>;
    const planned = {} as Record<Name, Props>;
    for (const name of NAMES) {
      const kind = KIND_OF[name];
      const checked = await door.check(kind, name, state[name].inputs, d[name]);
      expect(checked.failures).toEqual([]);
      inputs[name] = checked.inputs;
      const diffed = await door.diff(kind, name, state[name], checked.inputs);
      planned[name] = state[name].outputs;
      if (!diffed.changes) continue;
      steps.push({ name, shown: diffed.shown });
      planned[name] = (await door.previewUpdate(kind, name, state[name], checked.inputs)) ?? {};
    }
    return { steps, inputs, planned };
  }

  /** check, diff and update of every resource, as an up calls them. */
  async function up(): Promise<number> {
    let updated = 0;
    for (const name of NAMES) {
      const kind = KIND_OF[name];
      const checked = await door.check(kind, name, state[name].inputs, d[name]);
      if (!(await door.diff(kind, name, state[name], checked.inputs)).changes) continue;
      state[name] = { id: state[name].id, inputs: checked.inputs, outputs: await door.update(kind, name, state[name], checked.inputs) };
      updated += 1;
    }
    return updated;
  }

  test("create: each resource's requests, the outputs and the server's state", async () => {
    for (const name of NAMES) {
      const kind = KIND_OF[name];
      const checked = await door.check(kind, name, {}, d[name]);
      expect(checked.failures).toEqual([]);
      const created = await door.create(kind, name, checked.inputs);
      state[name] = { id: created.id, inputs: checked.inputs, outputs: created.outputs };
    }
    expect(take("create")).toEqual([
      `GET ${bindings(TAGGED)}`, `PATCH ${bindings(TAGGED)}`, `GET ${effective(TAGGED)}`,
      `GET /api/v2/workspaces/${SUBJECT}`, `POST ${rel(SUBJECT)}`, `GET ${rel(SUBJECT)}`,
      `PATCH ${d1("1.0.0")}`,
    ]);
    expect(stackOutputs({ tags: state.tags.outputs, readers: state.readers.outputs, "vpc-old": state["vpc-old"].outputs })).toEqual(OUTPUTS_AT_CREATE);
    expect(await world()).toEqual({ tags: { owner: "ui", env: "prod", team: "web" }, consumers: [A, B], "1.0.0": deprecated("opens port 22", "https://example.com/upgrade") });
  });

  test("a reordered consumer list is no change, and the preview sends no request", async () => {
    d.readers.consumerIds = [A, B];
    const planned = await preview();
    expect(planned.steps).toEqual([]);
    expect(take("no-op preview")).toEqual([]);
  });

  test.each(ROUNDS.map((round, i) => [i + 1, round.what, round] as const))(
    "round %i (%s): each previews as exactly its path and op with check's reads only, and up sends exactly each resource's requests",
    async (n, _what, round) => {
      if (round.outside) await round.outside(fixture.api);
      fixture.emulator.clearRequests();
      round.change(d);
      const planned = await preview();
      expect(planned.steps).toEqual(round.steps.map((s) => ({ name: s.name, shown: s[route] })));
      expect(take(`round ${n} preview`)).toEqual(round.previewRequests);
      if (route === "plugin") expect(stackOutputs(planned.planned)).toEqual(round.planned);

      expect(await up()).toBe(3);
      expect(take(`round ${n} up`)).toEqual(round.upRequests);
      expect(await world()).toEqual(round.world);
      // What the plugin planned as known is what the apply produced.
      if (route === "plugin") {
        const applied = stackOutputs({ tags: state.tags.outputs, readers: state.readers.outputs, "vpc-old": state["vpc-old"].outputs });
        for (const [key, value] of Object.entries(round.planned)) if (value !== U) expect(applied[key]).toEqual(value);
      }
      // Nothing differs afterwards, and the preview that shows it sends nothing.
      fixture.emulator.clearRequests();
      expect((await preview()).steps).toEqual([]);
      expect(fixture.takeRequests()).toEqual([]);
    },
  );

  test.each(BAD)("bad inputs of a %s are refused by check, naming each property and its rule, without a request", async (kind, args, problems) => {
    const { failures } = await door.check(kind, "bad", {}, args);
    expect(take(`bad ${kind}`)).toEqual([]);
    for (const [property, rule] of problems) {
      expect(failures).toContainEqual({ property, reason: expect.stringContaining(rule) });
    }
    // No other property is refused (a property may break more than one rule: the link here).
    expect([...new Set(failures.map((f) => f.property))].sort()).toEqual(problems.map(([property]) => property).sort());
  });
});

test("both routes sent exactly the same requests, in the same number, for every operation", () => {
  const operations = [
    "create", "no-op preview", ...ROUNDS.flatMap((_round, i) => [`round ${i + 1} preview`, `round ${i + 1} up`]),
    ...BAD.map(([kind]) => `bad ${kind}`),
  ];
  expect([...requestsOf.dynamic.keys()]).toEqual(operations);
  expect(Object.fromEntries(requestsOf.plugin)).toEqual(Object.fromEntries(requestsOf.dynamic));
});

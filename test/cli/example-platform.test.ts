// examples/platform, all seven kinds in one program, run by the real Pulumi CLI against the emulator
// seeded with the example's own fixtures.json and with the example's default config (what a user's
// `pulumi up` after the README's steps does). Self-managed edition: preview only reads, one up creates
// everything, a second preview and a refresh change nothing (the preview sends no write at all), a
// change to three kinds at once previews as exactly an update, an update and a replace of the right
// properties, and destroy removes everything in dependency order. Hosted edition: the same program
// without the retention policy goes up and down. Fails (never skips) without the CLI. Imports
// `pulumi-wsbridge` from dist/: run `npx tsc -p tsconfig.json` first.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { Edition } from "../../emulator/types";
import { repoRoot } from "../../scripts/lib/stack-harness";
import type { PlatformSettings } from "../../examples/platform/program";
import { useRealCliStack, type RealCliStack, type RealCliStackOptions } from "../support/real-cli-stack";

const EXAMPLE = path.join(repoRoot, "examples/platform");
const FIXTURES = path.join(EXAMPLE, "fixtures.json");
const projectName = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
const NAMES = { network: "platform-network", app: "platform-app", appStaging: "platform-app-staging" };
const PROJECT_ID = "prj-platform000000001";
const SSH_KEY_ID = "sshkey-platformdeploy1";
const TYPE = (kind: string): string => `pulumi-nodejs:dynamic/wsbridge:${kind}`;

type Edit = (s: PlatformSettings) => PlatformSettings;
/** What the self-managed program's next run changes in the settings read from config (the "edit" of a user). */
let edit: Edit = (s) => s;
const requestCounts: Record<string, number> = {};

beforeAll(() => {
  expect(projectName).toBe("wsbridge-platform");
});

/** The example on an emulator of `edition` seeded with its fixtures.json, in a stack of its own. */
function platformOn(edition: Edition, edited: Edit): RealCliStackOptions {
  return {
    projectName,
    emulator: { quiet: true, edition, fixtures: FIXTURES },
    // Only the provider's settings: every setting of the example keeps its default (fixtures.json's ids).
    config: { "wsbridge:edition": { value: edition } },
    // What examples/platform/index.ts does, as a function (inline programs run once per operation).
    program: async () => {
      const { program, readConfig } = await import("../../examples/platform/program");
      return program(edited(readConfig(new pulumi.Config(), new pulumi.Config("wsbridge"))));
    },
  };
}

const selfManaged = useRealCliStack(platformOn("self-managed", (s) => edit(s)));
const hosted = useRealCliStack(platformOn("hosted", (s) => s));

afterAll(() => {
  // The measured request counts, for the table in docs/examples.md.
  console.log(`examples/platform request counts (self-managed): ${JSON.stringify(requestCounts)}`);
});

type Doc = { id?: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };

/** A GET as an outside client would send it; `apiPath` is below /api/v2, or a whole URL. */
async function get(run: RealCliStack, apiPath: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { status, doc } = await run.api<Record<string, unknown>>("GET", apiPath);
  return { status, body: doc };
}

async function workspace(run: RealCliStack, name: string): Promise<{ status: number; data?: Doc }> {
  const res = await get(run, `/organizations/${run.emulator.organization}/workspaces/${name}`);
  return { status: res.status, data: res.body["data"] as Doc | undefined };
}

async function listData(run: RealCliStack, apiPath: string): Promise<Doc[]> {
  return ((await get(run, apiPath)).body["data"] as Doc[] | undefined) ?? [];
}

/** The registry's view of a module version: its deprecation (absent when none). */
async function registryVersion(run: RealCliStack, version: string): Promise<Record<string, unknown>> {
  const res = await get(run, `${run.emulator.url}/api/registry/v1/modules/${run.emulator.organization}/vpc/aws/${version}`);
  expect(res.status).toBe(200);
  return res.body;
}

/**
 * The steps other than "same": the inputs whose values differ (a dynamic provider returns no
 * per-property diff, so these are what the CLI shows) and the engine's replace keys.
 */
function changes(events: EngineEvent[]): { kind: string; name: string; op: string; changedInputs: string[]; replaceKeys: string[] }[] {
  return events.flatMap((e) => {
    const m = e.resourcePreEvent?.metadata;
    if (!m || m.op === "same" || !m.type.startsWith(TYPE(""))) return [];
    const before = m.old?.inputs ?? {};
    const after = m.new?.inputs ?? {};
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== "__provider");
    return [{
      kind: m.type.slice(TYPE("").length), name: m.urn.split("::").pop() ?? "", op: m.op,
      changedInputs: keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort(),
      replaceKeys: [...(m.keys ?? [])].sort(),
    }];
  });
}

test("preview plans all seven kinds and only reads from the service", async () => {
  const { emulator, stack, log } = selfManaged;
  emulator.clearRequests();
  const preview = await stack.preview({ onOutput: log });
  // The stack, 3 workspaces, 2 tag binding sets, consumers, key, policy, lock, deprecation.
  expect(preview.changeSummary).toEqual({ create: 11 });
  expect(selfManaged.writes()).toEqual([]);
});

test("up creates everything in one go, as declared", async () => {
  const { emulator, stack, log } = selfManaged;
  emulator.clearRequests();
  const up = await stack.up({ onOutput: log });
  requestCounts["up"] = emulator.requests().length;
  expect(up.summary.resourceChanges).toEqual({ create: 11 });

  const [network, app, staging] = await Promise.all([NAMES.network, NAMES.app, NAMES.appStaging].map(async (n) => (await workspace(selfManaged, n)).data));
  if (!network?.id || !app?.id || !staging?.id) throw new Error("a workspace of the example is missing on the emulator");
  for (const ws of [network, app, staging]) expect((ws.relationships?.["project"]?.data as { id?: string } | null)?.id).toBe(PROJECT_ID);

  const tags = async (id: string) => Object.fromEntries((await listData(selfManaged, `/workspaces/${id}/tag-bindings`)).map((b) => [b.attributes?.["key"], b.attributes?.["value"]]));
  expect(await tags(network.id)).toEqual({ team: "platform", layer: "network" });
  expect(await tags(app.id)).toEqual({ team: "apps", "cost-center": "cc-1042", env: "prod" });
  expect(await tags(staging.id)).toEqual({ team: "apps", env: "staging" });

  const consumers = await listData(selfManaged, `/workspaces/${network.id}/relationships/remote-state-consumers`);
  expect(consumers.map((c) => c.id).sort()).toEqual([app.id, staging.id].sort());
  expect((app.relationships?.["ssh-key"]?.data as { id?: string } | null)?.id).toBe(SSH_KEY_ID);
  const policy = await get(selfManaged, `/workspaces/${network.id}/relationships/data-retention-policy`);
  expect((policy.body["data"] as Doc).attributes?.["delete-older-than-n-days"]).toBe(30);
  expect(staging.attributes?.["locked"]).toBe(true);
  expect(staging.attributes?.["locked-reason"]).toBe("release 2.4 under verification");
  expect(app.attributes?.["locked"]).toBe(false);
  const deprecated = (await registryVersion(selfManaged, "1.0.0"))["deprecation"] as { reason: string; link: string };
  expect(deprecated.link).toBe("https://example.com/modules/vpc/upgrade-to-1.1");
  expect(deprecated.reason.startsWith("1.0.0 opens port 22 to the world; use 1.1.0 or later")).toBe(true);
  expect((await registryVersion(selfManaged, "1.1.0"))["deprecation"]).toBeUndefined();

  // What a reviewer reads in the stack outputs.
  const out = (key: string): unknown => up.outputs[key]?.value;
  const page = (name: string) => `${emulator.url}/app/${emulator.organization}/workspaces/${name}`;
  expect(out("workspaces")).toEqual({
    network: { id: network.id, name: NAMES.network, url: page(NAMES.network) },
    app: { id: app.id, name: NAMES.app, url: page(NAMES.app) },
    appStaging: { id: staging.id, name: NAMES.appStaging, url: page(NAMES.appStaging) },
  });
  expect(out("stateReaders")).toEqual({ [NAMES.network]: [NAMES.app, NAMES.appStaging] });
  expect(out("sshKey")).toEqual({ workspace: NAMES.app, sshKeyId: SSH_KEY_ID });
  expect(out("lock")).toEqual({ workspace: NAMES.appStaging, locked: true, reason: "release 2.4 under verification", heldByThisStack: true });
  expect(out("dataRetention")).toEqual({ workspace: NAMES.network, deleteOlderThanNDays: 30 });
  expect(out("deprecation")).toEqual({ moduleSource: `${emulator.organization}/vpc/aws`, version: "1.0.0", reason: deprecated.reason, link: deprecated.link });
});

test("a second preview changes nothing and sends no mutating request; a refresh finds nothing changed", async () => {
  const { emulator, stack, log } = selfManaged;
  emulator.clearRequests();
  const preview = await stack.preview({ onOutput: log, diff: true });
  requestCounts["noOpPreview"] = emulator.requests().length;
  expect(preview.changeSummary).toEqual({ same: 11 });
  expect(selfManaged.writes()).toEqual([]);

  emulator.clearRequests();
  const refresh = await stack.refresh({ onOutput: log });
  requestCounts["refresh"] = emulator.requests().length;
  expect(refresh.summary.resourceChanges).toEqual({ same: 11 });
  expect(selfManaged.writes()).toEqual([]);
});

test("a changed description, tag value and deprecated version preview as update, update and replace of exactly those properties", async () => {
  const { emulator, stack, log } = selfManaged;
  edit = (s) => ({
    ...s,
    appDescription: "The application, now on three availability zones",
    costCenter: "cc-2077",
    deprecation: { ...s.deprecation, version: "1.1.0" },
  });
  const events: EngineEvent[] = [];
  emulator.clearRequests();
  try {
    await stack.preview({ onOutput: log, onEvent: (e) => events.push(e) });
  } finally {
    edit = (s) => s;
  }
  const steps = changes(events);
  const byName = (name: string) => steps.filter((s) => s.name === name).map(({ op, changedInputs, replaceKeys }) => ({ op, changedInputs, replaceKeys }));
  expect(steps.map((s) => s.name).sort()).toEqual(["app", "app-tags", "vpc-deprecation", "vpc-deprecation", "vpc-deprecation"]);
  expect(byName("app")).toEqual([{ op: "update", changedInputs: ["description"], replaceKeys: [] }]);
  expect(byName("app-tags")).toEqual([{ op: "update", changedInputs: ["tags"], replaceKeys: [] }]);
  // The new version is deprecated before the old one is reinstated (create before delete).
  expect(byName("vpc-deprecation").map((s) => s.op)).toEqual(["create-replacement", "replace", "delete-replaced"]);
  expect(byName("vpc-deprecation")[1]).toEqual({ op: "replace", changedInputs: ["version"], replaceKeys: ["version"] });
  expect(selfManaged.writes()).toEqual([]);
});

test("destroy removes everything in dependency order and leaves nothing on the server", async () => {
  const { emulator, stack, log } = selfManaged;
  const ids = Object.fromEntries(await Promise.all(Object.entries(NAMES).map(async ([k, n]) => [k, (await workspace(selfManaged, n)).data?.id ?? ""] as const)));
  emulator.clearRequests();
  const destroyed = await stack.destroy({ onOutput: log });
  requestCounts["destroy"] = emulator.requests().length;
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 11 });

  // Each workspace's delete comes after every write to it, and after the consumer list that names it.
  const sent = selfManaged.writes();
  const consumersWrite = sent.findIndex((w) => w.includes(`/workspaces/${ids["network"]}/relationships/remote-state-consumers`));
  expect(consumersWrite).toBeGreaterThanOrEqual(0);
  for (const id of Object.values(ids)) {
    const deleted = sent.indexOf(`POST /api/v2/workspaces/${id}/actions/safe-delete`);
    expect(deleted).toBeGreaterThan(consumersWrite);
    expect(sent.slice(deleted + 1).filter((w) => w.includes(id))).toEqual([]);
    expect(sent.slice(0, deleted).filter((w) => w.includes(id)).length).toBeGreaterThan(0); // its attachments went first
  }
  expect(sent).toContain(`POST /api/v2/workspaces/${ids["appStaging"]}/actions/unlock`);

  for (const name of Object.values(NAMES)) expect((await workspace(selfManaged, name)).status).toBe(404);
  expect((await registryVersion(selfManaged, "1.0.0"))["deprecation"]).toBeUndefined();
  expect((await registryVersion(selfManaged, "1.1.0"))["deprecation"]).toBeUndefined();
  const state = await stack.exportStack();
  expect(((state.deployment as { resources?: { type: string }[] }).resources ?? []).filter((r) => r.type.startsWith(TYPE("")))).toEqual([]);
});

test("the hosted edition runs the same program without the retention policy, up and down", async () => {
  const run = hosted;
  const up = await run.stack.up({ onOutput: run.log });
  expect(up.summary.resourceChanges).toEqual({ create: 10 });
  expect(up.outputs["dataRetention"]?.value).toBeNull();
  const staging = (await workspace(run, NAMES.appStaging)).data;
  expect(staging?.attributes?.["locked"]).toBe(true);
  expect((await registryVersion(run, "1.0.0"))["deprecation"]).toBeDefined();
  expect(run.emulator.requests().some((r) => r.path.includes("data-retention-policy"))).toBe(false);

  const destroyed = await run.stack.destroy({ onOutput: run.log });
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 10 });
  for (const name of Object.values(NAMES)) expect((await workspace(run, name)).status).toBe(404);
  expect((await registryVersion(run, "1.0.0"))["deprecation"]).toBeUndefined();
}, 10 * 60 * 1000);

test("nothing the CLI printed contains a token", () => {
  const printed = selfManaged.printed + hosted.printed;
  expect(printed).toContain(TYPE("ModuleVersionDeprecation")); // the logs really were captured
  for (const run of [selfManaged, hosted]) expect(printed).not.toContain(run.emulator.token);
});

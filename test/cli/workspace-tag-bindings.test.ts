// WorkspaceTagBindings through the real Pulumi CLI against the emulator, one stack: up, a no-op preview
// that sends no write, add / change / remove one key each previewed and applied, refresh after drift
// (managed and unmanaged keys), project-inherited tags in the outputs, bad inputs and a duplicate key
// at preview without a write, exclusive mode, and destroy removing only the managed keys.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { stepsOf } from "../support/engine-events";
import { belowApi, useRealCliStack } from "../support/real-cli-stack";
import type { WorkspaceTagBindingsArgs } from "pulumi-wsbridge";

const TYPE = "pulumi-nodejs:dynamic/wsbridge:WorkspaceTagBindings";
let declared: Record<string, unknown> = { tags: { env: "prod", team: "web" } };
let second: Record<string, unknown> | null = null;

let wsId = "";

const e2e = useRealCliStack({
  projectName: "wsbridge-tag-bindings",
  emulator: {
    fixtures: { organizations: [{ name: "example-org", projects: [{ name: "Apps", tagBindings: [{ key: "cost-center", value: "web" }] }], workspaces: [{ name: "tagged", project: "Apps", tagBindings: [{ key: "owner", value: "ui" }] }] }] },
  },
  program: async () => {
    const { WorkspaceTagBindings } = await import("pulumi-wsbridge");
    const tb = new WorkspaceTagBindings("tags", { workspaceId: wsId, ...declared } as unknown as WorkspaceTagBindingsArgs);
    if (second !== null) new WorkspaceTagBindings("more", { workspaceId: wsId, ...second } as unknown as WorkspaceTagBindingsArgs);
    return { tags: tb.tags, allDirectTags: tb.allDirectTags, effectiveTags: tb.effectiveTags };
  },
});

beforeAll(async () => {
  wsId = (await e2e.api<{ data: { id: string } }>("GET", `/organizations/${e2e.emulator.organization}/workspaces/tagged`)).doc.data.id;
});

const live = async (): Promise<Record<string, string>> =>
  Object.fromEntries((await e2e.api<{ data: { attributes: { key: string; value: string } }[] }>("GET", `/workspaces/${wsId}/tag-bindings`)).doc.data
    .map((b) => [b.attributes.key, b.attributes.value]));

async function preview(): Promise<{ steps: ReturnType<typeof stepsOf>; writes: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  await e2e.stack.preview({ onEvent: (e) => events.push(e) });
  return { steps: stepsOf(events, TYPE), writes: e2e.writes(belowApi) };
}
async function up(): Promise<{ writes: string[]; outputs: Record<string, unknown>; changes: Record<string, number | undefined> }> {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up();
  return { writes: e2e.writes(belowApi), changes: result.summary.resourceChanges ?? {}, outputs: Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value])) };
}

test("up binds the declared keys beside the UI's key; outputs show managed, direct and inherited tags", async () => {
  const { writes: sent, outputs } = await up();
  expect(sent).toEqual([`PATCH /workspaces/${wsId}/tag-bindings`]);
  expect(await live()).toEqual({ owner: "ui", env: "prod", team: "web" });
  expect(outputs.tags).toEqual({ env: "prod", team: "web" });
  expect(outputs.allDirectTags).toEqual({ owner: "ui", env: "prod", team: "web" });
  expect(outputs.effectiveTags).toEqual(expect.arrayContaining([{ key: "cost-center", value: "web", inheritedFrom: expect.stringMatching(/^prj-/) }]));
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("a preview with nothing changed plans nothing and sends no write", async () => {
  expect(await preview()).toEqual({ steps: [], writes: [] });
});

test("add, change and remove one key: each previewed as exactly an update of tags, then applied", async () => {
  for (const [tags, expected] of [
    [{ env: "prod", team: "web", tier: "1" }, { owner: "ui", env: "prod", team: "web", tier: "1" }],
    [{ env: "staging", team: "web", tier: "1" }, { owner: "ui", env: "staging", team: "web", tier: "1" }],
    [{ env: "staging", tier: "1" }, { owner: "ui", env: "staging", tier: "1" }],
  ] as const) {
    declared = { tags };
    expect(await preview()).toEqual({ steps: [{ op: "update", name: "tags", changedInputs: ["tags"] }], writes: [] });
    const applied = await up();
    expect(applied.changes).toMatchObject({ update: 1 });
    expect(await live()).toEqual(expected);
  }
});

test("refresh: a managed key changed outside is drift that up restores; an unmanaged key added outside is not", async () => {
  await e2e.api("PATCH", `/workspaces/${wsId}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "extra", value: "x" } }, { type: "tag-bindings", attributes: { key: "env", value: "hacked" } }] });
  await e2e.stack.refresh();
  expect((await preview()).steps).toEqual([{ op: "update", name: "tags", changedInputs: ["tags"] }]);
  await up();
  expect(await live()).toEqual({ owner: "ui", env: "staging", tier: "1", extra: "x" });
  expect(await preview()).toEqual({ steps: [], writes: [] });
});

test("bad inputs and a key declared twice fail the preview, naming the key, without a write", async () => {
  e2e.emulator.clearRequests();
  declared = { tags: { "hcp:x": "1", env: "staging", tier: "1" } };
  await expect(e2e.stack.preview()).rejects.toThrow(/tags\.hcp:x.*reserved prefixes/s);
  declared = { tags: { env: "staging", tier: "1" } };
  second = { tags: { tier: "2" } };
  await expect(e2e.stack.preview()).rejects.toThrow(/"tier"/);
  second = { tags: { region: "eu" }, exclusive: true };
  await expect(e2e.stack.preview()).rejects.toThrow(/one is exclusive/);
  expect(e2e.writes(belowApi)).toEqual([]);
});

test("a second additive resource coexists without a perpetual diff", async () => {
  second = { tags: { region: "eu" } };
  await up();
  expect(await live()).toEqual({ owner: "ui", env: "staging", tier: "1", extra: "x", region: "eu" });
  expect(await preview()).toEqual({ steps: [], writes: [] });
});

test("exclusive mode removes the unmanaged keys; destroy removes only the managed ones", async () => {
  declared = { tags: { env: "staging", tier: "1" }, exclusive: true };
  second = null; // an exclusive resource stands alone: the other one is destroyed (its key "region" unbound)
  expect((await preview()).steps).toEqual([{ op: "update", name: "tags", changedInputs: ["exclusive"] }, { op: "delete", name: "more", changedInputs: ["tags", "workspaceId"] }]);
  await up();
  expect(await live()).toEqual({ env: "staging", tier: "1" });
  await e2e.api("PATCH", `/workspaces/${wsId}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "late", value: "1" } }] });
  await e2e.stack.destroy();
  expect(await live()).toEqual({ late: "1" });
});

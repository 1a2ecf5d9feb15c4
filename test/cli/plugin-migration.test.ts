// Migration, on the real CLI: a stack made with the dynamic route (all seven kinds) moves to the
// provider plugin by changing nothing in the program but the import (`pulumi-wsbridge` →
// `@pulumi-wsbridge/wsbridge`). The SDK's resources alias their dynamic-route types, so the engine
// moves each state to the plugin's type: the preview shows updates of the provider only, nothing is
// created, replaced or deleted on the server, the ids stay, and the state loses the serialized code.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";

let route: "dynamic" | "plugin" = "dynamic";

/** The classes of the route: the same names and constructor arguments in both packages. */
type Constructor = new (name: string, args: Record<string, unknown>, opts?: Record<string, unknown>) => Record<string, unknown> & { id: unknown };
type Kinds = Record<"Workspace" | "WorkspaceLock" | "WorkspaceTagBindings" | "RemoteStateConsumers" | "SshKeyAssignment" | "DataRetentionPolicy" | "ModuleVersionDeprecation", Constructor>;

const e2e = useRealCliStack({
  projectName: "wsbridge-migration",
  plugin: true,
  emulator: {
    edition: "self-managed",
    fixtures: {
      organizations: [{
        name: "example-org",
        sshKeys: [{ id: "sshkey-migrationkey001", name: "deploy" }],
        registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0"] }],
      }],
    },
  },
  program: async () => {
    const lib = (route === "dynamic" ? await import("pulumi-wsbridge") : await import("@pulumi-wsbridge/wsbridge")) as unknown as Kinds;
    const network = new lib.Workspace("network", { name: "mig-network", description: "shared", tagBindings: { layer: "network" } });
    const app = new lib.Workspace("app", { name: "mig-app" });
    new lib.WorkspaceTagBindings("app-tags", { workspaceId: app.id, tags: { team: "apps" } });
    new lib.RemoteStateConsumers("readers", { workspaceId: network.id, consumerIds: [app.id] });
    new lib.SshKeyAssignment("key", { workspaceId: app.id, sshKeyId: "sshkey-migrationkey001" });
    new lib.DataRetentionPolicy("retention", { workspaceId: network.id, deleteOlderThanNDays: 30 });
    new lib.WorkspaceLock("freeze", { workspaceId: app.id, reason: "migrating" });
    new lib.ModuleVersionDeprecation("old-vpc", { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "use 1.1.0" });
    return { networkId: network.id, networkUrl: network["htmlUrl"] };
  },
});

interface StoredResource { urn: string; type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }

async function stored(): Promise<StoredResource[]> {
  const exported = await e2e.stack.exportStack();
  return ((exported.deployment as { resources?: StoredResource[] }).resources ?? []);
}

/** Kind → id of the user's resources in the state. */
async function idsByName(): Promise<Record<string, string | undefined>> {
  return Object.fromEntries((await stored()).filter((r) => !r.type.startsWith("pulumi:")).map((r) => [r.urn.split("::").pop() ?? "", r.id]));
}

let before: Record<string, string | undefined> = {};

test("the dynamic route creates the stack", async () => {
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ create: 9 });
  before = await idsByName();
  expect(Object.keys(before).sort()).toEqual(["app", "app-tags", "freeze", "key", "network", "old-vpc", "readers", "retention"]);
});

test("after the import changes, the preview shows each resource's provider changing, and nothing created, replaced or deleted", async () => {
  route = "plugin";
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  const steps = events.flatMap((e) => {
    const m = e.resourcePreEvent?.metadata;
    return m && !m.type.startsWith("pulumi:") ? [`${m.op} ${m.type}`] : [];
  }).sort();
  expect(steps).toEqual([
    "update wsbridge:index:DataRetentionPolicy", "update wsbridge:index:ModuleVersionDeprecation",
    "update wsbridge:index:RemoteStateConsumers", "update wsbridge:index:SshKeyAssignment",
    "update wsbridge:index:Workspace", "update wsbridge:index:Workspace",
    "update wsbridge:index:WorkspaceLock", "update wsbridge:index:WorkspaceTagBindings",
  ]);
  expect(result.changeSummary).toEqual({ same: 1, update: 8 });
  expect(e2e.writes()).toEqual([]);
});

test("up moves every state to the plugin: no write reaches the server, and every id stays", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ same: 1, update: 8 });
  expect(e2e.writes()).toEqual([]);
  expect(await idsByName()).toEqual(before);
  expect(result.outputs.networkUrl?.value).toBe(`${e2e.emulator.url}/app/example-org/workspaces/mig-network`);
});

test("the state holds the plugin's types, its provider, and no serialized code", async () => {
  const resources = await stored();
  expect([...new Set(resources.map((r) => r.type))].sort()).toEqual([
    "pulumi:providers:wsbridge", "pulumi:pulumi:Stack",
    "wsbridge:index:DataRetentionPolicy", "wsbridge:index:ModuleVersionDeprecation", "wsbridge:index:RemoteStateConsumers",
    "wsbridge:index:SshKeyAssignment", "wsbridge:index:Workspace", "wsbridge:index:WorkspaceLock", "wsbridge:index:WorkspaceTagBindings",
  ]);
  const text = JSON.stringify(resources);
  expect(text).not.toContain("__provider");
  expect(text).not.toContain("__outputs");
  // The workspace's outputs are each by name now: what the SDK's classes read.
  const network = resources.find((r) => r.urn.endsWith("::network"));
  expect(network?.outputs?.htmlUrl).toBe(`${e2e.emulator.url}/app/example-org/workspaces/mig-network`);
});

test("the next preview shows no change and sends no request, and destroy through the plugin removes everything", async () => {
  e2e.emulator.clearRequests();
  const preview = await e2e.stack.preview({ onOutput: e2e.log });
  expect(preview.changeSummary).toEqual({ same: 9 });
  expect(e2e.requestLines()).toEqual([]);
  await e2e.stack.destroy({ onOutput: e2e.log });
  const workspaces = await e2e.api<{ data: unknown[] }>("GET", "/organizations/example-org/workspaces");
  expect(workspaces.doc.data).toEqual([]);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

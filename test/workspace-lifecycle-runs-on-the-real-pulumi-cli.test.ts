// pulumi up / preview / refresh / destroy of a Workspace, through the real Pulumi CLI and the real
// dynamic-provider plugin, against the emulator. This test fails (never skips) without the CLI:
// scripts/setup-pulumi.sh finds or builds it.
import type { EngineEvent, PreviewResult, PulumiCommand } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";

const WORKSPACE_NAME = "e2e-networking";
const desired = { description: "VPCs and peering" };

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
/** Everything the CLI printed in this file's operations, to prove the token never appears in logs. */
let printed = "";
const log = (text: string): void => {
  printed += text;
};

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({ port: 0 });
  harness = await createStack({
    cli,
    projectName: "wsbridge-e2e",
    config: emulatorStackConfig(emulator),
    program: async () => {
      const { Workspace } = await import("pulumi-wsbridge");
      const ws = new Workspace("networking", { name: WORKSPACE_NAME, description: desired.description });
      return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl };
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.dispose();
  await emulator?.close();
});

async function workspaceOnEmulator(): Promise<{ status: number; id?: string; description?: string | null }> {
  const res = await request(`${emulator.url}/api/v2/organizations/${emulator.organization}/workspaces/${WORKSPACE_NAME}`, {
    headers: { authorization: `Bearer ${emulator.token}`, accept: "application/vnd.api+json" },
  });
  const body = (await res.body.json()) as { data?: { id: string; attributes: { description: string | null } } };
  return { status: res.statusCode, id: body.data?.id, description: body.data?.attributes.description };
}

async function patchDescriptionOnEmulator(id: string, description: string): Promise<void> {
  const res = await request(`${emulator.url}/api/v2/workspaces/${id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "workspaces", attributes: { description } } }),
  });
  await res.body.dump();
  expect(res.statusCode).toBe(200);
}

/** The Workspace resource as the state file records it. */
async function workspaceState(): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> {
  const deployment = await harness.stack.exportStack();
  const resources = (deployment.deployment as { resources?: { type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] }).resources ?? [];
  const found = resources.find((r) => r.type === "pulumi-nodejs:dynamic/wsbridge:Workspace");
  if (!found) throw new Error("no Workspace in the state");
  return found;
}

interface Step {
  op: string;
  type: string;
  changedInputs: string[];
}

/** The resource steps of an operation, with the input keys whose values differ (what the CLI shows). */
function stepsOf(events: EngineEvent[]): Step[] {
  return events.flatMap((event) => {
    const metadata = event.resourcePreEvent?.metadata;
    // The stack and Pulumi's default provider resource are bookkeeping, not user resources.
    if (!metadata || metadata.type === "pulumi:pulumi:Stack" || metadata.type.startsWith("pulumi:providers:")) return [];
    const before = metadata.old?.inputs ?? {};
    const after = metadata.new?.inputs ?? {};
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    keys.delete("__provider");
    const changedInputs = [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
    return [{ op: metadata.op, type: metadata.type, changedInputs }];
  });
}

async function preview(): Promise<{ result: PreviewResult; steps: Step[]; mutating: string[] }> {
  const events: EngineEvent[] = [];
  emulator.clearRequests();
  const result = await harness.stack.preview({ onEvent: (e) => events.push(e), onOutput: log });
  const mutating = emulator.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  return { result, steps: stepsOf(events), mutating };
}

test("up creates the workspace on the emulator", async () => {
  const result = await harness.stack.up({ onOutput: log });
  expect(result.summary.result).toBe("succeeded");
  expect(result.summary.resourceChanges).toEqual({ create: 2 });
  const live = await workspaceOnEmulator();
  expect(live.status).toBe(200);
  expect(live.description).toBe("VPCs and peering");
  expect(result.outputs.workspaceId?.value).toBe(live.id);
  expect(result.outputs.htmlUrl?.value).toBe(`${emulator.url}/app/${emulator.organization}/workspaces/${WORKSPACE_NAME}`);
  expect(harness.allStoredText()).not.toContain(emulator.token);
});

test("a second preview reports no changes and makes no mutating call", async () => {
  const { result, steps, mutating } = await preview();
  expect(result.changeSummary).toEqual({ same: 2 });
  expect(steps.map((s) => s.op)).toEqual(["same"]);
  expect(mutating).toEqual([]);
});

test("changing the description previews exactly one update of description, and up applies it", async () => {
  desired.description = "VPCs, peering and transit gateways";
  const { result, steps, mutating } = await preview();
  expect(result.changeSummary).toEqual({ same: 1, update: 1 });
  expect(steps).toEqual([{ op: "update", type: "pulumi-nodejs:dynamic/wsbridge:Workspace", changedInputs: ["description"] }]);
  expect(mutating).toEqual([]);

  const up = await harness.stack.up({ onOutput: log });
  expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
  expect((await workspaceOnEmulator()).description).toBe("VPCs, peering and transit gateways");
  expect(up.outputs.description?.value).toBe("VPCs, peering and transit gateways");
});

test("refresh finds a description changed directly on the emulator, and the next preview offers to restore it", async () => {
  const live = await workspaceOnEmulator();
  await patchDescriptionOnEmulator(live.id ?? "", "edited in the UI");

  const refresh = await harness.stack.refresh({ onOutput: log });
  expect(refresh.summary.resourceChanges).toEqual({ same: 1, update: 1 });
  // Stack outputs belong to the program and change only on `up`; the resource's state is refreshed.
  expect((await workspaceState()).outputs.description).toBe("edited in the UI");

  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", type: "pulumi-nodejs:dynamic/wsbridge:Workspace", changedInputs: ["description"] }]);
});

test("destroy removes the workspace from the emulator", async () => {
  const result = await harness.stack.destroy({ onOutput: log });
  expect(result.summary.result).toBe("succeeded");
  expect((await workspaceOnEmulator()).status).toBe(404);
});

test("nothing the CLI printed contains the token", () => {
  expect(printed).toContain("pulumi-nodejs:dynamic/wsbridge:Workspace"); // the logs really were captured
  expect(printed).not.toContain(emulator.token);
});

test("nothing the stack stored contains the token", () => {
  const stored = harness.allStoredText();
  expect(stored.length).toBeGreaterThan(0);
  expect(stored).toContain(WORKSPACE_NAME); // the state really is in there
  expect(stored).not.toContain(emulator.token);
});

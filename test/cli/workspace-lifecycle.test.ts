// pulumi up / preview / refresh / destroy of a Workspace, through the real Pulumi CLI and the real
// dynamic-provider plugin, against the emulator. This test fails (never skips) without the CLI:
// scripts/setup-pulumi.sh finds or builds it.
import type { EngineEvent, PreviewResult } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";

const WORKSPACE_NAME = "e2e-networking";
const desired = { description: "VPCs and peering" };

/** Everything the CLI printed in this file's operations (`e2e.printed`) proves the token never appears in logs. */
const e2e = useRealCliStack({
  projectName: "wsbridge-e2e",
  program: async () => {
    const { Workspace } = await import("pulumi-wsbridge");
    const ws = new Workspace("networking", { name: WORKSPACE_NAME, description: desired.description });
    return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl };
  },
});

async function workspaceOnEmulator(): Promise<{ status: number; id?: string; description?: string | null }> {
  const { status, doc } = await e2e.api<{ data?: { id: string; attributes: { description: string | null } } }>(
    "GET", `/organizations/${e2e.emulator.organization}/workspaces/${WORKSPACE_NAME}`);
  return { status, id: doc.data?.id, description: doc.data?.attributes.description };
}

async function patchDescriptionOnEmulator(id: string, description: string): Promise<void> {
  const { status } = await e2e.api("PATCH", `/workspaces/${id}`, { data: { type: "workspaces", attributes: { description } } });
  expect(status).toBe(200);
}

/** The Workspace resource as the state file records it. */
async function workspaceState(): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> {
  const deployment = await e2e.stack.exportStack();
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
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  const mutating = e2e.writes();
  return { result, steps: stepsOf(events), mutating };
}

test("up creates the workspace on the emulator", async () => {
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  expect(result.summary.resourceChanges).toEqual({ create: 2 });
  const live = await workspaceOnEmulator();
  expect(live.status).toBe(200);
  expect(live.description).toBe("VPCs and peering");
  expect(result.outputs.workspaceId?.value).toBe(live.id);
  expect(result.outputs.htmlUrl?.value).toBe(`${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/${WORKSPACE_NAME}`);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
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

  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
  expect((await workspaceOnEmulator()).description).toBe("VPCs, peering and transit gateways");
  expect(up.outputs.description?.value).toBe("VPCs, peering and transit gateways");
});

test("refresh finds a description changed directly on the emulator, and the next preview offers to restore it", async () => {
  const live = await workspaceOnEmulator();
  await patchDescriptionOnEmulator(live.id ?? "", "edited in the UI");

  const refresh = await e2e.stack.refresh({ onOutput: e2e.log });
  expect(refresh.summary.resourceChanges).toEqual({ same: 1, update: 1 });
  // Stack outputs belong to the program and change only on `up`; the resource's state is refreshed.
  expect((await workspaceState()).outputs.description).toBe("edited in the UI");

  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", type: "pulumi-nodejs:dynamic/wsbridge:Workspace", changedInputs: ["description"] }]);
});

test("destroy removes the workspace from the emulator", async () => {
  const result = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  expect((await workspaceOnEmulator()).status).toBe(404);
});

test("nothing the CLI printed contains the token", () => {
  expect(e2e.printed).toContain("pulumi-nodejs:dynamic/wsbridge:Workspace"); // the logs really were captured
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

test("nothing the stack stored contains the token", () => {
  const stored = e2e.harness.allStoredText();
  expect(stored.length).toBeGreaterThan(0);
  expect(stored).toContain(WORKSPACE_NAME); // the state really is in there
  expect(stored).not.toContain(e2e.emulator.token);
});

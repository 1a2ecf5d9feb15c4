// pulumi up / refresh / preview / destroy of a Workspace, through the real Pulumi CLI and the real
// dynamic-provider plugin, against the emulator: a description changed in the program and one changed
// on the server (found by refresh) show in one preview and are applied by one up. This test fails
// (never skips) without the CLI: scripts/setup-pulumi.sh finds or builds it. (A preview with nothing
// changed writes nothing: test/cli/plugin-matches-workspace.test.ts, after its round.)
import type { EngineEvent, PreviewResult } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";

const WORKSPACE_NAME = "e2e-networking";
const EDITED_NAME = "e2e-edited";
const TYPE = "pulumi-nodejs:dynamic/wsbridge:Workspace";
const desired = { description: "VPCs and peering" };

/** Everything the CLI printed in this file's operations (`e2e.printed`) proves the token never appears in logs. */
const e2e = useRealCliStack({
  projectName: "wsbridge-e2e",
  program: async () => {
    const { Workspace } = await import("pulumi-wsbridge");
    const ws = new Workspace("networking", { name: WORKSPACE_NAME, description: desired.description });
    // Its description is changed on the server, and refresh finds it.
    const edited = new Workspace("edited", { name: EDITED_NAME, description: "as declared" });
    return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl, editedDescription: edited.description };
  },
});

async function workspaceOnEmulator(name = WORKSPACE_NAME): Promise<{ status: number; id?: string; description?: string | null }> {
  const { status, doc } = await e2e.api<{ data?: { id: string; attributes: { description: string | null } } }>(
    "GET", `/organizations/${e2e.emulator.organization}/workspaces/${name}`);
  return { status, id: doc.data?.id, description: doc.data?.attributes.description };
}

async function patchDescriptionOnEmulator(id: string, description: string): Promise<void> {
  const { status } = await e2e.api("PATCH", `/workspaces/${id}`, { data: { type: "workspaces", attributes: { description } } });
  expect(status).toBe(200);
}

/** A Workspace resource as the state file records it. */
async function workspaceState(resource: string): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> {
  const deployment = await e2e.stack.exportStack();
  const resources = (deployment.deployment as { resources?: { type: string; urn: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] }).resources ?? [];
  const found = resources.find((r) => r.type === TYPE && r.urn.endsWith(`::${resource}`));
  if (!found) throw new Error(`no Workspace ${resource} in the state`);
  return found;
}

interface Step {
  op: string;
  name: string;
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
    return [{ op: metadata.op, name: metadata.urn.split("::").pop() ?? "", changedInputs }];
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
  expect(result.summary.resourceChanges).toEqual({ create: 3 });
  const live = await workspaceOnEmulator();
  expect(live.status).toBe(200);
  expect(live.description).toBe("VPCs and peering");
  expect(result.outputs.workspaceId?.value).toBe(live.id);
  expect(result.outputs.htmlUrl?.value).toBe(`${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/${WORKSPACE_NAME}`);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("refresh finds a description changed directly on the emulator, into the resource's state", async () => {
  const live = await workspaceOnEmulator(EDITED_NAME);
  await patchDescriptionOnEmulator(live.id ?? "", "edited in the UI");

  const refresh = await e2e.stack.refresh({ onOutput: e2e.log });
  expect(refresh.summary.resourceChanges).toEqual({ same: 2, update: 1 });
  // Stack outputs belong to the program and change only on `up`; the resource's state is refreshed.
  expect((await workspaceState("edited")).outputs.description).toBe("edited in the UI");
  expect((await workspaceState("networking")).outputs.description).toBe("VPCs and peering");
});

test("one preview shows exactly one update of description for the program's change and one for the restore, and writes nothing", async () => {
  desired.description = "VPCs, peering and transit gateways";
  const { result, steps, mutating } = await preview();
  expect(result.changeSummary).toEqual({ same: 1, update: 2 });
  expect(steps.filter((s) => s.op !== "same").sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { op: "update", name: "edited", changedInputs: ["description"] },
    { op: "update", name: "networking", changedInputs: ["description"] },
  ]);
  expect(mutating).toEqual([]);
});

test("up applies both, on the server and in the outputs", async () => {
  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.summary.resourceChanges).toEqual({ same: 1, update: 2 });
  expect((await workspaceOnEmulator()).description).toBe("VPCs, peering and transit gateways");
  expect((await workspaceOnEmulator(EDITED_NAME)).description).toBe("as declared");
  expect(up.outputs.description?.value).toBe("VPCs, peering and transit gateways");
  expect(up.outputs.editedDescription?.value).toBe("as declared");
});

test("destroy removes the workspaces from the emulator", async () => {
  const result = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  expect((await workspaceOnEmulator()).status).toBe(404);
  expect((await workspaceOnEmulator(EDITED_NAME)).status).toBe(404);
});

test("nothing the CLI printed contains the token", () => {
  expect(e2e.printed).toContain(TYPE); // the logs really were captured
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

test("nothing the stack stored contains the token", () => {
  const stored = e2e.harness.allStoredText();
  expect(stored.length).toBeGreaterThan(0);
  expect(stored).toContain(WORKSPACE_NAME); // the state really is in there
  expect(stored).not.toContain(e2e.emulator.token);
});

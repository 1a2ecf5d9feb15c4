// A Workspace through the provider plugin (`pulumi-resource-wsbridge`, installed from its archive as a
// user installs it) and the generated SDK, on the real Pulumi CLI against the emulator: up, a no-op
// preview without a request, a change previewed as its exact property path while a dependent that
// reads outputs the change cannot alter previews as unchanged, drift restored exactly, destroy.
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";
import { plannedSteps, stackOutputsOf, UNKNOWN_IN_EVENTS } from "../support/plugin-route";

const TYPE = "wsbridge:index:Workspace";
const desired = { description: "VPCs and peering", team: "net" };

const e2e = useRealCliStack({
  projectName: "wsbridge-plugin-workspace",
  plugin: true,
  program: async () => {
    const pulumi = await import("@pulumi/pulumi");
    const wsbridge = await import("@pulumi-wsbridge/wsbridge");
    const net = new wsbridge.Workspace("networking", {
      name: "plugin-networking", description: desired.description, tagBindings: { team: desired.team },
    });
    // A dependent of outputs that an update of the description cannot change.
    const reader = new wsbridge.Workspace("reader", {
      name: "plugin-reader",
      description: pulumi.interpolate`${net.htmlUrl} ${net.projectId} ${net.effectiveTagBindings.apply((b) => b.map((t) => `${t.key}=${t.value}`).join(","))}`,
    });
    return {
      workspaceId: net.workspaceId, htmlUrl: net.htmlUrl, projectId: net.projectId, updatedAt: net.updatedAt,
      effectiveTagBindings: net.effectiveTagBindings, readerDescription: reader.description,
    };
  },
});

const belowApi = (path: string): string => path.replace("/api/v2", "").replace(/ws-[A-Za-z0-9]+/g, "ws-…");

async function previewEvents(): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  return events;
}

test("up creates both workspaces with one request each", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ create: 3 }); // the stack and two workspaces (providers are not counted)
  expect(e2e.requestLines(belowApi).sort()).toEqual([
    `POST /organizations/${e2e.emulator.organization}/workspaces`,
    `POST /organizations/${e2e.emulator.organization}/workspaces`,
  ]);
  expect(result.outputs.htmlUrl?.value).toBe(`${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/plugin-networking`);
  expect(result.outputs.effectiveTagBindings?.value).toEqual([{ key: "team", value: "net", inheritedFrom: null }]);
  expect(result.outputs.readerDescription?.value).toBe(
    `${result.outputs.htmlUrl?.value} ${result.outputs.projectId?.value} team=net`);
});

test("a preview with nothing changed sends no request", async () => {
  const events = await previewEvents();
  expect(plannedSteps(events, TYPE)).toEqual([]);
  expect(e2e.requestLines()).toEqual([]);
});

test("a new description previews as that one path, and the dependent reading htmlUrl, projectId and the tags as unchanged", async () => {
  const before = await e2e.stack.outputs();
  desired.description = "VPCs, peering and DNS";
  const events = await previewEvents();
  expect(plannedSteps(events, TYPE)).toEqual([{ op: "update", name: "networking", paths: ["description: update"], diffs: ["description"] }]);
  expect(e2e.requestLines()).toEqual([]);
  const planned = stackOutputsOf(events) ?? {};
  expect(planned.htmlUrl).toBe(before.htmlUrl?.value);
  expect(planned.projectId).toBe(before.projectId?.value);
  expect(planned.effectiveTagBindings).toEqual(before.effectiveTagBindings?.value);
  expect(planned.readerDescription).toBe(before.readerDescription?.value);
  expect(planned.updatedAt).toBe(UNKNOWN_IN_EVENTS);
});

test("up applies exactly what the preview showed: one PATCH, the dependent untouched", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ same: 2, update: 1 });
  expect(e2e.requestLines(belowApi)).toEqual(["PATCH /workspaces/ws-…"]);
});

test("a tag's new value previews as the tag's own path", async () => {
  desired.team = "network";
  const events = await previewEvents();
  // The reader reads the effective tags, which the server decides: its description is not known yet.
  expect(plannedSteps(events, TYPE)).toEqual([
    { op: "update", name: "networking", paths: ["tagBindings.team: update"], diffs: ["tagBindings"] },
    { op: "update", name: "reader", paths: ["description: update"], diffs: ["description"] },
  ]);
  expect(e2e.requestLines()).toEqual([]);
  await e2e.stack.up({ onOutput: e2e.log });
});

test("drift made outside Pulumi is found by refresh and restored by up, exactly", async () => {
  const id = String((await e2e.stack.outputs()).workspaceId?.value);
  const { status } = await e2e.api("PATCH", `/workspaces/${id}`, { data: { type: "workspaces", attributes: { description: "edited by hand" } } });
  expect(status).toBe(200);
  e2e.emulator.clearRequests();
  await e2e.stack.refresh({ onOutput: e2e.log });
  expect(e2e.requestLines(belowApi)).toEqual(["GET /workspaces/ws-…", "GET /workspaces/ws-…"]);
  const events = await previewEvents();
  expect(plannedSteps(events, TYPE)).toEqual([{ op: "update", name: "networking", paths: ["description: update"], diffs: ["description"] }]);
  e2e.emulator.clearRequests();
  await e2e.stack.up({ onOutput: e2e.log });
  expect(e2e.requestLines(belowApi)).toEqual(["PATCH /workspaces/ws-…"]);
  const live = await e2e.api<{ data: { attributes: { description: string } } }>("GET", `/workspaces/${id}`);
  expect(live.doc.data.attributes.description).toBe(desired.description);
});

test("destroy deletes both with a safe delete, and the token is in no state, backup or output", async () => {
  e2e.emulator.clearRequests();
  await e2e.stack.destroy({ onOutput: e2e.log });
  expect(e2e.requestLines(belowApi)).toEqual(["POST /workspaces/ws-…/actions/safe-delete", "POST /workspaces/ws-…/actions/safe-delete"]);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

// Last: a plaintext config value is recorded by the CLI where the user put it (the config file, the
// update history), so this runs after the checks that no stored text holds the token.
test("wsbridge:token set without --secret is still stored encrypted in the provider's state", async () => {
  await e2e.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: false });
  await e2e.stack.up({ onOutput: e2e.log });
  // The checkpoint the file backend keeps (not the config file or the history, where the CLI records plaintext config).
  const checkpoint = fs.readFileSync(path.join(e2e.harness.dir, "backend", ".pulumi", "stacks", "wsbridge-plugin-workspace", "dev.json"), "utf8");
  const provider = (JSON.parse(checkpoint) as { checkpoint: { latest: { resources: { type: string; inputs: Record<string, unknown> }[] } } })
    .checkpoint.latest.resources.find((r) => r.type === "pulumi:providers:wsbridge");
  expect(provider?.inputs.token).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
  expect(checkpoint).not.toContain(e2e.emulator.token);
});

// A Workspace through the provider plugin (`pulumi-resource-wsbridge`, installed from its archive as a
// user installs it) and the generated SDK, on the real Pulumi CLI against the emulator: up, drift
// found by refresh, then one preview in which each change shows as its exact property path (a new
// description while a dependent that reads outputs the change cannot alter previews as unchanged; a
// tag's new value, whose reader follows; the drift's restore), applied exactly by up, and destroy.
// The token set without --secret is still stored encrypted. (A preview with nothing changed sends
// no request on this route: test/cli/plugin-matches-workspace.test.ts, after its round.)
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";
import { plannedSteps, stackOutputsOf, UNKNOWN_IN_EVENTS } from "../support/plugin-route";

const TYPE = "wsbridge:index:Workspace";
const desired = { description: "VPCs and peering", team: "edge" };
const WORKSPACES = ["plugin-networking", "plugin-reader", "plugin-tagged", "plugin-tag-reader", "plugin-drifted"];

const e2e = useRealCliStack({
  projectName: "wsbridge-plugin-workspace",
  plugin: true,
  program: async () => {
    const pulumi = await import("@pulumi/pulumi");
    const wsbridge = await import("@pulumi-wsbridge/wsbridge");
    // A dependent of outputs that an update of the description cannot change; the tags can.
    const reader = (name: string, ws: InstanceType<typeof wsbridge.Workspace>): InstanceType<typeof wsbridge.Workspace> =>
      new wsbridge.Workspace(name, {
        name: `plugin-${name}`,
        description: pulumi.interpolate`${ws.htmlUrl} ${ws.projectId} ${ws.effectiveTagBindings.apply((b) => b.map((t) => `${t.key}=${t.value}`).join(","))}`,
      });
    const net = new wsbridge.Workspace("networking", { name: "plugin-networking", description: desired.description, tagBindings: { team: "net" } });
    const netReader = reader("reader", net);
    const tagged = new wsbridge.Workspace("tagged", { name: "plugin-tagged", tagBindings: { team: desired.team } });
    reader("tag-reader", tagged);
    new wsbridge.Workspace("drifted", { name: "plugin-drifted", description: "as declared" });
    return {
      workspaceId: net.workspaceId, htmlUrl: net.htmlUrl, projectId: net.projectId, updatedAt: net.updatedAt,
      effectiveTagBindings: net.effectiveTagBindings, readerDescription: netReader.description,
    };
  },
});

/** The organization's workspaces: id to name. */
async function workspaceNames(): Promise<Map<string, string>> {
  const { doc } = await e2e.api<{ data: { id: string; attributes: { name: string } }[] }>("GET", `/organizations/${e2e.emulator.organization}/workspaces`);
  return new Map(doc.data.map((w) => [w.id, w.attributes.name]));
}

/** The requests since the last clear, sorted, without queries, each workspace id replaced by the workspace's name. */
async function requests(names?: Map<string, string>): Promise<string[]> {
  const sent = e2e.requestLines((p) => p.replace("/api/v2", ""));
  const known = names ?? await workspaceNames();
  return sent.map((line) => line.replace(/ws-[A-Za-z0-9]+/g, (id) => `ws(${known.get(id) ?? "?"})`).replace(/\?.*$/, "")).sort();
}

test("up creates every workspace with one request each, and the reader gets the first one's page, project and tags", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ create: 6 }); // the stack and five workspaces (providers are not counted)
  expect(e2e.requestLines().map((l) => l.split("?")[0])).toEqual(WORKSPACES.map(() => `POST /api/v2/organizations/${e2e.emulator.organization}/workspaces`));
  expect(result.outputs.htmlUrl?.value).toBe(`${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/plugin-networking`);
  expect(result.outputs.effectiveTagBindings?.value).toEqual([{ key: "team", value: "net", inheritedFrom: null }]);
  expect(result.outputs.readerDescription?.value).toBe(
    `${result.outputs.htmlUrl?.value} ${result.outputs.projectId?.value} team=net`);
});

test("drift made outside Pulumi is found by refresh, with one read per workspace", async () => {
  const drifted = await e2e.api<{ data: { id: string } }>("GET", `/organizations/${e2e.emulator.organization}/workspaces/plugin-drifted`);
  const { status } = await e2e.api("PATCH", `/workspaces/${drifted.doc.data.id}`, { data: { type: "workspaces", attributes: { description: "edited by hand" } } });
  expect(status).toBe(200);
  e2e.emulator.clearRequests();
  const result = await e2e.stack.refresh({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ same: 5, update: 1 });
  expect(await requests()).toEqual(WORKSPACES.map((n) => `GET /workspaces/ws(${n})`).sort());
});

test("with the token a secret, no state or backup holds it", () => {
  // Checked here: the token is set without --secret below, and the CLI then records it where the user put it.
  expect(e2e.harness.allStoredText()).toContain("plugin-networking"); // the state really is in there
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

// ---- one preview of three changes ------------------------------------------------------------------

let events: EngineEvent[] = [];
let before: Record<string, unknown> = {};

test("a preview shows each change as its own path and nothing else, without a request", async () => {
  before = Object.fromEntries(Object.entries(await e2e.stack.outputs()).map(([k, v]) => [k, v.value]));
  desired.description = "VPCs, peering and DNS";
  desired.team = "edge-network";
  events = [];
  e2e.emulator.clearRequests();
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(e2e.requestLines()).toEqual([]);
  expect(plannedSteps(events, TYPE).map((s) => s.name).sort()).toEqual(["drifted", "networking", "tag-reader", "tagged"]);
});

const stepOf = (name: string) => plannedSteps(events, TYPE).find((s) => s.name === name);

test("a new description previews as that one path, and the dependent reading htmlUrl, projectId and the tags as unchanged", () => {
  expect(stepOf("networking")).toEqual({ op: "update", name: "networking", paths: ["description: update"], diffs: ["description"] });
  expect(stepOf("reader")).toBeUndefined();
  const planned = stackOutputsOf(events) ?? {};
  expect(planned.htmlUrl).toBe(before.htmlUrl);
  expect(planned.projectId).toBe(before.projectId);
  expect(planned.effectiveTagBindings).toEqual(before.effectiveTagBindings);
  expect(planned.readerDescription).toBe(before.readerDescription);
  expect(planned.updatedAt).toBe(UNKNOWN_IN_EVENTS);
});

test("a tag's new value previews as the tag's own path", () => {
  expect(stepOf("tagged")).toEqual({ op: "update", name: "tagged", paths: ["tagBindings.team: update"], diffs: ["tagBindings"] });
  // Its reader reads the effective tags, which the server decides: its description is not known yet.
  expect(stepOf("tag-reader")).toEqual({ op: "update", name: "tag-reader", paths: ["description: update"], diffs: ["description"] });
});

test("the drift previews as the restore of that path", () => {
  expect(stepOf("drifted")).toEqual({ op: "update", name: "drifted", paths: ["description: update"], diffs: ["description"] });
});

test("up applies exactly what the preview showed, one PATCH per changed workspace (with the token now set without --secret)", async () => {
  // A plaintext config value, as a user might set it: the next test reads how the state stores it.
  await e2e.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: false });
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ same: 2, update: 4 });
  expect(await requests()).toEqual(["plugin-drifted", "plugin-networking", "plugin-tag-reader", "plugin-tagged"].map((n) => `PATCH /workspaces/ws(${n})`));
  const drifted = await e2e.api<{ data: { attributes: { description: string } } }>("GET", `/organizations/${e2e.emulator.organization}/workspaces/plugin-drifted`);
  expect(drifted.doc.data.attributes.description).toBe("as declared");
  expect(result.outputs.effectiveTagBindings?.value).toEqual(before.effectiveTagBindings);
});

test("wsbridge:token set without --secret is still stored encrypted in the provider's state", () => {
  // It really is plaintext in the stack's settings, where the user put it.
  expect(e2e.harness.allStoredText()).toContain(e2e.emulator.token);
  // The checkpoint the file backend keeps (not the config file or the history, where the CLI records plaintext config).
  const checkpoint = fs.readFileSync(path.join(e2e.harness.dir, "backend", ".pulumi", "stacks", "wsbridge-plugin-workspace", "dev.json"), "utf8");
  const provider = (JSON.parse(checkpoint) as { checkpoint: { latest: { resources: { type: string; inputs: Record<string, unknown> }[] } } })
    .checkpoint.latest.resources.find((r) => r.type === "pulumi:providers:wsbridge");
  expect(provider?.inputs.token).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
  expect(checkpoint).not.toContain(e2e.emulator.token);
});

test("destroy deletes every workspace with a safe delete, and no output printed the token", async () => {
  const names = await workspaceNames();
  e2e.emulator.clearRequests();
  const result = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  expect(await requests(names)).toEqual(WORKSPACES.map((n) => `POST /workspaces/ws(${n})/actions/safe-delete`).sort());
  const { doc } = await e2e.api<{ data: unknown[] }>("GET", `/organizations/${e2e.emulator.organization}/workspaces`);
  expect(doc.data).toEqual([]);
  expect(e2e.printed).toContain(TYPE); // the logs really were captured
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

// Every writable attribute of a Workspace through the real Pulumi CLI against the emulator (hosted
// edition): create with all of them, a no-op preview that writes nothing, each attribute changed
// alone previewing exactly that property and applied by `up`, rename, project move, repository
// removal, drift and its restore, adoption, and safe delete refused then forced. A second workspace
// consumes the first one's id, workspaceId, name, organization, htmlUrl and apiUrl: its previews must
// stay exact while the first is updated.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEFAULT_ORGANIZATION } from "../../emulator";
import { notesOf, stepsOf, type Step } from "../support/engine-events";
import type { WorkspaceArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

/** The message of an operation that must fail (the CLI's output included). */
const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

const ORG = DEFAULT_ORGANIZATION;
const PROJECT_A = "prj-teamaaaaaaaaaa01";
const PROJECT_B = "prj-teambbbbbbbbbb02";
const POOL = "apool-fixturepool0001";
const OAUTH = "ot-fixturetoken00001";
const TYPE = "pulumi-nodejs:dynamic/wsbridge:Workspace";

type Args = Record<string, unknown>;

const initial = (): Args => ({
  name: "every-attribute",
  description: "all settings declared",
  executionMode: "remote",
  settingOverwrites: { executionMode: true },
  allowDestroyPlan: false,
  assessmentsEnabled: true,
  autoApply: true,
  autoApplyRunTrigger: true,
  autoDestroyActivityDuration: "14d",
  fileTriggersEnabled: false,
  // Prefixes, not patterns: the service refuses trigger patterns with file triggers off (issue 25).
  triggerPrefixes: ["modules/", "envs/"],
  globalRemoteState: true,
  projectRemoteState: false,
  queueAllRuns: true,
  speculativeEnabled: false,
  engineVersion: "1.9.5",
  workingDirectory: "stacks/prod",
  sourceName: "platform-pipeline",
  sourceUrl: "https://ci.example.com/pipelines/42",
  vcsRepo: { identifier: "acme/infrastructure", oauthTokenId: OAUTH, branch: "main", ingressSubmodules: true },
  projectId: PROJECT_A,
  tagBindings: { env: "prod", team: "platform" },
  tagNames: ["prod", "networking"],
  forceDelete: false,
});

/** What the program declares; tests change it between operations. */
let full: Args = initial();
let extra: { name: string; args: Args }[] = [];

const e2e = useRealCliStack({
  projectName: "wsbridge-every-attribute",
  emulator: {
    edition: "hosted",
    fixtures: {
      organizations: [{
        name: ORG,
        projects: [
          { id: PROJECT_A, name: "team-a", tagBindings: [{ key: "cost-center", value: "cc-1" }] },
          { id: PROJECT_B, name: "team-b" },
        ],
        agentPools: [{ id: POOL, name: "private-runners" }],
        oauthClients: [{ name: "github", oauthTokenId: OAUTH }],
      }],
    },
  },
  program: async () => {
    const { Workspace } = await import("pulumi-wsbridge");
    const pulumi = await import("@pulumi/pulumi");
    const ws = new Workspace("full", full as unknown as WorkspaceArgs);
    const consumer = new Workspace("consumer", {
      name: "consumer",
      description: pulumi.interpolate`reads ${ws.workspaceId} at ${ws.htmlUrl}`,
      workingDirectory: ws.name,
      tagBindings: ws.organization.apply((org) => ({ upstream: org })),
      engineVersion: ws.apiUrl.apply((u) => (u.includes("/api/v2/workspaces/ws-") ? "1.9.5" : "bad")),
    });
    for (const e of extra) new Workspace(e.name, e.args as unknown as WorkspaceArgs);
    return { id: ws.id, htmlUrl: ws.htmlUrl, apiUrl: ws.apiUrl, consumer: consumer.description };
  },
});

// ---- helpers ---------------------------------------------------------------------------------

type Doc = { data: { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string } | null }> } };

async function live(name = String(full.name)): Promise<Doc["data"]> {
  const { status, doc } = await e2e.api<Doc>("GET", `/organizations/${ORG}/workspaces/${name}`);
  expect(status).toBe(200);
  return doc.data;
}

async function directBindings(id: string): Promise<Record<string, string>> {
  const { doc } = await e2e.api<{ data: { attributes: { key: string; value: string } }[] }>("GET", `/workspaces/${id}/tag-bindings`);
  return Object.fromEntries(doc.data.map((b) => [b.attributes.key, b.attributes.value]));
}

async function preview(): Promise<{ steps: Step[]; summary: Record<string, number | undefined>; writes: string[]; reads: number; notes: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  return {
    steps: stepsOf(events, TYPE),
    summary: result.changeSummary,
    writes: e2e.writes(),
    reads: e2e.emulator.requests().filter((r) => r.method === "GET").length,
    notes: notesOf(events),
  };
}

async function up(): Promise<{ changes: Record<string, number | undefined>; requests: string[] }> {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  return { changes: result.summary.resourceChanges ?? {}, requests: e2e.requestLines() };
}

// ---- create and no-op ------------------------------------------------------------------------

test("up creates the workspace with every declared attribute in one create request plus the flat tags", async () => {
  const { changes, requests } = await up();
  expect(changes).toEqual({ create: 3 });
  const ws = await live();
  const a = ws.attributes;
  expect(a).toMatchObject({
    description: "all settings declared", "execution-mode": "remote", "allow-destroy-plan": false,
    "assessments-enabled": true, "auto-apply": true, "auto-apply-run-trigger": true,
    "auto-destroy-activity-duration": "14d", "file-triggers-enabled": false, "global-remote-state": true,
    "queue-all-runs": true, "speculative-enabled": false, "working-directory": "stacks/prod", "source-name": "platform-pipeline",
  });
  expect([...(a["trigger-prefixes"] as string[])].sort()).toEqual(["envs/", "modules/"]);
  expect(a["project-remote-state"]).toBe(false);
  expect(String(a["source-url"])).toMatch(/^https:\/\/ci\.example\.com\/pipelines\/42#owner=wsbridge-every-attribute\/.+\/Workspace\/full$/);
  expect(a["vcs-repo"]).toMatchObject({ identifier: "acme/infrastructure", "oauth-token-id": OAUTH, branch: "main", "ingress-submodules": true });
  expect(ws.relationships["project"]?.data?.id).toBe(PROJECT_A);
  expect([...(a["tag-names"] as string[])].sort()).toEqual(["networking", "prod"]);
  expect(await directBindings(ws.id)).toEqual({ env: "prod", team: "platform" });
  // One POST per workspace, and the flat tags of the one that declares them.
  expect(requests.filter((r) => r.startsWith("POST")).sort()).toEqual([
    `POST /api/v2/organizations/${ORG}/workspaces`, `POST /api/v2/organizations/${ORG}/workspaces`,
    `POST /api/v2/workspaces/${ws.id}/relationships/tags`,
  ]);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("the consumer got the first workspace's id, name, organization and URLs", async () => {
  const ws = await live();
  const consumer = await live("consumer");
  expect(consumer.attributes["description"]).toBe(`reads ${ws.id} at ${e2e.emulator.url}/app/${ORG}/workspaces/every-attribute`);
  expect(consumer.attributes["working-directory"]).toBe("every-attribute");
  expect(await directBindings(consumer.id)).toEqual({ upstream: ORG });
});

test("a preview with nothing changed reports no change, writes nothing and reads at most once", async () => {
  const { steps, summary, writes, reads } = await preview();
  expect(steps).toEqual([]);
  expect(summary).toEqual({ same: 3 });
  expect(writes).toEqual([]);
  // The edition ping behind assessmentsEnabled's check; nothing else.
  expect(reads).toBeLessThanOrEqual(1);
});

// ---- each attribute alone --------------------------------------------------------------------

const CHANGES: [string, unknown, (a: Record<string, unknown>) => unknown, unknown][] = [
  ["description", "changed alone", (a) => a["description"], "changed alone"],
  ["allowDestroyPlan", true, (a) => a["allow-destroy-plan"], true],
  ["assessmentsEnabled", false, (a) => a["assessments-enabled"], false],
  ["autoApply", false, (a) => a["auto-apply"], false],
  ["autoApplyRunTrigger", false, (a) => a["auto-apply-run-trigger"], false],
  ["autoDestroyActivityDuration", "36h", (a) => a["auto-destroy-activity-duration"], "36h"],
  ["fileTriggersEnabled", true, (a) => a["file-triggers-enabled"], true],
  ["triggerPrefixes", ["stacks/", "envs/"], (a) => [...(a["trigger-prefixes"] as string[])].sort(), ["envs/", "stacks/"]],
  ["globalRemoteState", false, (a) => a["global-remote-state"], false],
  ["projectRemoteState", true, (a) => a["project-remote-state"], true],
  ["queueAllRuns", false, (a) => a["queue-all-runs"], false],
  ["speculativeEnabled", true, (a) => a["speculative-enabled"], true],
  ["engineVersion", "~> 1.10.0", (a) => a["engine-version"] ?? a["terraform-version"], "~> 1.10.0"],
  ["workingDirectory", "stacks/staging", (a) => a["working-directory"], "stacks/staging"],
  ["vcsRepo", { identifier: "acme/infrastructure", oauthTokenId: OAUTH, branch: "release", ingressSubmodules: true },
    (a) => (a["vcs-repo"] as Record<string, unknown>)["branch"], "release"],
  ["tagNames", ["prod", "edge"], (a) => [...(a["tag-names"] as string[])].sort(), ["edge", "prod"]],
];

test.each(CHANGES)("changing %s alone previews exactly that update, and up applies it", async (key, value, read, expected) => {
  full = { ...full, [key]: value };
  const { steps, summary, writes } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: [key] }]);
  // The consumer uses the workspace's id, name, organization and URLs, and stays unchanged.
  expect(summary).toEqual({ same: 2, update: 1 });
  expect(writes).toEqual([]);
  const { changes } = await up();
  expect(changes).toEqual({ same: 2, update: 1 });
  expect(read((await live()).attributes)).toEqual(expected);
});

test("reordering a set (trigger prefixes, flat tags) previews nothing", async () => {
  full = { ...full, triggerPrefixes: [...(full.triggerPrefixes as string[])].reverse(), tagNames: [...(full.tagNames as string[])].reverse() };
  const { steps } = await preview();
  expect(steps).toEqual([]);
});

test("changing the tag bindings replaces the set: a removed key is unbound", async () => {
  full = { ...full, tagBindings: { env: "staging" } };
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: ["tagBindings"] }]);
  await up();
  expect(await directBindings((await live()).id)).toEqual({ env: "staging" });
});

test("switching to agent execution with a pool is one update of both properties", async () => {
  full = { ...full, executionMode: "agent", agentPoolId: POOL };
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: ["agentPoolId", "executionMode"] }]);
  await up();
  const ws = await live();
  expect(ws.attributes["execution-mode"]).toBe("agent");
  expect(ws.relationships["agent-pool"]?.data?.id).toBe(POOL);
  full = { ...full, executionMode: "remote" };
  delete full.agentPoolId;
  await up();
  expect((await live()).attributes["execution-mode"]).toBe("remote");
});

test("moving to another project is an update that keeps the id", async () => {
  const before = await live();
  full = { ...full, projectId: PROJECT_B };
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: ["projectId"] }]);
  await up();
  const after = await live();
  expect(after.id).toBe(before.id);
  expect(after.relationships["project"]?.data?.id).toBe(PROJECT_B);
});

test("a rename is an update that keeps the id, and the consumer follows in the same up", async () => {
  const before = await live();
  full = { ...full, name: "every-attribute-renamed" };
  const { steps } = await preview();
  // The consumer's inputs that derive from the name change with it.
  expect(steps).toEqual([
    { op: "update", name: "full", changedInputs: ["name"] },
    { op: "update", name: "consumer", changedInputs: ["description", "workingDirectory"] },
  ]);
  await up();
  const after = await live();
  expect(after.id).toBe(before.id);
  expect((await live("consumer")).attributes["working-directory"]).toBe("every-attribute-renamed");
});

test("removing vcsRepo from the program disconnects the repository (an update)", async () => {
  delete full.vcsRepo;
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: ["vcsRepo"] }]);
  await up();
  expect((await live()).attributes["vcs-repo"]).toBeNull();
});

test("removing another declared attribute stops managing it: an update that sends nothing", async () => {
  delete full.description;
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: ["description"] }]);
  const { changes, requests } = await up();
  expect(changes).toEqual({ same: 2, update: 1 });
  expect(requests.filter((r) => !r.startsWith("GET"))).toEqual([]);
  expect((await live()).attributes["description"]).toBe("changed alone");
  expect((await preview()).steps).toEqual([]);
});

test("changing a create-only sourceName fails at preview, naming it", async () => {
  full = { ...full, sourceName: "another-pipeline" };
  try {
    const message = await messageOf(e2e.stack.preview({ onOutput: e2e.log }));
    expect(message).toContain("sourceName can only be set when the workspace is created");
  } finally {
    full = { ...full, sourceName: "platform-pipeline" };
  }
});

test("operations, autoDestroyAt and settingOverwrites each change alone too (on a second workspace)", async () => {
  extra = [{ name: "legacy", args: { name: "legacy-ws", operations: true, autoDestroyAt: "2031-01-31T18:00:00Z", settingOverwrites: { agentPool: false } } }];
  const created = await up();
  expect(created.changes).toEqual({ same: 3, create: 1 });
  const first = await preview();
  // The deprecated input is accepted, with a warning that names its replacement.
  expect(first.notes).toEqual([expect.stringContaining("`operations` is deprecated by the service; use `executionMode`")]);
  expect(first.steps).toEqual([]);
  const steps: [string, Args, (a: Record<string, unknown>) => unknown, unknown][] = [
    ["operations", { operations: false }, (a) => a["execution-mode"], "local"],
    ["autoDestroyAt", { autoDestroyAt: "2032-06-30T12:00:00Z" }, (a) => a["auto-destroy-at"], "2032-06-30T12:00:00.000Z"],
    ["settingOverwrites", { settingOverwrites: { agentPool: true } }, (a) => (a["setting-overwrites"] as Record<string, unknown>)["agent-pool"], true],
  ];
  for (const [key, change, read, expected] of steps) {
    const args = extra[0]?.args ?? {};
    extra = [{ name: "legacy", args: { ...args, ...change } }];
    const { steps: planned } = await preview();
    expect(planned).toEqual([{ op: "update", name: "legacy", changedInputs: [key] }]);
    expect((await up()).changes).toEqual({ same: 3, update: 1 });
    expect(read((await live("legacy-ws")).attributes)).toEqual(expected);
  }
  extra = [];
  expect((await up()).changes).toEqual({ same: 3, delete: 1 });
});

// ---- drift -----------------------------------------------------------------------------------

test("drift made on the server shows after refresh as exactly the restore up then makes", async () => {
  const ws = await live();
  expect((await e2e.api("PATCH", `/workspaces/${ws.id}`, {
    data: { type: "workspaces", attributes: { "auto-apply": true, "working-directory": "elsewhere" } },
  })).status).toBe(200);
  await e2e.stack.refresh({ onOutput: e2e.log });
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "update", name: "full", changedInputs: ["autoApply", "workingDirectory"] }]);
  await up();
  const after = await live();
  expect(after.attributes["auto-apply"]).toBe(false);
  expect(after.attributes["working-directory"]).toBe("stacks/staging");
  expect((await preview()).steps).toEqual([]);
});

test("a workspace deleted outside Pulumi leaves the state at refresh, and up creates it again", async () => {
  extra = [{ name: "ephemeral", args: { name: "ephemeral-ws" } }];
  await up();
  const gone = await live("ephemeral-ws");
  expect((await e2e.api("DELETE", `/workspaces/${gone.id}`)).status).toBe(204);
  const refresh = await e2e.stack.refresh({ onOutput: e2e.log });
  expect(refresh.summary.resourceChanges?.delete).toBe(1);
  const { steps } = await preview();
  expect(steps).toEqual([{ op: "create", name: "ephemeral", changedInputs: expect.any(Array) }]);
  extra = [];
  await up();
});

// ---- adoption --------------------------------------------------------------------------------

test("adoptExisting takes over a workspace made elsewhere: the preview says so, up keeps its id and applies the settings", async () => {
  const made = await e2e.api<Doc>("POST", `/organizations/${ORG}/workspaces`, { data: { type: "workspaces", attributes: { name: "made-in-the-ui", "auto-apply": true } } });
  expect(made.status).toBe(201);
  extra = [{ name: "adopted", args: { name: "made-in-the-ui", autoApply: false, description: "now managed", adoptExisting: true } }];
  const { steps, notes, writes } = await preview();
  const note = `Workspace "${ORG}/made-in-the-ui" exists (${made.doc.data.id}): \`up\` will adopt it (adoptExisting)`;
  expect(notes.filter((n) => n.includes("adopt"))).toEqual([expect.stringContaining(note)]);
  let printed = "";
  await e2e.stack.preview({ onOutput: (t) => { printed += t; } });
  expect(printed).toContain(note);
  expect(steps.map((s) => `${s.op} ${s.name}`)).toEqual(["create adopted"]);
  expect(writes).toEqual([]);
  await up();
  const ws = await live("made-in-the-ui");
  expect(ws.id).toBe(made.doc.data.id);
  expect(ws.attributes["auto-apply"]).toBe(false);
  expect(ws.attributes["description"]).toBe("now managed");
  expect((await preview()).steps).toEqual([]);
});

test("without adoptExisting, a workspace made elsewhere is refused, naming the way to adopt it", async () => {
  expect((await e2e.api("POST", `/organizations/${ORG}/workspaces`, { data: { type: "workspaces", attributes: { name: "someone-elses" } } })).status).toBe(201);
  const before = extra;
  extra = [...extra, { name: "clash", args: { name: "someone-elses" } }];
  try {
    const message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
    expect(message).toContain('Workspace "' + ORG + '/someone-elses" already exists and was not created by a pulumi-wsbridge stack resource');
    expect(message).toContain("adoptExisting: true");
  } finally {
    extra = before;
  }
});

// ---- delete ----------------------------------------------------------------------------------

test("destroy refuses a workspace that manages resources, then one that is locked, and forceDelete removes it", async () => {
  const ws = await live("made-in-the-ui");
  expect((await e2e.api("POST", `/workspaces/${ws.id}/state-versions`, {
    data: { type: "state-versions", attributes: { serial: 1, md5: "d41d8cd98f00b204e9800998ecf8427e", "resource-count": 2 } },
  })).status).toBe(201);
  extra = [];
  let message = await messageOf(e2e.stack.up({ onOutput: e2e.log }));
  expect(message).toContain("was not deleted because it still manages resources");
  expect(message).toContain("forceDelete: true");

  // forceDelete is the provider's switch: setting it sends nothing, and the next removal force-deletes.
  extra = [{ name: "adopted", args: { name: "made-in-the-ui", forceDelete: true, adoptExisting: true } }];
  const switched = await up();
  expect(switched.requests.filter((r) => !r.startsWith("GET"))).toEqual([]);
  extra = [];
  await up();

  const locked = await live();
  expect((await e2e.api("POST", `/workspaces/${locked.id}/actions/lock`, { reason: "maintenance" })).status).toBe(200);
  message = await messageOf(e2e.stack.destroy({ onOutput: e2e.log }));
  expect(message).toContain("because it is locked");

  full = { ...full, forceDelete: true };
  await up();
  const destroyed = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(destroyed.summary.result).toBe("succeeded");
  expect((await e2e.api("GET", `/organizations/${ORG}/workspaces/made-in-the-ui`)).status).toBe(404);
  expect((await e2e.api("GET", `/organizations/${ORG}/workspaces/${String(full.name)}`)).status).toBe(404);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

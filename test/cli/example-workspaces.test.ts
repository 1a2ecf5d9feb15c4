// examples/workspaces, run by the real Pulumi CLI against the emulator, with its settings read from
// stack config as a user's `pulumi up` would: the setup objects (project, agent pool, OAuth token, a
// workspace owned by someone else) are made through the emulator's setup calls first. Preview plans
// the creates and only reads, up creates the declared settings, a second preview is empty, and destroy
// removes exactly the program's workspaces. Fails (never skips) without the CLI
// (scripts/setup-pulumi.sh finds or builds it). Imports `pulumi-wsbridge` from dist/: run
// `npx tsc -p tsconfig.json` first.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { repoRoot } from "../../scripts/lib/stack-harness";
import { useRealCliStack } from "../support/real-cli-stack";

const EXAMPLE = path.join(repoRoot, "examples/workspaces");
const PREFIX = "e2e-platform";
const NAMES = { network: `${PREFIX}-network`, cluster: `${PREFIX}-clusters`, sandbox: `${PREFIX}-sandbox` };
const SHARED = "shared-dns";
const WORKSPACE_TYPE = "pulumi-nodejs:dynamic/wsbridge:Workspace";

/** The project name of the example's Pulumi.yaml: its config keys live in that namespace. */
const projectName = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8"))?.[1] ?? "";

type Resource = { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
type Body = { data?: Resource | Resource[] };

const setup = { projectId: "", agentPoolId: "", oauthTokenId: "", sharedId: "" };

const e2e = useRealCliStack({
  projectName,
  emulator: { quiet: true },
  // What examples/workspaces/index.ts does, as a function: inline programs run once per operation,
  // and a module's top level would run only on its first import.
  program: async () => {
    const { program, readConfig } = await import("../../examples/workspaces/program");
    return program(readConfig(new pulumi.Config()));
  },
});

/** A setup call that must answer 201; returns the created resource. */
async function created(apiPath: string, type: string, attributes: Record<string, unknown>): Promise<Resource> {
  const res = await e2e.api<Body>("POST", apiPath, { data: { type, attributes } });
  if (res.status !== 201 || res.doc.data === undefined || Array.isArray(res.doc.data)) {
    throw new Error(`POST ${apiPath}: ${res.status} ${JSON.stringify(res.doc)}`);
  }
  return res.doc.data;
}

async function workspace(name: string): Promise<{ status: number; data?: Resource }> {
  const res = await e2e.api<Body>("GET", `/organizations/${e2e.emulator.organization}/workspaces/${name}`);
  return { status: res.status, data: Array.isArray(res.doc.data) ? undefined : res.doc.data };
}

/** The id a to-one relationship points at (e.g. a workspace's project). */
function related(resource: Resource | undefined, name: string): unknown {
  return (resource?.relationships?.[name]?.data as { id?: string } | null | undefined)?.id;
}

async function tagBindings(workspaceId: string): Promise<Record<string, unknown>> {
  const res = await e2e.api<Body>("GET", `/workspaces/${workspaceId}/tag-bindings`);
  const list = Array.isArray(res.doc.data) ? res.doc.data : [];
  return Object.fromEntries(list.map((b) => [b.attributes["key"], b.attributes["value"]]));
}

beforeAll(async () => {
  expect(projectName).toBe("wsbridge-workspaces");
  const org = `/organizations/${e2e.emulator.organization}`;
  // The objects a platform team sets up once, by hand: the example takes their ids from stack config.
  setup.projectId = (await created(`${org}/projects`, "projects", { name: "Platform" })).id;
  setup.agentPoolId = (await created(`${org}/agent-pools`, "agent-pools", { name: "private-k8s" })).id;
  const client = await created(`${org}/oauth-clients`, "oauth-clients", { name: "GitHub", "service-provider": "github" });
  const tokens = client.relationships?.["oauth-tokens"]?.data as { id: string }[] | undefined;
  setup.oauthTokenId = tokens?.[0]?.id ?? "";
  setup.sharedId = (await created(`${org}/workspaces`, "workspaces", { name: SHARED, description: "managed by the DNS team" })).id;
  expect(setup.oauthTokenId).toMatch(/^ot-/);

  const setting = (key: string, value: string) => [`${projectName}:${key}`, { value }] as const;
  await e2e.stack.setAllConfig(Object.fromEntries([
    setting("projectId", setup.projectId),
    setting("agentPoolId", setup.agentPoolId),
    setting("oauthTokenId", setup.oauthTokenId),
    setting("sharedWorkspaceName", SHARED),
    setting("namePrefix", PREFIX),
  ]));
});

test("preview plans the three workspaces and only reads from the service (the lookup)", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onOutput: e2e.log });
  expect(result.changeSummary).toEqual({ create: 4 }); // the stack and three workspaces
  expect(e2e.requestLines()).toContain(`GET /api/v2/organizations/${e2e.emulator.organization}/workspaces/${SHARED}`);
  expect(e2e.writes()).toEqual([]);
});

test("up creates the workspaces with the declared settings", async () => {
  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.summary.resourceChanges).toEqual({ create: 4 });

  const network = (await workspace(NAMES.network)).data;
  const cluster = (await workspace(NAMES.cluster)).data;
  const sandbox = (await workspace(NAMES.sandbox)).data;
  if (!network || !cluster || !sandbox) throw new Error("a workspace of the example is missing on the emulator");

  // VCS: repository, OAuth connection, branch, working directory, trigger prefixes / patterns.
  expect(network.attributes["vcs-repo"]).toEqual(expect.objectContaining({
    identifier: "acme/platform-infra", "oauth-token-id": setup.oauthTokenId, branch: "main",
  }));
  expect(network.attributes["working-directory"]).toBe("network");
  // Sets: the provider sends them in one canonical order.
  expect([...(network.attributes["trigger-prefixes"] as string[])].sort()).toEqual(["modules/shared/", "modules/vpc/"]);
  expect(network.attributes["global-remote-state"]).toBe(true);
  expect([...(cluster.attributes["trigger-patterns"] as string[])].sort()).toEqual(["clusters/**/*.tf", "modules/k8s/**/*"]);

  // Agent execution, and the project.
  expect(cluster.attributes["execution-mode"]).toBe("agent");
  expect(related(cluster, "agent-pool")).toBe(setup.agentPoolId);
  expect(related(network, "project")).toBe(setup.projectId);
  expect(related(cluster, "project")).toBe(setup.projectId);
  expect(related(sandbox, "project")).not.toBe(setup.projectId); // left out: the default project
  expect(sandbox.attributes["execution-mode"]).toBe("local");
  expect(sandbox.attributes["auto-destroy-activity-duration"]).toBe("14d");

  // Key-value and flat tags.
  expect(await tagBindings(network.id)).toEqual({ team: "platform", "cost-center": "cc-1042", env: "prod", layer: "network" });
  expect(await tagBindings(sandbox.id)).toEqual({ team: "platform", "cost-center": "cc-1042", env: "sandbox" });
  expect([...(network.attributes["tag-names"] as string[])].sort()).toEqual(["network", "platform"]);
  expect([...(cluster.attributes["tag-names"] as string[])].sort()).toEqual(["kubernetes", "platform"]);

  // The dependencies: one workspace's id, and the looked-up one's, in descriptions.
  expect(cluster.attributes["description"]).toBe(
    `Kubernetes clusters; reads subnet ids from ${NAMES.network} (${network.id}) via remote state`,
  );
  expect(sandbox.attributes["description"]).toBe(
    `Experiments against the zones of ${SHARED} (${setup.sharedId}); destroyed after 14 idle days`,
  );

  // Stack outputs.
  const out = (key: string): unknown => up.outputs[key]?.value;
  expect(out("networkWorkspaceId")).toBe(network.id);
  expect(out("clusterWorkspaceId")).toBe(cluster.id);
  expect(out("sandboxWorkspaceId")).toBe(sandbox.id);
  expect(out("clusterExecutionMode")).toBe("agent");
  expect(out("sharedWorkspaceId")).toBe(setup.sharedId);
  const html = (name: string) => `${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/${name}`;
  expect(out("networkUrl")).toBe(html(NAMES.network));
  expect(out("clusterUrl")).toBe(html(NAMES.cluster));
  expect(out("sandboxUrl")).toBe(html(NAMES.sandbox));
  expect(out("sharedWorkspaceUrl")).toBe(html(SHARED));
});

test("a second preview shows no changes and makes no mutating call", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onOutput: e2e.log, diff: true });
  expect(result.changeSummary).toEqual({ same: 4 });
  expect(e2e.writes()).toEqual([]);
});

test("destroy removes exactly the program's workspaces; the looked-up one stays untouched", async () => {
  const result = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ delete: 4 });
  for (const name of Object.values(NAMES)) expect((await workspace(name)).status).toBe(404);
  const shared = await workspace(SHARED);
  expect(shared.status).toBe(200);
  expect(shared.data?.attributes["description"]).toBe("managed by the DNS team");
  const state = await e2e.stack.exportStack();
  const left = ((state.deployment as { resources?: { type: string }[] }).resources ?? []).filter((r) => r.type === WORKSPACE_TYPE);
  expect(left).toEqual([]);
});

test("nothing the CLI printed contains the token", () => {
  expect(e2e.printed).toContain(WORKSPACE_TYPE); // the logs really were captured
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

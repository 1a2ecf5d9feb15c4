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
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, repoRoot, type HarnessStack } from "../scripts/lib/stack-harness";

const EXAMPLE = path.join(repoRoot, "examples/workspaces");
const PREFIX = "e2e-platform";
const NAMES = { network: `${PREFIX}-network`, cluster: `${PREFIX}-clusters`, sandbox: `${PREFIX}-sandbox` };
const SHARED = "shared-dns";
const WORKSPACE_TYPE = "pulumi-nodejs:dynamic/wsbridge:Workspace";

/** The project name of the example's Pulumi.yaml: its config keys live in that namespace. */
const projectName = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8"))?.[1] ?? "";

type Resource = { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
interface Reply {
  status: number;
  body: { data?: Resource | Resource[] };
}

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
const setup = { projectId: "", agentPoolId: "", oauthTokenId: "", sharedId: "" };
let printed = "";
const log = (text: string): void => {
  printed += text;
};

async function api(method: "GET" | "POST", apiPath: string, body?: unknown): Promise<Reply> {
  const res = await request(`${emulator.url}/api/v2${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text === "" ? {} : (JSON.parse(text) as Reply["body"]) };
}

/** A setup call that must answer 201; returns the created resource. */
async function created(apiPath: string, type: string, attributes: Record<string, unknown>): Promise<Resource> {
  const res = await api("POST", apiPath, { data: { type, attributes } });
  if (res.status !== 201 || res.body.data === undefined || Array.isArray(res.body.data)) {
    throw new Error(`POST ${apiPath}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.data;
}

async function workspace(name: string): Promise<{ status: number; data?: Resource }> {
  const res = await api("GET", `/organizations/${emulator.organization}/workspaces/${name}`);
  return { status: res.status, data: Array.isArray(res.body.data) ? undefined : res.body.data };
}

/** The id a to-one relationship points at (e.g. a workspace's project). */
function related(resource: Resource | undefined, name: string): unknown {
  return (resource?.relationships?.[name]?.data as { id?: string } | null | undefined)?.id;
}

async function tagBindings(workspaceId: string): Promise<Record<string, unknown>> {
  const res = await api("GET", `/workspaces/${workspaceId}/tag-bindings`);
  const list = Array.isArray(res.body.data) ? res.body.data : [];
  return Object.fromEntries(list.map((b) => [b.attributes["key"], b.attributes["value"]]));
}

beforeAll(async () => {
  expect(projectName).toBe("wsbridge-workspaces");
  cli = await pulumiCli();
  emulator = await startEmulator({ port: 0, quiet: true });
  const org = `/organizations/${emulator.organization}`;
  // The objects a platform team sets up once, by hand: the example takes their ids from stack config.
  setup.projectId = (await created(`${org}/projects`, "projects", { name: "Platform" })).id;
  setup.agentPoolId = (await created(`${org}/agent-pools`, "agent-pools", { name: "private-k8s" })).id;
  const client = await created(`${org}/oauth-clients`, "oauth-clients", { name: "GitHub", "service-provider": "github" });
  const tokens = client.relationships?.["oauth-tokens"]?.data as { id: string }[] | undefined;
  setup.oauthTokenId = tokens?.[0]?.id ?? "";
  setup.sharedId = (await created(`${org}/workspaces`, "workspaces", { name: SHARED, description: "managed by the DNS team" })).id;
  expect(setup.oauthTokenId).toMatch(/^ot-/);

  const setting = (key: string, value: string) => [`${projectName}:${key}`, { value }] as const;
  harness = await createStack({
    cli,
    projectName,
    config: {
      ...emulatorStackConfig(emulator),
      ...Object.fromEntries([
        setting("projectId", setup.projectId),
        setting("agentPoolId", setup.agentPoolId),
        setting("oauthTokenId", setup.oauthTokenId),
        setting("sharedWorkspaceName", SHARED),
        setting("namePrefix", PREFIX),
      ]),
    },
    // What examples/workspaces/index.ts does, as a function: inline programs run once per operation,
    // and a module's top level would run only on its first import.
    program: async () => {
      const { program, readConfig } = await import("../examples/workspaces/program");
      return program(readConfig(new pulumi.Config()));
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.dispose();
  await emulator?.close();
});

test("preview plans the three workspaces and only reads from the service (the lookup)", async () => {
  emulator.clearRequests();
  const result = await harness.stack.preview({ onOutput: log });
  expect(result.changeSummary).toEqual({ create: 4 }); // the stack and three workspaces
  const requests = emulator.requests();
  expect(requests.map((r) => `${r.method} ${r.path}`)).toContain(`GET /api/v2/organizations/${emulator.organization}/workspaces/${SHARED}`);
  expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
});

test("up creates the workspaces with the declared settings", async () => {
  const up = await harness.stack.up({ onOutput: log });
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
  const html = (name: string) => `${emulator.url}/app/${emulator.organization}/workspaces/${name}`;
  expect(out("networkUrl")).toBe(html(NAMES.network));
  expect(out("clusterUrl")).toBe(html(NAMES.cluster));
  expect(out("sandboxUrl")).toBe(html(NAMES.sandbox));
  expect(out("sharedWorkspaceUrl")).toBe(html(SHARED));
});

test("a second preview shows no changes and makes no mutating call", async () => {
  emulator.clearRequests();
  const result = await harness.stack.preview({ onOutput: log, diff: true });
  expect(result.changeSummary).toEqual({ same: 4 });
  expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
});

test("destroy removes exactly the program's workspaces; the looked-up one stays untouched", async () => {
  const result = await harness.stack.destroy({ onOutput: log });
  expect(result.summary.resourceChanges).toEqual({ delete: 4 });
  for (const name of Object.values(NAMES)) expect((await workspace(name)).status).toBe(404);
  const shared = await workspace(SHARED);
  expect(shared.status).toBe(200);
  expect(shared.data?.attributes["description"]).toBe("managed by the DNS team");
  const state = await harness.stack.exportStack();
  const left = ((state.deployment as { resources?: { type: string }[] }).resources ?? []).filter((r) => r.type === WORKSPACE_TYPE);
  expect(left).toEqual([]);
});

test("nothing the CLI printed contains the token", () => {
  expect(printed).toContain(WORKSPACE_TYPE); // the logs really were captured
  expect(printed).not.toContain(emulator.token);
});

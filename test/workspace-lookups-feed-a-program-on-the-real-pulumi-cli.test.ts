// getWorkspaceOutput and listWorkspacesOutput in a program run by the real Pulumi CLI against the
// emulator: the lookups read workspaces the stack does not manage, during preview as during up, and
// their results flow into a Workspace's inputs and into stack outputs. This test fails (never skips)
// without the CLI: scripts/setup-pulumi.sh finds or builds it. It imports `pulumi-wsbridge` from dist/:
// run `npx tsc -p tsconfig.json` first.
import type { EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";

const SHARED = "lookup-shared-network";
const OTHERS = ["lookup-shared-dns", "lookup-other"];
const CONSUMER = "lookup-consumer";

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
let sharedId = "";
let printed = "";
const log = (text: string): void => {
  printed += text;
};

async function api(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: { data?: { id: string; attributes: Record<string, unknown> } } }> {
  const res = await request(`${emulator.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as { data?: { id: string; attributes: Record<string, unknown> } } };
}

/** Creates a workspace directly on the emulator, as someone outside this stack would. */
async function createOutsideTheStack(name: string): Promise<string> {
  const res = await api("POST", `/organizations/${emulator.organization}/workspaces`, {
    data: { type: "workspaces", attributes: { name, description: "managed elsewhere" } },
  });
  expect(res.status).toBe(201);
  return res.body.data?.id ?? "";
}

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({ port: 0, quiet: true });
  sharedId = await createOutsideTheStack(SHARED);
  for (const name of OTHERS) await createOutsideTheStack(name);
  harness = await createStack({
    cli,
    projectName: "wsbridge-lookups-e2e",
    config: emulatorStackConfig(emulator),
    program: async () => {
      const { Workspace, getWorkspaceOutput, listWorkspacesOutput } = await import("pulumi-wsbridge");
      // The organization, address and token come from the stack config, read in the program process.
      const shared = getWorkspaceOutput({ name: SHARED });
      const consumer = new Workspace("consumer", { name: CONSUMER, description: shared.id.apply((id) => `reads the state of ${id}`) });
      const listed = listWorkspacesOutput({ wildcardName: "lookup-shared-*" });
      return {
        sharedId: shared.id,
        sharedHtmlUrl: shared.htmlUrl,
        consumerDescription: consumer.description,
        sharedWorkspaces: listed.apply((all) => all.map((w) => ({ id: w.id, name: w.name })).sort((a, b) => a.name.localeCompare(b.name))),
      };
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.dispose();
  await emulator?.close();
});

test("preview runs the lookups, plans the description from the looked-up id, and sends only GETs", async () => {
  const events: EngineEvent[] = [];
  emulator.clearRequests();
  const result = await harness.stack.preview({ onEvent: (e) => events.push(e), onOutput: log });
  expect(result.changeSummary).toEqual({ create: 2 });
  const planned = events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "pulumi-nodejs:dynamic/wsbridge:Workspace");
  expect(planned?.new?.inputs?.["description"]).toBe(`reads the state of ${sharedId}`);
  const requests = emulator.requests();
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining([
    `GET /api/v2/organizations/${emulator.organization}/workspaces/${SHARED}`,
    `GET /api/v2/organizations/${emulator.organization}/workspaces`,
  ]));
  expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
});

test("up sets the description from the lookup and exports the lookups' results", async () => {
  const up = await harness.stack.up({ onOutput: log });
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  const consumer = await api("GET", `/organizations/${emulator.organization}/workspaces/${CONSUMER}`);
  expect(consumer.body.data?.attributes["description"]).toBe(`reads the state of ${sharedId}`);
  expect(up.outputs["consumerDescription"]?.value).toBe(`reads the state of ${sharedId}`);
  expect(up.outputs["sharedId"]?.value).toBe(sharedId);
  expect(up.outputs["sharedHtmlUrl"]?.value).toBe(`${emulator.url}/app/${emulator.organization}/workspaces/${SHARED}`);
  const dns = await api("GET", `/organizations/${emulator.organization}/workspaces/lookup-shared-dns`);
  expect(up.outputs["sharedWorkspaces"]?.value).toEqual([
    { id: dns.body.data?.id, name: "lookup-shared-dns" },
    { id: sharedId, name: SHARED },
  ]);
});

test("a second preview is unchanged: the lookups return the same values", async () => {
  const result = await harness.stack.preview({ onOutput: log });
  expect(result.changeSummary).toEqual({ same: 2 });
});

test("the looked-up workspaces were only read, and nothing printed or stored holds the token", async () => {
  for (const name of [SHARED, ...OTHERS]) {
    const ws = await api("GET", `/organizations/${emulator.organization}/workspaces/${name}`);
    expect(ws.body.data?.attributes["description"]).toBe("managed elsewhere");
  }
  expect(printed.length).toBeGreaterThan(0);
  expect(printed).not.toContain(emulator.token);
  expect(harness.allStoredText()).toContain(sharedId);
  expect(harness.allStoredText()).not.toContain(emulator.token);
});

test("destroy removes only the stack's own workspace", async () => {
  await harness.stack.destroy({ onOutput: log });
  expect((await api("GET", `/organizations/${emulator.organization}/workspaces/${CONSUMER}`)).status).toBe(404);
  for (const name of [SHARED, ...OTHERS]) {
    expect((await api("GET", `/organizations/${emulator.organization}/workspaces/${name}`)).status).toBe(200);
  }
});

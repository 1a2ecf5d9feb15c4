// getWorkspaceOutput and listWorkspacesOutput in a program run by the real Pulumi CLI against the
// emulator: the lookups read workspaces the stack does not manage, during preview as during up, and
// their results flow into a Workspace's inputs and into stack outputs. This test fails (never skips)
// without the CLI: scripts/setup-pulumi.sh finds or builds it. It imports `pulumi-wsbridge` from dist/:
// run `npx tsc -p tsconfig.json` first.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";

const SHARED = "lookup-shared-network";
const OTHERS = ["lookup-shared-dns", "lookup-other"];
const CONSUMER = "lookup-consumer";

let sharedId = "";

type WorkspaceDoc = { data?: { id: string; attributes: Record<string, unknown> } };

const e2e = useRealCliStack({
  projectName: "wsbridge-lookups-e2e",
  emulator: { quiet: true },
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

/** Creates a workspace directly on the emulator, as someone outside this stack would. */
async function createOutsideTheStack(name: string): Promise<string> {
  const res = await e2e.api<WorkspaceDoc>("POST", `/organizations/${e2e.emulator.organization}/workspaces`, {
    data: { type: "workspaces", attributes: { name, description: "managed elsewhere" } },
  });
  expect(res.status).toBe(201);
  return res.doc.data?.id ?? "";
}

beforeAll(async () => {
  sharedId = await createOutsideTheStack(SHARED);
  for (const name of OTHERS) await createOutsideTheStack(name);
});

test("preview runs the lookups, plans the description from the looked-up id, and sends only GETs", async () => {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(result.changeSummary).toEqual({ create: 2 });
  const planned = events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "pulumi-nodejs:dynamic/wsbridge:Workspace");
  expect(planned?.new?.inputs?.["description"]).toBe(`reads the state of ${sharedId}`);
  const requests = e2e.emulator.requests();
  expect(e2e.requestLines()).toEqual(expect.arrayContaining([
    `GET /api/v2/organizations/${e2e.emulator.organization}/workspaces/${SHARED}`,
    `GET /api/v2/organizations/${e2e.emulator.organization}/workspaces`,
  ]));
  expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
});

test("up sets the description from the lookup and exports the lookups' results", async () => {
  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  const consumer = await e2e.api<WorkspaceDoc>("GET", `/organizations/${e2e.emulator.organization}/workspaces/${CONSUMER}`);
  expect(consumer.doc.data?.attributes["description"]).toBe(`reads the state of ${sharedId}`);
  expect(up.outputs["consumerDescription"]?.value).toBe(`reads the state of ${sharedId}`);
  expect(up.outputs["sharedId"]?.value).toBe(sharedId);
  expect(up.outputs["sharedHtmlUrl"]?.value).toBe(`${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/${SHARED}`);
  const dns = await e2e.api<WorkspaceDoc>("GET", `/organizations/${e2e.emulator.organization}/workspaces/lookup-shared-dns`);
  expect(up.outputs["sharedWorkspaces"]?.value).toEqual([
    { id: dns.doc.data?.id, name: "lookup-shared-dns" },
    { id: sharedId, name: SHARED },
  ]);
});

test("a second preview is unchanged: the lookups return the same values", async () => {
  const result = await e2e.stack.preview({ onOutput: e2e.log });
  expect(result.changeSummary).toEqual({ same: 2 });
});

test("the looked-up workspaces were only read, and nothing printed or stored holds the token", async () => {
  for (const name of [SHARED, ...OTHERS]) {
    const ws = await e2e.api<WorkspaceDoc>("GET", `/organizations/${e2e.emulator.organization}/workspaces/${name}`);
    expect(ws.doc.data?.attributes["description"]).toBe("managed elsewhere");
  }
  expect(e2e.printed.length).toBeGreaterThan(0);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
  expect(e2e.harness.allStoredText()).toContain(sharedId);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("destroy removes only the stack's own workspace", async () => {
  await e2e.stack.destroy({ onOutput: e2e.log });
  expect((await e2e.api("GET", `/organizations/${e2e.emulator.organization}/workspaces/${CONSUMER}`)).status).toBe(404);
  for (const name of [SHARED, ...OTHERS]) {
    expect((await e2e.api("GET", `/organizations/${e2e.emulator.organization}/workspaces/${name}`)).status).toBe(200);
  }
});

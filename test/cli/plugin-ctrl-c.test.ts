// Ctrl-C during `pulumi up` on the plugin route, on the real CLI: the engine sends the plugin Cancel,
// and a create waiting out a long 429 ends at once without being sent again, while the create that
// the server had already applied is in the state. The next `up` creates the other one, once.
// (The Automation API's abort signal sends the CLI the SIGINT a terminal's Ctrl-C sends.)
import { useRealCliStack } from "../support/real-cli-stack";

const NAMES = ["ctrl-c-first", "ctrl-c-second"];
/** The second workspace's organization: its create alone meets the 429. */
const OTHER_ORG = "ctrl-c-other";

const e2e = useRealCliStack({
  projectName: "wsbridge-plugin-ctrl-c",
  plugin: true,
  // One user owns both organizations, so the stack's token reaches both.
  emulator: { fixtures: { organizations: [{ name: "example-org", ownerUsername: "admin" }, { name: OTHER_ORG, ownerUsername: "admin" }] } },
  // A 429 may ask for up to 5 minutes here: without the cancellation, the up would wait and retry.
  config: { "wsbridge:rateLimitMaxWaitMs": { value: "300000" }, "wsbridge:retryBudgetMs": { value: "600000" } },
  program: async () => {
    const wsbridge = await import("@pulumi-wsbridge/wsbridge");
    // One after the other: the client pauses every request to the server while it waits out a 429.
    const first = new wsbridge.Workspace(NAMES[0]!, { name: NAMES[0]! });
    new wsbridge.Workspace(NAMES[1]!, { name: NAMES[1]!, organization: OTHER_ORG }, { dependsOn: first });
  },
});

const CREATE = (org: string): string => `/api/v2/organizations/${org}/workspaces`;

async function serverNames(): Promise<string[]> {
  const names: string[] = [];
  for (const org of [e2e.emulator.organization, OTHER_ORG]) {
    const { doc } = await e2e.api<{ data: Array<{ attributes: { name: string } }> }>("GET", `/organizations/${org}/workspaces`);
    names.push(...doc.data.map((w) => w.attributes.name).filter((n) => NAMES.includes(n)));
  }
  return names.sort();
}

async function stateNames(): Promise<string[]> {
  const deployment = (await e2e.stack.exportStack()).deployment as { resources?: Array<{ type: string; outputs?: { name?: string } }> };
  return (deployment.resources ?? []).filter((r) => r.type === "wsbridge:index:Workspace").map((r) => r.outputs?.name ?? "").sort();
}

test("Ctrl-C while one create waits out a 429 ends the up without sending it again, and keeps the applied one", async () => {
  e2e.emulator.clearRequests();
  e2e.emulator.setFaults({ script: [{ match: { method: "POST", path: CREATE(OTHER_ORG) }, status: 429, retryAfterSeconds: 300 }] });
  const abort = new AbortController();
  const up = e2e.stack.up({ onOutput: e2e.log, signal: abort.signal }).then(() => "succeeded", (e: Error) => e.message);
  // Both creates answered: the first applied (201), the second refused (429) and now waiting.
  while (e2e.emulator.requests().filter((r) => r.method === "POST" && r.status !== null).length < 2) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  abort.abort();
  const outcome = await up;
  expect(outcome).toContain("was not sent again: the deployment was cancelled");
  expect(e2e.emulator.requests().filter((r) => r.method === "POST").map((r) => `${r.status} ${r.path}`)).toEqual([
    `201 ${CREATE(e2e.emulator.organization)}`, `429 ${CREATE(OTHER_ORG)}`,
  ]);
  expect(await serverNames()).toEqual([NAMES[0]]);
  expect(await stateNames()).toEqual([NAMES[0]]);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
}, 240_000);

test("the next up creates the other workspace with one request and leaves the applied one alone", async () => {
  e2e.emulator.clearFaults();
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ create: 1, same: 2 });
  expect(e2e.writes()).toEqual([`POST ${CREATE(OTHER_ORG)}`]);
  expect(await serverNames()).toEqual(NAMES);
  expect(await stateNames()).toEqual(NAMES);
});

test("destroy removes both", async () => {
  await e2e.stack.destroy({ onOutput: e2e.log });
  expect(await serverNames()).toEqual([]);
});

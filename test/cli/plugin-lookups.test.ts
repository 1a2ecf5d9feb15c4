// The four lookups on the plugin route, on the real CLI: the SDK's functions reach the plugin's Invoke,
// which runs the same lookup runtime as the dynamic route with the provider's settings. Their results
// feed a resource and the stack outputs during preview as during up, they send only GET requests, and
// bad arguments fail the preview naming the argument, without a request.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { useRealCliStack } from "../support/real-cli-stack";
import { plannedSteps } from "../support/plugin-route";
import { markExpectedProgramFailureHandled } from "../support/engine-gone";

let badArguments = false;

const e2e = useRealCliStack({
  projectName: "wsbridge-plugin-lookups",
  plugin: true,
  emulator: {
    fixtures: {
      organizations: [{
        name: "example-org",
        workspaces: [{ name: "lookup-shared-network" }, { name: "lookup-shared-dns" }, { name: "lookup-other" }],
        registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", { version: "1.1.0", deprecation: { reason: "use 1.2.0" } }, "1.2.0"] }],
      }],
    },
  },
  program: async () => {
    const wsbridge = await import("@pulumi-wsbridge/wsbridge");
    const shared = wsbridge.getWorkspaceOutput(badArguments ? { name: "lookup-shared-network", id: "ws-both" } : { name: "lookup-shared-network" });
    const listed = wsbridge.listWorkspacesOutput({ wildcardName: "lookup-shared-*" });
    const version = wsbridge.getModuleVersionOutput({ moduleName: "vpc", provider: "aws", version: "1.1.0" });
    const versions = wsbridge.listModuleVersionsOutput({ moduleName: "vpc", provider: "aws" });
    const consumer = new wsbridge.Workspace("consumer", { name: "lookup-consumer", description: shared.id.apply((id) => `reads the state of ${id}`) });
    return {
      sharedId: shared.id,
      consumerDescription: consumer.description,
      listed: listed.workspaces.apply((all) => all.map((w) => w.name).sort()),
      deprecation: version.deprecation,
      versions: versions.versions.apply((all) => all.map((v) => `${v.version}${v.deprecated ? " (deprecated)" : ""}`)),
    };
  },
});

const ORG_PATH = "/api/v2/organizations/example-org";

test("the preview runs every lookup through the plugin, plans the consumer from a looked-up id, and sends only GETs", async () => {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const result = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(result.changeSummary).toEqual({ create: 2 });
  const planned = events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "wsbridge:index:Workspace");
  const sharedId = (await e2e.api<{ data: { id: string } }>("GET", "/organizations/example-org/workspaces/lookup-shared-network")).doc.data.id;
  expect(planned?.new?.inputs?.["description"]).toBe(`reads the state of ${sharedId}`);
  expect(e2e.writes()).toEqual([]);
  expect(e2e.requestLines((p) => p.replace(/\?.*$/, "")).sort()).toEqual(expect.arrayContaining([
    `GET ${ORG_PATH}/workspaces/lookup-shared-network`, `GET ${ORG_PATH}/workspaces`,
  ]));
});

test("up feeds the lookups' results to the resource and the outputs", async () => {
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.outputs.listed?.value).toEqual(["lookup-shared-dns", "lookup-shared-network"]);
  expect(result.outputs.deprecation?.value).toEqual({ reason: "use 1.2.0", link: null });
  expect(result.outputs.versions?.value).toEqual(["1.0.0", "1.1.0 (deprecated)", "1.2.0"]);
  expect(result.outputs.consumerDescription?.value).toBe(`reads the state of ${String(result.outputs.sharedId?.value)}`);
});

const BAD_ARGUMENTS_FAILURE = "Invoke of 'wsbridge:index:getWorkspace' failed: id and name must not both be given (give exactly one of them) (id)";
// The SDK leaves the failed lookup's error on every promise that read its result (the description,
// its serialization); the preview's own failure is what the test checks. Kept to the file's end,
// since those orphans may surface after the preview returns.
let stopMarking = (): void => undefined;
afterAll(() => stopMarking());

test("bad lookup arguments fail the preview naming the argument, with no request", async () => {
  badArguments = true;
  stopMarking = markExpectedProgramFailureHandled(BAD_ARGUMENTS_FAILURE);
  try {
    e2e.emulator.clearRequests();
    const events: EngineEvent[] = [];
    const message = await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log }).then(() => "succeeded", (e: Error) => e.message);
    expect(message).toContain(BAD_ARGUMENTS_FAILURE);
    expect(plannedSteps(events, "wsbridge:index:Workspace")).toEqual([]);
    expect(e2e.requestLines().filter((line) => line.includes("ws-both") || line.includes("lookup-shared-network?"))).toEqual([]);
  } finally {
    badArguments = false;
  }
});

test("destroy removes the consumer only", async () => {
  await e2e.stack.destroy({ onOutput: e2e.log });
  const left = await e2e.api<{ data: { attributes: { name: string } }[] }>("GET", "/organizations/example-org/workspaces");
  expect(left.doc.data.map((w) => w.attributes.name).sort()).toEqual(["lookup-other", "lookup-shared-dns", "lookup-shared-network"]);
});

// The set-valued resources and the Workspace class share what they know in the program: a tag key
// declared both in Workspace.tagBindings and in a WorkspaceTagBindings, and consumers declared for a
// Workspace whose globalRemoteState is true, fail the preview (real CLI, against the emulator),
// before anything is written.
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";
import { failureOf } from "./support/failure";

type Shape = "workspace only" | "same tag key twice" | "consumers of a shared workspace";

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
let shape: Shape = "workspace only";

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({ port: 0 });
  harness = await createStack({
    cli,
    projectName: "wsbridge-set-claims",
    config: emulatorStackConfig(emulator),
    program: async () => {
      const { Workspace, WorkspaceTagBindings, RemoteStateConsumers } = await import("pulumi-wsbridge");
      const shared = shape === "consumers of a shared workspace";
      const ws = new Workspace("app", { name: "claims-app", tagBindings: { env: "prod" }, globalRemoteState: shared });
      if (shape === "same tag key twice") new WorkspaceTagBindings("extra", { workspaceId: ws.id, tags: { env: "staging" } });
      if (shared) {
        const reader = new Workspace("reader", { name: "claims-reader" });
        new RemoteStateConsumers("readers", { workspaceId: ws.id, consumerIds: [reader.id] });
      }
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.stack.destroy().catch(() => undefined);
  await harness?.dispose();
  await emulator?.close();
});

test("a tag key declared by the Workspace and by a WorkspaceTagBindings fails the preview, naming the key", async () => {
  await harness.stack.up();
  shape = "same tag key twice";
  emulator.clearRequests();
  const message = String((await failureOf(harness.stack.preview())).message);
  expect(message).toContain('Workspace "app" and WorkspaceTagBindings "extra" both declare the tag key "env"');
  expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
});

test("consumers for a Workspace of the same program that shares its state globally fail the preview", async () => {
  shape = "consumers of a shared workspace";
  emulator.clearRequests();
  const message = String((await failureOf(harness.stack.preview())).message);
  expect(message).toContain('RemoteStateConsumers "readers": workspaceId is Workspace "app", which declares globalRemoteState: true');
  expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  shape = "workspace only";
});

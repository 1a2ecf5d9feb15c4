// The set-valued resources and the Workspace class share what they know in the program: a tag key
// declared both in Workspace.tagBindings and in a WorkspaceTagBindings, and consumers declared for a
// Workspace whose globalRemoteState or projectRemoteState is true, fail the preview (real CLI, against the emulator),
// before anything is written.
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

type Shape = "workspace only" | "same tag key twice" | "consumers of a shared workspace" | "consumers of a project-shared workspace";

let shape: Shape = "workspace only";

// Declared before the fixture: afterAll hooks run in declaration order, and the fixture's closes the emulator.
afterAll(async () => {
  try {
    await e2e.stack.destroy();
  } catch {
    // Nothing to destroy (the setup failed), or the destroy did: the emulator goes next anyway.
  }
});

const e2e = useRealCliStack({
  projectName: "wsbridge-set-claims",
  program: async () => {
    const { Workspace, WorkspaceTagBindings, RemoteStateConsumers } = await import("pulumi-wsbridge");
    const shared = shape === "consumers of a shared workspace";
    const projectShared = shape === "consumers of a project-shared workspace";
    const ws = new Workspace("app", {
      name: "claims-app", tagBindings: { env: "prod" }, globalRemoteState: shared, ...(projectShared && { projectRemoteState: true }),
    });
    if (shape === "same tag key twice") new WorkspaceTagBindings("extra", { workspaceId: ws.id, tags: { env: "staging" } });
    if (shared || projectShared) {
      const reader = new Workspace("reader", { name: "claims-reader" });
      new RemoteStateConsumers("readers", { workspaceId: ws.id, consumerIds: [reader.id] });
    }
  },
});

test("a tag key declared by the Workspace and by a WorkspaceTagBindings fails the preview, naming the key", async () => {
  await e2e.stack.up();
  shape = "same tag key twice";
  e2e.emulator.clearRequests();
  const message = String((await failureOf(e2e.stack.preview())).message);
  expect(message).toContain('Workspace "app" and WorkspaceTagBindings "extra" both declare the tag key "env"');
  expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
});

test("consumers for a Workspace of the same program that shares its state globally fail the preview", async () => {
  shape = "consumers of a shared workspace";
  e2e.emulator.clearRequests();
  const message = String((await failureOf(e2e.stack.preview())).message);
  expect(message).toContain('RemoteStateConsumers "readers": workspaceId is Workspace "app", which declares globalRemoteState: true');
  expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  shape = "workspace only";
});

test("consumers for a Workspace of the same program that shares its state with its project fail the preview (issue 25)", async () => {
  shape = "consumers of a project-shared workspace";
  e2e.emulator.clearRequests();
  const message = String((await failureOf(e2e.stack.preview())).message);
  expect(message).toContain('RemoteStateConsumers "readers": workspaceId is Workspace "app", which declares projectRemoteState: true');
  expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  shape = "workspace only";
});

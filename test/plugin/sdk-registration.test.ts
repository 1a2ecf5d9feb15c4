// The plugin's generated SDK registers its resources with the Node.js SDK's promise stack traces paused
// (scripts/sdkgen/overlays/nodejs/registration.ts, applied by sdkgen to every generated constructor):
// a generated class registers every input and output, and the SDK records a stack per promise of each,
// which was half of a program's time per resource. The pause covers every promise of the registration,
// is undone afterwards, stays off when the user asked for the leak report, and every class has it.
import * as pulumi from "@pulumi/pulumi";
import * as wsbridge from "@pulumi-wsbridge/wsbridge";

type Wrap = <T>(p: Promise<T>, ctx: string) => Promise<T>;
// The SDK module whose wrapper records the stack traces (internal, so not in its type declarations).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const debuggable = require("@pulumi/pulumi/runtime/debuggable") as { debuggablePromise: Wrap };

/** The stack trace limit in force each time the SDK wrapped a promise, once the resource has registered. */
async function limitsSeenBySdk(register: () => pulumi.Resource): Promise<number[]> {
  const seen: number[] = [];
  const original = debuggable.debuggablePromise;
  const spy = jest.spyOn(debuggable, "debuggablePromise").mockImplementation(<T>(p: Promise<T>, ctx: string) => {
    seen.push(Error.stackTraceLimit);
    return original(p, ctx);
  });
  let resource: pulumi.Resource;
  try {
    resource = register();
  } finally {
    spy.mockRestore();
  }
  await new Promise((resolve) => resource.urn.apply(resolve));
  return seen;
}

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `mock-${args.name}`, state: args.inputs }), call: () => ({}) },
    "sdk-registration", "test", true,
  );
});

const debugVariable = "PULUMI_DEBUG_PROMISE_LEAKS";
afterEach(() => {
  delete process.env[debugVariable];
});

const KINDS: [string, () => pulumi.Resource][] = [
  ["Workspace", () => new wsbridge.Workspace("w", { name: "w", organization: "org", description: "d" })],
  ["WorkspaceLock", () => new wsbridge.WorkspaceLock("l", { workspaceId: "ws-abc", reason: "r" })],
  ["SshKeyAssignment", () => new wsbridge.SshKeyAssignment("k", { workspaceId: "ws-abc", sshKeyId: "sshkey-abc" })],
  ["DataRetentionPolicy", () => new wsbridge.DataRetentionPolicy("p", { workspaceId: "ws-abc", deleteOlderThanNDays: 3 })],
  ["WorkspaceTagBindings", () => new wsbridge.WorkspaceTagBindings("t", { workspaceId: "ws-abc", tags: { a: "b" } })],
  ["RemoteStateConsumers", () => new wsbridge.RemoteStateConsumers("c", { workspaceId: "ws-abc", consumerIds: ["ws-def"] })],
  ["ModuleVersionDeprecation", () => new wsbridge.ModuleVersionDeprecation("d", { moduleName: "vpc", provider: "aws", version: "1.0.0" })],
];

test.each(KINDS)("a %s registers every property with the promise stack traces off, then restores the limit", async (_kind, register) => {
  const before = Error.stackTraceLimit;
  const seen = await limitsSeenBySdk(register);
  expect(seen.length).toBeGreaterThan(4);
  expect(new Set(seen)).toEqual(new Set([0]));
  expect(Error.stackTraceLimit).toBe(before);
});

test("with PULUMI_DEBUG_PROMISE_LEAKS set, the SDK keeps its stack traces for the leak report", async () => {
  process.env[debugVariable] = "true";
  const before = Error.stackTraceLimit;
  const seen = await limitsSeenBySdk(() => new wsbridge.Workspace("traced", { name: "traced", organization: "org" }));
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(seen)).toEqual(new Set([before]));
});

test("an error thrown while paused is rethrown with a stack that names its caller, and the limit is restored", () => {
  // The helper each generated constructor wraps its registration in (internal to the SDK).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { pauseStackTraces } = require("@pulumi-wsbridge/wsbridge/registration") as {
    pauseStackTraces(): { resume(): void; rethrow(error: unknown): never };
  };
  const before = Error.stackTraceLimit;
  function constructorThatFails(): void {
    const stackTraces = pauseStackTraces();
    try {
      throw new Error("refused inside the registration");
    } catch (error) {
      stackTraces.rethrow(error);
    } finally {
      stackTraces.resume();
    }
  }
  let thrown: Error | undefined;
  try {
    constructorThatFails();
  } catch (error) {
    thrown = error as Error;
  }
  expect(thrown?.message).toBe("refused inside the registration");
  expect(thrown?.stack).toContain("constructorThatFails");
  expect(Error.stackTraceLimit).toBe(before);
});

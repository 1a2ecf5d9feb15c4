// The resource classes register with the SDK's promise stack traces paused (provider/dynamic/
// resource-base.ts): the SDK records one per promise of every registered property, and that was
// most of a program's time per resource. These tests prove the pause happens where those promises are
// made, is undone afterwards, stays off when the user asked for the leak report, and never costs a
// thrown error its stack.
import * as pulumi from "@pulumi/pulumi";
import { Workspace, WorkspaceLock } from "pulumi-wsbridge";
import { pauseStackTraces } from "../../provider/dynamic/resource-base";

/** The SDK module whose wrapper records the stack traces (internal, so not in its type declarations). */
type Wrap = <T>(p: Promise<T>, ctx: string) => Promise<T>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const debuggable = require("@pulumi/pulumi/runtime/debuggable") as { debuggablePromise: Wrap };

/**
 * The stack trace limit in force each time the SDK wrapped a promise for its leak report, once the
 * resource has registered (so no SDK work outlives the test).
 */
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
    { newResource: (args) => ({ id: `ws-mock${args.name}`, state: args.inputs }), call: () => ({}) },
    "registration", "test", true,
  );
});

const debugVariable = "PULUMI_DEBUG_PROMISE_LEAKS";
afterEach(() => {
  delete process.env[debugVariable];
});

test("a Workspace registers its properties with the promise stack traces off, then restores the limit", async () => {
  const before = Error.stackTraceLimit;
  const seen = await limitsSeenBySdk(() => new Workspace("paused", { name: "paused", organization: "org", description: "d" }));
  // Four promises for each of the 5 registered properties (name, organization, description, __outputs,
  // __owner), and more for the resource itself.
  expect(seen.length).toBeGreaterThan(4 * 5);
  expect(new Set(seen)).toEqual(new Set([0]));
  expect(Error.stackTraceLimit).toBe(before);
});

test("every kind pauses them: a WorkspaceLock too", async () => {
  const seen = await limitsSeenBySdk(() => new WorkspaceLock("paused-lock", { workspaceId: "ws-abc", reason: "r" }));
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(seen)).toEqual(new Set([0]));
});

test("with PULUMI_DEBUG_PROMISE_LEAKS set, the SDK keeps its stack traces for the leak report", async () => {
  process.env[debugVariable] = "true";
  const before = Error.stackTraceLimit;
  const seen = await limitsSeenBySdk(() => new Workspace("traced", { name: "traced", organization: "org" }));
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(seen)).toEqual(new Set([before]));
});

test("an error thrown while paused is rethrown with a stack that names its caller, and the limit is restored", () => {
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
  let caught: unknown;
  try {
    constructorThatFails();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  const stack = (caught as Error).stack ?? "";
  expect(stack).toMatch(/^Error: refused inside the registration\n/);
  expect(stack).toMatch(/\n\s+at .*constructorThatFails/);
  expect(Error.stackTraceLimit).toBe(before);
});

test("resume is safe to call twice and restores the limit the program had, not the default", () => {
  const before = Error.stackTraceLimit;
  Error.stackTraceLimit = 25;
  try {
    const paused = pauseStackTraces();
    expect(Error.stackTraceLimit).toBe(0);
    paused.resume();
    paused.resume();
    expect(Error.stackTraceLimit).toBe(25);
  } finally {
    Error.stackTraceLimit = before;
  }
});

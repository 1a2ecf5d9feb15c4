// Bad WorkspaceLock inputs fail `pulumi preview` (the real CLI), each naming the property and the
// rule, and nothing reaches the server: the emulator's request log stays empty. Two locks on one
// workspace fail the same way (one workspace has one lock).
import type { WorkspaceLockArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

let args: Record<string, unknown> = { workspaceId: "ws-valid01" };
/** A second lock's inputs, or none. */
let second: Record<string, unknown> | null = null;

const e2e = useRealCliStack({
  projectName: "wsbridge-invalid-lock-inputs",
  program: async () => {
    const { WorkspaceLock } = await import("pulumi-wsbridge");
    new WorkspaceLock("subject", args as unknown as WorkspaceLockArgs);
    if (second !== null) new WorkspaceLock("second", second as unknown as WorkspaceLockArgs);
  },
});

const WS = "ws-abc123";

/** [what is wrong, the inputs, the property the message names, a part of the rule it states] */
const CASES: [string, Record<string, unknown>, string, string][] = [
  ["a missing workspaceId", { reason: "freeze" }, "workspaceId", "is required"],
  ["a workspace name instead of an id", { workspaceId: "networking" }, "workspaceId", 'must be a workspace id ("ws-…")'],
  ["an empty workspaceId", { workspaceId: "" }, "workspaceId", "must be a workspace id"],
  ["a workspaceId with a space", { workspaceId: "ws-abc def" }, "workspaceId", "must be a workspace id"],
  ["a numeric workspaceId", { workspaceId: 42 }, "workspaceId", "must be a string"],
  ["a numeric reason", { workspaceId: WS, reason: 7 }, "reason", "must be a string"],
  ["a reason that is a list", { workspaceId: WS, reason: ["a"] }, "reason", "must be a string"],
  ["forceUnlockOnDestroy given as text", { workspaceId: WS, forceUnlockOnDestroy: "yes" }, "forceUnlockOnDestroy", "must be a boolean"],
  ["an unknown property", { workspaceId: WS, force: true }, "force", "is not a property of WorkspaceLock"],
  ["a misspelt property", { workspaceId: WS, reasons: "x" }, "reasons", "is not a property of WorkspaceLock"],
];

test.each(CASES)("%s fails at preview, naming the property and the rule, with no request", async (_what, inputs, property, rule) => {
  args = inputs;
  e2e.emulator.clearRequests();
  const message = await messageOf(e2e.stack.preview());
  // The CLI's line for the failure: `property <name> value {…} has a problem: <rule>`.
  expect(message).toContain(`property ${property} value`);
  expect(message).toContain(`has a problem: ${rule}`);
  expect(e2e.emulator.requests()).toEqual([]);
});

test("two locks on one workspace fail at preview, naming both, with no request", async () => {
  args = { workspaceId: "ws-shared01", reason: "one" };
  second = { workspaceId: "ws-shared01", reason: "two" };
  try {
    e2e.emulator.clearRequests();
    const message = await messageOf(e2e.stack.preview());
    expect(message).toContain('WorkspaceLock resources "subject" and "second" both declare "ws-shared01"');
    expect(e2e.emulator.requests()).toEqual([]);
  } finally {
    second = null;
  }
});

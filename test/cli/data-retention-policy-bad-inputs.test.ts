// Bad DataRetentionPolicy inputs fail `pulumi preview` (the real CLI), each naming the property and the
// rule, with no request at all; and against a hosted-edition server (where the policy does not exist)
// the preview fails with a message that says so, after only the read-only ping that tells the edition.
import type { DataRetentionPolicyArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const messageOf = async (p: Promise<unknown>): Promise<string> => String((await failureOf(p)).message);

let args: Record<string, unknown> = { workspaceId: "ws-valid000000001", deleteOlderThanNDays: 30 };

const program = (withWorkspace: boolean) => async () => {
  const { DataRetentionPolicy, Workspace } = await import("pulumi-wsbridge");
  if (withWorkspace) {
    // The usual program: the workspace's id is unknown during this preview.
    const ws = new Workspace("app", { name: "hosted-app" });
    new DataRetentionPolicy("retention", { workspaceId: ws.id, deleteOlderThanNDays: 30 });
    return;
  }
  new DataRetentionPolicy("subject", args as unknown as DataRetentionPolicyArgs);
};

// Two emulators, one stack each: bad inputs against a self-managed server (where the policy exists),
// the usual program against a hosted one.
const selfManaged = useRealCliStack({ projectName: "wsbridge-drp-invalid-inputs", emulator: { edition: "self-managed" }, program: program(false) });
const hosted = useRealCliStack({ projectName: "wsbridge-drp-hosted", emulator: { edition: "hosted" }, program: program(true) });

const WS = "ws-valid000000001";
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** [what is wrong, the inputs, the property the message names, a part of the rule it states] */
const CASES: [string, Record<string, unknown>, string, string][] = [
  ["both forms", { workspaceId: WS, deleteOlderThanNDays: 30, dontDelete: true }, "dontDelete", "must not be set together with deleteOlderThanNDays"],
  ["neither form", { workspaceId: WS }, "deleteOlderThanNDays", "is required unless dontDelete: true is given"],
  ["zero days", { workspaceId: WS, deleteOlderThanNDays: 0 }, "deleteOlderThanNDays", "must be at least 1"],
  ["negative days", { workspaceId: WS, deleteOlderThanNDays: -7 }, "deleteOlderThanNDays", "must be at least 1"],
  ["a fraction of a day", { workspaceId: WS, deleteOlderThanNDays: 2.5 }, "deleteOlderThanNDays", "must be a whole number of days"],
  ["days given as text", { workspaceId: WS, deleteOlderThanNDays: "30" }, "deleteOlderThanNDays", "must be a number of days"],
  ["dontDelete: false", { workspaceId: WS, dontDelete: false }, "dontDelete", "must be true when given"],
  ["a malformed workspace id", { workspaceId: "retention-app", deleteOlderThanNDays: 30 }, "workspaceId", 'must be a workspace id ("ws-…")'],
  ["a workspace id that is not a string", { workspaceId: 42, deleteOlderThanNDays: 30 }, "workspaceId", "must be a string"],
  ["a misspelt property", { workspaceId: WS, deleteOlderThanNDays: 30, dontDelte: true }, "dontDelte", "is not a property of DataRetentionPolicy"],
];

test.each(CASES)("%s fails at preview, naming the property and the rule, with no request", async (_what, inputs, property, rule) => {
  args = inputs;
  selfManaged.emulator.clearRequests();
  const message = await messageOf(selfManaged.stack.preview());
  // The CLI prints "property <name> value {…} has a problem: <rule>".
  expect(message).toMatch(new RegExp(`property ${property} value \\{[^}]*\\} has a problem: [^\\n]*${escape(rule)}`));
  expect(selfManaged.emulator.requests()).toEqual([]);
});

test("the hosted edition fails the preview, saying the policy exists only in the self-managed edition", async () => {
  hosted.emulator.clearRequests();
  const message = await messageOf(hosted.stack.preview());
  expect(message).toContain("property deleteOlderThanNDays value {30} has a problem: cannot be set: data retention policies exist only in the self-managed edition");
  expect(message).toContain(`${hosted.emulator.url} is the hosted edition`);
  expect(hosted.requestLines()).toEqual(["GET /api/v2/ping"]);
});

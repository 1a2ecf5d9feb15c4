// What the Workspace provider writes into the state (provider/runtime/kinds/workspace.ts, `toState`):
// every output once, in `__outputs`, and by name only what the resource class registers (name,
// organization, the declared inputs, and the inputs it passed as Outputs: `__namedOutputs`). And a
// state written before `__outputs` existed (every output by name) still refreshes, diffs, updates and
// deletes, and comes back in the new shape. Against the in-process emulator.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as runtime from "../../provider/runtime";
import { resetConfigForTests } from "../../provider/runtime/config";
import type { Props } from "../../provider/runtime/lifecycle";
import { isolatedHome } from "../support/isolated-home";

let emulator: RunningEmulator;
const workspace = runtime.workspace;
const RECORDS = ["__declaredInputs", "__declaredValues"];

/** The program's inputs as the engine passes them to create, diff and update: check's output (which must pass). */
async function checked(program: Props): Promise<Props> {
  const outcome = await workspace.check({}, program);
  expect(outcome.failures).toEqual([]);
  return outcome.inputs;
}

/** The inputs check fills in where the program leaves them out (schemas/workspace.ts, WORKSPACE_OMITTED). */
const FILLED_KEYS = [
  "adoptExisting", "allowDestroyPlan", "autoApply", "autoApplyRunTrigger", "description", "fileTriggersEnabled", "forceDelete",
  "queueAllRuns", "settingOverwrites", "speculativeEnabled", "triggerPatterns", "triggerPrefixes", "workingDirectory",
];

let counter = 0;
const uniqueName = (prefix: string): string => `${prefix}-${++counter}`;

beforeAll(async () => {
  for (const name of ["TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION", "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION"]) {
    delete process.env[name];
  }
  process.env.HOME = isolatedHome();
  emulator = await startEmulator({ port: 0 });
  resetConfigForTests();
  await runtime.configure({
    config: { get: (key: string) => ({ "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": emulator.organization })[key] },
  });
});

afterAll(async () => {
  await emulator?.close();
});

/** The state a version before `__outputs` wrote: every output by name. */
function olderShape(state: { __outputs: Props } & Props): Props {
  const { __outputs: all, ...rest } = state;
  const records = Object.fromEntries(Object.entries(rest).filter(([key]) => key.startsWith("__")));
  return { ...all, ...records };
}

test("create's state holds every output in __outputs, and by name only the name, the organization and the declared inputs (with those check filled in)", async () => {
  const name = uniqueName("shape");
  const { id, outs } = await workspace.create(await checked({ name, organization: emulator.organization, description: "d", vcsRepo: undefined }));
  // vcsRepo (undefined) is not declared: not by name.
  expect(Object.keys(outs).sort()).toEqual(["__outputs", ...RECORDS, ...FILLED_KEYS, "name", "organization"].sort());
  expect(outs).toMatchObject({ name, organization: emulator.organization, description: "d" });
  // Every output of the resource class, with the server's values.
  expect(Object.keys(outs.__outputs)).toHaveLength(60);
  expect(outs.__outputs).toMatchObject({
    workspaceId: id, name, description: "d", autoApply: false, locked: false, resourceCount: 0, forceDelete: false,
    apiUrl: `${emulator.url}/api/v2/workspaces/${id}`,
  });
  expect(Object.keys(outs.__outputs).filter((key) => key.startsWith("__"))).toEqual([]);
  await workspace.delete(id, outs);
});

test("an input the class passed as an Output is reported by name even when it resolved to undefined, through check, create and read", async () => {
  const name = uniqueName("named");
  const outcome = await workspace.check({}, { name, __namedOutputs: ["projectId", "notAnInput"] });
  expect(outcome.failures).toEqual([]);
  // Only optional inputs' names are kept.
  expect(outcome.inputs.__namedOutputs).toEqual(["projectId"]);
  const { id, outs } = await workspace.create(outcome.inputs);
  // Not declared (the value was undefined), so neither sent nor compared; but the class registered it.
  expect(outs).toHaveProperty("projectId", outs.__outputs.projectId);
  expect(outs).not.toHaveProperty("notAnInput");
  expect(outs.__namedOutputs).toEqual(["projectId"]);
  const refreshed = await workspace.read(id, outs);
  expect(refreshed.props).toHaveProperty("projectId");
  // projectId is not among them: left out, it is not managed.
  expect(Object.keys(outcome.inputs).sort()).toEqual(["__namedOutputs", ...FILLED_KEYS, "name", "organization"].sort());
  expect(refreshed.inputs).toEqual(outcome.inputs);
  expect((await workspace.diff(id, refreshed.props ?? {}, outcome.inputs)).changes).toBe(false);
  await workspace.delete(id, outs);
});

describe("a state written before __outputs (every output by name)", () => {
  test("refreshes into the new shape with the same values, and diffs as before", async () => {
    const name = uniqueName("older");
    const inputs = await checked({ name, organization: emulator.organization, description: "kept", autoApply: true });
    const { id, outs } = await workspace.create(inputs);
    const older = olderShape(outs);
    expect(older).not.toHaveProperty("__outputs");
    expect((await workspace.diff(id, older, inputs)).changes).toBe(false);
    expect((await workspace.diff(id, older, await checked({ ...inputs, description: "changed" }))).changes).toBe(true);
    const refreshed = await workspace.read(id, older);
    expect(refreshed.props).toEqual(outs);
    expect(refreshed.inputs).toEqual(inputs);
    await workspace.delete(id, outs);
  });

  test("updates with one request, and deletes honouring its forceDelete", async () => {
    const name = uniqueName("older-upd");
    const inputs = await checked({ name, organization: emulator.organization, description: "before", forceDelete: true });
    const { id, outs } = await workspace.create(inputs);
    const older = olderShape(outs);
    const news = await checked({ ...inputs, description: "after" });
    emulator.clearRequests();
    const updated = await workspace.update(id, older, news);
    expect(emulator.requests().map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([`PATCH /api/v2/workspaces/${id}`]);
    expect(updated.outs.description).toBe("after");
    expect(updated.outs.__outputs.description).toBe("after");
    emulator.clearRequests();
    await workspace.delete(id, olderShape(updated.outs));
    // forceDelete from the older state's own name: the force-delete endpoint, not the safe one.
    expect(emulator.requests().map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([`DELETE /api/v2/workspaces/${id}`]);
  });
});

// The read-only switch (`wsbridge:readOnly`, `WSBRIDGE_READ_ONLY`) in the lifecycle both doors call
// (provider/runtime/index.ts): with it on, a diff that finds a change fails naming each property with
// both values, and create, update and delete fail before any request; reads and no-change diffs work
// as always. Against an in-process emulator, so "no request" is the emulator's own log.
import * as runtime from "../../provider/runtime";
import { ReadOnlyRefusal, valueAt } from "../../provider/runtime/read-only";
import { resolveSettings, settingsProblem } from "../../provider/runtime/config";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const fixture = useRuntimeEmulator();
const { api, configureWith } = fixture;
const requests = (): string[] => fixture.requestsMade((p) => p.replace("/api/v2", ""));

type Doc = { data: { id: string } };

let counter = 0;
async function newWorkspace(description: string): Promise<string> {
  counter += 1;
  const { status, doc } = await api<Doc>("POST", `/organizations/${fixture.emulator.organization}/workspaces`, {
    data: { type: "workspaces", attributes: { name: `read-only-${counter}`, description } },
  });
  expect(status).toBe(201);
  return doc.data.id;
}

/** A program's inputs as the engine passes them to diff and update: check's output (which must pass). */
async function checked(program: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await runtime.workspace.check({}, program);
  expect(outcome.failures).toEqual([]);
  return outcome.inputs;
}

/** The workspace as its import adopts it: its id, its state and the inputs that reproduce it. */
async function imported(id: string): Promise<{ id: string; props: Record<string, unknown>; inputs: Record<string, unknown> }> {
  const found = await runtime.workspace.importById(id, {});
  if (found === undefined) throw new Error(`no workspace ${id}`);
  return found;
}

afterEach(() => {
  delete process.env.WSBRIDGE_READ_ONLY;
});

describe("with wsbridge:readOnly true", () => {
  beforeEach(() => configureWith(undefined, { "wsbridge:readOnly": "true" }));

  test("a diff that finds a change fails, naming the object, the property, the program's value and the server's; nothing is sent", async () => {
    // What adopt read, then a change on the server, then the import's read (the engine diffs the program against it).
    const id = await newWorkspace("what adopt read");
    const program = await checked((await imported(id)).inputs);
    await api("PATCH", `/workspaces/${id}`, { data: { type: "workspaces", attributes: { description: "changed after adopt" } } });
    const { props } = await imported(id);
    fixture.emulator.clearRequests();
    const error = await failureOf(runtime.workspace.diff(id, props, program));
    expect(error).toBeInstanceOf(ReadOnlyRefusal);
    expect((error as ReadOnlyRefusal).details).toEqual({
      kind: "Workspace", operation: "update", id, source: "wsbridge:readOnly", replaces: false,
      changes: [{ path: "description", declared: "what adopt read", held: "changed after adopt" }],
    });
    expect(error.message).toContain(`Workspace ${id} differs from the program: description: the program declares "what adopt read", the server held "changed after adopt" at its last read.`);
    expect(error.message).toContain("The provider is read-only (wsbridge:readOnly), so nothing was sent to the server.");
    expect(error.message).toContain("run `wsbridge adopt` again");
    expect(requests()).toEqual([]);
  });

  test("a diff that finds no change answers as always, and reads work", async () => {
    const id = await newWorkspace("unchanged");
    const { props, inputs } = await imported(id);
    expect((await runtime.workspace.diff(id, props, await checked(inputs))).changes).toBe(false);
    expect((await runtime.workspace.read(id, props)).id).toBe(id);
  });

  test("update and delete fail before any request", async () => {
    const id = await newWorkspace("kept");
    const { props, inputs } = await imported(id);
    const news = await checked({ ...inputs, description: "new" });
    fixture.emulator.clearRequests();
    const update = await failureOf(runtime.workspace.update(id, props, news));
    expect(update.message).toBe(`Workspace ${id}: updating it would change the server, and the provider is read-only (wsbridge:readOnly), so nothing was sent to the server. Turn read-only off to update it.`);
    const remove = await failureOf(runtime.workspace.delete(id, props));
    expect(remove.message).toBe(`Workspace ${id}: deleting it would change the server, and the provider is read-only (wsbridge:readOnly), so nothing was sent to the server. Turn read-only off to delete it.`);
    expect(requests()).toEqual([]);
    expect((await api<{ data: { attributes: { description: string } } }>("GET", `/workspaces/${id}`)).doc.data.attributes.description).toBe("kept");
  });

  const creates: [string, () => Promise<unknown>][] = [
    ["Workspace", () => runtime.workspace.create({ name: "never-created", organization: fixture.emulator.organization })],
    ["WorkspaceLock", () => runtime.workspaceLock.create({ workspaceId: "ws-abcdefghijklmnop", reason: "r" })],
    ["SshKeyAssignment", () => runtime.sshKeyAssignment.create({ workspaceId: "ws-abcdefghijklmnop", sshKeyId: "sshkey-abcdefghijklmnop" })],
    ["DataRetentionPolicy", () => runtime.dataRetentionPolicy.create({ workspaceId: "ws-abcdefghijklmnop", deleteOlderThanNDays: 30 })],
    ["WorkspaceTagBindings", () => runtime.workspaceTagBindings.create({ workspaceId: "ws-abcdefghijklmnop", tags: { a: "b" } })],
    ["RemoteStateConsumers", () => runtime.remoteStateConsumers.create({ workspaceId: "ws-abcdefghijklmnop", consumerIds: ["ws-bcdefghijklmnopq"] })],
    ["ModuleVersionDeprecation", () => runtime.moduleVersionDeprecation.create({ organization: "o", moduleName: "m", provider: "p", version: "1.0.0", reason: "r" })],
  ];
  test.each(creates)("%s: create fails before any request, and says why", async (kind, create) => {
    const error = await failureOf(create());
    expect(error.message).toBe(`${kind}: creating it would change the server, and the provider is read-only (wsbridge:readOnly), so nothing was sent to the server. In an adoption step every resource carries an \`import\` option; one without it would be created, not adopted. Turn read-only off to create it.`);
    expect(requests()).toEqual([]);
  });

  test("the plugin's preview of a create fails the same way (previewCreate)", async () => {
    const error = await failureOf(runtime.workspace.previewCreate({ name: "never-created", organization: fixture.emulator.organization }));
    expect(error).toBeInstanceOf(ReadOnlyRefusal);
  });
});

describe("the sources of the switch", () => {
  test("WSBRIDGE_READ_ONLY=true alone makes the provider read-only, named as the variable", async () => {
    await configureWith();
    process.env.WSBRIDGE_READ_ONLY = "true";
    const error = await failureOf(runtime.workspace.delete("ws-abcdefghijklmnop", {}));
    expect((error as ReadOnlyRefusal).details.source).toBe("WSBRIDGE_READ_ONLY");
  });

  test("true in either source wins over false in the other", async () => {
    await configureWith(undefined, { "wsbridge:readOnly": "false" });
    process.env.WSBRIDGE_READ_ONLY = "TRUE";
    expect(resolveSettings().readOnly).toEqual({ source: "WSBRIDGE_READ_ONLY" });
    await configureWith(undefined, { "wsbridge:readOnly": "true" });
    process.env.WSBRIDGE_READ_ONLY = "false";
    expect(resolveSettings().readOnly).toEqual({ source: "wsbridge:readOnly" });
  });

  test("false in both, or neither set: the provider may change the server", async () => {
    await configureWith(undefined, { "wsbridge:readOnly": "false" });
    process.env.WSBRIDGE_READ_ONLY = "false";
    expect(resolveSettings().readOnly).toBeUndefined();
    delete process.env.WSBRIDGE_READ_ONLY;
    await configureWith();
    expect(resolveSettings().readOnly).toBeUndefined();
  });

  test("a value other than true or false is refused by name, never read as false", async () => {
    await configureWith(undefined, { "wsbridge:readOnly": "yes" });
    expect(settingsProblem()).toBe('Invalid provider settings: wsbridge:readOnly must be "true" or "false", got "yes"');
    process.env.WSBRIDGE_READ_ONLY = "1";
    expect(settingsProblem()).toBe('Invalid provider settings: wsbridge:readOnly must be "true" or "false", got "yes"; WSBRIDGE_READ_ONLY must be "true" or "false", got "1"');
  });
});

test("valueAt reads a property path as Pulumi spells it", () => {
  const root = { a: { b: [1, { "c d": "x" }] }, "e f": 2 };
  expect(valueAt(root, "a.b[1][\"c d\"]")).toBe("x");
  expect(valueAt(root, "[\"e f\"]")).toBe(2);
  expect(valueAt(root, "a.z.q")).toBeUndefined();
});

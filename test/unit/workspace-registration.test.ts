// A Workspace registers with the SDK only what the program declares, the owner marker and one object
// output, `__outputs`, which the provider fills with every output; each other output is read from it on
// first use (provider/dynamic/resource-base.ts, `outputsReadFrom`). The SDK's cost per registered
// property was most of a program's time per Workspace (docs/performance.md). These tests prove what is
// registered, that every output still resolves (declared ones from their own name, as before), and that
// a preview sees them known or unknown exactly as registered outputs would be.
import * as pulumi from "@pulumi/pulumi";
import { Workspace } from "pulumi-wsbridge";

/** The SDK's function that makes one output per registered property (internal, so not in its types). */
type Transfer = (onto: object, label: string, props: Record<string, unknown>) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rpc = require("@pulumi/pulumi/runtime/rpc") as { transferProperties: Transfer };

/** What the mocked engine gives back as the resource's outputs, per resource name. */
let stateOf: (name: string, inputs: Record<string, unknown>) => Record<string, unknown> = (_name, inputs) => inputs;
const registeredInputs = new Map<string, Record<string, unknown>>();

async function mockEngine(preview: boolean): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registeredInputs.set(args.name, args.inputs as Record<string, unknown>);
        return { id: `ws-${args.name}`, state: stateOf(args.name, args.inputs as Record<string, unknown>) };
      },
      call: () => ({}),
    },
    "registration", "dev", preview,
  );
}

interface Settled<T> { known: boolean; value: T | undefined }
/** An output's value and whether it is known (the SDK's own promises; they are internal to it). */
async function settle<T>(output: pulumi.Output<T>): Promise<Settled<T>> {
  const inner = output as unknown as { isKnown: Promise<boolean>; promise(): Promise<T> };
  const known = await inner.isKnown;
  return { known, value: known ? await inner.promise() : undefined };
}

/** The keys of every property the SDK registered for `register()`'s resource. */
function registeredKeys(register: () => pulumi.Resource): string[] {
  const keys: string[] = [];
  const original = rpc.transferProperties;
  const spy = jest.spyOn(rpc, "transferProperties").mockImplementation((onto, label, props) => {
    keys.push(...Object.keys(props));
    return original(onto, label, props);
  });
  try {
    register();
  } finally {
    spy.mockRestore();
  }
  return keys.sort();
}

/** Every output the server's state gives a workspace, as the provider writes them into `__outputs`. */
function report(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workspaceId: `ws-${name}`, name, organization: "org", description: "", executionMode: "remote", agentPoolId: null,
    autoApply: false, createdAt: "2026-11-24T03:00:00.000Z", resourceCount: 3, locked: true,
    lockedBy: { type: "users", id: "user-1" }, permissions: { canUpdate: true }, tagNames: ["a"], projectId: "prj-default",
    ...overrides,
  };
}

describe("an applied program (up)", () => {
  beforeAll(() => mockEngine(false));
  afterEach(() => {
    stateOf = (_name, inputs) => inputs;
  });

  test("registers only the declared inputs, __outputs and the owner marker: 6 properties, not 61", () => {
    const keys = registeredKeys(() => new Workspace("few", { name: "few", organization: "org", description: "d" }));
    expect(keys).toEqual(["__outputs", "__owner", "__provider", "description", "name", "organization"]);
  });

  test("an input left undefined is not registered, like one left out", () => {
    const keys = registeredKeys(() => new Workspace("undef", { name: "undef", organization: "org", description: undefined }));
    expect(keys).not.toContain("description");
  });

  test("every other output resolves from __outputs; a declared one from its own name, as the provider reports it", async () => {
    stateOf = (name, inputs) => ({
      ...inputs,
      description: "the server's, by name",
      __outputs: report(name, { description: "in __outputs", autoApply: true }),
    });
    const ws = new Workspace("read", { name: "read", organization: "org", description: "declared" });
    expect(await settle(ws.description)).toEqual({ known: true, value: "the server's, by name" });
    expect(await settle(ws.autoApply)).toEqual({ known: true, value: true });
    expect(await settle(ws.createdAt)).toEqual({ known: true, value: "2026-11-24T03:00:00.000Z" });
    expect(await settle(ws.resourceCount)).toEqual({ known: true, value: 3 });
    expect(await settle(ws.lockedBy)).toEqual({ known: true, value: { type: "users", id: "user-1" } });
    expect(await settle(ws.agentPoolId)).toEqual({ known: true, value: null });
    expect(await settle(ws.workspaceId)).toEqual({ known: true, value: "ws-read" });
    expect(await settle(ws.name)).toEqual({ known: true, value: "read" });
  });

  test("each output is made once per resource, and each resource reads its own", async () => {
    stateOf = (name, inputs) => ({ ...inputs, __outputs: report(name, { createdAt: `created ${name}` }) });
    const one = new Workspace("one", { name: "one", organization: "org" });
    const two = new Workspace("two", { name: "two", organization: "org" });
    expect(one.createdAt).toBe(one.createdAt);
    expect((await settle(one.createdAt)).value).toBe("created one");
    expect((await settle(two.createdAt)).value).toBe("created two");
    // Depending on an output read from __outputs still depends on the resource.
    expect(await settle(pulumi.all([one.createdAt, two.createdAt]))).toEqual({ known: true, value: ["created one", "created two"] });
  });

  test("an input passed as an Output or a Promise is noted, so the provider reports its output by name", async () => {
    const eventual = new Workspace("eventual", {
      name: "eventual", organization: "org", projectId: pulumi.output<string | undefined>(undefined),
      description: Promise.resolve("later"), autoApply: true,
    });
    const plain = new Workspace("plain", { name: "plain", organization: "org", description: "now" });
    await settle(pulumi.all([eventual.id, plain.id]));
    expect(registeredInputs.get("eventual")?.__namedOutputs).toEqual(["description", "projectId"]);
    expect(registeredInputs.get("plain")).not.toHaveProperty("__namedOutputs");
  });
});

describe("a preview", () => {
  beforeAll(() => mockEngine(true));

  test("of an update (outputs are the new inputs): declared outputs are known, the others unknown, the derived ones known", async () => {
    // What the engine reports for an updated resource during a preview: its new inputs, nothing else.
    stateOf = (_name, inputs) => inputs;
    const ws = new Workspace("upd", { name: "upd", organization: "org", description: "new" });
    expect(await settle(ws.description)).toEqual({ known: true, value: "new" });
    expect((await settle(ws.createdAt)).known).toBe(false);
    expect((await settle(ws.autoApply)).known).toBe(false);
    expect(await settle(ws.workspaceId)).toEqual({ known: true, value: "ws-upd" });
    expect((await settle(ws.apiUrl)).known).toBe(true);
  });

  test("of an unchanged resource (outputs from the state): every output is known", async () => {
    stateOf = (name, inputs) => ({ ...inputs, __outputs: report(name) });
    const ws = new Workspace("same", { name: "same", organization: "org" });
    expect(await settle(ws.createdAt)).toEqual({ known: true, value: "2026-11-24T03:00:00.000Z" });
    expect(await settle(ws.projectId)).toEqual({ known: true, value: "prj-default" });
  });
});

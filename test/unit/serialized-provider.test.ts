// The provider object Pulumi serializes into every resource's state is the one thing we cannot fix
// after the fact: it must stay small, must not capture the token, and may only reach our code
// through the stable `pulumi-wsbridge/runtime` entry point.
import * as pulumi from "@pulumi/pulumi";

const TOKEN = "wsb-secret-token-for-serialization-test";

interface Registered {
  type: string;
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

beforeAll(async () => {
  // A token everywhere the runtime could read it from, to prove none of it is captured.
  process.env.TFE_TOKEN = TOKEN;
  process.env.WSBRIDGE_TOKEN = TOKEN;
  const runtime = await import("pulumi-wsbridge/runtime");
  await runtime.configure({ config: { get: (key: string) => (key === "wsbridge:token" ? TOKEN : undefined) } });

  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, inputs: args.inputs as Record<string, unknown> });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
  // The published entry point, as a user's program imports it.
  const { Workspace } = await import("pulumi-wsbridge");
  const ws = new Workspace("ws", { name: "serialization-check", organization: "example-org" });
  await new Promise<void>((resolve) => ws.urn.apply(() => resolve()));
});

afterAll(() => {
  delete process.env.TFE_TOKEN;
  delete process.env.WSBRIDGE_TOKEN;
});

function serializedProvider(): string {
  const workspace = registered.find((r) => r.type === "pulumi-nodejs:dynamic/wsbridge:Workspace");
  if (!workspace) throw new Error(`no Workspace registered; saw ${registered.map((r) => r.type).join(", ")}`);
  const text = workspace.inputs.__provider;
  if (typeof text !== "string") throw new Error("__provider is not a string");
  return text;
}

test("the Workspace registers under the wsbridge module's type token", () => {
  expect(registered.map((r) => r.type)).toEqual(["pulumi-nodejs:dynamic/wsbridge:Workspace"]);
});

test("the serialized Workspace provider is under 4 KB", () => {
  expect(Buffer.byteLength(serializedProvider(), "utf8")).toBeLessThan(4096);
});

test("the serialized Workspace provider does not contain the token", () => {
  expect(serializedProvider()).not.toContain(TOKEN);
});

test("the serialized Workspace provider's only require is pulumi-wsbridge/runtime", () => {
  const requires = [...serializedProvider().matchAll(/require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
  expect(requires.length).toBeGreaterThan(0);
  expect(new Set(requires)).toEqual(new Set(["pulumi-wsbridge/runtime"]));
});

test("the serialized Workspace provider calls every lifecycle method of the runtime", () => {
  const text = serializedProvider();
  for (const method of ["check", "diff", "create", "read", "update", "delete"]) {
    expect(text).toContain(`.workspace.${method}(`);
  }
  expect(text).toContain(".configure(");
});

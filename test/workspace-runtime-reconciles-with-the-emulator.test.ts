// The Workspace runtime (what the provider plugin calls) against an in-process emulator:
// check and diff decide the preview, create/read/update/delete do what the preview promised.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import * as runtime from "../provider/runtime";
import { UNKNOWN } from "../provider/runtime/lifecycle";
import { resetConfigForTests } from "../provider/runtime/config";

let emulator: RunningEmulator;
const workspace = runtime.workspace;

function configureFor(settings: Record<string, string>): Promise<void> {
  resetConfigForTests();
  return runtime.configure({ config: { get: (key: string) => settings[key] } });
}

function configureEmulator(): Promise<void> {
  return configureFor({
    "wsbridge:address": emulator.url,
    "wsbridge:token": emulator.token,
    "wsbridge:organization": emulator.organization,
  });
}

async function rawGet(path: string): Promise<{ status: number; body: unknown }> {
  const res = await request(`${emulator.url}/api/v2${path}`, {
    headers: { authorization: `Bearer ${emulator.token}`, accept: "application/vnd.api+json" },
  });
  return { status: res.statusCode, body: res.statusCode === 204 ? undefined : await res.body.json() };
}

let counter = 0;
function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

beforeAll(async () => {
  for (const name of ["TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION", "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION"]) {
    delete process.env[name];
  }
  // No credentials file of the developer's may answer for a missing token.
  process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-home-"));
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

beforeEach(async () => {
  emulator.clearFaults();
  await configureEmulator();
});

describe("check", () => {
  test("fills the organization from the stack config", async () => {
    const result = await workspace.check({}, { name: "alpha", __provider: "text" });
    expect(result).toEqual({ inputs: { name: "alpha", organization: emulator.organization }, failures: [] });
  });

  test("keeps an organization set on the resource", async () => {
    const result = await workspace.check({}, { name: "alpha", organization: "other-org" });
    expect(result.inputs.organization).toBe("other-org");
  });

  test("names the property and the rule for a bad name", async () => {
    const result = await workspace.check({}, { name: "has spaces/and slashes" });
    expect(result.failures).toEqual([
      { property: "name", reason: "must contain only letters, digits, '-' and '_' (and not be empty)" },
    ]);
  });

  test("reports a missing name and an unknown property by name", async () => {
    const result = await workspace.check({}, { descripton: "typo" });
    expect(result.failures).toEqual(
      expect.arrayContaining([
        { property: "name", reason: "is required" },
        { property: "descripton", reason: "is not a property of Workspace" },
      ]),
    );
    expect(result.failures).toHaveLength(2);
  });

  test("reports a wrong type with the property's path", async () => {
    const result = await workspace.check({}, { name: "alpha", forceDelete: "yes" });
    expect(result.failures).toEqual([{ property: "forceDelete", reason: "must be a boolean" }]);
  });

  test("accepts values that are unknown during preview", async () => {
    const result = await workspace.check({}, { name: UNKNOWN, description: UNKNOWN });
    expect(result.failures).toEqual([]);
  });

  test("asks for an organization when neither the resource nor any config sets one", async () => {
    await configureFor({ "wsbridge:address": emulator.url, "wsbridge:token": emulator.token });
    const result = await workspace.check({}, { name: "alpha" });
    expect(result.failures).toEqual([
      {
        property: "organization",
        reason: "is required: set it on the resource, or set the `wsbridge:organization` stack config (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)",
      },
    ]);
  });

  test("runs without any token and makes no request", async () => {
    await configureFor({ "wsbridge:address": emulator.url, "wsbridge:organization": "example-org" });
    emulator.clearRequests();
    const result = await workspace.check({}, { name: "alpha" });
    expect(result.failures).toEqual([]);
    expect(emulator.requests()).toEqual([]);
  });
});

describe("diff", () => {
  const olds = { name: "alpha", organization: "example-org", description: "one", forceDelete: false, workspaceId: "ws-1" };

  test("reports no changes when the declared values match", async () => {
    expect(await workspace.diff("ws-1", olds, { name: "alpha", organization: "example-org", description: "one" }))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  test("ignores a description the program does not declare", async () => {
    expect((await workspace.diff("ws-1", olds, { name: "alpha", organization: "example-org" })).changes).toBe(false);
  });

  test("treats an empty description and none as the same", async () => {
    const none = { ...olds, description: undefined };
    expect((await workspace.diff("ws-1", none, { name: "alpha", organization: "example-org", description: "" })).changes).toBe(false);
  });

  test("updates in place for a new name or description", async () => {
    expect(await workspace.diff("ws-1", olds, { name: "beta", organization: "example-org", description: "two" }))
      .toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  test("replaces for a new organization", async () => {
    expect(await workspace.diff("ws-1", olds, { name: "alpha", organization: "other-org" }))
      .toEqual({ changes: true, replaces: ["organization"], deleteBeforeReplace: false });
  });

  test("reports a change when a value is unknown during preview", async () => {
    expect((await workspace.diff("ws-1", olds, { name: UNKNOWN, organization: "example-org" })).changes).toBe(true);
  });

  test("ignores a changed serialized provider", async () => {
    const before = { ...olds, __provider: "old text" };
    expect((await workspace.diff("ws-1", before, { name: "alpha", organization: "example-org", __provider: "new text" })).changes).toBe(false);
  });
});

describe("create, read, update and delete", () => {
  test("create makes the workspace and returns the server's state with the declared inputs", async () => {
    const name = uniqueName("create");
    const created = await workspace.create({ name, organization: emulator.organization, description: "made by a test" });
    expect(created.id).toMatch(/^ws-/);
    expect(created.outs).toMatchObject({
      name,
      organization: emulator.organization,
      description: "made by a test",
      forceDelete: false,
      workspaceId: created.id,
      locked: false,
      resourceCount: 0,
      htmlUrl: `${emulator.url}/app/${emulator.organization}/workspaces/${name}`,
    });
    expect((await rawGet(`/workspaces/${created.id}`)).status).toBe(200);
  });

  test("create refuses a name that already exists instead of taking the workspace over", async () => {
    const name = uniqueName("taken");
    await workspace.create({ name, organization: emulator.organization });
    await expect(workspace.create({ name, organization: emulator.organization })).rejects.toThrow(
      `Workspace "${emulator.organization}/${name}" already exists and is not managed by this stack`,
    );
  });

  test("create never duplicates a workspace when the connection drops after the server applied it", async () => {
    const name = uniqueName("dropped");
    emulator.setFaults({ script: [{ match: { method: "POST", path: `/api/v2/organizations/${emulator.organization}/workspaces` }, drop: "after" }] });
    emulator.clearRequests();
    const created = await workspace.create({ name, organization: emulator.organization });
    const posts = emulator.requests().filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    expect(posts[0]?.fault).toBe("drop-after");
    const listed = await rawGet(`/organizations/${emulator.organization}/workspaces?search%5Bname%5D=${name}`);
    const ids = (listed.body as { data: { id: string; attributes: { name: string } }[] }).data
      .filter((w) => w.attributes.name === name)
      .map((w) => w.id);
    expect(ids).toEqual([created.id]);
  });

  test("read returns the live description and updated inputs", async () => {
    const name = uniqueName("drift");
    const created = await workspace.create({ name, organization: emulator.organization, description: "declared" });
    await request(`${emulator.url}/api/v2/workspaces/${created.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ data: { type: "workspaces", attributes: { description: "changed outside" } } }),
    }).then((r) => r.body.dump());
    const read = await workspace.read(created.id, { ...created.outs, __provider: "text" });
    expect(read.id).toBe(created.id);
    expect(read.props?.description).toBe("changed outside");
    expect(read.inputs).toEqual({ name, organization: emulator.organization, description: "changed outside" });
  });

  test("read returns refreshed inputs only for the properties the program declared", async () => {
    const created = await workspace.create({ name: uniqueName("undeclared"), organization: emulator.organization });
    const read = await workspace.read(created.id, created.outs);
    expect(read.inputs).toEqual({ name: created.outs.name, organization: emulator.organization });
    const withFlag = await workspace.create({ name: uniqueName("declared"), organization: emulator.organization, forceDelete: false, description: "" });
    expect((await workspace.read(withFlag.id, withFlag.outs)).inputs).toEqual({
      name: withFlag.outs.name, organization: emulator.organization, forceDelete: false, description: "",
    });
  });

  test("read of a workspace deleted outside Pulumi returns an empty id", async () => {
    const name = uniqueName("gone");
    const created = await workspace.create({ name, organization: emulator.organization });
    await workspace.delete(created.id, created.outs);
    expect(await workspace.read(created.id, created.outs)).toEqual({ id: "" });
  });

  test("update renames in place and keeps the id", async () => {
    const name = uniqueName("before");
    const created = await workspace.create({ name, organization: emulator.organization });
    const renamed = uniqueName("after");
    const updated = await workspace.update(created.id, created.outs, { name: renamed, organization: emulator.organization });
    expect(updated.outs.workspaceId).toBe(created.id);
    expect(updated.outs.name).toBe(renamed);
    expect((await rawGet(`/organizations/${emulator.organization}/workspaces/${renamed}`)).status).toBe(200);
  });

  test("update of forceDelete alone makes no mutating call", async () => {
    const created = await workspace.create({ name: uniqueName("flag"), organization: emulator.organization });
    emulator.clearRequests();
    const updated = await workspace.update(created.id, created.outs, { name: created.outs.name, organization: emulator.organization, forceDelete: true });
    expect(updated.outs.forceDelete).toBe(true);
    expect(emulator.requests().map((r) => r.method)).toEqual(["GET"]);
  });

  test("delete uses safe delete by default and is idempotent", async () => {
    const created = await workspace.create({ name: uniqueName("delete"), organization: emulator.organization });
    emulator.clearRequests();
    await workspace.delete(created.id, created.outs);
    await workspace.delete(created.id, created.outs);
    expect(emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/v2/workspaces/${created.id}/actions/safe-delete`,
      `POST /api/v2/workspaces/${created.id}/actions/safe-delete`,
    ]);
    expect((await rawGet(`/workspaces/${created.id}`)).status).toBe(404);
  });

  test("delete of a locked workspace fails saying it is locked, and the workspace stays", async () => {
    const created = await workspace.create({ name: uniqueName("locked"), organization: emulator.organization });
    const lock = await request(`${emulator.url}/api/v2/workspaces/${created.id}/actions/lock`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ reason: "someone is applying" }),
    });
    await lock.body.dump();
    expect(lock.statusCode).toBe(200);
    const error = (await workspace.delete(created.id, created.outs).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("was not deleted because it is locked");
    expect(error.message).not.toContain("still manages resources");
    expect((await rawGet(`/workspaces/${created.id}`)).status).toBe(200);
  });

  test("delete with forceDelete uses force delete", async () => {
    const created = await workspace.create({ name: uniqueName("force"), organization: emulator.organization, forceDelete: true });
    emulator.clearRequests();
    await workspace.delete(created.id, created.outs);
    expect(emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /api/v2/workspaces/${created.id}`]);
  });
});

describe("credentials", () => {
  test("a missing token is reported at the first API call, naming how to set it", async () => {
    await configureFor({ "wsbridge:address": emulator.url, "wsbridge:organization": emulator.organization });
    await expect(workspace.create({ name: "no-token", organization: emulator.organization })).rejects.toThrow(/wsbridge:token/);
  });

  test("the token never appears in an error message", async () => {
    await configureFor({ "wsbridge:address": emulator.url, "wsbridge:token": `${emulator.token}-wrong`, "wsbridge:organization": emulator.organization });
    const error = await workspace.create({ name: "bad-token", organization: emulator.organization }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/401/);
    expect(String((error as Error).message)).not.toContain(emulator.token);
    expect(String((error as Error).stack)).not.toContain(emulator.token);
  });
});

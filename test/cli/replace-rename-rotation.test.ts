// What users do around a stack, on the real CLI against the emulator: `up --replace`, renaming a
// resource in the program, moving a workspace to another organization, changing the address the
// state recorded, a plaintext token, and mistakes that preview must catch before `up`.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createStack, emulatorStackConfig, type HarnessStack } from "../../scripts/lib/stack-harness";
import { useEmulatorAndCli } from "../support/real-cli-stack";

// One emulator for the file; each test makes (and disposes) its own stack.
const e2e = useEmulatorAndCli({ quiet: true });

interface Declared {
  resource: string;
  name: string;
  organization?: string;
  aliases?: string[];
  deleteBeforeReplace?: boolean;
}

/** A stack whose program declares what `declared` currently holds (tests change it between runs). */
async function stackWith(project: string, declared: Declared[], config: ConfigMap = emulatorStackConfig(e2e.emulator)): Promise<HarnessStack> {
  return createStack({
    cli: e2e.cli,
    projectName: project,
    config,
    program: async () => {
      const { Workspace } = await import("pulumi-wsbridge");
      for (const d of declared) {
        new Workspace(d.resource, { name: d.name, ...(d.organization && { organization: d.organization }) }, {
          ...(d.aliases && { aliases: d.aliases.map((name) => ({ name })) }),
          ...(d.deleteBeforeReplace !== undefined && { deleteBeforeReplace: d.deleteBeforeReplace }),
        });
      }
    },
  });
}

async function workspacesNamed(org: string, name: string): Promise<string[]> {
  const r = await e2e.api<{ data: Array<{ id: string; attributes: { name: string } }> }>("GET", `/organizations/${org}/workspaces?search%5Bname%5D=${name}&page%5Bsize%5D=100`);
  return r.doc.data.filter((w) => w.attributes.name === name).map((w) => w.id);
}

async function stateIds(h: HarnessStack): Promise<string[]> {
  const deployment = await h.stack.exportStack();
  const resources = (deployment.deployment as { resources?: Array<{ type: string; id?: string }> }).resources ?? [];
  return resources.filter((r) => r.type === "pulumi-nodejs:dynamic/wsbridge:Workspace").map((r) => r.id ?? "");
}

async function urnOf(h: HarnessStack, resource: string): Promise<string> {
  const deployment = await h.stack.exportStack();
  const resources = (deployment.deployment as { resources?: Array<{ type: string; urn: string }> }).resources ?? [];
  const found = resources.find((r) => r.type === "pulumi-nodejs:dynamic/wsbridge:Workspace" && r.urn.endsWith(`::${resource}`));
  if (!found) throw new Error(`no ${resource} in the state`);
  return found.urn;
}

const failureOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return String(e);
  }
  throw new Error("expected the operation to fail");
};

test("up --replace deletes the old workspace first (names are unique) and leaves one", async () => {
  const declared: Declared[] = [{ resource: "net", name: "replace-me" }];
  const h = await stackWith("wsbridge-replace", declared);
  try {
    await h.stack.up();
    const [before] = await workspacesNamed(e2e.emulator.organization, "replace-me");
    const up = await h.stack.up({ replace: [await urnOf(h, "net")] });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const after = await workspacesNamed(e2e.emulator.organization, "replace-me");
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(await stateIds(h)).toEqual(after);
    expect((await h.stack.preview()).changeSummary).toEqual({ same: 2 });
  } finally {
    await h.stack.destroy().catch(() => undefined);
    await h.dispose();
  }
}, 10 * 60 * 1000);

test("up --replace with deleteBeforeReplace: false keeps the workspace rather than losing it", async () => {
  const declared: Declared[] = [{ resource: "net", name: "replace-kept", deleteBeforeReplace: false }];
  const h = await stackWith("wsbridge-replace-kept", declared);
  try {
    await h.stack.up();
    const before = await workspacesNamed(e2e.emulator.organization, "replace-kept");
    const up = await h.stack.up({ replace: [await urnOf(h, "net")] });
    expect(up.summary.result).toBe("succeeded");
    // Create-before-delete cannot make a second workspace of that name; the old one is kept, not deleted.
    expect(await workspacesNamed(e2e.emulator.organization, "replace-kept")).toEqual(before);
    expect(await stateIds(h)).toEqual(before);
    expect((await h.stack.preview()).changeSummary).toEqual({ same: 2 });
  } finally {
    await h.stack.destroy().catch(() => undefined);
    await h.dispose();
  }
}, 10 * 60 * 1000);

test("a resource renamed without an alias fails naming the alias to add; with it, the workspace is kept", async () => {
  const declared: Declared[] = [{ resource: "old-name", name: "renamed-ws" }];
  const h = await stackWith("wsbridge-rename", declared);
  try {
    await h.stack.up();
    const [id] = await workspacesNamed(e2e.emulator.organization, "renamed-ws");
    declared[0] = { resource: "new-name", name: "renamed-ws" };
    const message = await failureOf(h.stack.up());
    expect(message).toContain('it was created by resource "old-name" of this stack');
    expect(message).toContain('`aliases: [{ name: "old-name" }]`');
    // The failed run touched nothing on the server.
    expect(await workspacesNamed(e2e.emulator.organization, "renamed-ws")).toEqual([id]);

    declared[0] = { resource: "new-name", name: "renamed-ws", aliases: ["old-name"] };
    const up = await h.stack.up();
    expect(up.summary.resourceChanges).not.toHaveProperty("create");
    expect(await workspacesNamed(e2e.emulator.organization, "renamed-ws")).toEqual([id]);
    expect(await stateIds(h)).toEqual([id]);
  } finally {
    await h.stack.destroy().catch(() => undefined);
    await h.dispose();
  }
}, 10 * 60 * 1000);

test("moving a workspace to another organization replaces it, deleting the old one first (the class's default)", async () => {
  const other = `moved-to-${Date.now().toString(36)}`;
  expect((await e2e.api("POST", "/organizations", { data: { type: "organizations", attributes: { name: other } } })).status).toBe(201);
  const declared: Declared[] = [{ resource: "net", name: "moving-ws" }];
  const h = await stackWith("wsbridge-move", declared);
  try {
    await h.stack.up();
    const [old] = await workspacesNamed(e2e.emulator.organization, "moving-ws");
    declared[0] = { resource: "net", name: "moving-ws", organization: other };
    e2e.emulator.clearRequests();
    const up = await h.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const mutations = e2e.writes();
    expect(mutations).toEqual([`POST /api/v2/workspaces/${old}/actions/safe-delete`, `POST /api/v2/organizations/${other}/workspaces`]);
    expect(await workspacesNamed(e2e.emulator.organization, "moving-ws")).toEqual([]);
    expect(await workspacesNamed(other, "moving-ws")).toHaveLength(1);
  } finally {
    await h.stack.destroy().catch(() => undefined);
    await h.dispose();
  }
}, 10 * 60 * 1000);

test("a move to an organization that does not exist fails at preview, before anything is deleted", async () => {
  const declared: Declared[] = [{ resource: "net", name: "staying-ws" }];
  const h = await stackWith("wsbridge-move-nowhere", declared);
  try {
    await h.stack.up();
    const before = await workspacesNamed(e2e.emulator.organization, "staying-ws");
    declared[0] = { resource: "net", name: "staying-ws", organization: "no-such-org" };
    e2e.emulator.clearRequests();
    const message = await failureOf(h.stack.preview());
    expect(message).toContain('cannot move to organization "no-such-org": it does not exist');
    expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(await failureOf(h.stack.up())).toContain("Nothing was changed");
    expect(await workspacesNamed(e2e.emulator.organization, "staying-ws")).toEqual(before);
  } finally {
    declared[0] = { resource: "net", name: "staying-ws" };
    await h.stack.destroy().catch(() => undefined);
    await h.dispose();
  }
}, 10 * 60 * 1000);

test("after the address changes, refresh and destroy say what to run; with --run-program they use the new one", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-moved-"));
  const stateFile = path.join(dir, "emulator.json");
  let first: RunningEmulator | undefined = await startEmulator({ port: 0, quiet: true, stateFile });
  let second: RunningEmulator | undefined;
  const h = await stackWith("wsbridge-rotate", [{ resource: "net", name: "rotated-ws" }], emulatorStackConfig(first));
  try {
    await h.stack.up();
    // The service moves: same data, new address; the stack config follows, the state still holds the old one.
    await first.close();
    first = undefined;
    second = await startEmulator({ port: 0, quiet: true, stateFile });
    await h.stack.setConfig("wsbridge:address", { value: second.url });

    const refresh = await failureOf(h.stack.refresh());
    expect(refresh).toContain("refresh uses the provider settings recorded in the state by the last `pulumi up`");
    expect(refresh).toContain("`pulumi refresh --run-program`");
    const destroy = await failureOf(h.stack.destroy());
    expect(destroy).toContain("destroy uses the provider settings recorded in the state by the last `pulumi up`");
    expect(destroy).toContain("`pulumi destroy --run-program`");
    // Running the program records the current settings; a plain destroy then works too.
    expect((await h.stack.refresh({ runProgram: true })).summary.result).toBe("succeeded");
    expect((await h.stack.destroy()).summary.result).toBe("succeeded");
    const gone = await request(`${second.url}/api/v2/organizations/${second.organization}/workspaces/rotated-ws`, {
      headers: { authorization: `Bearer ${second.token}` },
    });
    await gone.body.dump();
    expect(gone.statusCode).toBe(404);
  } finally {
    await first?.close();
    await second?.close();
    await h.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 10 * 60 * 1000);

describe("preview catches what up would refuse", () => {
  test("a token in plaintext config gets a warning naming the fix; a secret one does not", async () => {
    const plain = { ...emulatorStackConfig(e2e.emulator), "wsbridge:token": { value: e2e.emulator.token, secret: false } };
    const h = await stackWith("wsbridge-plaintext", [{ resource: "net", name: "plaintext-ws" }], plain);
    try {
      let printed = "";
      await h.stack.preview({ onOutput: (t) => { printed += t; } });
      expect(printed).toContain("wsbridge:token is set in plaintext");
      expect(printed).toContain("pulumi config set --secret wsbridge:token <token>");
      expect(printed).not.toContain(e2e.emulator.token);
      await h.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: true });
      printed = "";
      await h.stack.preview({ onOutput: (t) => { printed += t; } });
      expect(printed).not.toContain("in plaintext");
    } finally {
      await h.dispose();
    }
  }, 10 * 60 * 1000);

  test("two resources declaring one workspace name fail the preview, naming both", async () => {
    const h = await stackWith("wsbridge-twice", [{ resource: "a", name: "same-ws" }, { resource: "b", name: "same-ws" }]);
    try {
      e2e.emulator.clearRequests();
      const message = await failureOf(h.stack.preview());
      expect(message).toContain('Workspace resources "a" and "b" both declare');
      expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    } finally {
      await h.dispose();
    }
  }, 10 * 60 * 1000);

  test("a setting up would refuse fails the preview, naming it", async () => {
    const config = { ...emulatorStackConfig(e2e.emulator), "wsbridge:edition": { value: "cloud" } };
    const h = await stackWith("wsbridge-badsetting", [{ resource: "net", name: "setting-ws" }], config);
    try {
      const message = await failureOf(h.stack.preview());
      expect(message).toContain('Invalid provider settings: wsbridge:edition must be "hosted" or "self-managed", got "cloud"');
    } finally {
      await h.dispose();
    }
  }, 10 * 60 * 1000);
});

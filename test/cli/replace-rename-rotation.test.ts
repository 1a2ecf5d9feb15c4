// What users do around a stack, on the real CLI against the emulator: `up --replace`, renaming a
// resource in the program, moving a workspace to another organization, a plaintext token, mistakes
// that preview must catch before `up`, and changing the address the state recorded. One stack runs
// them all in turn, each on a workspace of its own (five, made by one `up`), so each step's
// assertions name the workspace it is about; the address change comes last and destroys the stack.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createStack, emulatorStackConfig, type HarnessStack } from "../../scripts/lib/stack-harness";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import { testStackSecrets } from "../support/transit-keeper";

// The emulator keeps its data in a file, so that the last test can serve the same data at a new address.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-moved-"));
const stateFile = path.join(dataDir, "emulator.json");
const e2e = useEmulatorAndCli({ quiet: true, stateFile });

const TYPE = "pulumi-nodejs:dynamic/wsbridge:Workspace";
const SLOW = 10 * 60 * 1000;

interface Declared {
  name: string;
  organization?: string;
  aliases?: string[];
  deleteBeforeReplace?: boolean;
}

/** The program's workspaces by resource name; tests change them between runs. */
const STARTING: Record<string, Declared> = {
  replaced: { name: "replace-me" },
  kept: { name: "replace-kept", deleteBeforeReplace: false },
  "old-name": { name: "renamed-ws" },
  mover: { name: "moving-ws" },
  stayer: { name: "staying-ws" },
};
let declared: Record<string, Declared> = { ...STARTING };

let h: HarnessStack;
let second: RunningEmulator | undefined;

beforeAll(async () => {
  h = await createStack({
    cli: e2e.cli,
    projectName: "wsbridge-around-a-stack",
    config: emulatorStackConfig(e2e.emulator),
    secrets: testStackSecrets(),
    program: async () => {
      const { Workspace } = await import("pulumi-wsbridge");
      for (const [resource, d] of Object.entries(declared)) {
        new Workspace(resource, { name: d.name, ...(d.organization && { organization: d.organization }) }, {
          ...(d.aliases && { aliases: d.aliases.map((name) => ({ name })) }),
          ...(d.deleteBeforeReplace !== undefined && { deleteBeforeReplace: d.deleteBeforeReplace }),
        });
      }
    },
  });
  const up = await h.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 6 });
}, SLOW);

afterAll(async () => {
  await h?.dispose();
  await second?.close();
  await e2e.emulator.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function workspacesNamed(org: string, name: string): Promise<string[]> {
  const r = await e2e.api<{ data: Array<{ id: string; attributes: { name: string } }> }>("GET", `/organizations/${org}/workspaces?search%5Bname%5D=${name}&page%5Bsize%5D=100`);
  return r.doc.data.filter((w) => w.attributes.name === name).map((w) => w.id);
}

/** The state's Workspaces: resource name to id and URN. */
async function stateOf(): Promise<Record<string, { id: string; urn: string }>> {
  const deployment = await h.stack.exportStack();
  const resources = (deployment.deployment as { resources?: Array<{ type: string; id?: string; urn: string }> }).resources ?? [];
  return Object.fromEntries(resources.filter((r) => r.type === TYPE).map((r) => [r.urn.split("::").pop() ?? "", { id: r.id ?? "", urn: r.urn }]));
}

const failureOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return String(e);
  }
  throw new Error("expected the operation to fail");
};

// ---- --replace ------------------------------------------------------------------------------

const replaced = { before: [] as string[], after: [] as string[], state: {} as Record<string, { id: string; urn: string }> };
const kept = { before: [] as string[], after: [] as string[] };

test("up --replace deletes the old workspace first (names are unique) and leaves one", async () => {
  const org = e2e.emulator.organization;
  replaced.before = await workspacesNamed(org, "replace-me");
  kept.before = await workspacesNamed(org, "replace-kept");
  const state = await stateOf();
  // Both at once: the class's default (delete first) and a resource that overrides it.
  const up = await h.stack.up({ replace: [state["replaced"]?.urn ?? "", state["kept"]?.urn ?? ""] });
  expect(up.summary.resourceChanges).toMatchObject({ replace: 2 });
  replaced.after = await workspacesNamed(org, "replace-me");
  kept.after = await workspacesNamed(org, "replace-kept");
  replaced.state = await stateOf();
  expect(replaced.after).toHaveLength(1);
  expect(replaced.after[0]).not.toBe(replaced.before[0]);
  expect(replaced.state["replaced"]?.id).toBe(replaced.after[0]);
}, SLOW);

test("up --replace with deleteBeforeReplace: false keeps the workspace rather than losing it", () => {
  // Create-before-delete cannot make a second workspace of that name; the old one is kept, not deleted.
  expect(kept.before).toHaveLength(1);
  expect(kept.after).toEqual(kept.before);
  expect(replaced.state["kept"]?.id).toBe(kept.before[0]);
});

test("after the replacements, a preview shows no change; with the token a secret it warns of nothing", async () => {
  let printed = "";
  const preview = await h.stack.preview({ onOutput: (t) => { printed += t; } });
  expect(preview.changeSummary).toEqual({ same: 6 });
  expect(printed).toContain("6 unchanged"); // the output really was captured
  expect(printed).not.toContain("in plaintext");
}, SLOW);

// ---- a rename in the program ------------------------------------------------------------------

let renamedId = "";

test("a resource renamed without an alias fails naming the alias to add, and touches nothing", async () => {
  [renamedId = ""] = await workspacesNamed(e2e.emulator.organization, "renamed-ws");
  const { "old-name": old, ...rest } = declared;
  declared = { ...rest, "new-name": old as Declared };
  e2e.emulator.clearRequests();
  const message = await failureOf(h.stack.up());
  expect(message).toContain('it was created by resource "old-name" of this stack');
  expect(message).toContain('`aliases: [{ name: "old-name" }]`');
  // The only write is the create the server refused (the name is taken).
  expect(e2e.emulator.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path} ${r.status}`))
    .toEqual([`POST /api/v2/organizations/${e2e.emulator.organization}/workspaces 422`]);
  expect(await workspacesNamed(e2e.emulator.organization, "renamed-ws")).toEqual([renamedId]);
}, SLOW);

let moveWrites: string[] = [];
const moved = { old: "", other: "" };

test("with the alias, the renamed resource keeps the workspace (in the same up as a move to another organization)", async () => {
  moved.other = `moved-to-${Date.now().toString(36)}`;
  expect((await e2e.api("POST", "/organizations", { data: { type: "organizations", attributes: { name: moved.other } } })).status).toBe(201);
  [moved.old = ""] = await workspacesNamed(e2e.emulator.organization, "moving-ws");
  declared = {
    ...declared,
    "new-name": { name: "renamed-ws", aliases: ["old-name"] },
    mover: { name: "moving-ws", organization: moved.other },
  };
  e2e.emulator.clearRequests();
  const up = await h.stack.up();
  moveWrites = e2e.writes();
  expect(up.summary.resourceChanges).toEqual({ same: 5, replace: 1 });
  expect(await workspacesNamed(e2e.emulator.organization, "renamed-ws")).toEqual([renamedId]);
  expect((await stateOf())["new-name"]?.id).toBe(renamedId);
}, SLOW);

test("moving a workspace to another organization replaces it, deleting the old one first (the class's default)", async () => {
  // The writes of that up, all about the moved workspace: the rename sent nothing.
  expect(moveWrites).toEqual([`POST /api/v2/workspaces/${moved.old}/actions/safe-delete`, `POST /api/v2/organizations/${moved.other}/workspaces`]);
  expect(await workspacesNamed(e2e.emulator.organization, "moving-ws")).toEqual([]);
  expect(await workspacesNamed(moved.other, "moving-ws")).toHaveLength(1);
});

// ---- preview catches what up would refuse -------------------------------------------------------

test("a move to an organization that does not exist fails at preview, before anything is deleted", async () => {
  const before = await workspacesNamed(e2e.emulator.organization, "staying-ws");
  declared = { ...declared, stayer: { name: "staying-ws", organization: "no-such-org" } };
  try {
    e2e.emulator.clearRequests();
    const message = await failureOf(h.stack.preview());
    expect(message).toContain('cannot move to organization "no-such-org": it does not exist');
    expect(e2e.writes()).toEqual([]);
    expect(await failureOf(h.stack.up())).toContain("Nothing was changed");
    expect(await workspacesNamed(e2e.emulator.organization, "staying-ws")).toEqual(before);
  } finally {
    declared = { ...declared, stayer: { name: "staying-ws" } };
  }
}, SLOW);

test("two resources declaring one workspace name fail the preview, naming both", async () => {
  const before = declared;
  declared = { ...declared, a: { name: "same-ws" }, b: { name: "same-ws" } };
  try {
    e2e.emulator.clearRequests();
    const message = await failureOf(h.stack.preview());
    expect(message).toContain('Workspace resources "a" and "b" both declare');
    expect(e2e.writes()).toEqual([]);
  } finally {
    declared = before;
  }
}, SLOW);

test("a setting up would refuse fails the preview, naming it", async () => {
  await h.stack.setConfig("wsbridge:edition", { value: "cloud" });
  try {
    const message = await failureOf(h.stack.preview());
    expect(message).toContain('Invalid provider settings: wsbridge:edition must be "hosted" or "self-managed", got "cloud"');
  } finally {
    await h.stack.removeConfig("wsbridge:edition");
  }
}, SLOW);

test("a token in plaintext config gets a warning naming the fix, without printing the token", async () => {
  await h.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: false });
  try {
    let printed = "";
    await h.stack.preview({ onOutput: (t) => { printed += t; } });
    expect(printed).toContain("wsbridge:token is set in plaintext");
    expect(printed).toContain("pulumi config set --secret wsbridge:token <token>");
    expect(printed).not.toContain(e2e.emulator.token);
  } finally {
    await h.stack.setConfig("wsbridge:token", { value: e2e.emulator.token, secret: true });
  }
}, SLOW);

// ---- the address changes (last: it destroys the stack) -------------------------------------------

test("after the address changes, refresh and destroy say what to run; with --run-program they use the new one", async () => {
  // The service moves: same data, new address; the stack config follows, the state still holds the old one.
  await e2e.emulator.close();
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
  const server = second;
  const status = async (org: string, name: string): Promise<number> => {
    const res = await request(`${server.url}/api/v2/organizations/${org}/workspaces/${name}`, { headers: { authorization: `Bearer ${server.token}` } });
    await res.body.dump();
    return res.statusCode;
  };
  const org = server.organization;
  expect([
    await status(org, "replace-me"), await status(org, "replace-kept"), await status(org, "renamed-ws"),
    await status(org, "staying-ws"), await status(moved.other, "moving-ws"),
  ]).toEqual([404, 404, 404, 404, 404]);
}, SLOW);

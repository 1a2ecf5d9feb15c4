// The Workspace runtime (what the provider plugin calls) against an in-process emulator:
// check and diff decide the preview, create/read/update/delete do what the preview promised.
import { startEmulator } from "../../emulator";
import * as runtime from "../../provider/runtime";
import { UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import { resetConfigForTests } from "../../provider/runtime/config";
import { ownerUrl, parseOwnerUrl } from "../../provider/runtime/ownership";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const owner = (name: string, stack = "dev"): string => ownerUrl({ project: "proj", stack, kind: "Workspace", name });

const fixture = useRuntimeEmulator();
const { api, configureWith } = fixture;
const workspace = runtime.workspace;

/**
 * What check fills in for a workspace that declares nothing optional: each fixed value a create without
 * the input gives (schemas/workspace.ts, WORKSPACE_OMITTED), and settingOverwrites derived (no mode, no pool: inherit both).
 */
const FILLED = {
  description: "", allowDestroyPlan: true, autoApply: false, autoApplyRunTrigger: false, fileTriggersEnabled: true, queueAllRuns: false,
  speculativeEnabled: true, triggerPatterns: [], triggerPrefixes: [], workingDirectory: "", forceDelete: false, adoptExisting: false,
  settingOverwrites: { executionMode: false, agentPool: false },
};

/** The server's report of a workspace made from {@link FILLED}: no repository, no auto-destroy of its own. */
const AS_CREATED = { ...FILLED, vcsRepo: null, autoDestroyAt: null, autoDestroyActivityDuration: null, inheritsProjectAutoDestroy: true };

/** The program's inputs as the engine passes them to diff, create and update: check's output (which must pass). */
async function checked(program: Props): Promise<Props> {
  const outcome = await workspace.check({}, program);
  expect(outcome.failures).toEqual([]);
  return outcome.inputs;
}

function configureFor(settings: Record<string, string>): Promise<void> {
  resetConfigForTests();
  return runtime.configure({ config: { get: (key: string) => settings[key] } });
}

let counter = 0;
function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

describe("check", () => {
  test("fills the organization from the stack config, and each input left out with what leaving it out means", async () => {
    const result = await workspace.check({}, { name: "alpha", __provider: "text" });
    expect(result).toEqual({ inputs: { name: "alpha", organization: fixture.emulator.organization, ...FILLED }, failures: [] });
  });

  test("derives each settingOverwrites key the program leaves out from the mode and pool it declares", async () => {
    const overwritesOf = async (program: Props): Promise<unknown> => (await checked({ name: "alpha", ...program })).settingOverwrites;
    expect(await overwritesOf({})).toEqual({ executionMode: false, agentPool: false });
    expect(await overwritesOf({ executionMode: "remote" })).toEqual({ executionMode: true, agentPool: true });
    expect(await overwritesOf({ operations: false })).toEqual({ executionMode: true, agentPool: true });
    expect(await overwritesOf({ agentPoolId: "apool-1" })).toEqual({ executionMode: false, agentPool: true });
    expect(await overwritesOf({ executionMode: "agent", agentPoolId: "apool-1" })).toEqual({ executionMode: true, agentPool: true });
    // A declared key is kept; only the other is derived.
    expect(await overwritesOf({ executionMode: "remote", settingOverwrites: { agentPool: false } })).toEqual({ executionMode: true, agentPool: false });
    expect(await overwritesOf({ settingOverwrites: { agentPool: true } })).toEqual({ executionMode: false, agentPool: true });
  });

  test("fills the keys a declared repository leaves out, but not its credential", async () => {
    const withRepo = await checked({ name: "alpha", vcsRepo: { identifier: "acme/infra", oauthTokenId: "ot-1" } });
    expect(withRepo.vcsRepo).toStrictEqual({ identifier: "acme/infra", oauthTokenId: "ot-1", branch: "", ingressSubmodules: false, tagsRegex: "" });
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
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:token": fixture.emulator.token });
    const result = await workspace.check({}, { name: "alpha" });
    expect(result.failures).toEqual([
      {
        property: "organization",
        reason: "is required: set it on the resource, or set the `wsbridge:organization` stack config (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)",
      },
    ]);
  });

  test("runs without any token and makes no request", async () => {
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:organization": "example-org" });
    fixture.emulator.clearRequests();
    const result = await workspace.check({}, { name: "alpha" });
    expect(result.failures).toEqual([]);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("diff", () => {
  // The server's last report (a state from before declarations were recorded: it implies a declared description).
  const olds = { ...AS_CREATED, name: "alpha", organization: "example-org", description: "one", workspaceId: "ws-1" };

  test("reports no changes when the declared values match", async () => {
    expect(await workspace.diff("ws-1", olds, await checked({ name: "alpha", organization: "example-org", description: "one" })))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
  });

  test.each([
    ["never declared", []],
    ["declared before", ["description"]],
  ])("a description the program leaves out is restored to \"\", whatever the stack's history (%s): an update of it", async (_history, recorded) => {
    const state = { ...olds, __declaredInputs: recorded };
    const news = await checked({ name: "alpha", organization: "example-org" });
    expect(news.description).toBe("");
    expect(await workspace.diff("ws-1", state, news)).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "description", kind: "update", replace: false }],
    });
  });

  test("treats an empty description and none as the same", async () => {
    const none = { ...olds, description: undefined };
    expect((await workspace.diff("ws-1", none, await checked({ name: "alpha", organization: "example-org", description: "" }))).changes).toBe(false);
  });

  test("updates in place for a new name or description", async () => {
    expect(await workspace.diff("ws-1", olds, await checked({ name: "beta", organization: "example-org", description: "two" }))).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false,
      detailedDiff: [{ path: "name", kind: "update", replace: false }, { path: "description", kind: "update", replace: false }],
    });
  });

  test("replaces for a new organization, after checking with a read that it can take the workspace", async () => {
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:token": fixture.emulator.token });
    const made = await api("POST", "/organizations", { data: { type: "organizations", attributes: { name: "other-org", email: "ops@example.com" } } });
    expect(made.status).toBe(201);
    const news = await checked({ name: "alpha", organization: "other-org" });
    fixture.emulator.clearRequests();
    // Names are unique in an organization: the old workspace goes first.
    expect(await workspace.diff("ws-1", olds, news)).toEqual({
      changes: true, replaces: ["organization"], deleteBeforeReplace: true,
      // The description left out means "": a change of it too.
      detailedDiff: [
        { path: "organization", kind: "update", replace: true },
        { path: "description", kind: "update", replace: false },
      ],
    });
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
    await expect(workspace.diff("ws-1", olds, await checked({ name: "alpha", organization: "no-such-org" })))
      .rejects.toThrow('cannot move to organization "no-such-org": it does not exist');
  });

  test("reports a change when a value is unknown during preview", async () => {
    expect((await workspace.diff("ws-1", olds, await checked({ name: UNKNOWN, organization: "example-org", description: "one" }))).changes).toBe(true);
  });

  test("ignores a changed serialized provider", async () => {
    const before = { ...olds, __provider: "old text" };
    // The dynamic provider's host puts the serialized provider back into check's output.
    const news = { ...(await checked({ name: "alpha", organization: "example-org", description: "one", __provider: "new text" })), __provider: "new text" };
    expect((await workspace.diff("ws-1", before, news)).changes).toBe(false);
  });
});

describe("create, read, update and delete", () => {
  test("create makes the workspace and returns the server's state with the declared inputs", async () => {
    const name = uniqueName("create");
    const created = await workspace.create({ name, organization: fixture.emulator.organization, description: "made by a test" });
    expect(created.id).toMatch(/^ws-/);
    expect(created.outs.__outputs).toMatchObject({
      name,
      organization: fixture.emulator.organization,
      description: "made by a test",
      forceDelete: false,
      workspaceId: created.id,
      locked: false,
      resourceCount: 0,
      htmlUrl: `${fixture.emulator.url}/app/${fixture.emulator.organization}/workspaces/${name}`,
    });
    expect((await api("GET", `/workspaces/${created.id}`)).status).toBe(200);
  });

  test("create refuses a name that already exists instead of taking the workspace over", async () => {
    const name = uniqueName("taken");
    await workspace.create({ name, organization: fixture.emulator.organization });
    await expect(workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("taker") })).rejects.toThrow(
      `Workspace "${fixture.emulator.organization}/${name}" already exists and was not created by a pulumi-wsbridge stack resource`,
    );
  });

  test("create records which stack resource made the workspace in its source-url", async () => {
    const name = uniqueName("marked");
    const created = await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("net") });
    const live = (await api("GET", `/workspaces/${created.id}`)).doc as { data: { attributes: Record<string, unknown> } };
    expect(live.data.attributes["source-name"]).toBe("pulumi-wsbridge");
    expect(live.data.attributes["source-url"]).toBe(owner("net"));
    expect(parseOwnerUrl(String(live.data.attributes["source-url"]))).toEqual({ project: "proj", stack: "dev", kind: "Workspace", name: "net" });
  });

  test("create adopts the resource's own workspace left by an interrupted create, with the declared description", async () => {
    const name = uniqueName("interrupted");
    const first = await workspace.create({ name, organization: fixture.emulator.organization, description: "old", __owner: owner("net") });
    fixture.emulator.clearRequests();
    const again = await workspace.create({ name, organization: fixture.emulator.organization, description: "new", __owner: owner("net") });
    expect(again.id).toBe(first.id);
    expect(again.outs.description).toBe("new");
    // The POST is refused (name taken) before anything is applied; the lookup finds this resource's own.
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["POST", "GET", "PATCH"]);
  });

  test("create of a free name is one request, attributes, relationships and tag bindings together", async () => {
    const name = uniqueName("one-request");
    fixture.emulator.clearRequests();
    const created = await workspace.create({
      name, organization: fixture.emulator.organization, description: "d", autoApply: true, tagBindings: { env: "prod" }, __owner: owner("one"),
    });
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([`POST /api/v2/organizations/${fixture.emulator.organization}/workspaces`]);
    expect(created.outs.__outputs).toMatchObject({ description: "d", autoApply: true, tagBindings: { env: "prod" } });
    expect(created.outs.__outputs.effectiveTagBindings).toEqual([{ key: "env", value: "prod", inheritedFrom: null }]);
  });

  test("projectRemoteState is sent, read back and compared like the other settings (issue 25)", async () => {
    const created = await workspace.create(await checked({ name: uniqueName("project-shared"), organization: fixture.emulator.organization, projectRemoteState: true, __owner: owner("ps") }));
    expect(created.outs.__outputs.projectRemoteState).toBe(true);
    expect(((await api("GET", `/workspaces/${created.id}`)).doc as { data: { attributes: Record<string, unknown> } }).data.attributes["project-remote-state"]).toBe(true);
    const refreshed = await workspace.read(created.id, created.outs);
    expect((await workspace.diff(created.id, refreshed.props ?? {}, await checked({ ...(refreshed.inputs ?? {}) }))).changes).toBe(false);
    const off = await workspace.update(created.id, refreshed.props ?? {}, await checked({ ...(refreshed.inputs ?? {}), projectRemoteState: false }));
    expect(off.outs.__outputs.projectRemoteState).toBe(false);
    await workspace.delete(created.id, created.outs);
  });

  test("refresh is one request, and an update of one attribute is one request", async () => {
    const created = await workspace.create(await checked({ name: uniqueName("counted"), organization: fixture.emulator.organization, autoApply: false, __owner: owner("counted") }));
    fixture.emulator.clearRequests();
    const refreshed = await workspace.read(created.id, created.outs);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
    const news = await checked({ ...(refreshed.inputs ?? {}), autoApply: true });
    fixture.emulator.clearRequests();
    await workspace.update(created.id, refreshed.props ?? {}, news);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["PATCH"]);
    fixture.emulator.clearRequests();
    await workspace.delete(created.id, created.outs);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["POST"]);
  });

  test("create refuses a workspace made by another resource of the stack, naming the alias to add", async () => {
    const name = uniqueName("renamed");
    await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("old-name") });
    await expect(workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("new-name") })).rejects.toThrow(
      'it was created by resource "old-name" of this stack. If you renamed that resource in your program, add `aliases: [{ name: "old-name" }]`',
    );
  });

  test("create refuses a workspace made by another stack", async () => {
    const name = uniqueName("other-stack");
    await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("net", "prod") });
    await expect(workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("net") })).rejects.toThrow(
      'is managed by resource "net" of stack proj/prod, not by this resource',
    );
  });

  test("delete leaves alone a workspace that a create of this run adopted (a create-before-delete replace keeping the name)", async () => {
    const name = uniqueName("kept");
    const old = await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("keep") });
    const replacement = await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("keep") });
    expect(replacement.id).toBe(old.id);
    fixture.emulator.clearRequests();
    await workspace.delete(old.id, old.outs);
    expect(fixture.emulator.requests()).toEqual([]);
    expect((await api("GET", `/workspaces/${old.id}`)).status).toBe(200);
  });

  test("check keeps the owner marker out of validation and passes it on unchanged", async () => {
    const outcome = await workspace.check({}, { name: "fresh", organization: fixture.emulator.organization, __owner: owner("net") });
    expect(outcome.failures).toEqual([]);
    expect(outcome.inputs).toEqual({ name: "fresh", organization: fixture.emulator.organization, __owner: owner("net"), ...FILLED });
  });

  test("refresh returns the owner marker with the inputs, so the next preview shows no change to it", async () => {
    const created = await workspace.create({ name: uniqueName("refreshed"), organization: fixture.emulator.organization, __owner: owner("kept") });
    const refreshed = await workspace.read(created.id, created.outs);
    expect(refreshed.inputs?.__owner).toBe(owner("kept"));
    expect(refreshed.props?.__owner).toBe(owner("kept"));
  });

  test("create resolves a gateway's 502 after the server applied it: one workspace, no second POST", async () => {
    const name = uniqueName("gateway-applied");
    const path = `/api/v2/organizations/${fixture.emulator.organization}/workspaces`;
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path }, status: 502, afterApply: true }] });
    fixture.emulator.clearRequests();
    const created = await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("gw") });
    const posts = fixture.emulator.requests().filter((r) => r.method === "POST");
    expect(posts.map((r) => [r.status, r.fault])).toEqual([[502, "status-after-apply"]]);
    const listed = await api("GET", `/organizations/${fixture.emulator.organization}/workspaces?search%5Bname%5D=${name}`);
    expect((listed.doc as { data: { id: string }[] }).data.map((w) => w.id)).toEqual([created.id]);
  });

  test("create resolves a 503 that was not applied: it looks, finds nothing, and creates", async () => {
    const name = uniqueName("gateway-refused");
    const path = `/api/v2/organizations/${fixture.emulator.organization}/workspaces`;
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path }, status: 503 }] });
    fixture.emulator.clearRequests();
    const created = await workspace.create({ name, organization: fixture.emulator.organization, __owner: owner("gw2") });
    expect(fixture.emulator.requests().filter((r) => r.method === "POST").map((r) => r.status)).toEqual([503, 201]);
    expect((await api("GET", `/workspaces/${created.id}`)).status).toBe(200);
  });

  test("delete retries a 503 and a dropped connection, and a 404 after an attempt means done", async () => {
    const created = await workspace.create({ name: uniqueName("flaky-delete"), organization: fixture.emulator.organization });
    const path = `/api/v2/workspaces/${created.id}/actions/safe-delete`;
    fixture.emulator.setFaults({ script: [{ match: { method: "POST", path }, status: 503 }, { match: { method: "POST", path }, drop: "after" }] });
    fixture.emulator.clearRequests();
    await workspace.delete(created.id, created.outs);
    expect(fixture.emulator.requests().map((r) => r.status)).toEqual([503, null, 404]);
    expect((await api("GET", `/workspaces/${created.id}`)).status).toBe(404);
  });

  test("read returns the live description and updated inputs", async () => {
    const name = uniqueName("drift");
    const inputs = await checked({ name, organization: fixture.emulator.organization, description: "declared" });
    const created = await workspace.create(inputs);
    await api("PATCH", `/workspaces/${created.id}`, { data: { type: "workspaces", attributes: { description: "changed outside" } } });
    const read = await workspace.read(created.id, { ...created.outs, __provider: "text" });
    expect(read.id).toBe(created.id);
    expect(read.props?.description).toBe("changed outside");
    expect(read.inputs).toEqual({ ...inputs, description: "changed outside" });
  });

  test("read returns the inputs as check completes them, and one left out without a fixed value only where the server holds other than leaving it out means", async () => {
    const inputs = await checked({ name: uniqueName("undeclared"), organization: fixture.emulator.organization });
    const created = await workspace.create(inputs);
    // What the server chose for the inputs without a fixed value (engine version, project, sharing) is not an input.
    expect(created.outs.__outputs.engineVersion).toEqual(expect.any(String));
    expect((await workspace.read(created.id, created.outs)).inputs).toEqual({ name: created.outs.name, organization: fixture.emulator.organization, ...FILLED });
    // Changed outside: an engine version (not managed when left out) and a scheduled destroy (left out, there is none).
    const engineVersion = created.outs.__outputs.engineVersion === "1.0.0" ? "1.1.0" : "1.0.0";
    const outside = await api("PATCH", `/workspaces/${created.id}`, {
      data: { type: "workspaces", attributes: { "engine-version": engineVersion, "auto-destroy-at": "2031-01-31T18:00:00.000Z" } },
    });
    expect(outside.status).toBe(200);
    const read = await workspace.read(created.id, created.outs);
    expect(read.props?.__outputs.engineVersion).toBe(engineVersion);
    expect(read.inputs).toEqual({ name: created.outs.name, organization: fixture.emulator.organization, ...FILLED, autoDestroyAt: "2031-01-31T18:00:00.000Z" });
  });

  test("a description removed from the program previews as the restore to \"\" and applies it with one PATCH", async () => {
    const inputs = await checked({ name: uniqueName("restored"), organization: fixture.emulator.organization, description: "declared", __owner: owner("restored") });
    const created = await workspace.create(inputs);
    const news = await checked({ name: inputs.name, organization: fixture.emulator.organization, __owner: owner("restored") });
    fixture.emulator.clearRequests();
    expect(await workspace.diff(created.id, created.outs, news)).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [{ path: "description", kind: "update", replace: false }],
    });
    const updated = await workspace.update(created.id, created.outs, news);
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /api/v2/workspaces/${created.id}`]);
    expect(updated.outs.__outputs.description).toBe("");
    expect(((await api("GET", `/workspaces/${created.id}`)).doc as { data: { attributes: Record<string, unknown> } }).data.attributes.description).toBe("");
    expect((await workspace.diff(created.id, updated.outs, news)).changes).toBe(false);
  });

  test("an input with no fixed value (engine version, flat tags) removed from the program is no change, and nothing is sent", async () => {
    const program = { name: uniqueName("unmanaged"), organization: fixture.emulator.organization, engineVersion: "1.0.0", tagNames: ["legacy"], __owner: owner("unmanaged") };
    const created = await workspace.create(await checked(program));
    expect(created.outs.__outputs).toMatchObject({ engineVersion: "1.0.0", tagNames: ["legacy"] });
    const { engineVersion: _engine, tagNames: _tags, ...rest } = program;
    const news = await checked(rest);
    fixture.emulator.clearRequests();
    expect(await workspace.diff(created.id, created.outs, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(fixture.emulator.requests()).toEqual([]);
    // The server keeps them, and after a refresh the program still previews no change.
    const read = await workspace.read(created.id, created.outs);
    expect(read.props?.__outputs).toMatchObject({ engineVersion: "1.0.0", tagNames: ["legacy"] });
    expect((await workspace.diff(created.id, read.props ?? {}, news)).changes).toBe(false);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
  });

  test("an execution mode removed from the program shows as the delete of the workspace's own mode beside the inheritance, which the update restores", async () => {
    const program = { name: uniqueName("inherits"), organization: fixture.emulator.organization, executionMode: "local", __owner: owner("inherits") };
    const created = await workspace.create(await checked(program));
    expect(created.outs.__outputs.settingOverwrites).toEqual({ executionMode: true, agentPool: true });
    const { executionMode: _mode, ...rest } = program;
    const news = await checked(rest);
    expect(await workspace.diff(created.id, created.outs, news)).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [
        { path: "settingOverwrites.executionMode", kind: "update", replace: false },
        { path: "settingOverwrites.agentPool", kind: "update", replace: false },
        // The workspace's own mode goes (a delete of the server's value), inherited again through settingOverwrites.
        { path: "executionMode", kind: "delete", replace: false },
      ],
    });
    fixture.emulator.clearRequests();
    const updated = await workspace.update(created.id, created.outs, news);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["PATCH"]);
    expect(updated.outs.__outputs.settingOverwrites).toEqual({ executionMode: false, agentPool: false });
    expect((await workspace.diff(created.id, updated.outs, news)).changes).toBe(false);
  });

  test("read of a workspace deleted outside Pulumi returns an empty id", async () => {
    const name = uniqueName("gone");
    const created = await workspace.create({ name, organization: fixture.emulator.organization });
    await workspace.delete(created.id, created.outs);
    expect(await workspace.read(created.id, created.outs)).toEqual({ id: "" });
  });

  test("update renames in place and keeps the id", async () => {
    const name = uniqueName("before");
    const created = await workspace.create(await checked({ name, organization: fixture.emulator.organization }));
    const renamed = uniqueName("after");
    const updated = await workspace.update(created.id, created.outs, await checked({ name: renamed, organization: fixture.emulator.organization }));
    expect(updated.outs.__outputs.workspaceId).toBe(created.id);
    expect(updated.outs.name).toBe(renamed);
    expect((await api("GET", `/organizations/${fixture.emulator.organization}/workspaces/${renamed}`)).status).toBe(200);
  });

  test("an update that gives an execution mode keeps the declared setting overwrites, in one request", async () => {
    // The service resets setting-overwrites for what an update gives a value for; found on the real CLI.
    const declared = { name: uniqueName("overwrites"), organization: fixture.emulator.organization, operations: true, settingOverwrites: { agentPool: false } };
    const created = await workspace.create(await checked(declared));
    const news = await checked({ ...declared, operations: false });
    fixture.emulator.clearRequests();
    const updated = await workspace.update(created.id, created.outs, news);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["PATCH"]);
    expect(updated.outs.__outputs.settingOverwrites).toEqual({ executionMode: true, agentPool: false });
    expect((await workspace.diff(created.id, updated.outs, news)).changes).toBe(false);
  });

  test("update of forceDelete alone makes no request at all", async () => {
    const created = await workspace.create(await checked({ name: uniqueName("flag"), organization: fixture.emulator.organization }));
    const news = await checked({ name: created.outs.name, organization: fixture.emulator.organization, forceDelete: true });
    fixture.emulator.clearRequests();
    const updated = await workspace.update(created.id, created.outs, news);
    expect(updated.outs.forceDelete).toBe(true);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual([]);
  });

  test("delete uses safe delete by default and is idempotent", async () => {
    const created = await workspace.create({ name: uniqueName("delete"), organization: fixture.emulator.organization });
    fixture.emulator.clearRequests();
    await workspace.delete(created.id, created.outs);
    await workspace.delete(created.id, created.outs);
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/v2/workspaces/${created.id}/actions/safe-delete`,
      `POST /api/v2/workspaces/${created.id}/actions/safe-delete`,
    ]);
    expect((await api("GET", `/workspaces/${created.id}`)).status).toBe(404);
  });

  test("delete of a locked workspace fails saying it is locked, and the workspace stays", async () => {
    const created = await workspace.create({ name: uniqueName("locked"), organization: fixture.emulator.organization });
    const lock = await api("POST", `/workspaces/${created.id}/actions/lock`, { reason: "someone is applying" });
    expect(lock.status).toBe(200);
    const error = (await workspace.delete(created.id, created.outs).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("was not deleted because it is locked");
    expect(error.message).not.toContain("still manages resources");
    expect((await api("GET", `/workspaces/${created.id}`)).status).toBe(200);
  });

  test("delete with forceDelete uses force delete", async () => {
    const created = await workspace.create({ name: uniqueName("force"), organization: fixture.emulator.organization, forceDelete: true });
    fixture.emulator.clearRequests();
    await workspace.delete(created.id, created.outs);
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /api/v2/workspaces/${created.id}`]);
  });
});

describe("preview refuses what up would refuse", () => {
  test.each([
    ["wsbridge:maxRetries", "lots", "wsbridge:maxRetries must be a whole number from 0 to 50"],
    ["wsbridge:requestTimeoutMs", "0", "wsbridge:requestTimeoutMs must be a whole number of milliseconds from 1 to 3600000"],
    ["wsbridge:address", "ftp://example.com", 'wsbridge:address must use http or https, got "ftp:"'],
    ["wsbridge:edition", "cloud", 'wsbridge:edition must be "hosted" or "self-managed", got "cloud"'],
  ])("check fails naming %s when it is %s", async (key, value, message) => {
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:organization": fixture.emulator.organization, [key]: value });
    fixture.emulator.clearRequests();
    await expect(workspace.check({}, { name: "alpha" })).rejects.toThrow(`Invalid provider settings: ${message}`);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  test("trigger patterns with file triggers off and state shared with both the project and the organization fail at check, with no request (issue 25)", async () => {
    fixture.emulator.clearRequests();
    const patterns = await workspace.check({}, { name: "ok", organization: fixture.emulator.organization, fileTriggersEnabled: false, triggerPatterns: ["src/**"] });
    expect(patterns.failures).toEqual([{ property: "triggerPatterns", reason: expect.stringMatching(/^must be empty when fileTriggersEnabled is false/) }]);
    const prefixes = await workspace.check({}, { name: "ok", organization: fixture.emulator.organization, fileTriggersEnabled: false, triggerPrefixes: ["modules/"] });
    expect(prefixes.failures).toEqual([]);
    const both = await workspace.check({}, { name: "ok", organization: fixture.emulator.organization, globalRemoteState: true, projectRemoteState: true });
    expect(both.failures).toEqual([{ property: "projectRemoteState", reason: expect.stringMatching(/^must not be true together with globalRemoteState: true/) }]);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  test("a workspace name over 260 characters and an invalid organization name are check failures", async () => {
    const long = await workspace.check({}, { name: "a".repeat(261), organization: fixture.emulator.organization });
    expect(long.failures).toEqual([{ property: "name", reason: "must be at most 260 characters" }]);
    const org = await workspace.check({}, { name: "ok", organization: "not an org!" });
    expect(org.failures).toEqual([{ property: "organization", reason: "must contain only letters, digits, '-' and '_' (and not be empty)" }]);
  });
});

describe("refresh and destroy after the settings changed", () => {
  test("a refused token says that refresh and destroy use the settings recorded in the state, and what to run", async () => {
    const created = await workspace.create({ name: uniqueName("rotated"), organization: fixture.emulator.organization });
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:token": "revoked-token", "wsbridge:organization": fixture.emulator.organization });
    const refresh = (await workspace.read(created.id, created.outs).catch((e: unknown) => e)) as Error;
    expect(refresh.message).toContain("401");
    expect(refresh.message).toContain("refresh uses the provider settings recorded in the state by the last `pulumi up`");
    expect(refresh.message).toContain("`pulumi refresh --run-program`");
    const destroy = (await workspace.delete(created.id, created.outs).catch((e: unknown) => e)) as Error;
    expect(destroy.message).toContain("`pulumi destroy --run-program`");
    expect(destroy.message).not.toContain("revoked-token");
  });

  test("an address that refuses connections gets the same advice", async () => {
    await configureFor({ "wsbridge:address": "http://127.0.0.1:9", "wsbridge:token": "unreachable-host-token", "wsbridge:organization": fixture.emulator.organization, "wsbridge:maxRetries": "0" });
    const error = (await workspace.read("ws-any", { name: "x", organization: fixture.emulator.organization }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("failed without a response from http://127.0.0.1:9: ");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).toContain("`pulumi refresh --run-program`");
  });

  test("create against an address that serves no API says the address may be wrong; in a missing organization, says that", async () => {
    await configureFor({ "wsbridge:address": `${fixture.emulator.url}/not-the-api`, "wsbridge:token": fixture.emulator.token, "wsbridge:organization": fixture.emulator.organization });
    const wrongBase = (await workspace.create({ name: "nowhere", organization: fixture.emulator.organization }).catch((e: unknown) => e)) as Error;
    expect(wrongBase.message).toContain("does not serve the API (GET /api/v2/ping answered 404)");
    await configureWith();
    const noOrg = (await workspace.create({ name: "nowhere", organization: "no-such-org" }).catch((e: unknown) => e)) as Error;
    expect(noOrg.message).toContain('Workspace "no-such-org/nowhere" cannot be created: the organization "no-such-org" does not exist, or the token may not create workspaces in it');
  });

  test("refresh against an address that serves no API keeps the resource and says the address may be wrong", async () => {
    const created = await workspace.create({ name: uniqueName("wrong-base"), organization: fixture.emulator.organization });
    await configureFor({ "wsbridge:address": `${fixture.emulator.url}/not-the-api`, "wsbridge:token": fixture.emulator.token, "wsbridge:organization": fixture.emulator.organization });
    const error = (await workspace.read(created.id, created.outs).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("does not serve the API (GET /api/v2/ping answered 404)");
    expect(error.message).toContain("wsbridge:address");
  });
});

describe("credentials", () => {
  test("a missing token is reported at the first API call, naming how to set it", async () => {
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:organization": fixture.emulator.organization });
    await expect(workspace.create({ name: "no-token", organization: fixture.emulator.organization })).rejects.toThrow(/wsbridge:token/);
  });

  test("the token never appears in an error message", async () => {
    await configureFor({ "wsbridge:address": fixture.emulator.url, "wsbridge:token": `${fixture.emulator.token}-wrong`, "wsbridge:organization": fixture.emulator.organization });
    const error = await workspace.create({ name: "bad-token", organization: fixture.emulator.organization }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/401/);
    expect(String((error as Error).message)).not.toContain(fixture.emulator.token);
    expect(String((error as Error).stack)).not.toContain(fixture.emulator.token);
  });
});

describe("edition-specific inputs", () => {
  test("assessmentsEnabled fails check against the self-managed edition, after one read-only ping", async () => {
    const selfManaged = await startEmulator({ port: 0, edition: "self-managed" });
    try {
      await configureFor({ "wsbridge:address": selfManaged.url, "wsbridge:token": selfManaged.token, "wsbridge:organization": selfManaged.organization });
      selfManaged.clearRequests();
      const result = await workspace.check({}, { name: "assessed", assessmentsEnabled: true });
      expect(result.failures).toEqual([
        { property: "assessmentsEnabled", reason: "is only available in the hosted edition; this server is self-managed" },
      ]);
      expect(selfManaged.requests().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v2/ping"]);
    } finally {
      await selfManaged.close();
    }
  });

  test("assessmentsEnabled passes check against the hosted edition", async () => {
    await configureWith();
    expect((await workspace.check({}, { name: "assessed", assessmentsEnabled: true })).failures).toEqual([]);
  });
});

describe("normalization: what the API treats alike is no change", () => {
  // Each case: what the server holds (beyond a workspace made with nothing optional), and the program's spelling of it.
  const REPO = { identifier: "acme/infra", branch: null, ingressSubmodules: false, tagsRegex: null, oauthTokenId: "ot-1" };
  test.each<[string, Props, Props]>([
    ["description: \"\" and the server's empty description", { description: "" }, { description: "" }],
    ["a description left out and the server's null one", { description: null }, {}],
    ["a reordered set", { triggerPatterns: ["b", "a"], tagNames: ["x", "y"] }, { triggerPatterns: ["a", "b"], tagNames: ["y", "x"] }],
    ["a map in another key order", { tagBindings: { b: "2", a: "1" } }, { tagBindings: { a: "1", b: "2" } }],
    ["a timestamp without milliseconds", { autoDestroyAt: "2027-01-31T18:00:00.000Z" }, { autoDestroyAt: "2027-01-31T18:00:00Z" }],
    ["the same instant in another time zone", { autoDestroyAt: "2027-01-31T18:00:00.000Z" }, { autoDestroyAt: "2027-01-31T19:00:00+01:00" }],
    ["only some overwrites declared (the other derived)", { executionMode: "remote", settingOverwrites: { executionMode: true, agentPool: false } },
      { executionMode: "remote", settingOverwrites: { agentPool: false } }],
    ["a repository with an empty branch and only some keys", { vcsRepo: REPO }, { vcsRepo: { identifier: "acme/infra", branch: "", oauthTokenId: "ot-1" } }],
    ["a server default declared", { autoApplyRunTrigger: false }, { autoApplyRunTrigger: false }],
  ])("%s", async (_what, server, declared) => {
    const olds = { ...AS_CREATED, name: "n", organization: "example-org", workspaceId: "ws-1", ...server, __declaredInputs: [] };
    expect(await workspace.diff("ws-1", olds, await checked({ name: "n", organization: "example-org", ...declared })))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
  });
});

/**
 * Every client method against the emulator (hosted edition; data retention on a self-managed one),
 * and every error class the API can produce. The token must not appear in any error message.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import {
  ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, UnsupportedEditionError, ValidationError, BadRequestError,
  WsbridgeClient, closeAllPools, collect, type Workspace,
} from "../../provider/runtime/api";
import { resetEditionCache } from "../../provider/runtime/api/operations/ping";
import {
  BULK, CLIENT_METHODS, ErrorRecorder, OAUTH_TOKEN_ID, PROJECT_ID, SSH_KEY_ID, attempts, clientFixtures, clientFor,
  recordingCalls, uniqueName,
} from "../support/client-emulator";

let emu: RunningEmulator;
let client: WsbridgeClient;
const recorder = new ErrorRecorder();
const ORG = "example-org";
/** Methods called on the suite's clients; the last test checks that none was left out. */
const called = new Set<string>();

beforeAll(async () => {
  emu = await startEmulator({ fixtures: clientFixtures(), quiet: true });
  client = recordingCalls(clientFor(emu), called);
});

afterAll(async () => {
  await emu.close();
  await closeAllPools();
  for (const message of recorder.messages) expect(message).not.toContain(emu.token);
});

const newWorkspace = (prefix: string, extra: Parameters<WsbridgeClient["createWorkspace"]>[1] | object = {}) =>
  client.createWorkspace(ORG, { name: uniqueName(prefix), ...extra });

describe("ping and edition", () => {
  beforeEach(() => resetEditionCache());

  test("ping reports the hosted edition, the API version and the advertised rate limit", async () => {
    await expect(client.ping()).resolves.toEqual({ edition: "hosted", apiVersion: "2.6", rateLimit: 30, appName: "HCP Terraform" });
  });

  test("ping needs no token", async () => {
    const anonymous = new WsbridgeClient({ address: emu.url });
    await expect(anonymous.ping()).resolves.toMatchObject({ edition: "hosted" });
  });

  test("the edition is detected once per process and address", async () => {
    emu.clearRequests();
    expect(await client.edition()).toBe("hosted");
    expect(await clientFor(emu).edition()).toBe("hosted");
    expect(attempts(emu, "GET", "/api/v2/ping")).toHaveLength(1);
  });

  test("a configured edition is used without a ping", async () => {
    emu.clearRequests();
    expect(await clientFor(emu, { edition: "self-managed" }).edition()).toBe("self-managed");
    expect(attempts(emu, "GET", "/api/v2/ping")).toHaveLength(0);
  });
});

describe("A. workspaces", () => {
  test("create returns the created workspace with the server's defaults", async () => {
    const name = uniqueName("create");
    const ws = await client.createWorkspace(ORG, { name, description: "made by a test", engineVersion: "1.9.0" });
    expect(ws).toMatchObject({
      name, organization: ORG, description: "made by a test", engineVersion: "1.9.0", locked: false, lockedBy: null,
      autoApply: false, allowDestroyPlan: true, fileTriggersEnabled: true, queueAllRuns: false, speculativeEnabled: true,
      resourceCount: 0, triggerPrefixes: [], triggerPatterns: [], tagNames: [], sshKeyId: null, vcsRepo: null,
      htmlUrl: `/app/${ORG}/workspaces/${name}`, selfLink: `/api/v2/organizations/${ORG}/workspaces/${name}`,
    });
    expect(ws.id).toMatch(/^ws-/);
    expect(ws.projectId).toMatch(/^prj-/);
    expect(ws.permissions.canUpdate).toBe(true);
    expect(typeof ws.assessmentsEnabled).toBe("boolean");
  });

  test("create sends every writable attribute and relationship", async () => {
    const ws = await newWorkspace("full", {
      autoApply: true, allowDestroyPlan: false, autoApplyRunTrigger: true, executionMode: "local", fileTriggersEnabled: false,
      globalRemoteState: true, queueAllRuns: true, speculativeEnabled: false, workingDirectory: "infra",
      triggerPrefixes: ["modules/"], autoDestroyActivityDuration: "14d", sourceName: "tests", sourceUrl: "https://example.com",
      settingOverwrites: { executionMode: true }, projectId: PROJECT_ID,
      tagBindings: [{ key: "env", value: "test" }, { key: "keyonly" }],
      vcsRepo: { identifier: "acme/infra", oauthTokenId: OAUTH_TOKEN_ID, branch: "main" },
    });
    expect(ws).toMatchObject({
      autoApply: true, allowDestroyPlan: false, autoApplyRunTrigger: true, executionMode: "local", fileTriggersEnabled: false,
      globalRemoteState: true, queueAllRuns: true, speculativeEnabled: false, workingDirectory: "infra",
      triggerPrefixes: ["modules/"], autoDestroyActivityDuration: "14d", sourceName: "tests", sourceUrl: "https://example.com",
      settingOverwrites: { executionMode: true }, projectId: PROJECT_ID,
    });
    expect(ws.vcsRepo).toMatchObject({ identifier: "acme/infra", oauthTokenId: OAUTH_TOKEN_ID, branch: "main" });
    const bindings = await client.listTagBindings(ws.id);
    expect(bindings.map((b) => [b.key, b.value]).sort()).toEqual([["env", "test"], ["keyonly", ""]]);
  });

  test("a taken name is a ValidationError pointing at the name", async () => {
    const ws = await newWorkspace("dup");
    const e = await recorder.failure(client.createWorkspace(ORG, { name: ws.name }));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).pointer).toBe("/data/attributes/name");
    expect(e.message).toMatch(/^POST \/api\/v2\/organizations\/example-org\/workspaces failed with 422 invalid attribute: .*\(at \/data\/attributes\/name\) \[request id .+\]$/);
  });

  test("read by name and by id return the same workspace, with included resources when asked", async () => {
    const ws = await newWorkspace("read");
    const byName = await client.readWorkspaceByName(ORG, ws.name);
    const byId = await client.readWorkspace(ws.id, { include: ["organization", "project"] });
    expect(byName.id).toBe(ws.id);
    expect(byId.name).toBe(ws.name);
    expect(byId.included?.map((i) => i.type).sort()).toEqual(["organizations", "projects"]);
  });

  test("an unknown include value is a BadRequestError", async () => {
    const ws = await newWorkspace("include");
    const e = await recorder.failure(client.readWorkspace(ws.id, { include: ["everything"] }));
    expect(e).toBeInstanceOf(BadRequestError);
  });

  test("reading a workspace that does not exist is a NotFoundError", async () => {
    const e = await recorder.failure(client.readWorkspace("ws-doesnotexist0000"));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toContain("GET /api/v2/workspaces/ws-doesnotexist0000 failed with 404");
  });

  test("update by id changes only what it is given; null clears", async () => {
    const ws = await newWorkspace("update", { description: "before", autoApply: true });
    const updated = await client.updateWorkspace(ws.id, { description: null, engineVersion: "1.5.0" });
    expect(updated).toMatchObject({ description: null, engineVersion: "1.5.0", autoApply: true });
  });

  test("update by name renames the workspace", async () => {
    const ws = await newWorkspace("rename");
    const renamed = await client.updateWorkspaceByName(ORG, ws.name, { name: `${ws.name}-new` });
    expect(renamed).toMatchObject({ id: ws.id, name: `${ws.name}-new` });
    expect(await recorder.failure(client.readWorkspaceByName(ORG, ws.name))).toBeInstanceOf(NotFoundError);
  });

  test("updating the tag bindings through the workspace replaces the whole set", async () => {
    const ws = await newWorkspace("replace-tags", { tagBindings: [{ key: "a", value: "1" }, { key: "b", value: "2" }] });
    await client.updateWorkspace(ws.id, { tagBindings: [{ key: "c", value: "3" }] });
    expect((await client.listTagBindings(ws.id)).map((b) => b.key)).toEqual(["c"]);
  });

  test("the list reads every page past 100 items, 100 per request by default", async () => {
    emu.clearRequests();
    const names = (await collect(client.listWorkspaces(ORG, { wildcardName: "bulk-*" }))).map((w) => w.name);
    expect(names).toHaveLength(BULK);
    expect(new Set(names).size).toBe(BULK);
    expect(attempts(emu, "GET", `/api/v2/organizations/${ORG}/workspaces`)).toHaveLength(2);
  });

  test("with 20 per page the list still reads every page", async () => {
    emu.clearRequests();
    const all = await collect(client.listWorkspaces(ORG, { wildcardName: "bulk-*", pageSize: 20 }));
    expect(all).toHaveLength(BULK);
    expect(attempts(emu, "GET", `/api/v2/organizations/${ORG}/workspaces`)).toHaveLength(Math.ceil(BULK / 20));
  });

  test("list filters are sent to the server", async () => {
    const ws = await newWorkspace("filtered", { projectId: PROJECT_ID, tagBindings: [{ key: "filter", value: "yes" }] });
    const found = await collect(client.listWorkspaces(ORG, { projectId: PROJECT_ID, tagged: [{ key: "filter", value: "yes" }] }));
    expect(found.map((w) => w.id)).toContain(ws.id);
    expect(found.every((w) => w.projectId === PROJECT_ID)).toBe(true);
  });

  test("safe delete removes an idle workspace, by id and by name", async () => {
    const a = await newWorkspace("safe-id");
    const b = await newWorkspace("safe-name");
    await client.safeDeleteWorkspace(a.id);
    await client.safeDeleteWorkspaceByName(ORG, b.name);
    expect(await recorder.failure(client.readWorkspace(a.id))).toBeInstanceOf(NotFoundError);
    expect(await recorder.failure(client.readWorkspace(b.id))).toBeInstanceOf(NotFoundError);
  });

  test("safe delete of a workspace that manages resources is a ConflictError that says so", async () => {
    const busy = await client.readWorkspaceByName(ORG, "busy");
    expect(busy.resourceCount).toBe(3);
    const e = (await recorder.failure(client.safeDeleteWorkspace(busy.id))) as ConflictError;
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.reason).toBe("not-safe-to-delete");
    expect(e.message).toContain("still manages resources");
  });

  test("force delete removes a workspace, by id and by name", async () => {
    const a = await newWorkspace("force-id");
    const b = await newWorkspace("force-name");
    await client.forceDeleteWorkspace(a.id);
    await client.forceDeleteWorkspaceByName(ORG, b.name);
    expect(await recorder.failure(client.forceDeleteWorkspace(a.id))).toBeInstanceOf(NotFoundError);
    expect(await recorder.failure(client.readWorkspaceByName(ORG, b.name))).toBeInstanceOf(NotFoundError);
  });

  test("force delete without the owner's right is a ForbiddenError", async () => {
    const ws = await newWorkspace("forbidden");
    const admin = clientFor(emu, { token: emu.issueToken({ kind: "team", access: "admin" }) });
    const e = await recorder.failure(admin.forceDeleteWorkspace(ws.id));
    expect(e).toBeInstanceOf(ForbiddenError);
  });

  test("an invalid token is an UnauthorizedError whose message does not contain it", async () => {
    const token = "bogus-token-value-1234567890";
    const e = await recorder.failure(clientFor(emu, { token }).readWorkspaceByName(ORG, "busy"));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.message).not.toContain(token);
    expect(e.message).toContain("token was rejected");
  });
});

describe("B. locks and SSH keys", () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await newWorkspace("lock");
  });

  test("lock, then unlock; each returns the workspace", async () => {
    const locked = await client.lockWorkspace(ws.id, "maintenance");
    expect(locked).toMatchObject({ locked: true, lockedReason: "maintenance" });
    expect(locked.lockedBy?.type).toBe("users");
    const unlocked = await client.unlockWorkspace(ws.id);
    expect(unlocked).toMatchObject({ locked: false, lockedBy: null });
  });

  test("locking a locked workspace is a ConflictError 'already-locked'", async () => {
    await client.lockWorkspace(ws.id);
    const e = (await recorder.failure(client.lockWorkspace(ws.id))) as ConflictError;
    expect(e.reason).toBe("already-locked");
  });

  test("unlocking an unlocked workspace is a ConflictError 'not-locked'", async () => {
    const e = (await recorder.failure(client.unlockWorkspace(ws.id))) as ConflictError;
    expect(e.reason).toBe("not-locked");
    const e2 = (await recorder.failure(client.forceUnlockWorkspace(ws.id))) as ConflictError;
    expect(e2.reason).toBe("not-locked");
  });

  test("a lock held by another user cannot be unlocked but can be force-unlocked", async () => {
    const other = clientFor(emu, { token: emu.issueToken({ kind: "user", access: "admin" }) });
    await other.lockWorkspace(ws.id, "theirs");
    const e = (await recorder.failure(client.unlockWorkspace(ws.id))) as ConflictError;
    expect(e.reason).toBe("locked-by-other");
    expect(e.message).toMatch(/locked by/i);
    await expect(client.forceUnlockWorkspace(ws.id)).resolves.toMatchObject({ locked: false });
  });

  test("unlock's 503 is retried and the unlock then succeeds", async () => {
    await client.lockWorkspace(ws.id);
    const path = `/api/v2/workspaces/${ws.id}/actions/unlock`;
    emu.setFaults({ script: [{ match: { method: "POST", path }, status: 503, times: 2 }] });
    try {
      await expect(client.unlockWorkspace(ws.id)).resolves.toMatchObject({ locked: false });
    } finally {
      emu.clearFaults();
    }
    expect(attempts(emu, "POST", path).map((r) => r.status)).toEqual([503, 503, 200]);
  });

  test("assign and unassign an SSH key", async () => {
    expect((await client.assignSshKey(ws.id, SSH_KEY_ID)).sshKeyId).toBe(SSH_KEY_ID);
    expect((await client.unassignSshKey(ws.id)).sshKeyId).toBeNull();
  });

  test("assigning an SSH key that does not exist is a NotFoundError", async () => {
    expect(await recorder.failure(client.assignSshKey(ws.id, "sshkey-missing0000"))).toBeInstanceOf(NotFoundError);
  });
});

describe("C. remote state consumers, tags, tag bindings", () => {
  test("add, list, replace and remove remote state consumers", async () => {
    const [subject, a, b] = await Promise.all([newWorkspace("rsc"), newWorkspace("rsc-a"), newWorkspace("rsc-b")]);
    await client.addRemoteStateConsumers(subject!.id, [a!.id, b!.id]);
    expect((await collect(client.listRemoteStateConsumers(subject!.id))).map((w) => w.id).sort()).toEqual([a!.id, b!.id].sort());
    await client.replaceRemoteStateConsumers(subject!.id, [b!.id]);
    expect((await collect(client.listRemoteStateConsumers(subject!.id))).map((w) => w.id)).toEqual([b!.id]);
    await client.removeRemoteStateConsumers(subject!.id, [b!.id]);
    expect(await collect(client.listRemoteStateConsumers(subject!.id))).toEqual([]);
  });

  test("a workspace cannot consume its own state: ValidationError", async () => {
    const ws = await newWorkspace("rsc-self");
    expect(await recorder.failure(client.addRemoteStateConsumers(ws.id, [ws.id]))).toBeInstanceOf(ValidationError);
  });

  test("the consumer list of a global-remote-state workspace reads every page (all other workspaces)", async () => {
    const ws = await newWorkspace("rsc-global", { globalRemoteState: true });
    emu.clearRequests();
    const consumers = await collect(client.listRemoteStateConsumers(ws.id));
    expect(consumers.length).toBeGreaterThan(BULK);
    expect(consumers.map((w) => w.id)).not.toContain(ws.id);
    expect(attempts(emu, "GET", `/api/v2/workspaces/${ws.id}/relationships/remote-state-consumers`).length).toBeGreaterThan(1);
  });

  test("flat tags: add by name, list, remove by id and by name", async () => {
    const ws = await newWorkspace("flat");
    await client.addTags(ws.id, [{ name: "alpha" }, { name: "beta" }, { name: "gamma" }]);
    const tags = await collect(client.listTags(ws.id));
    expect(tags.map((t) => t.name).sort()).toEqual(["alpha", "beta", "gamma"]);
    expect(tags[0]!.id).toMatch(/^tag-/);
    const alpha = tags.find((t) => t.name === "alpha")!;
    await client.removeTags(ws.id, [{ id: alpha.id }, { name: "beta" }, { name: "never-existed" }]);
    expect((await client.readWorkspace(ws.id)).tagNames).toEqual(["gamma"]);
  });

  test("flat tags past 100 are read across pages", async () => {
    const ws = await newWorkspace("flat-many");
    await client.addTags(ws.id, Array.from({ length: 105 }, (_, i) => ({ name: `t${String(i).padStart(3, "0")}` })));
    emu.clearRequests();
    const tags = await collect(client.listTags(ws.id));
    expect(tags).toHaveLength(105);
    expect(attempts(emu, "GET", `/api/v2/workspaces/${ws.id}/relationships/tags`)).toHaveLength(2);
  });

  test("tag bindings: the PATCH adds and updates, effective bindings include the project's", async () => {
    const ws = await newWorkspace("kv", { projectId: PROJECT_ID, tagBindings: [{ key: "env", value: "dev" }] });
    const after = await client.addTagBindings(ws.id, [{ key: "env", value: "prod" }, { key: "owner", value: "me" }]);
    expect(after.map((b) => `${b.key}=${b.value}`).sort()).toEqual(["env=prod", "owner=me"]);
    expect(after[0]!.id).toMatch(/^tb-/);
    const direct = await client.listTagBindings(ws.id);
    expect(direct.map((b) => `${b.key}=${b.value}`).sort()).toEqual(["env=prod", "owner=me"]);
    const effective = await client.listEffectiveTagBindings(ws.id);
    const team = effective.find((b) => b.key === "team");
    expect(team).toMatchObject({ value: "infra", inheritedFrom: { id: PROJECT_ID, link: `/api/v2/projects/${PROJECT_ID}` } });
    expect(effective.find((b) => b.key === "env")?.inheritedFrom).toBeNull();
  });

  test("more than 10 direct tag bindings are refused before sending", async () => {
    const ws = await newWorkspace("kv-many");
    const many = Array.from({ length: 11 }, (_, i) => ({ key: `k${i}` }));
    expect((await recorder.failure(client.addTagBindings(ws.id, many))).message).toContain("at most 10");
  });

  test("on the hosted edition the data retention policy is an UnsupportedEditionError", async () => {
    const ws = await newWorkspace("drp-hosted");
    const e = await recorder.failure(client.readDataRetentionPolicy(ws.id));
    expect(e).toBeInstanceOf(UnsupportedEditionError);
    expect(e.message).toContain("self-managed");
  });
});

describe("C11–C13. data retention on the self-managed edition", () => {
  let tfe: RunningEmulator;
  let sm: WsbridgeClient;
  beforeAll(async () => {
    tfe = await startEmulator({
      edition: "self-managed", quiet: true,
      fixtures: { organizations: [{ name: "example-org", dataRetentionPolicy: { kind: "delete-older", deleteOlderThanNDays: 90 } }] },
    });
    sm = recordingCalls(clientFor(tfe), called);
  });
  afterAll(async () => {
    await tfe.close();
  });

  test("the edition is detected from ping", async () => {
    await expect(sm.ping()).resolves.toMatchObject({ edition: "self-managed", appName: "Terraform Enterprise" });
  });

  test("set, read, switch kind and delete a workspace's policy; without one the organization default shows", async () => {
    const ws = await sm.createWorkspace(tfe.organization, { name: uniqueName("drp") });
    const orgDefault = await sm.readDataRetentionPolicy(ws.id);
    expect(orgDefault).toMatchObject({ kind: "delete-older", deleteOlderThanNDays: 90, target: { type: "organizations" } });

    const set = await sm.setDataRetentionPolicy(ws.id, { kind: "delete-older", deleteOlderThanNDays: 33 });
    expect(set).toMatchObject({ kind: "delete-older", deleteOlderThanNDays: 33, target: { id: ws.id, type: "workspaces" } });
    expect(set.id).toMatch(/^drp-/);
    await expect(sm.readDataRetentionPolicy(ws.id)).resolves.toEqual(set);
    await expect(sm.setDataRetentionPolicy(ws.id, { kind: "dont-delete" }))
      .resolves.toMatchObject({ kind: "dont-delete", deleteOlderThanNDays: null, target: { id: ws.id } });

    await sm.deleteDataRetentionPolicy(ws.id);
    await expect(sm.readDataRetentionPolicy(ws.id)).resolves.toMatchObject({ target: { type: "organizations" } });
    // Deleting again answers with the organization default (spec C13): still a success.
    await expect(sm.deleteDataRetentionPolicy(ws.id)).resolves.toBeUndefined();
  });

  test("in an organization without a default, reading an unset policy is a NotFoundError (not an edition error)", async () => {
    const owner = clientFor(tfe, { token: tfe.issueToken({ kind: "owner", organization: "no-default-org" }) });
    const ws = await owner.createWorkspace("no-default-org", { name: uniqueName("drp-none") });
    expect(await recorder.failure(owner.readDataRetentionPolicy(ws.id))).toBeInstanceOf(NotFoundError);
  });

  test("an invalid policy is refused before sending", async () => {
    const e = await recorder.failure(sm.setDataRetentionPolicy("ws-any", { kind: "delete-older", deleteOlderThanNDays: 0 }));
    expect(e.message).toContain("policy.deleteOlderThanNDays");
  });
});

describe("D. module version deprecation and registry reads", () => {
  const ref = { organization: ORG, name: "vpc", provider: "aws", version: "1.1.0" };
  const registryRef = { namespace: ORG, name: "vpc", provider: "aws", version: "1.1.0" };

  test("deprecate, read through the registry, undeprecate", async () => {
    const dep = await client.deprecateModuleVersion(ref, { reason: "Use 2.0.0", link: "https://example.com/upgrade" });
    expect(dep.reason).toContain("Use 2.0.0");
    expect(dep.link).toBe("https://example.com/upgrade");
    expect(dep.deprecationId).not.toBeNull();

    const version = await client.readRegistryModuleVersion(registryRef);
    expect(version).toMatchObject({ namespace: ORG, name: "vpc", provider: "aws", version: "1.1.0" });
    expect(version.deprecation?.link).toBe("https://example.com/upgrade");

    const versions = await client.listRegistryModuleVersions(registryRef);
    expect(versions.map((v) => v.version).sort()).toEqual(["1.0.0", "1.1.0", "2.0.0"]);
    expect(versions.find((v) => v.version === "1.1.0")?.deprecation?.reason).toContain("Use 2.0.0");
    expect(versions.find((v) => v.version === "1.0.0")?.deprecation).toBeNull();

    await client.undeprecateModuleVersion(ref);
    expect((await client.readRegistryModuleVersion(registryRef)).deprecation).toBeNull();
  });

  test("the organization's registry modules and projects are listed, all pages (go-tfe's RegistryModules.List, Projects.List)", async () => {
    const modules: { name: string; provider: string; registryName: string }[] = [];
    for await (const m of client.listRegistryModules(ORG)) modules.push({ name: m.name, provider: m.provider, registryName: m.registryName });
    expect(modules).toContainEqual({ name: "vpc", provider: "aws", registryName: "private" });
    const projects: string[] = [];
    for await (const p of client.listProjects(ORG)) projects.push(p.id);
    expect(projects).toContain(PROJECT_ID);
  });

  test("a workspace's current state is read with GETs (go-tfe's StateVersions.ReadCurrent and Download; current-state.test.ts has the rest)", async () => {
    const ws = await newWorkspace("current-state");
    await expect(client.readCurrentState(ORG, ws.name)).resolves.toEqual({ none: true, workspaceId: ws.id });
  });

  test("a module version that does not exist is a NotFoundError, in both APIs", async () => {
    expect(await recorder.failure(client.deprecateModuleVersion({ ...ref, version: "9.9.9" }, { reason: "x" }))).toBeInstanceOf(NotFoundError);
    const e = await recorder.failure(client.readRegistryModuleVersion({ ...registryRef, version: "9.9.9" }));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toContain("GET /api/registry/v1/modules/example-org/vpc/aws/9.9.9 failed with 404");
  });
});

describe("coverage of the client's surface", () => {
  test("the client has one method per endpoint A1–D4, plus ping, edition and the project and module lists and the current state adopt reads", () => {
    const publicMethods = Object.getOwnPropertyNames(WsbridgeClient.prototype)
      .filter((name) => name !== "constructor" && name !== "editionSource");
    expect(publicMethods.sort()).toEqual([...CLIENT_METHODS].sort());
  });

  // Declared last, so it runs after every other test of this file.
  test("every client method was called against the emulator by this suite", () => {
    expect(CLIENT_METHODS.filter((name) => !called.has(name))).toEqual([]);
  });
});

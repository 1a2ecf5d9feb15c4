// The request budget of every kind, operation by operation, against an in-process emulator: exactly
// which requests (method and path, without the query) check, diff, create, update, read and delete
// send. A preview with nothing changed (check with the last applied inputs, then diff with the state)
// sends none, for every kind. An extra request anywhere fails this file; the "Requests"
// tables of docs/performance.md and docs/resources/ are these lists. Where a kind needs two requests, the kind's source says why.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as runtime from "../../provider/runtime";
import { resetEditionCache } from "../../provider/runtime/api/operations/ping";
import { resetConfigForTests } from "../../provider/runtime/config";
import { isolatedHome } from "../support/isolated-home";

type Props = Record<string, unknown>;

/** The part of every kind's lifecycle a preview calls. */
interface PreviewCalls {
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: unknown[] }>;
  diff(id: string, olds: Props, news: Props): Promise<{ changes: boolean }>;
}

const ORG = "example-org";
const PROJECT = "prj-countsproject0001";
/** One workspace per kind that lives on a workspace, so no kind sees another's changes. */
const WS = {
  lock: "ws-countslock0000001",
  ssh: "ws-countsssh00000001",
  retention: "ws-countsretention01",
  tags: "ws-countstags0000001",
  exclusiveTags: "ws-countstagsexcl001",
  consumers: "ws-countsconsumers01",
  exclusiveConsumers: "ws-countsconsumers02",
  reader1: "ws-countsreader00001",
  reader2: "ws-countsreader00002",
  reader3: "ws-countsreader00003",
};
const KEY_A = "sshkey-countsaaaaaaaaa01";
const KEY_B = "sshkey-countsbbbbbbbbb02";

let emulator: RunningEmulator;

/** kind → operation → number of requests, printed at the end for docs/performance.md. */
const table: Record<string, Record<string, number>> = {};

/** Runs one operation and returns the requests it sent, as `METHOD /path`. */
async function requestsOf(operation: () => Promise<unknown>): Promise<string[]> {
  emulator.clearRequests();
  await operation();
  return emulator.requests().map((r) => `${r.method} ${r.path.split("?")[0]}`);
}

/** Asserts the exact requests of one operation and records their number. */
async function expectRequests(kind: string, operation: string, run: () => Promise<unknown>, expected: string[]): Promise<void> {
  const sent = await requestsOf(run);
  expect({ kind, operation, sent }).toEqual({ kind, operation, sent: expected });
  (table[kind] ??= {})[operation] = sent.length;
}

/**
 * The no-op preview the engine runs for an unchanged resource: check with the last applied inputs as
 * `olds`, then diff with the state. Both must send nothing and find no change.
 */
async function expectSilentNoOpPreview(
  kind: string, lifecycle: PreviewCalls, id: string, appliedInputs: Props, state: Props, label = "no-op preview",
): Promise<void> {
  let changes: boolean | undefined;
  await expectRequests(kind, label, async () => {
    const checked = await lifecycle.check(appliedInputs, appliedInputs);
    expect(checked.failures).toEqual([]);
    changes = (await lifecycle.diff(id, state, checked.inputs)).changes;
  }, []);
  expect(changes).toBe(false);
}

beforeAll(async () => {
  for (const name of ["TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION", "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION", "WSBRIDGE_EDITION"]) {
    delete process.env[name];
  }
  process.env.HOME = isolatedHome();
  const plain = (id: string) => ({ id, name: id.slice(3), attributes: { "global-remote-state": false } });
  emulator = await startEmulator({
    port: 0,
    // Self-managed: the only edition with data retention policies; every other kind works the same in both.
    edition: "self-managed",
    fixtures: {
      organizations: [{
        name: ORG,
        projects: [{ id: PROJECT, name: "Counted", tagBindings: [{ key: "cost-center", value: "cc-1" }] }],
        sshKeys: [{ id: KEY_A, name: "deploy-a" }, { id: KEY_B, name: "deploy-b" }],
        registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0"] }],
        workspaces: [
          ...Object.values(WS).filter((id) => id !== WS.tags).map(plain),
          { ...plain(WS.tags), project: PROJECT, tagBindings: [{ key: "owner", value: "ui" }] },
        ],
      }],
    },
  });
  resetConfigForTests();
  const settings: Record<string, string> = { "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": ORG };
  await runtime.configure({ config: { get: (key: string) => settings[key] } });
});

afterAll(async () => {
  console.log(`requests per operation: ${JSON.stringify(table)}`);
  await emulator?.close();
});

test("Workspace: create, update, refresh and delete are one request each; a no-op preview sends none", async () => {
  const kind = "Workspace";
  const lifecycle = runtime.workspace;
  const news = { name: "counted-workspace", description: "counted", autoApply: false, tagBindings: { env: "prod" } };
  let inputs: Props = {};
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, news)).inputs; }, []);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`POST /api/v2/organizations/${ORG}/workspaces`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);

  // Attributes and relationships together: one PATCH, whose answer is the new state.
  const changed = { ...inputs, description: "changed", autoApply: true, tagBindings: { env: "staging" } };
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, changed); }, [`PATCH /api/v2/workspaces/${created.id}`]);
  expect(updated.outs).toMatchObject({ description: "changed", autoApply: true, tagBindings: { env: "staging" } });

  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET /api/v2/workspaces/${created.id}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");

  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`POST /api/v2/workspaces/${created.id}/actions/safe-delete`]);
});

test("Workspace: flat tags need their own endpoints, one to add and one to remove, and no read first", async () => {
  const kind = "Workspace";
  const lifecycle = runtime.workspace;
  const inputs = (await lifecycle.check({}, { name: "counted-flat-tags", tagNames: ["alpha"] })).inputs;
  const created = await lifecycle.create(inputs);
  const rel = `/api/v2/workspaces/${created.id}/relationships/tags`;
  await expectRequests(kind, "update flat tags (add and remove)", () => lifecycle.update(created.id, created.outs, { ...inputs, tagNames: ["beta"] }),
    [`POST ${rel}`, `DELETE ${rel}`]);
  await lifecycle.delete(created.id, created.outs);
});

test("WorkspaceLock: lock and unlock read the lock state first; refresh is one request; a no-op preview sends none", async () => {
  const kind = "WorkspaceLock";
  const lifecycle = runtime.workspaceLock;
  const news = { workspaceId: WS.lock, reason: "counted" };
  let inputs: Props = {};
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, news)).inputs; }, []);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  // The read makes a lost lock answer decidable and names a holder without a write (see the kind).
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); },
    [`GET /api/v2/workspaces/${WS.lock}`, `POST /api/v2/workspaces/${WS.lock}/actions/lock`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);

  // Only forceUnlockOnDestroy updates in place: the provider's own switch.
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, { ...inputs, forceUnlockOnDestroy: false }); }, []);
  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET /api/v2/workspaces/${WS.lock}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");
  // The read proves the lock is still this resource's before it is released.
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs),
    [`GET /api/v2/workspaces/${WS.lock}`, `POST /api/v2/workspaces/${WS.lock}/actions/unlock`]);
});

test("SshKeyAssignment: create, update and refresh are one request each; delete reads first; a no-op preview sends none", async () => {
  const kind = "SshKeyAssignment";
  const lifecycle = runtime.sshKeyAssignment;
  const rel = `/api/v2/workspaces/${WS.ssh}/relationships/ssh-key`;
  let inputs: Props = {};
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, { workspaceId: WS.ssh, sshKeyId: KEY_A })).inputs; }, []);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`PATCH ${rel}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, { ...inputs, sshKeyId: KEY_B }); }, [`PATCH ${rel}`]);
  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET /api/v2/workspaces/${WS.ssh}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");
  // The read proves the key is still the one this resource assigned before it is unassigned.
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`GET /api/v2/workspaces/${WS.ssh}`, `PATCH ${rel}`]);
});

test("DataRetentionPolicy: one request per operation; the edition ping only on create, none in a no-op preview", async () => {
  const kind = "DataRetentionPolicy";
  const lifecycle = runtime.dataRetentionPolicy;
  const rel = `/api/v2/workspaces/${WS.retention}/relationships/data-retention-policy`;
  // The edition is detected once per process: forget it, so this check shows that one ping.
  resetEditionCache();
  let inputs: Props = {};
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, { workspaceId: WS.retention, deleteOlderThanNDays: 30 })).inputs; },
    ["GET /api/v2/ping"]);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`POST ${rel}`]);
  resetEditionCache(); // a new preview process: still no ping when nothing changed
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, { workspaceId: WS.retention, dontDelete: true }); }, [`POST ${rel}`]);
  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET ${rel}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`DELETE ${rel}`]);
});

test("WorkspaceTagBindings (additive): C10 + C9 to add, C8 + the workspace update to remove, one read to refresh; a no-op preview sends none", async () => {
  const kind = "WorkspaceTagBindings";
  const lifecycle = runtime.workspaceTagBindings;
  const ws = `/api/v2/workspaces/${WS.tags}`;
  let inputs: Props = {};
  // The limit of 10 direct tags counts the keys others keep: one read, on create and on a changed declaration.
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, { workspaceId: WS.tags, tags: { env: "prod", team: "web" } })).inputs; },
    [`GET ${ws}/tag-bindings`]);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`PATCH ${ws}/tag-bindings`, `GET ${ws}/effective-tag-bindings`]);
  expect(created.outs).toMatchObject({ tags: { env: "prod", team: "web" }, allDirectTags: { owner: "ui", env: "prod", team: "web" } });
  expect(created.outs.effectiveTags).toEqual(expect.arrayContaining([{ key: "cost-center", value: "cc-1", inheritedFrom: PROJECT }]));
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);

  const added = { workspaceId: WS.tags, tags: { env: "staging", team: "web", tier: "1" } };
  await expectRequests(kind, "check (changed)", () => lifecycle.check(inputs, added), [`GET ${ws}/tag-bindings`]);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update (add or change keys)", async () => { updated = await lifecycle.update(created.id, created.outs, added); },
    [`PATCH ${ws}/tag-bindings`, `GET ${ws}/effective-tag-bindings`]);
  // Removing a key: the workspace update replaces the whole set, so the current set is read first.
  const removed = { workspaceId: WS.tags, tags: { env: "staging" } };
  await expectRequests(kind, "update (remove a key)", async () => { updated = await lifecycle.update(created.id, updated.outs, removed); },
    [`GET ${ws}/tag-bindings`, `PATCH ${ws}`]);
  expect(updated.outs).toMatchObject({ tags: { env: "staging" }, allDirectTags: { owner: "ui", env: "staging" } });
  expect(updated.outs.effectiveTags).toEqual(expect.arrayContaining([{ key: "cost-center", value: "cc-1", inheritedFrom: PROJECT }]));

  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET ${ws}`]);
  expect(refreshed.props).toEqual(updated.outs);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`GET ${ws}/tag-bindings`, `PATCH ${ws}`]);
});

test("WorkspaceTagBindings (exclusive): create and update are the one workspace update, its answer carrying the effective tags", async () => {
  const kind = "WorkspaceTagBindings (exclusive)";
  const lifecycle = runtime.workspaceTagBindings;
  const ws = `/api/v2/workspaces/${WS.exclusiveTags}`;
  let inputs: Props = {};
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, { workspaceId: WS.exclusiveTags, tags: { env: "prod" }, exclusive: true })).inputs; }, []);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`PATCH ${ws}`]);
  expect(created.outs).toMatchObject({ tags: { env: "prod" }, allDirectTags: { env: "prod" }, effectiveTags: [{ key: "env", value: "prod", inheritedFrom: null }] });
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, { ...inputs, tags: { env: "staging", team: "web" } }); }, [`PATCH ${ws}`]);
  await expectRequests(kind, "refresh", () => lifecycle.read(created.id, updated.outs), [`GET ${ws}`]);
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`GET ${ws}/tag-bindings`, `PATCH ${ws}`]);
});

test("RemoteStateConsumers (additive): each write then one list; refresh one list; delete one request; a no-op preview sends none", async () => {
  const kind = "RemoteStateConsumers";
  const lifecycle = runtime.remoteStateConsumers;
  const rel = `/api/v2/workspaces/${WS.consumers}/relationships/remote-state-consumers`;
  let inputs: Props = {};
  // The workspace must not share its state globally: one read, on create and on a changed declaration.
  await expectRequests(kind, "check (create)", async () => { inputs = (await lifecycle.check({}, { workspaceId: WS.consumers, consumerIds: [WS.reader2, WS.reader1] })).inputs; },
    [`GET /api/v2/workspaces/${WS.consumers}`]);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`POST ${rel}`, `GET ${rel}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);

  const changed = { workspaceId: WS.consumers, consumerIds: [WS.reader1, WS.reader3] };
  await expectRequests(kind, "check (changed)", () => lifecycle.check(inputs, changed), [`GET /api/v2/workspaces/${WS.consumers}`]);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update (add one, drop one)", async () => { updated = await lifecycle.update(created.id, created.outs, changed); },
    [`POST ${rel}`, `DELETE ${rel}`, `GET ${rel}`]);
  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET ${rel}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`DELETE ${rel}`]);
});

test("RemoteStateConsumers (exclusive): create and update are one replace each", async () => {
  const kind = "RemoteStateConsumers (exclusive)";
  const lifecycle = runtime.remoteStateConsumers;
  const rel = `/api/v2/workspaces/${WS.exclusiveConsumers}/relationships/remote-state-consumers`;
  const inputs = (await lifecycle.check({}, { workspaceId: WS.exclusiveConsumers, consumerIds: [WS.reader1], exclusive: true })).inputs;
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`PATCH ${rel}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, { ...inputs, consumerIds: [WS.reader1, WS.reader2] }); }, [`PATCH ${rel}`]);
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`DELETE ${rel}`]);
});

test("ModuleVersionDeprecation: one request per operation; check and diff send none", async () => {
  const kind = "ModuleVersionDeprecation";
  const lifecycle = runtime.moduleVersionDeprecation;
  const d1 = `/api/v2/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/1.0.0`;
  let inputs: Props = {};
  await expectRequests(kind, "check (create)", async () => {
    inputs = (await lifecycle.check({}, { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "counted" })).inputs;
  }, []);
  let created: { id: string; outs: Props } = { id: "", outs: {} };
  await expectRequests(kind, "create", async () => { created = await lifecycle.create(inputs); }, [`PATCH ${d1}`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, inputs, created.outs);
  let updated: { outs: Props } = { outs: {} };
  await expectRequests(kind, "update", async () => { updated = await lifecycle.update(created.id, created.outs, { ...inputs, reason: "changed" }); }, [`PATCH ${d1}`]);
  let refreshed: { props?: Props; inputs?: Props } = {};
  await expectRequests(kind, "refresh", async () => { refreshed = await lifecycle.read(created.id, updated.outs); }, [`GET /api/registry/v1/modules/${ORG}/vpc/aws/1.0.0`]);
  await expectSilentNoOpPreview(kind, lifecycle, created.id, refreshed.inputs ?? {}, refreshed.props ?? {}, "no-op preview after refresh");
  await expectRequests(kind, "delete", () => lifecycle.delete(created.id, updated.outs), [`PATCH ${d1}`]);
});

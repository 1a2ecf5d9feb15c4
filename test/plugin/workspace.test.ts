// What the provider plugin asks of the Workspace runtime beyond the dynamic lifecycle, against an
// in-process emulator: diff names each change as a property path, a preview plans the apply's outputs
// without a request (known only where the apply is certain, proved by applying it), and an import
// returns the inputs that reproduce the workspace, so declaring them previews no change.
import * as runtime from "../../provider/runtime";
import { UNKNOWN, type Props } from "../../provider/runtime/lifecycle";
import { ownerUrl } from "../../provider/runtime/ownership";
import { failureOf } from "../support/failure";
import { useRuntimeEmulator } from "../support/runtime-emulator";

const workspace = runtime.workspace;
const OAUTH_TOKEN = "ot-pluginroute00000001";
const owner = (name: string): string => ownerUrl({ project: "proj", stack: "dev", kind: "Workspace", name });

const fixture = useRuntimeEmulator({
  emulator: {
    fixtures: {
      organizations: [{
        name: "example-org",
        projects: [{ name: "Platform", id: "prj-platform000000001", tagBindings: [{ key: "cost-center", value: "42" }] }],
        oauthClients: [{ name: "github", serviceProvider: "github", oauthTokenId: OAUTH_TOKEN }],
      }],
    },
  },
});

let counter = 0;
const uniqueName = (prefix: string): string => `${prefix}-${++counter}`;

/** Every output of a state, by name (the plugin stores them flat). */
function flat(state: Props): Props {
  const { __outputs, ...rest } = state;
  return { ...(__outputs as Props), ...rest };
}

/** The outputs a preview planned as known, each equal to what the apply reported. */
function expectKnownOutputsToMatch(planned: Props, applied: Props): void {
  const known = Object.keys(planned).filter((key) => planned[key] !== UNKNOWN && !JSON.stringify(planned[key]).includes(UNKNOWN));
  expect(Object.fromEntries(known.map((key) => [key, planned[key]]))).toEqual(Object.fromEntries(known.map((key) => [key, applied[key]])));
}

/** The program's inputs as the engine passes them to diff, create and update: check's output (which must pass). */
async function checked(program: Props): Promise<Props> {
  const outcome = await workspace.check({}, program);
  expect(outcome.failures).toEqual([]);
  return outcome.inputs;
}

describe("diff names each change as a property path", () => {
  // The server's last report of a workspace made from `same` (check's fill-ins included).
  const olds = {
    name: "alpha", organization: "example-org", description: "one", workspaceId: "ws-1",
    allowDestroyPlan: true, autoApply: false, autoApplyRunTrigger: false, fileTriggersEnabled: true, queueAllRuns: false,
    speculativeEnabled: true, triggerPatterns: [], workingDirectory: "", forceDelete: false, adoptExisting: false,
    settingOverwrites: { executionMode: false, agentPool: false }, autoDestroyAt: null, autoDestroyActivityDuration: null,
    inheritsProjectAutoDestroy: true, engineVersion: "1.9.0",
    tagBindings: { team: "red", env: "prod" }, triggerPrefixes: ["a/", "b/"], tagNames: ["x", "y"],
    vcsRepo: { identifier: "acme/app", branch: "main", oauthTokenId: OAUTH_TOKEN, ingressSubmodules: false, tagsRegex: null },
    __declaredInputs: ["description", "tagBindings", "triggerPrefixes", "tagNames", "vcsRepo", "vcsRepo.identifier", "vcsRepo.branch"],
  };
  const same = {
    name: "alpha", organization: "example-org", description: "one", tagBindings: { team: "red", env: "prod" },
    triggerPrefixes: ["a/", "b/"], tagNames: ["x", "y"], vcsRepo: { identifier: "acme/app", branch: "main", oauthTokenId: OAUTH_TOKEN },
  };

  test.each<[string, Props, unknown[]]>([
    ["one tag's value", { tagBindings: { team: "blue", env: "prod" } }, [{ path: "tagBindings.team", kind: "update", replace: false }]],
    ["a tag key that is not an identifier", { tagBindings: { team: "red", env: "prod", "cost:center": "7" } },
      [{ path: 'tagBindings["cost:center"]', kind: "add", replace: false }]],
    ["a tag removed", { tagBindings: { team: "red" } }, [{ path: "tagBindings.env", kind: "delete", replace: false }]],
    ["one trigger prefix swapped for another", { triggerPrefixes: ["a/", "c/"] }, [{ path: "triggerPrefixes[1]", kind: "update", replace: false }]],
    ["a trigger prefix added", { triggerPrefixes: ["a/", "b/", "c/"] }, [{ path: "triggerPrefixes[2]", kind: "add", replace: false }]],
    ["a flat tag removed", { tagNames: ["y"] }, [{ path: "tagNames[0]", kind: "delete", replace: false }]],
    ["the repository's branch", { vcsRepo: { identifier: "acme/app", branch: "dev", oauthTokenId: OAUTH_TOKEN } }, [{ path: "vcsRepo.branch", kind: "update", replace: false }]],
    ["the repository's branch no longer declared (the default branch again)", { vcsRepo: { identifier: "acme/app", oauthTokenId: OAUTH_TOKEN } },
      [{ path: "vcsRepo.branch", kind: "update", replace: false }]],
    ["a description not known yet", { description: UNKNOWN }, [{ path: "description", kind: "update", replace: false }]],
    ["a description no longer declared (restored to \"\": an update)", { description: undefined },
      [{ path: "description", kind: "update", replace: false }]],
    ["the trigger prefixes no longer declared (restored to none)", { triggerPrefixes: undefined },
      [{ path: "triggerPrefixes[0]", kind: "delete", replace: false }, { path: "triggerPrefixes[1]", kind: "delete", replace: false }]],
    ["the repository no longer declared (disconnects it)", { vcsRepo: undefined }, [{ path: "vcsRepo", kind: "delete", replace: false }]],
  ])("%s", async (_what, change, paths) => {
    const news: Props = { ...same, ...change };
    for (const key of Object.keys(change)) if (change[key] === undefined) delete news[key];
    const inputs = await checked(news);
    fixture.emulator.clearRequests();
    const outcome = await workspace.diff("ws-1", olds, inputs);
    expect(outcome.changes).toBe(true);
    expect(outcome.detailedDiff).toEqual(paths);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  test("nothing changed: no path", async () => {
    expect(await workspace.diff("ws-1", olds, await checked(same))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
  });

  test.each<[string, string]>([["the flat tags", "tagNames"], ["the key-value tags", "tagBindings"]])(
    "%s no longer declared (not managed when left out): no change, no path",
    async (_what, key) => {
      const news: Props = { ...same };
      delete news[key];
      expect(await workspace.diff("ws-1", olds, await checked(news))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    },
  );
});

describe("a preview plans the apply's outputs without a request", () => {
  test("create: the declared settings, the name's page and the provider's records are known; what the server decides is not", async () => {
    const name = uniqueName("planned");
    const inputs = await checked({ name, organization: "example-org", description: "made here", autoApply: true, tagNames: ["b", "a"], __owner: owner(name) });
    fixture.emulator.clearRequests();
    const planned = flat(await workspace.previewCreate(inputs));
    expect(fixture.emulator.requests()).toEqual([]);
    expect(planned).toMatchObject({
      name, organization: "example-org", description: "made here", autoApply: true, tagNames: ["a", "b"],
      htmlUrl: `${fixture.emulator.url}/app/example-org/workspaces/${name}`, sourceName: "pulumi-wsbridge",
      sourceUrl: "https://www.npmjs.com/package/pulumi-wsbridge", vcsRepo: null, forceDelete: false,
    });
    for (const key of ["workspaceId", "apiUrl", "createdAt", "updatedAt", "projectId", "executionMode", "effectiveTagBindings", "permissions"]) {
      expect([key, planned[key]]).toEqual([key, UNKNOWN]);
    }
    const applied = flat((await workspace.create(inputs)).outs);
    expectKnownOutputsToMatch(planned, applied);
  });

  test("update of the description: it and the timestamps change; the page, the project and the tags stay known", async () => {
    const name = uniqueName("described");
    const inputs = await checked({ name, organization: "example-org", description: "one", projectId: "prj-platform000000001", tagBindings: { team: "red" } });
    const created = await workspace.create(inputs);
    const news = await checked({ ...inputs, description: "two" });
    fixture.emulator.clearRequests();
    const planned = flat(await workspace.previewUpdate(created.id, created.outs, news));
    expect(fixture.emulator.requests()).toEqual([]);
    const before = flat(created.outs);
    expect(planned).toMatchObject({
      description: "two", htmlUrl: before.htmlUrl, projectId: "prj-platform000000001", apiUrl: before.apiUrl,
      workspaceId: created.id, effectiveTagBindings: before.effectiveTagBindings, createdAt: before.createdAt,
    });
    expect(before.effectiveTagBindings).toEqual([
      { key: "cost-center", value: "42", inheritedFrom: "prj-platform000000001" }, { key: "team", value: "red", inheritedFrom: null },
    ]);
    expect([planned.updatedAt, planned.latestChangeAt]).toEqual([UNKNOWN, UNKNOWN]);
    const applied = flat((await workspace.update(created.id, created.outs, news)).outs);
    expectKnownOutputsToMatch(planned, applied);
  });

  test("update of a tag binding: the direct tags are the declared ones, the effective ones are left to the server", async () => {
    const name = uniqueName("tagged");
    const inputs = await checked({ name, organization: "example-org", projectId: "prj-platform000000001", tagBindings: { team: "red" } });
    const created = await workspace.create(inputs);
    const news = await checked({ ...inputs, tagBindings: { team: "blue", "cost-center": "7" } });
    const planned = flat(await workspace.previewUpdate(created.id, created.outs, news));
    expect(planned.tagBindings).toEqual({ team: "blue", "cost-center": "7" });
    expect(planned.effectiveTagBindings).toBe(UNKNOWN);
    expectKnownOutputsToMatch(planned, flat((await workspace.update(created.id, created.outs, news)).outs));
  });

  test("a rename moves the page; a change of flat tags alone sends no PATCH, so the timestamps stay", async () => {
    const name = uniqueName("renamed");
    const created = await workspace.create(await checked({ name, organization: "example-org", tagNames: ["a"] }));
    const renamed = await checked({ name: `${name}-new`, organization: "example-org", tagNames: ["a"] });
    const plannedRename = flat(await workspace.previewUpdate(created.id, created.outs, renamed));
    expect(plannedRename.htmlUrl).toBe(`${fixture.emulator.url}/app/example-org/workspaces/${name}-new`);
    const afterRename = await workspace.update(created.id, created.outs, renamed);
    expectKnownOutputsToMatch(plannedRename, flat(afterRename.outs));
    const retagged = await checked({ ...renamed, tagNames: ["a", "b"] });
    const plannedTags = flat(await workspace.previewUpdate(created.id, afterRename.outs, retagged));
    expect(plannedTags.updatedAt).toBe(flat(afterRename.outs).updatedAt);
    expectKnownOutputsToMatch(plannedTags, flat((await workspace.update(created.id, afterRename.outs, retagged)).outs));
  });

  test.each<[string, Props]>([
    ["a description", { description: "one" }],
    ["a switch off its default", { autoApply: true }],
    ["trigger prefixes", { triggerPrefixes: ["modules/"] }],
    ["a working directory", { workingDirectory: "envs/prod" }],
    ["a repository", { vcsRepo: { identifier: "acme/app", branch: "main", oauthTokenId: OAUTH_TOKEN } }],
    ["a scheduled destroy", { autoDestroyAt: "2031-01-31T18:00:00Z" }],
    ["an inactivity duration", { autoDestroyActivityDuration: "14d" }],
    ["an execution mode", { executionMode: "local" }],
    ["the deprecated operations", { operations: false }],
  ])("%s removed from the program: the preview of its restore is exact, and the update leaves nothing to change", async (_what, declared) => {
    const program = { name: uniqueName("restore"), organization: "example-org" };
    const created = await workspace.create(await checked({ ...program, ...declared }));
    const news = await checked(program);
    expect((await workspace.diff(created.id, created.outs, news)).changes).toBe(true);
    fixture.emulator.clearRequests();
    const planned = flat(await workspace.previewUpdate(created.id, created.outs, news));
    expect(fixture.emulator.requests()).toEqual([]);
    const updated = await workspace.update(created.id, created.outs, news);
    expectKnownOutputsToMatch(planned, flat(updated.outs));
    expect((await workspace.diff(created.id, updated.outs, news)).changes).toBe(false);
  });

  test("a value not known yet is not known in the plan either", async () => {
    const created = await workspace.create(await checked({ name: uniqueName("pending"), organization: "example-org" }));
    const news = await checked({ name: flat(created.outs).name, organization: "example-org", description: UNKNOWN });
    const planned = flat(await workspace.previewUpdate(created.id, created.outs, news));
    expect(planned.description).toBe(UNKNOWN);
  });
});

describe("import returns the inputs that reproduce the workspace", () => {
  async function richWorkspace(): Promise<{ id: string; name: string }> {
    const name = uniqueName("estate");
    const made = await workspace.create(await checked({
      name, organization: "example-org", description: "made outside", autoApply: true, executionMode: "local",
      triggerPrefixes: ["modules/", "envs/"], tagNames: ["legacy", "net"], tagBindings: { team: "net" },
      projectId: "prj-platform000000001", workingDirectory: "envs/prod", autoDestroyActivityDuration: "14d",
      vcsRepo: { identifier: "acme/network", branch: "main", oauthTokenId: OAUTH_TOKEN },
    }));
    return { id: made.id, name };
  }

  test.each([["its id", (w: { id: string; name: string }) => w.id], ["organization/name", (w: { id: string; name: string }) => `example-org/${w.name}`]])(
    "by %s: check passes, diff finds no change, refresh returns the inputs as check completes them",
    async (_what, importIdOf) => {
      const made = await richWorkspace();
      fixture.emulator.clearRequests();
      const imported = await workspace.importById(importIdOf(made), {});
      expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
      expect(imported?.id).toBe(made.id);
      // Without what leaving an input out means anyway (the server's defaults: check fills those in again).
      expect(imported?.inputs).toEqual({
        name: made.name, organization: "example-org", description: "made outside", autoApply: true, executionMode: "local",
        globalRemoteState: false, triggerPrefixes: ["envs/", "modules/"], tagNames: ["legacy", "net"],
        tagBindings: { team: "net" }, projectId: "prj-platform000000001", workingDirectory: "envs/prod",
        autoDestroyActivityDuration: "14d", engineVersion: expect.any(String),
        vcsRepo: { identifier: "acme/network", branch: "main", oauthTokenId: OAUTH_TOKEN },
      });
      const inputs = imported?.inputs ?? {};
      const checked = await workspace.check(inputs, inputs);
      expect(checked.failures).toEqual([]);
      const props = imported?.props ?? {};
      expect(await workspace.diff(made.id, props, checked.inputs)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
      const refreshed = await workspace.read(made.id, props);
      expect(refreshed.inputs).toEqual(checked.inputs);
    },
  );

  test("a workspace that does not exist is nothing to import", async () => {
    expect(await workspace.importById("ws-doesnotexist0001", {})).toBeUndefined();
    expect(await workspace.importById("example-org/no-such-workspace", {})).toBeUndefined();
  });

  test("a malformed id names the accepted forms, without a request", async () => {
    const error = await failureOf(workspace.importById("net prod", {}));
    expect(error.message).toBe('Workspace: cannot import "net prod": an import id is "ws-<id>" (the workspace id) or "<organization>/<workspace name>".');
    expect(fixture.emulator.requests()).toEqual([]);
  });

  test("the imported workspace is destroyed with a safe delete, as one the resource created", async () => {
    const made = await richWorkspace();
    const imported = await workspace.importById(made.id, {});
    fixture.emulator.clearRequests();
    await workspace.delete(made.id, imported?.props ?? {});
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /api/v2/workspaces/${made.id}/actions/safe-delete`]);
    expect((await fixture.api("GET", `/workspaces/${made.id}`)).status).toBe(404);
  });
});

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

describe("diff names each change as a property path", () => {
  const olds = {
    name: "alpha", organization: "example-org", description: "one", workspaceId: "ws-1",
    tagBindings: { team: "red", env: "prod" }, triggerPrefixes: ["a/", "b/"], tagNames: ["x", "y"],
    vcsRepo: { identifier: "acme/app", branch: "main", oauthTokenId: OAUTH_TOKEN, ingressSubmodules: false },
    __declaredInputs: ["description", "tagBindings", "triggerPrefixes", "tagNames", "vcsRepo", "vcsRepo.identifier", "vcsRepo.branch"],
  };
  const same = {
    name: "alpha", organization: "example-org", description: "one", tagBindings: { team: "red", env: "prod" },
    triggerPrefixes: ["a/", "b/"], tagNames: ["x", "y"], vcsRepo: { identifier: "acme/app", branch: "main" },
  };

  test.each<[string, Props, unknown[]]>([
    ["one tag's value", { tagBindings: { team: "blue", env: "prod" } }, [{ path: "tagBindings.team", kind: "update", replace: false }]],
    ["a tag key that is not an identifier", { tagBindings: { team: "red", env: "prod", "cost:center": "7" } },
      [{ path: 'tagBindings["cost:center"]', kind: "add", replace: false }]],
    ["a tag removed", { tagBindings: { team: "red" } }, [{ path: "tagBindings.env", kind: "delete", replace: false }]],
    ["one trigger prefix swapped for another", { triggerPrefixes: ["a/", "c/"] }, [{ path: "triggerPrefixes[1]", kind: "update", replace: false }]],
    ["a trigger prefix added", { triggerPrefixes: ["a/", "b/", "c/"] }, [{ path: "triggerPrefixes[2]", kind: "add", replace: false }]],
    ["a flat tag removed", { tagNames: ["y"] }, [{ path: "tagNames[0]", kind: "delete", replace: false }]],
    ["the repository's branch", { vcsRepo: { identifier: "acme/app", branch: "dev" } }, [{ path: "vcsRepo.branch", kind: "update", replace: false }]],
    ["a description not known yet", { description: UNKNOWN }, [{ path: "description", kind: "update", replace: false }]],
    ["a description no longer declared (no request: the inputs only)", { description: undefined },
      [{ path: "description", kind: "delete", replace: false, inputDiff: true }]],
    ["the repository no longer declared (disconnects it)", { vcsRepo: undefined }, [{ path: "vcsRepo", kind: "delete", replace: false }]],
  ])("%s", async (_what, change, paths) => {
    const news = { ...same, ...change };
    for (const key of Object.keys(change)) if (change[key] === undefined) delete (news as Props)[key];
    const outcome = await workspace.diff("ws-1", olds, news);
    expect(outcome.changes).toBe(true);
    expect(outcome.detailedDiff).toEqual(paths);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  test("nothing changed: no path", async () => {
    expect((await workspace.diff("ws-1", olds, same)).detailedDiff).toEqual([]);
  });
});

describe("a preview plans the apply's outputs without a request", () => {
  test("create: the declared settings, the name's page and the provider's records are known; what the server decides is not", async () => {
    const name = uniqueName("planned");
    const inputs = { name, organization: "example-org", description: "made here", autoApply: true, tagNames: ["b", "a"], __owner: owner(name) };
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
    const inputs = { name, organization: "example-org", description: "one", projectId: "prj-platform000000001", tagBindings: { team: "red" } };
    const created = await workspace.create(inputs);
    fixture.emulator.clearRequests();
    const news = { ...inputs, description: "two" };
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
    const inputs = { name, organization: "example-org", projectId: "prj-platform000000001", tagBindings: { team: "red" } };
    const created = await workspace.create(inputs);
    const news = { ...inputs, tagBindings: { team: "blue", "cost-center": "7" } };
    const planned = flat(await workspace.previewUpdate(created.id, created.outs, news));
    expect(planned.tagBindings).toEqual({ team: "blue", "cost-center": "7" });
    expect(planned.effectiveTagBindings).toBe(UNKNOWN);
    expectKnownOutputsToMatch(planned, flat((await workspace.update(created.id, created.outs, news)).outs));
  });

  test("a rename moves the page; a change of flat tags alone sends no PATCH, so the timestamps stay", async () => {
    const name = uniqueName("renamed");
    const created = await workspace.create({ name, organization: "example-org", tagNames: ["a"] });
    const renamed = { name: `${name}-new`, organization: "example-org", tagNames: ["a"] };
    const plannedRename = flat(await workspace.previewUpdate(created.id, created.outs, renamed));
    expect(plannedRename.htmlUrl).toBe(`${fixture.emulator.url}/app/example-org/workspaces/${name}-new`);
    const afterRename = await workspace.update(created.id, created.outs, renamed);
    expectKnownOutputsToMatch(plannedRename, flat(afterRename.outs));
    const retagged = { ...renamed, tagNames: ["a", "b"] };
    const plannedTags = flat(await workspace.previewUpdate(created.id, afterRename.outs, retagged));
    expect(plannedTags.updatedAt).toBe(flat(afterRename.outs).updatedAt);
    expectKnownOutputsToMatch(plannedTags, flat((await workspace.update(created.id, afterRename.outs, retagged)).outs));
  });

  test("a value not known yet is not known in the plan either", async () => {
    const created = await workspace.create({ name: uniqueName("pending"), organization: "example-org" });
    const planned = flat(await workspace.previewUpdate(created.id, created.outs, { name: flat(created.outs).name, organization: "example-org", description: UNKNOWN }));
    expect(planned.description).toBe(UNKNOWN);
  });
});

describe("import returns the inputs that reproduce the workspace", () => {
  async function richWorkspace(): Promise<{ id: string; name: string }> {
    const name = uniqueName("estate");
    const made = await workspace.create({
      name, organization: "example-org", description: "made outside", autoApply: true, executionMode: "local",
      triggerPrefixes: ["modules/", "envs/"], tagNames: ["legacy", "net"], tagBindings: { team: "net" },
      projectId: "prj-platform000000001", workingDirectory: "envs/prod", autoDestroyActivityDuration: "14d",
      vcsRepo: { identifier: "acme/network", branch: "main", oauthTokenId: OAUTH_TOKEN },
    });
    return { id: made.id, name };
  }

  test.each([["its id", (w: { id: string; name: string }) => w.id], ["organization/name", (w: { id: string; name: string }) => `example-org/${w.name}`]])(
    "by %s: check passes, diff finds no change, refresh returns the same inputs",
    async (_what, importIdOf) => {
      const made = await richWorkspace();
      fixture.emulator.clearRequests();
      const imported = await workspace.importById(importIdOf(made), {});
      expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
      expect(imported?.id).toBe(made.id);
      expect(imported?.inputs).toEqual({
        name: made.name, organization: "example-org", description: "made outside", autoApply: true, executionMode: "local",
        allowDestroyPlan: true, autoApplyRunTrigger: false, fileTriggersEnabled: true, globalRemoteState: false,
        queueAllRuns: false, speculativeEnabled: true, triggerPrefixes: ["envs/", "modules/"], tagNames: ["legacy", "net"],
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
      expect(refreshed.inputs).toEqual(inputs);
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

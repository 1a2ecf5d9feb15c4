/**
 * Request and response documents against a scripted server: every request body is checked by its zod
 * schema before it is sent (a malformed one never leaves the process), the wire form of every write is
 * exactly what the spec documents, and every response document kind is parsed.
 */
import {
  RequestShapeError, ResponseShapeError, WsbridgeClient, closeAllPools, collect, type WorkspaceCreateOptions,
} from "../../provider/runtime/api";
import { resetRateLimits } from "../../provider/runtime/api/rate-limiter";
import { FAST_RETRY, startScriptedServer, workspaceResource, type Reply, type ScriptedServer } from "../support/client-server";
import { failureOf as failure } from "../support/failure";

const TOKEN = "tok-DOCS.atlasv1.abcdefghijklmnop";
const MODULE = { organization: "example-org", name: "vpc", provider: "aws", version: "1.0.0" };
const REGISTRY = { namespace: "example-org", name: "vpc", provider: "aws", version: "1.0.0" };

let server: ScriptedServer | undefined;

async function serve(answer: (req: { method: string; url: string }) => Reply, edition?: "self-managed"): Promise<WsbridgeClient> {
  server = await startScriptedServer(answer);
  return new WsbridgeClient({
    address: server.url, token: TOKEN, retry: FAST_RETRY, timeoutMs: 2_000, ...(edition ? { edition } : {}),
  });
}

afterEach(async () => {
  await server?.close();
  server = undefined;
  await closeAllPools();
  resetRateLimits();
});

/** Values a typed caller cannot write but an untyped one (JavaScript, a cast, a bad config) can. */
const untyped = <T>(value: unknown): T => value as T;

describe("request documents", () => {
  const cases: [string, (c: WsbridgeClient) => Promise<unknown>, string, string, string][] = [
    ["an update with a non-boolean autoApply",
      (c) => c.updateWorkspace("ws-1", { autoApply: untyped<boolean>("yes") }),
      "PATCH", "/api/v2/workspaces/ws-1", "data.attributes.auto-apply"],
    ["a create whose triggerPatterns is not a list",
      (c) => c.createWorkspace("example-org", { name: "one", triggerPatterns: untyped<string[]>("modules/**") }),
      "POST", "/api/v2/organizations/example-org/workspaces", "data.attributes.trigger-patterns"],
    ["a create with a numeric working directory",
      (c) => c.createWorkspace("example-org", untyped<WorkspaceCreateOptions>({ name: "one", workingDirectory: 7 })),
      "POST", "/api/v2/organizations/example-org/workspaces", "data.attributes.working-directory"],
    ["an update by name with a numeric description",
      (c) => c.updateWorkspaceByName("example-org", "one", { description: untyped<string>(12) }),
      "PATCH", "/api/v2/organizations/example-org/workspaces/one", "data.attributes.description"],
    ["a lock whose reason is not text",
      (c) => c.lockWorkspace("ws-1", untyped<string>(42)),
      "POST", "/api/v2/workspaces/ws-1/actions/lock", "reason"],
    ["a tag binding whose value is not text",
      (c) => c.addTagBindings("ws-1", [{ key: "env", value: untyped<string>(5) }]),
      "PATCH", "/api/v2/workspaces/ws-1/tag-bindings", "data[0].attributes.value"],
    ["a create with a non-boolean setting overwrite",
      (c) => c.createWorkspace("example-org", { name: "one", settingOverwrites: { executionMode: untyped<boolean>("yes") } }),
      "POST", "/api/v2/organizations/example-org/workspaces", "data.attributes.setting-overwrites.execution-mode"],
    ["a deprecation whose reason is not text",
      (c) => c.deprecateModuleVersion(MODULE, { reason: untyped<string>(7) }),
      "PATCH", "/api/v2/organizations/example-org/registry-modules/private/example-org/vpc/aws/1.0.0",
      "data.attributes.deprecation.reason"],
  ];

  test.each(cases)("%s is refused before it is sent, naming the endpoint and the field", async (_name, call, method, path, field) => {
    const client = await serve(() => ({ status: 500 }));
    const e = (await failure(call(client))) as RequestShapeError;
    expect(e).toBeInstanceOf(RequestShapeError);
    expect(e.code).toBe("WSB_REQUEST_SHAPE");
    expect(e).toMatchObject({ method, path });
    expect(e.fields).toEqual([field]);
    expect(e.message.startsWith(`${method} ${path} was not sent: its request document is invalid: ${field}: `)).toBe(true);
    expect(e.message).not.toContain(TOKEN);
    expect(server!.requests).toHaveLength(0);
  });

  test("every write sends exactly the body the spec documents", async () => {
    const client = await serve((req) => {
      if (req.url.includes("/registry-modules/")) return { status: 200, body: { data: { id: "1", type: "module-versions" } } };
      if (req.url.endsWith("/tag-bindings")) return { status: 200, body: { data: [] } };
      if (req.url.endsWith("/data-retention-policy")) {
        return { status: 200, body: { data: { id: "drp-1", type: "data-retention-policy-dont-deletes", attributes: {} } } };
      }
      if (req.url.includes("/relationships/remote-state-consumers") || req.url.endsWith("/relationships/tags")) return { status: 204 };
      return { status: 200, body: { data: workspaceResource("ws-1", "one") } };
    }, "self-managed");
    await client.lockWorkspace("ws-1", "maintenance");
    await client.assignSshKey("ws-1", "sshkey-1");
    await client.unassignSshKey("ws-1");
    await client.addRemoteStateConsumers("ws-1", ["ws-2"]);
    await client.replaceRemoteStateConsumers("ws-1", []);
    await client.removeRemoteStateConsumers("ws-1", ["ws-2"]);
    await client.addTags("ws-1", [{ name: "alpha" }, { id: "tag-2" }]);
    await client.removeTags("ws-1", [{ name: "alpha" }]);
    await client.addTagBindings("ws-1", [{ key: "env", value: "prod" }, { key: "keyonly" }]);
    await client.setDataRetentionPolicy("ws-1", { kind: "delete-older", deleteOlderThanNDays: 33 });
    await client.setDataRetentionPolicy("ws-1", { kind: "dont-delete" });
    await client.deprecateModuleVersion(MODULE, { reason: "old", link: "https://example.com/x" });
    await client.undeprecateModuleVersion(MODULE);
    await client.updateWorkspace("ws-1", { vcsRepo: null, tagBindings: [] });

    expect(server!.requests.map((r) => [r.method, r.url.replace(/^.*\/(?=[^/]+$)/, ""), r.body === "" ? null : JSON.parse(r.body)])).toEqual([
      ["POST", "lock", { reason: "maintenance" }],
      ["PATCH", "ssh-key", { data: { type: "workspaces", attributes: { id: "sshkey-1" } } }],
      ["PATCH", "ssh-key", { data: { type: "workspaces", attributes: { id: null } } }],
      ["POST", "remote-state-consumers", { data: [{ type: "workspaces", id: "ws-2" }] }],
      ["PATCH", "remote-state-consumers", { data: [] }],
      ["DELETE", "remote-state-consumers", { data: [{ type: "workspaces", id: "ws-2" }] }],
      ["POST", "tags", { data: [{ type: "tags", attributes: { name: "alpha" } }, { type: "tags", id: "tag-2" }] }],
      ["DELETE", "tags", { data: [{ type: "tags", attributes: { name: "alpha" } }] }],
      ["PATCH", "tag-bindings", { data: [
        { type: "tag-bindings", attributes: { key: "env", value: "prod" } }, { type: "tag-bindings", attributes: { key: "keyonly" } },
      ] }],
      ["POST", "data-retention-policy", { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 33 } } }],
      ["POST", "data-retention-policy", { data: { type: "data-retention-policy-dont-deletes", attributes: {} } }],
      ["PATCH", "1.0.0", { data: { type: "module-versions", attributes: { deprecation: {
        "deprecated-status": "Deprecated", reason: "old", link: "https://example.com/x",
      } } } }],
      ["PATCH", "1.0.0", { data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Undeprecated" } } } }],
      ["PATCH", "ws-1", { data: { type: "workspaces", attributes: { "vcs-repo": null }, relationships: { "tag-bindings": { data: [] } } } }],
    ]);
  });

  test("a flat tag given by id with an empty name beside it is sent by id, as the validation reads it", async () => {
    const client = await serve(() => ({ status: 204 }));
    await client.addTags("ws-1", [untyped<{ id: string }>({ id: "tag-1", name: "" })]);
    expect(JSON.parse(server!.requests[0]!.body)).toEqual({ data: [{ type: "tags", id: "tag-1" }] });
  });

  test("a lock without a reason and the body-less actions send no body", async () => {
    const client = await serve(() => ({ status: 200, body: { data: workspaceResource("ws-1", "one") } }));
    await client.lockWorkspace("ws-1");
    await client.unlockWorkspace("ws-1");
    await client.forceUnlockWorkspace("ws-1");
    expect(server!.requests.map((r) => r.body)).toEqual(["", "", ""]);
  });
});

describe("response documents", () => {
  const tag = { id: "tag-1", type: "tags", attributes: { name: "alpha", "instance-count": "1" } };
  const badWorkspace = workspaceResource("ws-1", "one", { locked: "yes" });
  const cases: [string, (c: WsbridgeClient) => Promise<unknown>, unknown, string][] = [
    ["workspace (B1)", (c) => c.lockWorkspace("ws-1"), { data: badWorkspace }, "data.attributes.locked"],
    ["workspace list pagination meta (A2)", (c) => collect(c.listWorkspaces("example-org")),
      { data: [], meta: { pagination: { "current-page": "1" } } }, "meta.pagination.current-page"],
    ["workspace list links (A2)", (c) => collect(c.listWorkspaces("example-org")), { data: [], links: { next: 2 } }, "links.next"],
    ["remote state consumers (C1)", (c) => collect(c.listRemoteStateConsumers("ws-1")), { data: { id: "ws-2" } }, "data"],
    ["flat tags (C5)", (c) => collect(c.listTags("ws-1")), { data: [tag] }, "data[0].attributes.instance-count"],
    ["tag bindings (C8)", (c) => c.listTagBindings("ws-1"), { data: [{ id: "tb-1", type: "tag-bindings", attributes: { value: "x" } }] },
      "data[0].attributes.key"],
    ["effective tag bindings (C9)", (c) => c.listEffectiveTagBindings("ws-1"),
      { data: [{ id: "e1", type: "tag-bindings", attributes: { key: "k" } }] }, "data[0].type"],
    ["tag bindings after a PATCH (C10)", (c) => c.addTagBindings("ws-1", [{ key: "k" }]), { data: [{ id: 1, type: "tag-bindings", attributes: { key: "k" } }] },
      "data[0].id"],
    ["data retention policy kind (C11)", (c) => c.readDataRetentionPolicy("ws-1"),
      { data: { id: "drp-1", type: "data-retention-policy-keep-forever" } }, "data.type"],
    ["module version with included deprecation (D1)", (c) => c.deprecateModuleVersion(MODULE, {}),
      { data: { id: "1", type: "module-versions" }, included: [{ id: "2", type: "deprecations", attributes: { reason: 5 } }] },
      "included[0].attributes.reason"],
    ["registry module version (D3)", (c) => c.readRegistryModuleVersion(REGISTRY),
      { id: "example-org/vpc/aws/1.0.0", namespace: "example-org", name: "vpc", provider: "aws" }, "version"],
    ["registry module versions (D4)", (c) => c.listRegistryModuleVersions(REGISTRY),
      { modules: [{ source: "example-org/vpc/aws", versions: [{ deprecation: null }] }] }, "modules[0].versions[0].version"],
  ];

  test.each(cases)("a %s response of the wrong shape is a ResponseShapeError naming the field", async (_name, call, body, field) => {
    const client = await serve(() => ({ status: 200, body }), "self-managed");
    const e = (await failure(call(client))) as ResponseShapeError;
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect(e.fields).toEqual([field]);
    const { method, path } = e;
    expect(e.message.startsWith(`${method} ${path} returned a response this client does not understand: ${field}: `)).toBe(true);
  });
});

/**
 * The client's transport, retry policy and error mapping, against a scripted node:http server on port 0.
 * Attempts are counted from the server's request log; nothing here measures time.
 */
import {
  ConflictError, ForbiddenError, MissingTokenError, NotFoundError, OutcomeUnknownError, RateLimitedError,
  ResponseShapeError, ServerError, TransportError, UnauthorizedError, ValidationError, WsbridgeClient, closeAllPools,
  collect, InvalidConfigError, InvalidOptionsError, BadRequestError, ApiError,
} from "../../provider/runtime/api";
import { resetRateLimits } from "../../provider/runtime/api/rate-limiter";
import { FAST_RETRY, startScriptedServer, workspaceResource, type Reply, type ScriptedServer } from "../support/client-server";
import { failureOf as failure } from "../support/failure";

const TOKEN = "tok-SECRET.atlasv1.abcdefghijklmnop";

let server: ScriptedServer | undefined;

async function serve(answer: (req: { method: string; url: string }, i: number) => Reply): Promise<WsbridgeClient> {
  server = await startScriptedServer(answer);
  return new WsbridgeClient({ address: server.url, token: TOKEN, retry: FAST_RETRY, timeoutMs: 2_000 });
}

const wsDoc = (id = "ws-1", name = "one") => ({ data: workspaceResource(id, name) });
const err = (status: number, title: string, detail?: string, pointer?: string) => ({
  status,
  headers: { "x-request-id": "req-123" },
  body: { errors: [{ status: String(status), title, ...(detail ? { detail } : {}), ...(pointer ? { source: { pointer } } : {}) }] },
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await closeAllPools();
  resetRateLimits();
});

describe("requests", () => {
  test("every request carries the bearer token, the JSON:API media type and a User-Agent naming the package", async () => {
    const client = await serve(() => ({ status: 200, body: wsDoc() }));
    await client.readWorkspace("ws-1");
    const headers = server!.requests[0]!.headers;
    expect(headers["authorization"]).toBe(`Bearer ${TOKEN}`);
    expect(headers["content-type"]).toBe("application/vnd.api+json");
    expect(headers["accept"]).toBe("application/vnd.api+json");
    expect(headers["user-agent"]).toMatch(/^pulumi-wsbridge\/0\.1\.0 \(node v\d+/);
  });

  test("clients of one address share one keep-alive connection pool", async () => {
    const first = await serve(() => ({ status: 200, body: wsDoc() }));
    const second = new WsbridgeClient({ address: server!.url, token: TOKEN, retry: FAST_RETRY });
    // undici frees a connection on the tick after the body ends; without this turn the next call may open
    // a second one. With a pool per client, the second client would need a connection of its own.
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 3; i++) {
      await first.readWorkspace("ws-1");
      await settle();
      await second.readWorkspace("ws-1");
      await settle();
    }
    expect(server!.requests).toHaveLength(6);
    expect(server!.connections()).toBe(1);
  });

  test("the User-Agent names this package's version from its package.json", async () => {
    const client = await serve(() => ({ status: 200, body: wsDoc() }));
    await client.readWorkspace("ws-1");
    const { version } = require("../../package.json") as { version: string };
    expect(server!.requests[0]!.headers["user-agent"]).toBe(`pulumi-wsbridge/${version} (node ${process.version})`);
  });

  test("a workspace response is mapped to the camelCase model", async () => {
    const client = await serve(() => ({ status: 200, body: wsDoc("ws-9", "nine") }));
    const ws = await client.readWorkspace("ws-9");
    expect(ws).toMatchObject({
      id: "ws-9", name: "nine", organization: "example-org", description: null, executionMode: "remote",
      engineVersion: "1.9.0", locked: false, lockedBy: null, projectId: "prj-1", sshKeyId: null, agentPoolId: null,
      permissions: { canUpdate: true, canForceUnlock: false }, selfLink: "/api/v2/organizations/example-org/workspaces/nine",
      htmlUrl: "/app/example-org/workspaces/nine",
    });
  });

  test("the version is read from terraform-version when the server uses the service's name", async () => {
    const resource = workspaceResource("ws-1", "one");
    const attributes = resource["attributes"] as Record<string, unknown>;
    delete attributes["engine-version"];
    attributes["terraform-version"] = "~> 1.5.0";
    const client = await serve(() => ({ status: 200, body: { data: resource } }));
    expect((await client.readWorkspace("ws-1")).engineVersion).toBe("~> 1.5.0");
  });

  test("create sends the version under both engine-version and terraform-version, and null where asked", async () => {
    const client = await serve(() => ({ status: 201, body: wsDoc() }));
    await client.createWorkspace("example-org", { name: "one", engineVersion: "1.9.0", description: null, projectId: "prj-1" });
    const sent = JSON.parse(server!.requests[0]!.body) as { data: { type: string; attributes: Record<string, unknown>; relationships: unknown } };
    expect(sent.data.type).toBe("workspaces");
    expect(sent.data.attributes).toEqual({ name: "one", "engine-version": "1.9.0", "terraform-version": "1.9.0", description: null });
    expect(sent.data.relationships).toEqual({ project: { data: { type: "projects", id: "prj-1" } } });
  });

  test("path segments are escaped and the query keeps its brackets percent-encoded", async () => {
    const client = await serve(() => ({ status: 200, body: { data: [], meta: { pagination: { "current-page": 1, "next-page": null } } } }));
    await collect(client.listWorkspaces("ünï-org", { search: "a b", tagged: [{ key: "env", value: "prod" }] }));
    expect(server!.requests[0]!.url).toBe(
      "/api/v2/organizations/%C3%BCn%C3%AF-org/workspaces?search%5Bname%5D=a+b&filter%5Btagged%5D%5B0%5D%5Bkey%5D=env" +
        "&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod&page%5Bnumber%5D=1&page%5Bsize%5D=100",
    );
  });
});

describe("response bodies", () => {
  test("a body that arrives in many pieces, a multi-byte character split between two, is read whole", async () => {
    const body = Buffer.from(JSON.stringify({ data: workspaceResource("ws-1", "één-ünïcode") }));
    const cut = body.indexOf(Buffer.from("é")) + 1; // inside the two bytes of "é"
    const client = await serve(() => ({ pieces: [body.subarray(0, cut), body.subarray(cut, cut + 7), body.subarray(cut + 7)] }));
    expect((await client.readWorkspace("ws-1")).name).toBe("één-ünïcode");
  });

  test("a body that starts with a UTF-8 byte-order mark is read as JSON", async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ data: workspaceResource("ws-1", "bom") }))]);
    const client = await serve(() => ({ pieces: [body] }));
    expect((await client.readWorkspace("ws-1")).name).toBe("bom");
  });

  test("a body cut off before its declared length is a lost connection: retried for a GET, never parsed half", async () => {
    const body = Buffer.from(JSON.stringify({ data: workspaceResource("ws-1", "one") }));
    const client = await serve((_r, i) => ({ pieces: [body.subarray(0, 40), body.subarray(40)], thenDrop: i === 0 }));
    expect((await client.readWorkspace("ws-1")).name).toBe("one");
    expect(server!.requests).toHaveLength(2);
  });
});

describe("configuration errors", () => {
  test("a client without a token is built without error, and its first request throws MissingTokenError before sending", async () => {
    server = await startScriptedServer(() => ({ status: 200, body: wsDoc() }));
    const client = new WsbridgeClient({ address: server.url });
    const e = await failure(client.readWorkspace("ws-1"));
    expect(e).toBeInstanceOf(MissingTokenError);
    expect((e as MissingTokenError).code).toBe("WSB_MISSING_TOKEN");
    expect((e as Error).message).toContain("pulumi config set --secret wsbridge:token");
    expect((e as Error).message).toContain("TFE_TOKEN");
    expect((e as Error).message).toContain("credentials.tfrc.json");
    expect(server.requests).toHaveLength(0);
  });

  test("a malformed address fails at the first request, not at construction", async () => {
    const client = new WsbridgeClient({ address: "not a url", token: TOKEN });
    expect(client.address).toBe("not a url");
    expect(await failure(client.ping())).toBeInstanceOf(InvalidConfigError);
  });

  test("options that break a documented rule are refused before any request, naming the property", async () => {
    const client = await serve(() => ({ status: 201, body: wsDoc() }));
    const e = await failure(client.createWorkspace("example-org", { name: "bad name" }));
    expect(e).toBeInstanceOf(InvalidOptionsError);
    expect((e as InvalidOptionsError).property).toBe("name");
    const e2 = await failure(client.updateWorkspace("ws-1", { executionMode: "remote", operations: true }));
    expect((e2 as InvalidOptionsError).property).toBe("operations");
    const e3 = await failure(client.addTagBindings("ws-1", [{ key: "hc:reserved" }]));
    expect((e3 as InvalidOptionsError).property).toBe("bindings[0].key");
    const e4 = await failure(client.readWorkspace("ws/../x"));
    expect((e4 as InvalidOptionsError).property).toBe("workspaceId");
    expect(server!.requests).toHaveLength(0);
  });

  test("JSON-serializing or inspecting a client never reveals its token", async () => {
    const client = new WsbridgeClient({ address: "https://example.invalid", token: TOKEN });
    expect(JSON.stringify(client)).not.toContain(TOKEN);
    expect(require("node:util").inspect(client, { depth: 10 })).not.toContain(TOKEN);
  });
});

describe("status mapping", () => {
  const cases: [number, string, new (...args: never[]) => ApiError, string][] = [
    [400, "bad request", BadRequestError, "WSB_BAD_REQUEST"],
    [401, "unauthorized", UnauthorizedError, "WSB_UNAUTHORIZED"],
    [403, "forbidden", ForbiddenError, "WSB_FORBIDDEN"],
    [404, "not found", NotFoundError, "WSB_NOT_FOUND"],
    [409, "conflict", ConflictError, "WSB_CONFLICT"],
    [422, "invalid attribute", ValidationError, "WSB_VALIDATION"],
    [500, "internal server error", ServerError, "WSB_SERVER_ERROR"],
  ];
  test.each(cases)("a %i answer becomes %s with a stable code", async (status, title, cls, code) => {
    const client = await serve(() => err(status, title));
    const e = await failure(client.forceDeleteWorkspaceByName("example-org", "one").then(() => undefined));
    expect(e).toBeInstanceOf(cls);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe(code);
    expect((e as ApiError).status).toBe(status);
    expect((e as ApiError).method).toBe("DELETE");
    expect((e as ApiError).path).toBe("/api/v2/organizations/example-org/workspaces/one");
  });

  test("the message names method, path, status, title, detail, pointer and request id", async () => {
    const client = await serve(() => err(422, "invalid attribute", "Name has already been taken", "/data/attributes/name"));
    const e = (await failure(client.updateWorkspace("ws-abc", { name: "taken" }))) as ValidationError;
    expect(e.message).toBe(
      "PATCH /api/v2/workspaces/ws-abc failed with 422 invalid attribute: Name has already been taken (at /data/attributes/name) [request id req-123]",
    );
    expect(e).toMatchObject({ title: "invalid attribute", detail: "Name has already been taken", pointer: "/data/attributes/name", requestId: "req-123" });
  });

  test("a 409 is classified by endpoint: lock, unlock by another holder, safe delete", async () => {
    const client = await serve((req) => {
      if (req.url.endsWith("/actions/lock")) return err(409, "conflict");
      if (req.url.endsWith("/actions/unlock")) return err(409, "conflict", "Unable to unlock workspace. The workspace is locked by User user-2 and may not be unlocked except by them.");
      return err(409, "conflict", "Workspace manages resources");
    });
    expect(((await failure(client.lockWorkspace("ws-1", "why"))) as ConflictError).reason).toBe("already-locked");
    const unlock = (await failure(client.unlockWorkspace("ws-1"))) as ConflictError;
    expect(unlock.reason).toBe("locked-by-other");
    expect(unlock.message).toContain("locked by User user-2");
    const del = (await failure(client.safeDeleteWorkspace("ws-1"))) as ConflictError;
    expect(del.reason).toBe("not-safe-to-delete");
    expect(del.message).toContain("still manages resources");
  });

  test("the registry's string error list is understood", async () => {
    const client = await serve(() => ({ status: 404, headers: { "content-type": "application/json" }, body: { errors: ["Not Found"] } }));
    const e = (await failure(client.readRegistryModuleVersion({ namespace: "o", name: "m", provider: "aws", version: "1.0.0" }))) as NotFoundError;
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.title).toBe("Not Found");
    expect(e.message).toContain("GET /api/registry/v1/modules/o/m/aws/1.0.0 failed with 404 Not Found");
  });

  test("the token never appears in an error message, even when the server echoes it", async () => {
    const client = await serve(() => err(401, "unauthorized", `token ${TOKEN} is not valid (Bearer ${TOKEN})`));
    const e = (await failure(client.readWorkspace("ws-1"))) as UnauthorizedError;
    expect(e.message).not.toContain(TOKEN);
    expect(e.message).toContain("[redacted]");
    expect(e.detail).toBeDefined();
    expect(String(e.stack)).not.toContain(TOKEN);
  });

  test("a response of the wrong shape names the field and the endpoint", async () => {
    const resource = workspaceResource("ws-1", "one", { locked: "yes" });
    const client = await serve(() => ({ status: 200, headers: { "x-request-id": "req-9" }, body: { data: resource } }));
    const e = (await failure(client.readWorkspace("ws-1"))) as ResponseShapeError;
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect(e.code).toBe("WSB_RESPONSE_SHAPE");
    expect(e.fields).toEqual(["data.attributes.locked"]);
    expect(e.message).toMatch(/^GET \/api\/v2\/workspaces\/ws-1 returned a response this client does not understand: data\.attributes\.locked: .*boolean/);
    expect(e.message).toContain("[request id req-9]");
  });
});

describe("retries", () => {
  test("a GET answered 500 twice is retried and succeeds on the third attempt", async () => {
    const client = await serve((_r, i) => (i < 2 ? err(500, "internal server error") : { status: 200, body: wsDoc() }));
    await expect(client.readWorkspace("ws-1")).resolves.toMatchObject({ id: "ws-1" });
    expect(server!.requests).toHaveLength(3);
  });

  test("a GET that keeps failing with 503 gives up after maxAttempts with a ServerError", async () => {
    const client = await serve(() => err(503, "service unavailable"));
    const e = (await failure(client.readWorkspace("ws-1"))) as ServerError;
    expect(e).toBeInstanceOf(ServerError);
    expect(e.attempts).toBe(FAST_RETRY.maxAttempts);
    expect(e.message).toContain(`after ${FAST_RETRY.maxAttempts} attempts`);
    expect(server!.requests).toHaveLength(FAST_RETRY.maxAttempts);
  });

  test("a safe delete answered 503 is retried: repeating it is safe", async () => {
    let calls = 0;
    const client = await serve(() => (++calls === 1 ? err(503, "service unavailable") : { status: 204 }));
    await client.safeDeleteWorkspace("ws-1");
    expect(server!.requests).toHaveLength(2);
  });

  test("a create answered 500 is not repeated, and is reported as of unknown outcome", async () => {
    const client = await serve(() => err(500, "internal server error"));
    expect(await failure(client.createWorkspace("example-org", { name: "one" }))).toBeInstanceOf(OutcomeUnknownError);
    expect(server!.requests).toHaveLength(1);
  });

  test("a dropped connection on a GET is retried", async () => {
    const client = await serve((_r, i) => (i === 0 ? "drop" : { status: 200, body: wsDoc() }));
    await client.readWorkspace("ws-1");
    expect(server!.requests).toHaveLength(2);
  });

  test("a dropped connection on a create is never repeated and reports an unknown outcome", async () => {
    const client = await serve(() => "drop");
    const e = (await failure(client.createWorkspace("example-org", { name: "one" }))) as OutcomeUnknownError;
    expect(e).toBeInstanceOf(OutcomeUnknownError);
    expect(e.code).toBe("WSB_OUTCOME_UNKNOWN");
    expect(e.message).toContain("POST /api/v2/organizations/example-org/workspaces may or may not have been applied");
    expect(server!.requests).toHaveLength(1);
  });

  test("a GET that keeps dropping fails with a TransportError after maxAttempts", async () => {
    const client = await serve(() => "drop");
    const e = (await failure(client.readWorkspace("ws-1"))) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(e.code).toBe("WSB_TRANSPORT");
    expect(e.sent).toBe(true);
    expect(server!.requests).toHaveLength(FAST_RETRY.maxAttempts);
  });

  test("a refused connection is retried even for a create, because nothing was sent", async () => {
    server = await startScriptedServer(() => ({ status: 201, body: wsDoc() }));
    const url = server.url;
    await server.close();
    server = undefined;
    const client = new WsbridgeClient({ address: url, token: TOKEN, retry: { ...FAST_RETRY, maxAttempts: 2 } });
    const e = (await failure(client.createWorkspace("example-org", { name: "one" }))) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(e.sent).toBe(false);
    expect(e.causeCode).toBe("ECONNREFUSED");
    expect(e.attempts).toBe(2);
  });

  test("a response that never comes times out as a TransportError", async () => {
    server = await startScriptedServer(() => "hang");
    const client = new WsbridgeClient({ address: server.url, token: TOKEN, timeoutMs: 200, retry: { ...FAST_RETRY, maxAttempts: 1 } });
    const e = (await failure(client.readWorkspace("ws-1"))) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(e.causeCode).toBe("UND_ERR_HEADERS_TIMEOUT");
  });

  test("a 429 is waited out as the headers say and retried, even for a create", async () => {
    const client = await serve((_r, i) =>
      i === 0
        ? { status: 429, headers: { "x-ratelimit-limit": "30", "x-ratelimit-reset": "0.01", "retry-after": "0" }, body: { errors: [{ status: "429", title: "too many requests" }] } }
        : { status: 201, body: wsDoc() });
    await client.createWorkspace("example-org", { name: "one" });
    expect(server!.requests).toHaveLength(2);
  });

  test("429s beyond maxRateLimitRetries end in RateLimitedError", async () => {
    const client = await serve(() => ({ status: 429, headers: { "retry-after": "0" }, body: { errors: [{ status: "429", title: "too many requests" }] } }));
    const e = (await failure(client.readWorkspace("ws-1"))) as RateLimitedError;
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.code).toBe("WSB_RATE_LIMITED");
    expect(server!.requests).toHaveLength(FAST_RETRY.maxRateLimitRetries + 1);
  });

  test("a 429 asking for a longer wait than rateLimitMaxWaitMs fails at once", async () => {
    const client = await serve(() => ({ status: 429, headers: { "retry-after": "3600" }, body: {} }));
    const e = (await failure(client.readWorkspace("ws-1"))) as RateLimitedError;
    expect(e.retryAfterMs).toBe(3_600_000);
    expect(server!.requests).toHaveLength(1);
  });

  test("unlock's 503 is retried until the state is finalized", async () => {
    const client = await serve((_r, i) => (i < 3 ? err(503, "service unavailable") : { status: 200, body: wsDoc() }));
    await client.unlockWorkspace("ws-1");
    expect(server!.requests).toHaveLength(4);
  });

  test("lock's 503 is not retried (only unlock has that rule), and is reported as of unknown outcome", async () => {
    const client = await serve(() => err(503, "service unavailable"));
    expect(await failure(client.lockWorkspace("ws-1"))).toBeInstanceOf(OutcomeUnknownError);
    expect(server!.requests).toHaveLength(1);
  });

  test("a workspace update by id is retried after a dropped connection (it only sets values)", async () => {
    const client = await serve((_r, i) => (i === 0 ? "drop" : { status: 200, body: wsDoc() }));
    await client.updateWorkspace("ws-1", { description: "x" });
    expect(server!.requests).toHaveLength(2);
  });

  test("a rename by name is not repeated after a dropped connection (the old name may be gone)", async () => {
    const client = await serve(() => "drop");
    expect(await failure(client.updateWorkspaceByName("example-org", "one", { name: "two" }))).toBeInstanceOf(OutcomeUnknownError);
    expect(server!.requests).toHaveLength(1);
  });
});

describe("pagination", () => {
  test("a list follows next-page until the last page", async () => {
    const client = await serve((req) => {
      const page = Number(new URL(req.url, "http://x").searchParams.get("page[number]"));
      const items = [workspaceResource(`ws-${page}a`, `w${page}a`), workspaceResource(`ws-${page}b`, `w${page}b`)];
      return { status: 200, body: { data: items, meta: { pagination: { "current-page": page, "next-page": page < 3 ? page + 1 : null } } } };
    });
    const names = (await collect(client.listWorkspaces("example-org", { pageSize: 2 }))).map((w) => w.name);
    expect(names).toEqual(["w1a", "w1b", "w2a", "w2b", "w3a", "w3b"]);
    expect(server!.requests.map((r) => new URL(r.url, "http://x").searchParams.get("page[number]"))).toEqual(["1", "2", "3"]);
  });

  test("without meta, the links.next URL gives the next page", async () => {
    const client = await serve((req) => {
      const page = Number(new URL(req.url, "http://x").searchParams.get("page[number]"));
      const next = page < 2 ? `http://srv/api/v2/workspaces/ws-1/relationships/tags?page%5Bnumber%5D=${page + 1}&page%5Bsize%5D=100` : null;
      return { status: 200, body: { data: [{ id: `tag-${page}`, type: "tags", attributes: { name: `t${page}` } }], links: { next } } };
    });
    expect((await collect(client.listTags("ws-1"))).map((t) => t.name)).toEqual(["t1", "t2"]);
  });

  test("a page size outside 1..100 is refused", () => {
    const client = new WsbridgeClient({ address: "http://127.0.0.1:1", token: TOKEN });
    expect(() => client.listWorkspaces("example-org", { pageSize: 101 })).toThrow(RangeError);
  });
});

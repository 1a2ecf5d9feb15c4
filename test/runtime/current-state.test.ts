/**
 * `WsbridgeClient.readCurrentState`: a workspace's current state, as `wsbridge adopt
 * --from-terraform-workspace` reads it, with a read-only token and GET requests only. Against the
 * emulator (states uploaded through its setup routes, as Terraform uploads them), and against scripted
 * servers for what the emulator cannot show: a download URL on another origin (the service's signed
 * archivist URLs) never receives the token, not even through a redirect.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import {
  InvalidOptionsError, NotFoundError, ResponseShapeError, ServerError, WsbridgeClient, closeAllPools,
} from "../../provider/runtime/api";
import { resetRateLimits } from "../../provider/runtime/api/rate-limiter";
import { ErrorRecorder, TEST_RETRY, clientFor, uniqueName } from "../support/client-emulator";
import { startScriptedServer, workspaceResource, type ScriptedServer } from "../support/client-server";

const ORG = "example-org";
/** A fixture workspace whose state version the emulator seeds without content (so without a download URL). */
const WITHOUT_CONTENT = "applied-without-content";

let emu: RunningEmulator;
/** A team token with read access to every workspace: what adopt is given. */
let readOnly: WsbridgeClient;
let readOnlyToken: string;
const recorder = new ErrorRecorder();

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, fixtures: { organizations: [{ name: ORG, workspaces: [{ name: WITHOUT_CONTENT, resourceCount: 2 }] }] } });
  readOnlyToken = emu.issueToken({ kind: "team", access: "read" });
  readOnly = clientFor(emu, { token: readOnlyToken });
});

beforeEach(() => {
  emu.clearFaults();
  emu.clearRequests();
  resetRateLimits();
});

afterAll(async () => {
  await emu.close();
  await closeAllPools();
  for (const message of recorder.messages) {
    expect(message).not.toContain(emu.token);
    expect(message).not.toContain(readOnlyToken);
  }
});

/** A raw state (format 4) as Terraform writes it: pretty-printed, a trailing newline, non-ASCII text,
 * so that a re-serialized copy would differ from what was uploaded. */
function stateText(serial: number, engine = "1.9.5"): string {
  return `${JSON.stringify({
    version: 4,
    terraform_version: engine,
    serial,
    lineage: "3f1c-lignée",
    outputs: { greeting: { value: "grüße", type: "string" } },
    resources: [{
      mode: "managed", type: "tfe_workspace", name: "web", provider: "provider[\"registry.terraform.io/hashicorp/tfe\"]",
      instances: [{ schema_version: 0, attributes: { id: "ws-abc", name: "web" }, dependencies: [] }],
    }],
    check_results: null,
  }, null, 2)}\n`;
}

/** Sends a request as an outside client with the owner's token. */
async function owner<T>(method: "GET" | "POST" | "PUT", path: string, body?: unknown): Promise<{ status: number; doc: T }> {
  const res = await request(`${emu.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/vnd.api+json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, doc: (text === "" ? {} : JSON.parse(text)) as T };
}

async function newWorkspace(prefix: string): Promise<{ id: string; name: string }> {
  const name = uniqueName(prefix);
  const { status, doc } = await owner<{ data: { id: string } }>("POST", `/organizations/${ORG}/workspaces`, {
    data: { type: "workspaces", attributes: { name } },
  });
  expect(status).toBe(201);
  return { id: doc.data.id, name };
}

/**
 * Uploads `text` as Terraform's cloud backend does: a state version without content, then the raw bytes
 * PUT to its `hosted-state-upload-url` (which takes no token). The emulator finalizes a version created
 * without content unless told `finalized: false` (its setup shortcut); the service leaves it pending.
 * Returns the version's id.
 */
async function uploadState(workspaceId: string, serial: number, text: string): Promise<string> {
  const created = await owner<{ data: { id: string; attributes: { "hosted-state-upload-url": string } } }>(
    "POST", `/workspaces/${workspaceId}/state-versions`, { data: { type: "state-versions", attributes: { serial, md5: "not-checked", finalized: false } } },
  );
  expect(created.status).toBe(201);
  const put = await request(created.doc.data.attributes["hosted-state-upload-url"], {
    method: "PUT", headers: { "content-type": "application/octet-stream" }, body: Buffer.from(text, "utf8"),
  });
  await put.body.text();
  expect(put.statusCode).toBe(200);
  return created.doc.data.id;
}

/** The emulator's request log since the last clear, as `METHOD /path (token kind)`. */
const requestLines = (): string[] => emu.requests().map((r) => `${r.method} ${r.path} (${r.tokenKind ?? "no token"})`);

describe("against the emulator", () => {
  test("returns exactly the uploaded state with its version id, serial and Terraform version, with a read-only token and three GETs", async () => {
    const ws = await newWorkspace("with-state");
    const text = stateText(7);
    const svId = await uploadState(ws.id, 7, text);
    emu.clearRequests();

    const current = await readOnly.readCurrentState(ORG, ws.name);

    expect(current).toEqual({ workspaceId: ws.id, stateVersionId: svId, serial: 7, terraformVersion: "1.9.5", content: text });
    // Only GETs, in this order; the download is on the configured origin, so it carries the token, as go-tfe's Download does.
    expect(requestLines()).toEqual([
      `GET /api/v2/organizations/${ORG}/workspaces/${ws.name} (team)`,
      `GET /api/v2/workspaces/${ws.id}/current-state-version (team)`,
      `GET /api/v2/state-versions/${svId}/download (team)`,
    ]);
  });

  test("reads the latest version after another upload, and a state sent as the create's base64 `state` attribute too", async () => {
    const ws = await newWorkspace("two-versions");
    await uploadState(ws.id, 1, stateText(1, "1.8.0"));
    const second = stateText(2, "1.9.8");
    const created = await owner<{ data: { id: string } }>("POST", `/workspaces/${ws.id}/state-versions`, {
      data: { type: "state-versions", attributes: { serial: 2, md5: "not-checked", state: Buffer.from(second, "utf8").toString("base64") } },
    });
    expect(created.status).toBe(201);

    const current = await readOnly.readCurrentState(ORG, ws.name);

    expect(current).toEqual({ workspaceId: ws.id, stateVersionId: created.doc.data.id, serial: 2, terraformVersion: "1.9.8", content: second });
  });

  test("a workspace without a state version is { none: true } with its id, after the workspace read alone", async () => {
    const ws = await newWorkspace("no-state");
    emu.clearRequests();

    const current = await readOnly.readCurrentState(ORG, ws.name);

    expect(current).toEqual({ none: true, workspaceId: ws.id });
    expect(requestLines()).toEqual([`GET /api/v2/organizations/${ORG}/workspaces/${ws.name} (team)`]);
  });

  test("an unknown workspace name is a NotFoundError naming the request, after one GET", async () => {
    const e = await recorder.failure(readOnly.readCurrentState(ORG, "no-such-workspace"));

    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toContain(`GET /api/v2/organizations/${ORG}/workspaces/no-such-workspace failed with 404`);
    expect(requestLines()).toEqual([`GET /api/v2/organizations/${ORG}/workspaces/no-such-workspace (team)`]);
  });

  test("a workspace the token may not see is a NotFoundError too, though it has a state", async () => {
    const ws = await newWorkspace("unseen");
    await uploadState(ws.id, 1, stateText(1));
    const elsewhere = emu.issueToken({ kind: "team", access: "read", workspaces: ["some-other-workspace"] });

    const e = await recorder.failure(clientFor(emu, { token: elsewhere }).readCurrentState(ORG, ws.name));

    expect(e).toBeInstanceOf(NotFoundError);
  });

  test("a current state version without a download URL is a ResponseShapeError naming the attribute", async () => {
    // The emulator seeds a fixture workspace's state version without content; the service's URL is null until the upload.
    const e = await recorder.failure(readOnly.readCurrentState(ORG, WITHOUT_CONTENT));

    expect(e).toBeInstanceOf(ResponseShapeError);
    expect((e as ResponseShapeError).fields).toEqual(["data.attributes.hosted-state-download-url"]);
    expect(e.message).toMatch(/current-state-version returned a response this client does not understand: data\.attributes\.hosted-state-download-url: state version sv-\S+ \(status finalized\) has no download URL/);
  });

  test("the download is retried like any read: a 500 and then the state", async () => {
    const ws = await newWorkspace("retried");
    const text = stateText(3);
    const svId = await uploadState(ws.id, 3, text);
    const download = `/api/v2/state-versions/${svId}/download`;
    emu.setFaults({ script: [{ match: { method: "GET", path: download }, status: 500, times: 1 }] });

    await expect(readOnly.readCurrentState(ORG, ws.name)).resolves.toMatchObject({ content: text });
    expect(emu.requests().filter((r) => r.path === download).map((r) => r.status)).toEqual([500, 200]);
  });

  test("a state longer than maxStateBytes is a ResponseShapeError, not retried, and nothing is returned", async () => {
    const ws = await newWorkspace("too-long");
    const text = stateText(4);
    const svId = await uploadState(ws.id, 4, text);
    const bytes = Buffer.byteLength(text, "utf8");

    const e = await recorder.failure(readOnly.readCurrentState(ORG, ws.name, { maxStateBytes: bytes - 1 }));

    expect(e).toBeInstanceOf(ResponseShapeError);
    expect(e.message).toBe(
      `GET (the download URL of state version ${svId}) returned a response this client does not understand: ` +
        `(document): the body is ${bytes} bytes, more than ${bytes - 1}, the most this client reads here`,
    );
    expect(emu.requests().filter((r) => r.path.endsWith("/download"))).toHaveLength(1);
    // Exactly the bound is still read.
    await expect(readOnly.readCurrentState(ORG, ws.name, { maxStateBytes: bytes })).resolves.toMatchObject({ content: text });
  });

  test("maxStateBytes must be a positive whole number; nothing is sent otherwise", async () => {
    for (const maxStateBytes of [0, -1, 1.5, Number.NaN]) {
      const e = await recorder.failure(readOnly.readCurrentState(ORG, "any", { maxStateBytes }));
      expect(e).toBeInstanceOf(InvalidOptionsError);
    }
    expect(requestLines()).toEqual([]);
  });
});

describe("against scripted servers: download URLs on other origins, redirects, and answers the emulator does not give", () => {
  const WS_ID = "ws-scripted00000001";
  const SV_ID = "sv-scripted00000001";
  const TOKEN = "scripted-api-token-0123456789";
  const CONTENT = stateText(9);
  /** The part of a signed URL that grants access: it must never appear in an error. */
  const SIGNATURE = "signature-grants-access-42";

  let api: ScriptedServer;
  let storage: ScriptedServer;
  /** Where the API's state version says the state is; set by each test. */
  let downloadUrl = "";
  let storageAnswer: () => { status: number; headers?: Record<string, string>; body?: unknown } = () => ({ status: 200, body: CONTENT });

  /** The workspace names `currentStateVersion` (null: none; undefined: the relationship left out). */
  let currentStateVersion: { id: string; type: string } | null | undefined = { id: SV_ID, type: "state-versions" };
  let currentStateVersionStatus = 200;

  function workspaceDocument(): unknown {
    const base = workspaceResource(WS_ID, "scripted") as { relationships: Record<string, unknown> };
    const relationships = currentStateVersion === undefined
      ? base.relationships
      : { ...base.relationships, "current-state-version": { data: currentStateVersion } };
    return { data: { ...base, relationships } };
  }

  beforeAll(async () => {
    storage = await startScriptedServer(() => storageAnswer());
    api = await startScriptedServer((req) => {
      const path = req.url.split("?")[0];
      if (path === `/api/v2/organizations/${ORG}/workspaces/scripted`) return { status: 200, body: workspaceDocument() };
      if (path === `/api/v2/workspaces/${WS_ID}/current-state-version`) {
        if (currentStateVersionStatus !== 200) return { status: currentStateVersionStatus, body: { errors: [{ status: "404", title: "not found" }] } };
        return {
          status: 200,
          body: { data: { id: SV_ID, type: "state-versions", attributes: { serial: 9, status: "finalized", "terraform-version": "", "hosted-state-download-url": downloadUrl } } },
        };
      }
      // The API's own download path redirects to the storage, as a service might.
      if (path === `/api/v2/state-versions/${SV_ID}/download`) return { status: 302, headers: { location: `${storage.url}/v1/object/${SIGNATURE}` } };
      return { status: 404, body: { errors: [{ status: "404", title: "not found" }] } };
    });
  });

  beforeEach(() => {
    api.requests.length = 0;
    storage.requests.length = 0;
    storageAnswer = () => ({ status: 200, body: CONTENT });
    currentStateVersion = { id: SV_ID, type: "state-versions" };
    currentStateVersionStatus = 200;
  });

  afterAll(async () => {
    await api.close();
    await storage.close();
  });

  const client = (): WsbridgeClient => new WsbridgeClient({ address: api.url, token: TOKEN, retry: TEST_RETRY, timeoutMs: 5_000, rateLimit: { enabled: false } });
  const authorizations = (server: ScriptedServer): (string | undefined)[] => server.requests.map((r) => r.headers.authorization as string | undefined);

  test("a download URL on another port is fetched without the token; the API's requests carry it, all of them GETs", async () => {
    downloadUrl = `${storage.url}/v1/object/${SIGNATURE}?expires=1`;

    const current = await client().readCurrentState(ORG, "scripted");

    // An empty terraform-version (not yet processed by the service) is null.
    expect(current).toEqual({ workspaceId: WS_ID, stateVersionId: SV_ID, serial: 9, terraformVersion: null, content: CONTENT });
    expect(storage.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET /v1/object/${SIGNATURE}?expires=1`]);
    expect(authorizations(storage)).toEqual([undefined]);
    expect(storage.requests[0]?.headers.accept).toBe("application/json");
    expect(api.requests.map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(authorizations(api)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  test("a host other than the address's (localhost for 127.0.0.1) is another origin too: no token", async () => {
    downloadUrl = `${storage.url.replace("127.0.0.1", "localhost")}/v1/object/${SIGNATURE}`;
    // localhost may resolve to ::1 first, where the scripted server does not listen: skip rather than guess.
    const reachable = await request(downloadUrl).then(async (r) => { await r.body.text(); return true; }, () => false);
    storage.requests.length = 0;
    if (!reachable) return;

    await expect(client().readCurrentState(ORG, "scripted")).resolves.toMatchObject({ content: CONTENT });
    expect(authorizations(storage)).toEqual([undefined]);
  });

  test("a redirect from the configured origin to another keeps the token on the first hop only", async () => {
    downloadUrl = `${api.url}/api/v2/state-versions/${SV_ID}/download`;

    await expect(client().readCurrentState(ORG, "scripted")).resolves.toMatchObject({ content: CONTENT });

    expect(api.requests.map((r) => `${r.method} ${r.url.split("?")[0]}`).at(-1)).toBe(`GET /api/v2/state-versions/${SV_ID}/download`);
    expect(authorizations(api).at(-1)).toBe(`Bearer ${TOKEN}`);
    expect(storage.requests.map((r) => r.url)).toEqual([`/v1/object/${SIGNATURE}`]);
    expect(authorizations(storage)).toEqual([undefined]);
  });

  test("a failed download names the state version, never the URL (a signed URL grants access), nor the token", async () => {
    downloadUrl = `${storage.url}/v1/object/${SIGNATURE}`;
    storageAnswer = () => ({ status: 403, body: "<Error><Code>AccessDenied</Code></Error>" });

    const e = await recorder.failure(client().readCurrentState(ORG, "scripted"));

    expect(e.message).toBe(`GET (the download URL of state version ${SV_ID}) failed with 403`);
    expect(e.message).not.toContain(SIGNATURE);
    expect(e.stack).not.toContain(SIGNATURE);
    expect(e.message).not.toContain(TOKEN);
  });

  test("a download answered 500 beyond the retries is a ServerError, after every attempt", async () => {
    downloadUrl = `${storage.url}/v1/object/${SIGNATURE}`;
    storageAnswer = () => ({ status: 500 });

    const e = await recorder.failure(client().readCurrentState(ORG, "scripted"));

    expect(e).toBeInstanceOf(ServerError);
    expect(storage.requests).toHaveLength(4); // TEST_RETRY.maxAttempts
    expect(authorizations(storage).every((a) => a === undefined)).toBe(true);
  });

  test("a workspace whose relationship is left out: the current-state-version read decides, and its 404 means none", async () => {
    currentStateVersion = undefined;
    currentStateVersionStatus = 404;

    await expect(client().readCurrentState(ORG, "scripted")).resolves.toEqual({ none: true, workspaceId: WS_ID });
  });

  test("a 404 for the version the workspace names is a NotFoundError saying the token may not read the state", async () => {
    currentStateVersionStatus = 404;

    const e = await recorder.failure(client().readCurrentState(ORG, "scripted"));

    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toContain(`GET /api/v2/workspaces/${WS_ID}/current-state-version failed with 404 not found`);
    expect(e.message).toContain(`Workspace ${WS_ID} names current state version ${SV_ID}, but the token may not read it`);
    expect(storage.requests).toHaveLength(0);
  });

  test("a state streamed without a Content-Length is abandoned as soon as it passes maxStateBytes", async () => {
    // Chunks 20 ms apart, 10 of 1,000 bytes, for a bound of 2,500: the client must stop at the third.
    let chunksWritten = 0;
    let closedEarly = false;
    const streaming = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const timer = setInterval(() => {
        if (chunksWritten === 10) { clearInterval(timer); res.end(); return; }
        chunksWritten += 1;
        res.write(Buffer.alloc(1_000, 0x20));
      }, 20);
      res.on("close", () => { clearInterval(timer); closedEarly = chunksWritten < 10; });
    });
    await new Promise<void>((resolve) => streaming.listen(0, "127.0.0.1", resolve));
    try {
      downloadUrl = `http://127.0.0.1:${(streaming.address() as AddressInfo).port}/v1/object/${SIGNATURE}`;

      const e = await recorder.failure(client().readCurrentState(ORG, "scripted", { maxStateBytes: 2_500 }));

      expect(e).toBeInstanceOf(ResponseShapeError);
      expect(e.message).toBe(
        `GET (the download URL of state version ${SV_ID}) returned a response this client does not understand: ` +
          "(document): the body is longer than 2500 bytes, the most this client reads here",
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closedEarly).toBe(true);
      expect(chunksWritten).toBeLessThan(10);
    } finally {
      streaming.closeAllConnections();
      await new Promise((resolve) => streaming.close(resolve));
    }
  });

  test("a download URL that is not an absolute http(s) URL is a ResponseShapeError; nothing is fetched", async () => {
    for (const url of ["/relative/path", "ftp://example.test/state", "not a url"]) {
      downloadUrl = url;
      const e = await recorder.failure(client().readCurrentState(ORG, "scripted"));
      expect(e).toBeInstanceOf(ResponseShapeError);
      expect(e.message).toContain("the download URL is not an absolute http(s) URL");
    }
    expect(storage.requests).toHaveLength(0);
  });
});

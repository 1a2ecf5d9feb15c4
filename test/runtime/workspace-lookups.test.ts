// The workspace lookups' runtime (what getWorkspace / listWorkspaces call in the program process)
// against in-process emulators of both editions: what they return, how they fail, that bad arguments
// never reach the server, and that they only ever read.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Edition, type Fixtures, type RunningEmulator } from "../../emulator";
import type { WorkspaceLookupResult } from "../../provider/dynamic/functions/workspaces";
import { getWorkspace, listWorkspaces, type LookupContext } from "../../provider/runtime/lookups/workspaces";
import { failureOf } from "../support/failure";
import { isolatedHome } from "../support/isolated-home";

const PROJECT_ID = "prj-lookupapps0001";
const SSH_KEY_ID = "sshkey-lookup000001";
const AGENT_POOL_ID = "apool-lookup000001";
const OAUTH_TOKEN_ID = "ot-lookup000001";
const BULK = 105; // more than one page of 100, the client's page size

function fixtures(): Fixtures {
  return {
    organizations: [{
      name: "example-org",
      projects: [{ id: PROJECT_ID, name: "apps", tagBindings: [{ key: "team", value: "web" }] }],
      sshKeys: [{ id: SSH_KEY_ID, name: "deploy" }],
      agentPools: [{ id: AGENT_POOL_ID, name: "pool-a" }],
      oauthClients: [{ name: "github", oauthTokenId: OAUTH_TOKEN_ID }],
      workspaces: [
        {
          name: "web-prod",
          project: "apps",
          attributes: {
            description: "Web, production",
            "auto-apply": true,
            "global-remote-state": true,
            "working-directory": "infra",
            "engine-version": "1.9.8",
            "vcs-repo": { identifier: "acme/web", "oauth-token-id": OAUTH_TOKEN_ID, branch: "main" },
          },
          tags: ["prod", "web"],
          tagBindings: [{ key: "env", value: "prod" }],
          resourceCount: 3,
          sshKey: "deploy",
        },
        { name: "web-staging", project: "apps", tags: ["staging", "web"], tagBindings: [{ key: "env", value: "staging" }] },
        {
          name: "api-prod",
          attributes: { "execution-mode": "agent", "agent-pool-id": AGENT_POOL_ID },
          tags: ["prod", "api", "legacy"],
          tagBindings: [{ key: "env", value: "prod" }],
        },
        ...Array.from({ length: BULK }, (_, i) => ({ name: `bulk-${String(i).padStart(3, "0")}` })),
      ],
    }],
  };
}

/** An empty HOME, so no credentials file of the developer's can answer for a missing token. */
const home = isolatedHome();

function contextFor(emulator: RunningEmulator, config: Record<string, string> = {}, env: NodeJS.ProcessEnv = {}): LookupContext {
  const settings: Record<string, string> = {
    "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": emulator.organization, ...config,
  };
  return { config: { get: (key) => settings[key] }, env: { HOME: home, ...env } };
}

const names = (results: WorkspaceLookupResult[]): string[] => results.map((w) => w.name).sort();
const nonBulk = (results: WorkspaceLookupResult[]): string[] => names(results).filter((n) => !n.startsWith("bulk-"));

describe.each<Edition>(["hosted", "self-managed"])("the %s edition", (edition) => {
  let emulator: RunningEmulator;
  let context: LookupContext;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, edition, fixtures: fixtures(), quiet: true });
    context = contextFor(emulator);
  });

  afterAll(async () => {
    await emulator?.close();
  });

  beforeEach(() => emulator.clearRequests());

  describe("getWorkspace", () => {
    test("by name returns the workspace as plain, documented data with absolute URLs", async () => {
      const ws = await getWorkspace({ name: "web-prod" }, context);
      expect(ws).toEqual({
        id: expect.stringMatching(/^ws-[A-Za-z0-9]+$/),
        name: "web-prod",
        organization: "example-org",
        description: "Web, production",
        executionMode: "remote",
        engineVersion: "1.9.8",
        projectId: PROJECT_ID,
        agentPoolId: null,
        sshKeyId: SSH_KEY_ID,
        autoApply: true,
        globalRemoteState: true,
        projectRemoteState: false,
        workingDirectory: "infra",
        tagNames: ["prod", "web"],
        locked: false,
        resourceCount: 3,
        vcsRepo: { identifier: "acme/web", branch: "main" },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        htmlUrl: `${emulator.url}/app/example-org/workspaces/web-prod`,
        apiUrl: `${emulator.url}/api/v2/workspaces/${ws.id}`,
      });
      expect(emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v2/organizations/example-org/workspaces/web-prod"]);
    });

    test("by id returns the same as by name, through A4", async () => {
      const byName = await getWorkspace({ name: "api-prod" }, context);
      emulator.clearRequests();
      const byId = await getWorkspace({ id: byName.id }, context);
      expect(byId).toEqual(byName);
      expect(byId).toMatchObject({ executionMode: "agent", agentPoolId: AGENT_POOL_ID, vcsRepo: null, description: null, sshKeyId: null });
      expect(emulator.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v2/workspaces/${byName.id}`]);
    });

    test("by id accepts the organization the workspace belongs to and refuses another", async () => {
      const { id } = await getWorkspace({ name: "web-staging" }, context);
      await expect(getWorkspace({ id, organization: "example-org" }, context)).resolves.toMatchObject({ name: "web-staging" });
      await expect(getWorkspace({ id, organization: "other-org" }, context)).rejects.toThrow(
        `Workspace "${id}" belongs to organization "example-org", not "other-org"`,
      );
    });

    test("an organization given as an argument wins over the stack config", async () => {
      const err = await failureOf(getWorkspace({ organization: "other-org", name: "web-prod" }, context));
      expect(err.message).toContain('Workspace "other-org/web-prod" was not found');
      expect(emulator.requests().map((r) => r.path)).toContain("/api/v2/organizations/other-org/workspaces/web-prod");
    });

    test("a missing name fails naming organization and name, and says a 404 may mean no permission", async () => {
      const err = await failureOf(getWorkspace({ name: "does-not-exist" }, context));
      expect(err.message).toBe(
        'Workspace "example-org/does-not-exist" was not found: it does not exist, or the token may not see it (the API ' +
          "answers 404 for both; check the name or id, the organization, and the token's permissions)",
      );
    });

    test("a missing id fails naming the id", async () => {
      const err = await failureOf(getWorkspace({ id: "ws-doesnotexist0000" }, context));
      expect(err.message).toMatch(/^Workspace "ws-doesnotexist0000" was not found: it does not exist, or the token may not see it/);
    });

    test("a workspace the token may not see fails like a missing one", async () => {
      const readOnlyOne = emulator.issueToken({ kind: "team", access: "read", workspaces: ["web-staging"] });
      const limited = contextFor(emulator, { "wsbridge:token": readOnlyOne });
      await expect(getWorkspace({ name: "web-staging" }, limited)).resolves.toMatchObject({ name: "web-staging" });
      const err = await failureOf(getWorkspace({ name: "web-prod" }, limited));
      expect(err.message).toMatch(/^Workspace "example-org\/web-prod" was not found: it does not exist, or the token may not see it/);
      expect(err.message).not.toContain(readOnlyOne);
    });

    test("an address that serves no API is named instead of reporting the workspace missing", async () => {
      const wrong = contextFor(emulator, { "wsbridge:address": `${emulator.url}/not-the-api` });
      const err = await failureOf(getWorkspace({ name: "web-prod" }, wrong));
      expect(err.message).toContain(`${emulator.url}/not-the-api does not serve the API (GET /api/v2/ping answered 404)`);
    });
  });

  describe("listWorkspaces", () => {
    test("without filters returns every workspace of the organization, across pages", async () => {
      const all = await listWorkspaces({}, context);
      expect(all).toHaveLength(3 + BULK);
      expect(nonBulk(all)).toEqual(["api-prod", "web-prod", "web-staging"]);
      const pages = emulator.requests().map((r) => new URLSearchParams(r.query).get("page[number]"));
      expect(pages).toEqual(["1", "2"]);
    });

    test("reads every page when pages are small", async () => {
      const bulk = await listWorkspaces({ wildcardName: "bulk-*" }, { ...context, pageSize: 10 });
      expect(names(bulk)).toEqual(Array.from({ length: BULK }, (_, i) => `bulk-${String(i).padStart(3, "0")}`));
      expect(emulator.requests()).toHaveLength(Math.ceil(BULK / 10));
      expect(emulator.requests().every((r) => new URLSearchParams(r.query).get("search[wildcard-name]") === "bulk-*")).toBe(true);
    });

    test("search matches part of the name", async () => {
      expect(names(await listWorkspaces({ search: "web" }, context))).toEqual(["web-prod", "web-staging"]);
    });

    test("wildcardName matches * as prefix, suffix or both", async () => {
      expect(names(await listWorkspaces({ wildcardName: "*-prod" }, context))).toEqual(["api-prod", "web-prod"]);
      expect(names(await listWorkspaces({ wildcardName: "web-*" }, context))).toEqual(["web-prod", "web-staging"]);
      expect(names(await listWorkspaces({ wildcardName: "*i-pr*" }, context))).toEqual(["api-prod"]);
    });

    test("tags keeps workspaces with all of them", async () => {
      expect(names(await listWorkspaces({ tags: ["prod"] }, context))).toEqual(["api-prod", "web-prod"]);
      expect(names(await listWorkspaces({ tags: ["prod", "web"] }, context))).toEqual(["web-prod"]);
    });

    test("excludeTags leaves out workspaces with any of them", async () => {
      const withoutLegacy = await listWorkspaces({ excludeTags: ["legacy"] }, context);
      expect(withoutLegacy).toHaveLength(2 + BULK);
      expect(nonBulk(withoutLegacy)).toEqual(["web-prod", "web-staging"]);
      expect(nonBulk(await listWorkspaces({ excludeTags: ["legacy", "staging"] }, context))).toEqual(["web-prod"]);
    });

    test("projectId keeps the project's workspaces", async () => {
      expect(names(await listWorkspaces({ projectId: PROJECT_ID }, context))).toEqual(["web-prod", "web-staging"]);
    });

    test("tagged matches key and value, a key alone for an empty value, inherited tags too, all with AND", async () => {
      expect(names(await listWorkspaces({ tagged: { env: "prod" } }, context))).toEqual(["api-prod", "web-prod"]);
      expect(names(await listWorkspaces({ tagged: { env: "" } }, context))).toEqual(["api-prod", "web-prod", "web-staging"]);
      expect(names(await listWorkspaces({ tagged: { team: "web" } }, context))).toEqual(["web-prod", "web-staging"]);
      emulator.clearRequests();
      expect(names(await listWorkspaces({ tagged: { env: "prod", team: "web" } }, context))).toEqual(["web-prod"]);
      const query = new URLSearchParams(emulator.requests()[0]?.query);
      expect([...query.keys()].filter((k) => k.startsWith("filter[tagged]"))).toEqual([
        "filter[tagged][0][key]", "filter[tagged][0][value]", "filter[tagged][1][key]", "filter[tagged][1][value]",
      ]);
    });

    test("filters combine with AND", async () => {
      expect(names(await listWorkspaces({ wildcardName: "*-prod", tags: ["web"], projectId: PROJECT_ID }, context))).toEqual(["web-prod"]);
    });

    test("each result is the same as getWorkspace's", async () => {
      const [listed] = await listWorkspaces({ wildcardName: "web-prod" }, context);
      expect(listed).toEqual(await getWorkspace({ name: "web-prod" }, context));
    });

    test("an organization the token may not see fails naming it", async () => {
      const err = await failureOf(listWorkspaces({ organization: "no-such-org" }, context));
      expect(err.message).toBe('Organization "no-such-org" was not found, or the token may not list its workspaces (the API answers 404 for both)');
    });
  });

  test("the request log holds only GETs, and no result or error holds the token", async () => {
    const outcomes: unknown[] = [];
    const { id } = await getWorkspace({ name: "web-prod" }, context);
    outcomes.push(await getWorkspace({ id }, context));
    outcomes.push(await listWorkspaces({ tags: ["prod"], tagged: { env: "prod" } }, context));
    outcomes.push(await listWorkspaces({}, { ...context, pageSize: 50 }));
    for (const failing of [getWorkspace({ name: "missing" }, context), getWorkspace({ id: "ws-missing0000" }, context),
      listWorkspaces({ organization: "no-such-org" }, context)]) {
      const err = await failureOf(failing);
      outcomes.push(err.message, err.stack);
    }
    const log = emulator.requests();
    expect(log.length).toBeGreaterThan(6);
    expect(log.filter((r) => r.method !== "GET")).toEqual([]);
    expect(JSON.stringify(outcomes)).not.toContain(emulator.token);
  });
});

describe("arguments and settings checked before any request", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, quiet: true });
  });

  afterAll(async () => {
    await emulator?.close();
  });

  beforeEach(() => emulator.clearRequests());
  afterEach(() => expect(emulator.requests()).toEqual([]));

  test.each<[string, unknown, string]>([
    ["neither id nor name", {}, "getWorkspace: invalid arguments: id or name is required (give exactly one of them)"],
    ["both id and name", { id: "ws-abc123", name: "web" }, "getWorkspace: invalid arguments: id and name must not both be given (give exactly one of them)"],
    ["a name with a space", { name: "web prod" }, "getWorkspace: invalid arguments: name must contain only letters, digits, '-' and '_' (and not be empty)"],
    ["an empty name", { name: "" }, "getWorkspace: invalid arguments: name must contain only letters, digits, '-' and '_' (and not be empty)"],
    ["a name over 260 characters", { name: "a".repeat(261) }, "getWorkspace: invalid arguments: name must be at most 260 characters"],
    ["an id without ws-", { id: "abc123" }, "getWorkspace: invalid arguments: id must be 'ws-' followed by letters and digits"],
    ["an id with a slash", { id: "ws-abc/../x" }, "getWorkspace: invalid arguments: id must be 'ws-' followed by letters and digits"],
    ["a bad organization", { organization: "my org", name: "web" }, "getWorkspace: invalid arguments: organization must contain only letters, digits, '-' and '_' (and not be empty)"],
    ["a number for a name", { name: 42 }, "getWorkspace: invalid arguments: name must be a string"],
    ["a misspelled argument", { nmae: "web", name: "web" }, "getWorkspace: invalid arguments: nmae is not an argument of getWorkspace"],
    ["no object at all", null, "getWorkspace: invalid arguments: arguments must be an object"],
  ])("getWorkspace refuses %s", async (_what, args, message) => {
    const err = await failureOf(getWorkspace(args as never, contextFor(emulator)));
    expect(err.message).toBe(message);
    expect(err).toMatchObject({ code: "WSB_INVALID_OPTIONS" });
  });

  test.each<[string, unknown, string]>([
    ["an empty tag", { tags: [""] }, "tags[0] must be a non-empty tag name without commas"],
    ["a tag with a comma", { tags: ["prod", "a,b"] }, "tags[1] must be a non-empty tag name without commas"],
    ["a blank excluded tag", { excludeTags: [" "] }, "excludeTags[0] must be a non-empty tag name without commas"],
    ["tags that are not a list", { tags: "prod" }, "tags must be an array of strings"],
    ["an empty search", { search: "" }, "search must not be empty"],
    ["a wildcard with other characters", { wildcardName: "web prod*" }, "wildcardName must contain only letters, digits, '-', '_' and '*' (and not be empty)"],
    ["a bad project id", { projectId: "project-1" }, "projectId must be 'prj-' followed by letters and digits"],
    ["a tag key with a space", { tagged: { "bad key": "x" } }, "tagged key \"bad key\" must be 1 to 128 letters, digits or _ . = + - @ :"],
    ["a tag value over 256 characters", { tagged: { env: "x".repeat(257) } }, 'tagged.env must be "" (any value) or up to 256 letters, digits or _ . = + - @ :'],
    ["a tag value that is not a string", { tagged: { env: 1 } }, "tagged.env must be a string"],
    ["a bad organization", { organization: "a/b" }, "organization must contain only letters, digits, '-' and '_' (and not be empty)"],
    ["an unknown filter", { sort: "name" }, "sort is not an argument of listWorkspaces"],
  ])("listWorkspaces refuses %s", async (_what, args, message) => {
    const err = await failureOf(listWorkspaces(args as never, contextFor(emulator)));
    expect(err.message).toBe(`listWorkspaces: invalid arguments: ${message}`);
  });

  test("every broken rule is named at once", async () => {
    const err = await failureOf(listWorkspaces({ tags: [""], projectId: "x", search: "" }, contextFor(emulator)));
    expect(err.message).toBe(
      "listWorkspaces: invalid arguments: search must not be empty; tags[0] must be a non-empty tag name without commas; " +
        "projectId must be 'prj-' followed by letters and digits",
    );
  });

  test("without an organization anywhere, a lookup by name or a list asks for one", async () => {
    const noOrg: LookupContext = { config: { get: (key) => ({ "wsbridge:address": emulator.url, "wsbridge:token": emulator.token })[key] }, env: { HOME: home } };
    const reason = "organization is required: give it, or set the `wsbridge:organization` stack config (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)";
    await expect(getWorkspace({ name: "web" }, noOrg)).rejects.toThrow(`getWorkspace: invalid arguments: ${reason}`);
    await expect(listWorkspaces({}, noOrg)).rejects.toThrow(`listWorkspaces: invalid arguments: ${reason}`);
  });

  test("a default organization that breaks the name rule is named with where it came from", async () => {
    const err = await failureOf(getWorkspace({ name: "web" }, contextFor(emulator, { "wsbridge:organization": "my org" })));
    expect(err.message).toContain('the default from wsbridge:organization (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION) is "my org"');
  });

  test("a setting that cannot work fails naming it", async () => {
    await expect(getWorkspace({ name: "web" }, contextFor(emulator, { "wsbridge:edition": "cloud" }))).rejects.toThrow(
      'Invalid provider settings: wsbridge:edition must be "hosted" or "self-managed", got "cloud"',
    );
    await expect(listWorkspaces({}, contextFor(emulator, {}, { WSBRIDGE_MAX_RETRIES: "many" }))).rejects.toThrow(
      'Invalid provider settings: WSBRIDGE_MAX_RETRIES must be a whole number from 0 to 50, got "many"',
    );
  });
});

describe("settings follow the provider's precedence", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, quiet: true, fixtures: { organizations: [{ name: "example-org", workspaces: [{ name: "one" }] }] } });
  });

  afterAll(async () => {
    await emulator?.close();
  });

  const orgOf = async (config: Record<string, string>, env: NodeJS.ProcessEnv): Promise<string> => {
    emulator.clearRequests();
    // The organizations do not exist: only the path of the request matters here.
    await listWorkspaces({}, { config: { get: (k) => config[k] }, env: { HOME: home, ...env } }).catch(() => undefined);
    const listed = emulator.requests().find((r) => r.path.endsWith("/workspaces"));
    return listed?.path.split("/")[4] ?? "(no request)";
  };

  test("organization: stack config, then WSBRIDGE_ORGANIZATION, then TFE_ORGANIZATION", async () => {
    const base = { "wsbridge:address": emulator.url, "wsbridge:token": emulator.token };
    const env = { WSBRIDGE_ORGANIZATION: "from-wsbridge-env", TFE_ORGANIZATION: "from-tfe-env" };
    expect(await orgOf({ ...base, "wsbridge:organization": "from-config" }, env)).toBe("from-config");
    expect(await orgOf(base, env)).toBe("from-wsbridge-env");
    expect(await orgOf(base, { TFE_ORGANIZATION: "from-tfe-env" })).toBe("from-tfe-env");
  });

  test("address and token come from the environment when the stack config has none", async () => {
    const ws = await getWorkspace({ name: "one" }, {
      config: { get: () => undefined },
      env: { HOME: home, TFE_ADDRESS: emulator.url, TFE_TOKEN: emulator.token, TFE_ORGANIZATION: "example-org" },
    });
    expect(ws.apiUrl).toBe(`${emulator.url}/api/v2/workspaces/${ws.id}`);
  });

  test("the token may come from the Terraform CLI credentials file", async () => {
    const credentialsHome = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-lookups-creds-"));
    fs.mkdirSync(path.join(credentialsHome, ".terraform.d"));
    fs.writeFileSync(
      path.join(credentialsHome, ".terraform.d", "credentials.tfrc.json"),
      JSON.stringify({ credentials: { [new URL(emulator.url).host]: { token: emulator.token } } }),
    );
    const ws = await getWorkspace({ name: "one" }, {
      config: { get: (k) => ({ "wsbridge:address": emulator.url, "wsbridge:organization": "example-org" })[k] },
      env: { HOME: credentialsHome },
    });
    expect(ws.name).toBe("one");
  });

  test("the recorded provider config is not touched by a lookup's config", async () => {
    const config = await import("../../provider/runtime/config");
    config.resetConfigForTests();
    config.configure({ get: (k) => ({ "wsbridge:organization": "provider-org" })[k] });
    await getWorkspace({ name: "one" }, { config: { get: (k) => ({ "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": "example-org" })[k] }, env: { HOME: home } });
    expect(config.resolveSettings({ HOME: home }).organization).toBe("provider-org");
    config.resetConfigForTests();
  });
});

test("importing the package loads neither undici nor zod; a lookup loads zod to check its arguments, and no HTTP client until it sends", () => {
  const repo = path.resolve(__dirname, "../..");
  const script = `
    const loaded = (name) => Object.keys(require.cache).some((f) => f.includes("/node_modules/" + name + "/"));
    const pkg = require(${JSON.stringify(path.join(repo, "provider", "index.ts"))});
    const before = { undici: loaded("undici"), zod: loaded("zod") };
    pkg.listWorkspaces({ tags: [""] }).then(
      () => { throw new Error("expected a failure"); },
      (err) => console.log(JSON.stringify({ before, after: { undici: loaded("undici"), zod: loaded("zod") }, message: err.message })),
    );`;
  const out = execFileSync(process.execPath, ["-r", path.join(repo, "scripts/lib/register-ts.js"), "-e", script], {
    cwd: repo, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home },
  });
  expect(JSON.parse(out.trim().split("\n").pop() ?? "")).toEqual({
    before: { undici: false, zod: false },
    // Refused before any request: the HTTP client is loaded at the first request only.
    after: { undici: false, zod: true },
    message: "listWorkspaces: invalid arguments: tags[0] must be a non-empty tag name without commas",
  });
});

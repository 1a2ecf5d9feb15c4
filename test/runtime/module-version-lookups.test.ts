// The registry lookups' runtime (what getModuleVersion / listModuleVersions call in the program
// process) against an in-process emulator: a version with and without its deprecation, every version
// with the deprecation of each, the 404 explanation, bad arguments refused before any request, and
// that they only ever read.
import { request } from "undici";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../emulator";
import { getModuleVersion, listModuleVersions, type LookupContext } from "../../provider/runtime/lookups/module-versions";
import { failureOf } from "../support/failure";
import { isolatedHome } from "../support/isolated-home";

const OLD_REASON = "1.0.0 leaks subnets";
const OLD_LINK = "https://example.com/vpc/upgrade-to-1.1";

function fixtures(): Fixtures {
  return {
    organizations: [{
      name: "example-org",
      registryModules: [
        {
          name: "vpc",
          provider: "aws",
          description: "A VPC with public and private subnets",
          // Listed out of order: the emulator lists them in ascending semver order.
          versions: [
            { version: "1.0.0", deprecation: { reason: OLD_REASON, link: OLD_LINK } },
            "2.0.0-beta.1", "1.2.0", "1.1.0",
          ],
        },
        { name: "dns", provider: "google", versions: ["0.1.0"] },
      ],
    }],
  };
}

/** An empty HOME, so no credentials file of the developer's can answer for a missing token. */
const home = isolatedHome();

function contextFor(emulator: RunningEmulator, config: Record<string, string> = {}): LookupContext {
  const settings: Record<string, string> = {
    "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": emulator.organization, ...config,
  };
  return { config: { get: (key) => settings[key] }, env: { HOME: home } };
}

let emulator: RunningEmulator;
let context: LookupContext;
const requestLines = (): string[] => emulator.requests().map((r) => `${r.method} ${r.path}`);

/** Deprecates a version through D1, as a ModuleVersionDeprecation (or someone else) would. */
async function deprecate(version: string, reason: string): Promise<void> {
  const res = await request(
    `${emulator.url}/api/v2/organizations/example-org/registry-modules/private/example-org/vpc/aws/${version}`,
    {
      method: "PATCH",
      headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", reason } } } }),
    },
  );
  expect(res.statusCode).toBe(200);
  await res.body.dump();
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, fixtures: fixtures(), quiet: true });
  context = contextFor(emulator);
  await deprecate("1.1.0", "use 1.2.0");
});

afterAll(async () => {
  await emulator?.close();
});

beforeEach(() => emulator.clearRequests());

describe("getModuleVersion", () => {
  test("a version that is not deprecated, as plain documented data, through one D3 GET", async () => {
    const v = await getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.2.0" }, context);
    expect(v).toEqual({
      id: "example-org/vpc/aws/1.2.0",
      organization: "example-org",
      moduleName: "vpc",
      provider: "aws",
      version: "1.2.0",
      description: "A VPC with public and private subnets",
      source: null, // the emulator reports "" (no VCS source)
      publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      deprecated: false,
      deprecation: null,
    });
    expect(requestLines()).toEqual(["GET /api/registry/v1/modules/example-org/vpc/aws/1.2.0"]);
  });

  test("a deprecated version carries its reason and link", async () => {
    const v = await getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.0.0" }, context);
    expect(v).toMatchObject({ deprecated: true, deprecation: { reason: OLD_REASON, link: OLD_LINK } });
  });

  test("a version deprecated through D1 shows the reason as the registry stores it, and no link when none was given", async () => {
    const v = await getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.1.0" }, context);
    expect(v).toMatchObject({ deprecated: true, deprecation: { reason: "use 1.2.0 (This module version is deprecated.)", link: null } });
  });

  test("a prerelease version and a module without a description", async () => {
    await expect(getModuleVersion({ moduleName: "vpc", provider: "aws", version: "2.0.0-beta.1" }, context))
      .resolves.toMatchObject({ id: "example-org/vpc/aws/2.0.0-beta.1", deprecated: false });
    await expect(getModuleVersion({ moduleName: "dns", provider: "google", version: "0.1.0" }, context))
      .resolves.toMatchObject({ description: null, deprecated: false });
  });

  test("a missing version fails naming it, and says a 404 may mean the token may not see it", async () => {
    const err = await failureOf(getModuleVersion({ moduleName: "vpc", provider: "aws", version: "9.9.9" }, context));
    expect(err.message).toBe(
      'Module version "example-org/vpc/aws/9.9.9" was not found in the private registry: the module or this version of it ' +
        "does not exist, or the token may not see it (the registry answers 404 for both; check organization, moduleName, " +
        "provider and version, and the token's permissions)",
    );
    // The ping that tells a missing version from an address serving no API, then nothing else.
    expect(requestLines()).toEqual(["GET /api/registry/v1/modules/example-org/vpc/aws/9.9.9", "GET /api/v2/ping"]);
  });

  test("an address that serves no API is named instead of reporting the version missing", async () => {
    const err = await failureOf(getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.2.0" },
      contextFor(emulator, { "wsbridge:address": `${emulator.url}/not-the-api` })));
    expect(err.message).toContain(`${emulator.url}/not-the-api does not serve the API (GET /api/v2/ping answered 404)`);
  });
});

describe("listModuleVersions", () => {
  test("every version with the deprecation of each, in the registry's order, through one D4 GET", async () => {
    const listed = await listModuleVersions({ moduleName: "vpc", provider: "aws" }, context);
    expect(listed).toEqual({
      source: "example-org/vpc/aws",
      versions: [
        { version: "1.0.0", deprecated: true, deprecation: { reason: OLD_REASON, link: OLD_LINK } },
        { version: "1.1.0", deprecated: true, deprecation: { reason: "use 1.2.0 (This module version is deprecated.)", link: null } },
        { version: "1.2.0", deprecated: false, deprecation: null },
        { version: "2.0.0-beta.1", deprecated: false, deprecation: null },
      ],
    });
    expect(requestLines()).toEqual(["GET /api/registry/v1/modules/example-org/vpc/aws/versions"]);
  });

  test("each version's deprecation is the same as getModuleVersion's", async () => {
    const { versions } = await listModuleVersions({ moduleName: "vpc", provider: "aws" }, context);
    for (const listed of versions) {
      const one = await getModuleVersion({ moduleName: "vpc", provider: "aws", version: listed.version }, context);
      expect({ deprecated: one.deprecated, deprecation: one.deprecation }).toEqual({ deprecated: listed.deprecated, deprecation: listed.deprecation });
    }
  });

  test("a missing module fails naming it", async () => {
    const err = await failureOf(listModuleVersions({ moduleName: "vpc", provider: "azurerm" }, context));
    expect(err.message).toBe(
      'Module "example-org/vpc/azurerm" was not found in the private registry: it does not exist, or the token may not see it ' +
        "(the registry answers 404 for both; check organization, moduleName and provider, and the token's permissions)",
    );
  });

  test("an organization given as an argument wins over the stack config", async () => {
    const err = await failureOf(listModuleVersions({ organization: "other-org", moduleName: "vpc", provider: "aws" }, context));
    expect(err.message).toMatch(/^Module "other-org\/vpc\/aws" was not found/);
    expect(requestLines()[0]).toBe("GET /api/registry/v1/modules/other-org/vpc/aws/versions");
  });
});

describe("tokens", () => {
  test("a read-only team token reads versions and deprecations", async () => {
    const readOnly = contextFor(emulator, { "wsbridge:token": emulator.issueToken({ kind: "team", access: "read" }) });
    const listed = await listModuleVersions({ moduleName: "vpc", provider: "aws" }, readOnly);
    expect(listed.versions.filter((v) => v.deprecated).map((v) => v.version)).toEqual(["1.0.0", "1.1.0"]);
  });

  test("a token of another organization gets the not-found explanation, without the token in it", async () => {
    const outsider = emulator.issueToken({ kind: "owner", organization: "outsider-org" });
    const err = await failureOf(getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.2.0" }, contextFor(emulator, { "wsbridge:token": outsider })));
    expect(err.message).toMatch(/^Module version "example-org\/vpc\/aws\/1.2.0" was not found in the private registry: .* or the token may not see it/);
    expect(`${err.message}\n${err.stack}`).not.toContain(outsider);
  });
});

test("the request log holds only GETs, and no result or error holds the token", async () => {
  const outcomes: unknown[] = [];
  outcomes.push(await getModuleVersion({ moduleName: "vpc", provider: "aws", version: "1.0.0" }, context));
  outcomes.push(await listModuleVersions({ moduleName: "vpc", provider: "aws" }, context));
  for (const failing of [
    getModuleVersion({ moduleName: "vpc", provider: "aws", version: "3.0.0" }, context),
    listModuleVersions({ moduleName: "nope", provider: "aws" }, context),
  ]) {
    const err = await failureOf(failing);
    outcomes.push(err.message, err.stack);
  }
  const log = emulator.requests();
  expect(log).toHaveLength(6); // 2 reads, 2 failed reads, each followed by the ping
  expect(log.filter((r) => r.method !== "GET")).toEqual([]);
  expect(JSON.stringify(outcomes)).not.toContain(emulator.token);
});

describe("arguments and settings checked before any request", () => {
  beforeEach(() => emulator.clearRequests());
  afterEach(() => expect(emulator.requests()).toEqual([]));

  const good = { moduleName: "vpc", provider: "aws", version: "1.2.0" };

  test.each<[string, unknown, string]>([
    ["an empty module name", { ...good, moduleName: "" }, "moduleName must not be empty"],
    ["a module name with a slash", { ...good, moduleName: "vpc/../x" }, "moduleName must be a module name: letters, digits, - and _ only"],
    ["an upper-case provider", { ...good, provider: "AWS" }, "provider must be a provider name: lower-case letters, digits and _ only (e.g. aws)"],
    ["a version with a leading v", { ...good, version: "v1.2.0" }, 'version must be a version string MAJOR.MINOR.PATCH, optionally with -prerelease and +build (e.g. "1.2.0"; no leading "v")'],
    ["a version constraint", { ...good, version: "~> 1.2" }, 'version must be a version string MAJOR.MINOR.PATCH, optionally with -prerelease and +build (e.g. "1.2.0"; no leading "v")'],
    ["a bad organization", { ...good, organization: "my org" }, "organization must be an organization name: letters, digits, - and _ only"],
    ["a missing version", { moduleName: "vpc", provider: "aws" }, "version must be a string"],
    ["a number for a version", { ...good, version: 1 }, "version must be a string"],
    ["a misspelled argument", { ...good, modulename: "vpc" }, "modulename is not an argument of getModuleVersion"],
    ["no object at all", null, "arguments must be an object"],
  ])("getModuleVersion refuses %s", async (_what, args, reason) => {
    const err = await failureOf(getModuleVersion(args as never, context));
    expect(err.message).toBe(`getModuleVersion: invalid arguments: ${reason}`);
    expect(err).toMatchObject({ code: "WSB_INVALID_OPTIONS" });
  });

  test.each<[string, unknown, string]>([
    ["a provider with a dash", { moduleName: "vpc", provider: "aws-x" }, "provider must be a provider name: lower-case letters, digits and _ only (e.g. aws)"],
    ["a version (it lists them all)", { moduleName: "vpc", provider: "aws", version: "1.2.0" }, "version is not an argument of listModuleVersions"],
    ["a missing module name", { provider: "aws" }, "moduleName must be a string"],
  ])("listModuleVersions refuses %s", async (_what, args, reason) => {
    const err = await failureOf(listModuleVersions(args as never, context));
    expect(err.message).toBe(`listModuleVersions: invalid arguments: ${reason}`);
  });

  test("without an organization anywhere, a lookup asks for one", async () => {
    const noOrg: LookupContext = { config: { get: (key) => ({ "wsbridge:address": emulator.url, "wsbridge:token": emulator.token })[key] }, env: { HOME: home } };
    await expect(listModuleVersions({ moduleName: "vpc", provider: "aws" }, noOrg)).rejects.toThrow(
      "listModuleVersions: invalid arguments: organization is required: give it, or set the `wsbridge:organization` stack config " +
        "(or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION)",
    );
  });

  test("a default organization that breaks the name rule is named with where it came from", async () => {
    const err = await failureOf(getModuleVersion(good, contextFor(emulator, { "wsbridge:organization": "my org" })));
    expect(err.message).toBe(
      "getModuleVersion: invalid arguments: organization must be an organization name: letters, digits, - and _ only; " +
        'the default from wsbridge:organization (or WSBRIDGE_ORGANIZATION / TFE_ORGANIZATION) is "my org"',
    );
  });

  test("a setting that cannot work fails naming it", async () => {
    await expect(getModuleVersion(good, contextFor(emulator, { "wsbridge:edition": "cloud" }))).rejects.toThrow(
      'Invalid provider settings: wsbridge:edition must be "hosted" or "self-managed", got "cloud"',
    );
  });
});

test("the organization defaults to WSBRIDGE_ORGANIZATION when the stack config has none", async () => {
  const v = await getModuleVersion({ moduleName: "dns", provider: "google", version: "0.1.0" }, {
    config: { get: (key) => ({ "wsbridge:address": emulator.url, "wsbridge:token": emulator.token })[key] },
    env: { HOME: home, WSBRIDGE_ORGANIZATION: "example-org" },
  });
  expect(v.organization).toBe("example-org");
});

// The ModuleVersionDeprecation runtime (what the provider plugin calls) against an in-process emulator
// whose organization has a private module vpc/aws with versions 1.0.0, 1.1.0 and 2.0.0: check and diff
// decide the preview without a request, create/read/update/delete do what the preview promised with the
// requests its docs page lists, a reason the server extends is no drift, drift made outside shows as
// exactly the restore, and every documented failure (404, 422, 500/503) is explained.
import { DEPRECATION_REASON_SUFFIX } from "../../emulator";
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import { resetConfigForTests } from "../../provider/runtime/config";
import { failureOf } from "../support/failure";
import { startScriptedServer } from "../support/client-server";
import { useRuntimeEmulator, withoutQuery } from "../support/runtime-emulator";

const deprecation = runtime.moduleVersionDeprecation;
const ORG = "example-org";
const NO_ENTITLEMENT = "no-entitlement";

const vpcModule = { name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "2.0.0"] };
const fixture = useRuntimeEmulator({
  emulator: {
    edition: "hosted",
    fixtures: {
      organizations: [
        { name: ORG, registryModules: [vpcModule] },
        { name: NO_ENTITLEMENT, moduleDeprecations: false, registryModules: [vpcModule] },
      ],
    },
  },
  resetEditionCache: true,
});
const { api, configureWith } = fixture;

const d1Path = (version: string, org = ORG): string =>
  `/api/v2/organizations/${org}/registry-modules/private/${org}/vpc/aws/${version}`;
const d3Path = (version: string, org = ORG): string => `/api/registry/v1/modules/${org}/vpc/aws/${version}`;

/** The registry's view of one version (D3), read with the owner token. */
async function registryDeprecation(version: string): Promise<{ reason: string; link: string } | undefined> {
  const res = await api<{ deprecation?: { reason: string; link: string } }>("GET", `${fixture.emulator.url}${d3Path(version)}`);
  expect(res.status).toBe(200);
  return res.doc.deprecation;
}

/** A change made outside Pulumi (D1/D2 straight to the emulator). */
async function outside(version: string, status: "Deprecated" | "Undeprecated", text: { reason?: string; link?: string } = {}): Promise<void> {
  const res = await api("PATCH", `${fixture.emulator.url}${d1Path(version)}`, {
    data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": status, ...text } } },
  });
  expect(res.status).toBe(200);
}

/** The requests the emulator received since the last call, as `METHOD /path`. */
const takeRequests = (): string[] => fixture.takeRequests(withoutQuery);

const declared = (version: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  organization: ORG, moduleName: "vpc", provider: "aws", version, ...extra,
});

describe("check", () => {
  test("fills the organization from wsbridge:organization and drops the engine's keys, with no request", async () => {
    expect(await deprecation.check({}, { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "old", __provider: "x" }))
      .toEqual({ inputs: { organization: ORG, moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "old" }, failures: [] });
    expect(takeRequests()).toEqual([]);
  });

  test("without any organization, fails naming organization and the config that would supply it", async () => {
    resetConfigForTests();
    await runtime.configure({ config: { get: (key: string) => ({ "wsbridge:address": fixture.emulator.url, "wsbridge:token": fixture.emulator.token } as Record<string, string>)[key] } });
    const { failures } = await deprecation.check({}, { moduleName: "vpc", provider: "aws", version: "1.0.0" });
    expect(failures).toEqual([{ property: "organization", reason: expect.stringContaining("`wsbridge:organization` stack config") }]);
  });

  test("tolerates values still unknown during a preview", async () => {
    for (const key of ["organization", "moduleName", "provider", "version", "reason", "link"]) {
      expect((await deprecation.check({}, { ...declared("1.0.0"), [key]: UNKNOWN })).failures).toEqual([]);
    }
    expect(takeRequests()).toEqual([]);
  });

  const BAD: [string, Record<string, unknown>, string, string][] = [
    ["a module name with a space", declared("1.0.0", { moduleName: "my vpc" }), "moduleName", "letters, digits, - and _ only"],
    ["an empty module name", declared("1.0.0", { moduleName: "" }), "moduleName", "must not be empty"],
    ["an empty provider", declared("1.0.0", { provider: "" }), "provider", "must not be empty"],
    ["a provider in upper case", declared("1.0.0", { provider: "AWS" }), "provider", "lower-case letters"],
    ["version latest", declared("latest"), "version", "MAJOR.MINOR.PATCH"],
    ["a version with a leading v", declared("v1.0.0"), "version", 'no leading "v"'],
    ["a version of two parts", declared("1.0"), "version", "MAJOR.MINOR.PATCH"],
    ["a link that is no URL", declared("1.0.0", { link: "not a url" }), "link", "absolute http or https URL"],
    ["an ftp link", declared("1.0.0", { link: "ftp://x" }), "link", "absolute http or https URL"],
    ["a reason over 2000 characters", declared("1.0.0", { reason: "x".repeat(2001) }), "reason", "at most 2000 characters"],
    ["an organization with a slash", declared("1.0.0", { organization: "a/b" }), "organization", "letters, digits, - and _ only"],
    ["an unknown property", declared("1.0.0", { deprecated: true }), "deprecated", "is not a property of ModuleVersionDeprecation"],
  ];
  test.each(BAD)("refuses %s, naming the property and the rule, with no request", async (_what, inputs, property, rule) => {
    const { failures } = await deprecation.check({}, inputs);
    expect(failures.find((f) => f.property === property)?.reason).toContain(rule);
    expect(takeRequests()).toEqual([]);
  });
});

describe("diff", () => {
  const olds = {
    ...declared("1.0.0"), moduleSource: `${ORG}/vpc/aws`, reason: "old", link: "https://example.com/a",
    registryReason: `old${DEPRECATION_REASON_SUFFIX}`, registryLink: "https://example.com/a", moduleVersionId: "modver-1", deprecationId: "moddep-1",
  };
  const same = declared("1.0.0", { reason: "old", link: "https://example.com/a" });

  test("the declared reason and link again are no change, though the registry holds a longer reason", async () => {
    expect(await deprecation.diff("id", olds, { ...same, __provider: "new text" }))
      .toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
  });

  test("a reason or link changed, removed or not known yet updates in place, at its own path", async () => {
    const CASES: [Record<string, unknown>, { path: string; kind: string; replace: boolean; inputDiff?: boolean }][] = [
      [{ ...same, reason: "new" }, { path: "reason", kind: "update", replace: false }],
      [{ ...same, link: "https://example.com/b" }, { path: "link", kind: "update", replace: false }],
      // No longer declared: the change is between the old and the new inputs.
      [declared("1.0.0", { link: "https://example.com/a" }), { path: "reason", kind: "delete", replace: false, inputDiff: true }],
      [{ ...same, reason: UNKNOWN }, { path: "reason", kind: "update", replace: false }],
      [{ ...same, link: UNKNOWN }, { path: "link", kind: "update", replace: false }],
    ];
    for (const [news, change] of CASES) {
      expect(await deprecation.diff("id", olds, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false, detailedDiff: [change] });
    }
    // Declared where the state holds none: an add.
    expect((await deprecation.diff("id", { ...olds, link: null }, same)).detailedDiff).toEqual([{ path: "link", kind: "add", replace: false }]);
  });

  test("another organization, module, provider or version, or one not known yet, replaces (new one first)", async () => {
    for (const [key, value] of [["organization", "other-org"], ["moduleName", "subnet"], ["provider", "gcp"], ["version", "1.1.0"], ["version", UNKNOWN]] as const) {
      expect(await deprecation.diff("id", olds, { ...same, [key]: value })).toEqual({
        changes: true, replaces: [key], deleteBeforeReplace: false, detailedDiff: [{ path: key, kind: "update", replace: true }],
      });
    }
    expect(takeRequests()).toEqual([]);
  });
});

describe("create, read, update, delete", () => {
  test("each operation sends exactly one request, and destroy reinstates the version", async () => {
    const created = await deprecation.create({ ...declared("1.0.0", { reason: "opens port 22", link: "https://example.com/upgrade" }), __provider: "x" });
    expect(takeRequests()).toEqual([`PATCH ${d1Path("1.0.0")}`]);
    expect(created).toEqual({
      id: `${ORG}/vpc/aws/1.0.0`,
      outs: {
        ...declared("1.0.0"), moduleSource: `${ORG}/vpc/aws`, reason: "opens port 22", link: "https://example.com/upgrade",
        registryReason: `opens port 22${DEPRECATION_REASON_SUFFIX}`, registryLink: "https://example.com/upgrade",
        moduleVersionId: expect.stringMatching(/^modver-/), deprecationId: expect.stringMatching(/^moddep-/),
      },
    });
    expect(await registryDeprecation("1.0.0")).toEqual({ reason: `opens port 22${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/upgrade" });
    takeRequests();

    // The server extended the reason: refresh keeps the declared one, so nothing looks changed.
    const refreshed = await deprecation.read(created.id, created.outs);
    expect(takeRequests()).toEqual([`GET ${d3Path("1.0.0")}`]);
    expect(refreshed).toEqual({
      id: created.id, props: created.outs,
      inputs: declared("1.0.0", { reason: "opens port 22", link: "https://example.com/upgrade" }),
    });
    expect((await deprecation.diff(created.id, refreshed.props ?? {}, declared("1.0.0", { reason: "opens port 22", link: "https://example.com/upgrade" }))).changes).toBe(false);

    const updated = await deprecation.update(created.id, created.outs, declared("1.0.0", { reason: "use 2.x", link: "https://example.com/v2" }));
    expect(takeRequests()).toEqual([`PATCH ${d1Path("1.0.0")}`]);
    expect(updated.outs).toMatchObject({ reason: "use 2.x", registryReason: `use 2.x${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/v2", registryLink: "https://example.com/v2" });
    expect(updated.outs.deprecationId).toBe(created.outs.deprecationId);

    await deprecation.delete(created.id, updated.outs);
    expect(takeRequests()).toEqual([`PATCH ${d1Path("1.0.0")}`]);
    expect(await registryDeprecation("1.0.0")).toBeUndefined();
  });

  test("a replace deprecates the new version and reverts only the old one", async () => {
    const old = await deprecation.create(declared("1.0.0", { reason: "a" }));
    const other = await deprecation.create(declared("2.0.0", { reason: "someone else's" }));
    const replacement = await deprecation.create(declared("1.1.0", { reason: "a" }));
    await deprecation.delete(old.id, old.outs);
    expect(await registryDeprecation("1.0.0")).toBeUndefined();
    expect(await registryDeprecation("1.1.0")).toEqual({ reason: `a${DEPRECATION_REASON_SUFFIX}`, link: "" });
    expect(await registryDeprecation("2.0.0")).toBeDefined();
    await deprecation.delete(replacement.id, replacement.outs);
    await deprecation.delete(other.id, other.outs);
  });

  test("a delete after the module version is gone, or already reverted, is done", async () => {
    const gone = { ...declared("9.9.9"), reason: null, link: null };
    await deprecation.delete(`${ORG}/vpc/aws/9.9.9`, gone);
    // D2's 404, then the registry read and the ping that prove the version is gone from a real API.
    expect(takeRequests()).toEqual([`PATCH ${d1Path("9.9.9")}`, `GET ${d3Path("9.9.9")}`, "GET /api/v2/ping"]);
    const { id, outs } = await deprecation.create(declared("1.0.0"));
    await outside("1.0.0", "Undeprecated");
    await deprecation.delete(id, outs);
    expect(await registryDeprecation("1.0.0")).toBeUndefined();
  });

  test("a delete against an address that serves no API fails instead of claiming the version is gone", async () => {
    const server = await startScriptedServer(() => ({ status: 404, body: { errors: [{ status: "404", title: "not found" }] } }));
    try {
      await configureWith(undefined, { "wsbridge:address": server.url });
      const error = await failureOf(deprecation.delete(`${ORG}/vpc/aws/1.0.0`, declared("1.0.0")));
      expect(error.message).toContain(`${server.url} does not serve the API`);
    } finally {
      await server.close();
    }
  });
});

describe("refresh", () => {
  test("a reason or link changed outside Pulumi shows as exactly those inputs, and up restores them", async () => {
    const { id, outs } = await deprecation.create(declared("1.0.0", { reason: "old", link: "https://example.com/a" }));
    await outside("1.0.0", "Deprecated", { reason: "changed by hand", link: "https://example.com/b" });
    takeRequests();
    const drifted = await deprecation.read(id, outs);
    expect(takeRequests()).toEqual([`GET ${d3Path("1.0.0")}`]);
    expect(drifted.inputs).toEqual(declared("1.0.0", { reason: `changed by hand${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/b" }));
    // D3 names neither id: they come from the previous state.
    expect(drifted.props).toMatchObject({ moduleVersionId: outs.moduleVersionId, deprecationId: outs.deprecationId, registryLink: "https://example.com/b" });
    const program = declared("1.0.0", { reason: "old", link: "https://example.com/a" });
    expect(await deprecation.diff(id, drifted.props ?? {}, program)).toEqual({
      changes: true, replaces: [], deleteBeforeReplace: false,
      detailedDiff: [{ path: "reason", kind: "update", replace: false }, { path: "link", kind: "update", replace: false }],
    });
    const restored = await deprecation.update(id, drifted.props ?? {}, program);
    expect(await registryDeprecation("1.0.0")).toEqual({ reason: `old${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/a" });
    const again = await deprecation.read(id, restored.outs);
    expect((await deprecation.diff(id, again.props ?? {}, program)).changes).toBe(false);
    await deprecation.delete(id, restored.outs);
  });

  test("a link added outside Pulumi to a deprecation that declares none is drift", async () => {
    const { id, outs } = await deprecation.create(declared("1.0.0", { reason: "old" }));
    await outside("1.0.0", "Deprecated", { reason: "old", link: "https://example.com/extra" });
    const drifted = await deprecation.read(id, outs);
    expect(drifted.inputs).toEqual(declared("1.0.0", { reason: "old", link: "https://example.com/extra" }));
    expect((await deprecation.diff(id, drifted.props ?? {}, declared("1.0.0", { reason: "old" }))).changes).toBe(true);
    await deprecation.delete(id, outs);
  });

  test("a deprecation reverted outside Pulumi makes the resource gone", async () => {
    const { id, outs } = await deprecation.create(declared("1.0.0", { reason: "old" }));
    await outside("1.0.0", "Undeprecated");
    takeRequests();
    expect(await deprecation.read(id, outs)).toEqual({ id: "" });
    expect(takeRequests()).toEqual([`GET ${d3Path("1.0.0")}`]);
  });

  test("a version that no longer exists makes the resource gone, after the ping proves the address serves the API", async () => {
    expect(await deprecation.read(`${ORG}/vpc/aws/9.9.9`, declared("9.9.9"))).toEqual({ id: "" });
    expect(takeRequests()).toEqual([`GET ${d3Path("9.9.9")}`, "GET /api/v2/ping"]);
  });
});

describe("failures the spec documents", () => {
  test("404 for a version that does not exist names it and says to check the inputs", async () => {
    const error = await failureOf(deprecation.create(declared("3.0.0", { reason: "x" })));
    expect(error.message).toContain(`ModuleVersionDeprecation ${ORG}/vpc/aws version 3.0.0 could not be deprecated`);
    expect(error.message).toContain(`version 3.0.0 of module vpc (provider aws) does not exist in organization ${ORG}'s private registry`);
    expect(error.message).toContain("Check organization, moduleName, provider and version");
    expect(takeRequests()).toEqual([`PATCH ${d1Path("3.0.0")}`, `GET ${d3Path("3.0.0")}`]);
  });

  test("404 for an organization without the module deprecation entitlement explains the entitlement", async () => {
    const token = fixture.emulator.issueToken({ kind: "owner", organization: NO_ENTITLEMENT });
    await configureWith(token, { "wsbridge:organization": NO_ENTITLEMENT });
    const error = await failureOf(deprecation.create({ moduleName: "vpc", provider: "aws", version: "1.0.0", organization: NO_ENTITLEMENT }));
    expect(error.message).toContain(`ModuleVersionDeprecation ${NO_ENTITLEMENT}/vpc/aws version 1.0.0 could not be deprecated`);
    expect(error.message).toContain(`the version exists, so organization ${NO_ENTITLEMENT} is not entitled to deprecate module versions`);
    expect(error.message).not.toContain(token);
  });

  test("404 for a token that may not manage modules names the access it needs", async () => {
    const readOnly = fixture.emulator.issueToken({ kind: "team", access: "read" });
    await configureWith(readOnly);
    const error = await failureOf(deprecation.create(declared("1.0.0")));
    expect(error.message).toContain('the token is not authorized to manage its registry modules');
    expect(error.message).toContain('a team token with "manage modules" access');
    expect(error.message).not.toContain(readOnly);
  });

  test("a destroy refused with 404 while the registry still shows the version deprecated fails, and reverts nothing", async () => {
    const { id, outs } = await deprecation.create(declared("1.0.0", { reason: "kept" }));
    await configureWith(fixture.emulator.issueToken({ kind: "team", access: "read" }));
    const error = await failureOf(deprecation.delete(id, outs));
    expect(error.message).toContain("could not be reverted: the registry still shows the version deprecated");
    await configureWith();
    expect(await registryDeprecation("1.0.0")).toEqual({ reason: `kept${DEPRECATION_REASON_SUFFIX}`, link: "" });
    await deprecation.delete(id, outs);
  });

  test("422 names the JSON pointer, the input it refers to and the server's detail", async () => {
    const server = await startScriptedServer(() => ({
      status: 422,
      body: { errors: [{ status: "422", title: "invalid attribute", detail: "Link is not a valid URL", source: { pointer: "/data/attributes/deprecation/link" } }] },
    }));
    try {
      await configureWith(undefined, { "wsbridge:address": server.url });
      const error = await failureOf(deprecation.create(declared("1.0.0", { link: "https://example.com/a" })));
      expect(error.message).toContain("the service refused the request as malformed (422) at /data/attributes/deprecation/link, which is the input `link`");
      expect(error.message).toContain("Link is not a valid URL");
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test("500 and 503 are retried (setting a status is idempotent) and the deprecation then succeeds", async () => {
    fixture.emulator.setFaults({ script: [{ match: { method: "PATCH" }, status: 503 }, { match: { method: "PATCH" }, status: 500 }] });
    const { id, outs } = await deprecation.create(declared("1.0.0", { reason: "retried" }));
    expect(takeRequests()).toEqual([`PATCH ${d1Path("1.0.0")}`, `PATCH ${d1Path("1.0.0")}`, `PATCH ${d1Path("1.0.0")}`]);
    expect(outs.registryReason).toBe(`retried${DEPRECATION_REASON_SUFFIX}`);
    fixture.emulator.setFaults({ script: [{ match: { method: "PATCH" }, status: 503 }] });
    await deprecation.delete(id, outs);
    expect(takeRequests()).toHaveLength(2);
    expect(await registryDeprecation("1.0.0")).toBeUndefined();
  });

  test("a persistent 503 fails clearly after the retries allowed, saying it is safe to run again", async () => {
    await configureWith(undefined, { "wsbridge:maxRetries": "2" });
    fixture.emulator.setFaults({ script: [{ match: { method: "PATCH" }, status: 503, times: 10 }] });
    const error = await failureOf(deprecation.create(declared("1.0.0", { reason: "never" })));
    expect(error.message).toContain(`ModuleVersionDeprecation ${ORG}/vpc/aws version 1.0.0 could not be deprecated: the service kept failing`);
    expect(error.message).toContain("503");
    expect(error.message).toContain("after 3 attempts");
    expect(error.message).toContain("Setting a deprecation status is safe to repeat: run `pulumi up` again");
    expect(takeRequests()).toHaveLength(3);
    fixture.emulator.clearFaults();
    expect(await registryDeprecation("1.0.0")).toBeUndefined();
  });
});

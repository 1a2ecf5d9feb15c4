// What the provider plugin needs of ModuleVersionDeprecation, at the runtime against an in-process
// emulator whose organization has a private module vpc/aws: previewCreate/previewUpdate predict the
// outputs without a request (and what they give as known is what the apply produces), and importById
// adopts a deprecation so that declaring its inputs shows no change. (Its diff paths are asserted in
// test/runtime/module-version-deprecation.test.ts.)
import { DEPRECATION_REASON_SUFFIX } from "../../emulator";
import * as runtime from "../../provider/runtime";
import * as deprecation from "../../provider/runtime/kinds/module-version-deprecation";
import { UNKNOWN } from "../../provider/runtime/lifecycle";
import { resetConfigForTests } from "../../provider/runtime/config";
import { failureOf } from "../support/failure";
import { realMaskedLike, unknownOutputs } from "../support/preview-exactness";
import { useRuntimeEmulator, withoutQuery } from "../support/runtime-emulator";

const ORG = "example-org";
const fixture = useRuntimeEmulator({
  emulator: {
    edition: "hosted",
    fixtures: { organizations: [{ name: ORG, registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "2.0.0", "3.0.0"] }] }] },
  },
  resetEditionCache: true,
});
const { api } = fixture;
const takeRequests = (): string[] => fixture.takeRequests(withoutQuery);

/** A deprecation made outside Pulumi (D1 straight to the emulator). */
async function deprecateOutside(version: string, text: { reason?: string; link?: string }): Promise<void> {
  const res = await api("PATCH", `/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/${version}`, {
    data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", ...text } } },
  });
  expect(res.status).toBe(200);
}

async function registryDeprecation(version: string): Promise<unknown> {
  return (await api<{ deprecation?: unknown }>("GET", `${fixture.emulator.url}/api/registry/v1/modules/${ORG}/vpc/aws/${version}`)).doc.deprecation;
}

const declared = (version: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  organization: ORG, moduleName: "vpc", provider: "aws", version, ...extra,
});

describe("previewCreate", () => {
  test("knows what is declared and derived from it; the registry's text and the server's ids are unknown; and is exact", async () => {
    const inputs = declared("1.0.0", { reason: "use 2.x", link: "https://example.com/v2" });
    const preview = await deprecation.previewCreate(inputs);
    expect(takeRequests()).toEqual([]);
    expect(preview).toEqual({
      ...declared("1.0.0"), moduleSource: `${ORG}/vpc/aws`, reason: "use 2.x", link: "https://example.com/v2",
      registryReason: UNKNOWN, registryLink: UNKNOWN, moduleVersionId: UNKNOWN, deprecationId: UNKNOWN,
    });

    const created = await deprecation.create(inputs);
    expect(preview).toStrictEqual(realMaskedLike(preview, created.outs));
    await deprecation.remove(created.id, created.outs);
  });

  test("a reason and link not declared are null, as create stores them, exactly", async () => {
    const preview = await deprecation.previewCreate(declared("1.1.0"));
    expect(preview).toMatchObject({ reason: null, link: null });
    const created = await deprecation.create(declared("1.1.0"));
    expect(preview).toStrictEqual(realMaskedLike(preview, created.outs));
    await deprecation.remove(created.id, created.outs);
  });

  test("leaves unknown what the program does not know yet, and the module source while a part of it is", async () => {
    expect(await deprecation.previewCreate(declared(UNKNOWN, { reason: UNKNOWN }))).toMatchObject({
      version: UNKNOWN, moduleSource: `${ORG}/vpc/aws`, reason: UNKNOWN, link: null,
    });
    expect(await deprecation.previewCreate(declared("1.0.0", { moduleName: UNKNOWN }))).toMatchObject({ moduleName: UNKNOWN, moduleSource: UNKNOWN });
    expect(takeRequests()).toEqual([]);
  });
});

describe("previewUpdate", () => {
  test("keeps both server ids (D1 sets the text in place) and knows the new text; exact", async () => {
    const created = await deprecation.create(declared("1.0.0", { reason: "old", link: "https://example.com/a" }));
    const news = declared("1.0.0", { reason: "new" });
    takeRequests();
    const preview = await deprecation.previewUpdate(created.id, created.outs, news);
    expect(takeRequests()).toEqual([]);
    expect(preview).toEqual({
      ...declared("1.0.0"), moduleSource: `${ORG}/vpc/aws`, reason: "new", link: null, registryReason: UNKNOWN, registryLink: UNKNOWN,
      moduleVersionId: created.outs.moduleVersionId, deprecationId: created.outs.deprecationId,
    });

    const updated = await deprecation.update(created.id, created.outs, news);
    expect(preview).toStrictEqual(realMaskedLike(preview, updated.outs));
    await deprecation.remove(created.id, updated.outs);
  });

  test("after an import, which cannot learn the ids, leaves them unknown: the update's D1 reports them", async () => {
    await deprecateOutside("2.0.0", { reason: "by hand" });
    const imported = await deprecation.importById(`${ORG}/vpc/aws/2.0.0`, {});
    if (imported === undefined) throw new Error("nothing imported");
    const news = { ...imported.inputs, link: "https://example.com/b" };
    const preview = await deprecation.previewUpdate(imported.id, imported.props, news);
    expect(unknownOutputs(preview)).toEqual(["deprecationId", "moduleVersionId", "registryLink", "registryReason"]);

    const updated = await deprecation.update(imported.id, imported.props, news);
    expect(updated.outs.moduleVersionId).toMatch(/^modver-/);
    expect(preview).toStrictEqual(realMaskedLike(preview, updated.outs));
    await deprecation.remove(imported.id, updated.outs);
  });
});

describe("importById", () => {
  /** Import, then what a program declaring the inputs sees: check passes, no diff, refresh returns the same inputs. */
  async function importAndDeclare(importId: string): Promise<NonNullable<Awaited<ReturnType<typeof deprecation.importById>>>> {
    takeRequests();
    const imported = await deprecation.importById(importId, {});
    expect(takeRequests()).toEqual([`GET /api/registry/v1/modules/${ORG}/vpc/aws/3.0.0`]);
    if (imported === undefined) throw new Error(`nothing imported for ${importId}`);
    const checked = await deprecation.check({}, imported.inputs);
    expect(checked.failures).toEqual([]);
    expect(await deprecation.diff(imported.id, imported.props, checked.inputs)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: [] });
    expect(await deprecation.read(imported.id, imported.props)).toEqual({ id: imported.id, props: imported.props, inputs: imported.inputs });
    return imported;
  }

  test("the id create returns adopts the deprecation with the registry's reason and link; destroy reverts it", async () => {
    await deprecateOutside("3.0.0", { reason: "insecure", link: "https://example.com/upgrade" });
    const imported = await importAndDeclare(`${ORG}/vpc/aws/3.0.0`);
    expect(imported.id).toBe(`${ORG}/vpc/aws/3.0.0`);
    expect(imported.inputs).toEqual(declared("3.0.0", { reason: `insecure${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/upgrade" }));
    expect(imported.props).toMatchObject({ moduleVersionId: "", deprecationId: null, registryLink: "https://example.com/upgrade" });
    await deprecation.remove(imported.id, imported.props);
    expect(await registryDeprecation("3.0.0")).toBeUndefined();
  });

  test('"moduleName/provider/version" is in the organization of wsbridge:organization; no link is declared as none', async () => {
    await deprecateOutside("3.0.0", {});
    const imported = await importAndDeclare("vpc/aws/3.0.0");
    expect(imported.id).toBe(`${ORG}/vpc/aws/3.0.0`);
    expect(imported.inputs).toEqual(declared("3.0.0", { reason: DEPRECATION_REASON_SUFFIX.trim() }));
    expect(imported.props).toMatchObject({ link: null, registryLink: "" });
    await deprecation.remove(imported.id, imported.props);
  });

  test("a version that is not deprecated, or is gone, imports as nothing", async () => {
    expect(await deprecation.importById(`${ORG}/vpc/aws/1.1.0`, {})).toBeUndefined();
    expect(takeRequests()).toEqual([`GET /api/registry/v1/modules/${ORG}/vpc/aws/1.1.0`]);
    expect(await deprecation.importById(`${ORG}/vpc/aws/9.9.9`, {})).toBeUndefined();
    expect(takeRequests()).toEqual([`GET /api/registry/v1/modules/${ORG}/vpc/aws/9.9.9`, "GET /api/v2/ping"]);
  });

  const FORMS = '"organization/moduleName/provider/version" or "moduleName/provider/version" (in the wsbridge:organization organization)';
  test.each([
    ["two parts", "vpc/aws", /it has neither 3 nor 4 parts/],
    ["five parts", `${ORG}/vpc/aws/1.0.0/x`, /it has neither 3 nor 4 parts/],
    ["a provider in upper case", `${ORG}/vpc/AWS/1.0.0`, /its provider must be a provider name/],
    ["a version with a leading v", `${ORG}/vpc/aws/v1.0.0`, /its version must be a version string/],
    ["an empty module name", `${ORG}//aws/1.0.0`, /its moduleName must not be empty/],
  ])("%s fails naming the accepted forms, without a request", async (_what, importId, why) => {
    const error = await failureOf(deprecation.importById(importId, {}));
    expect(error.message).toContain(`ModuleVersionDeprecation: cannot import "${importId}"`);
    expect(error.message).toMatch(why);
    expect(error.message).toContain(FORMS);
    expect(takeRequests()).toEqual([]);
  });

  test("three parts without wsbridge:organization fail saying so, without a request", async () => {
    resetConfigForTests();
    await runtime.configure({ config: { get: (key: string) => ({ "wsbridge:address": fixture.emulator.url, "wsbridge:token": fixture.emulator.token } as Record<string, string>)[key] } });
    const error = await failureOf(deprecation.importById("vpc/aws/1.0.0", {}));
    expect(error.message).toContain("it names no organization, and wsbridge:organization is not set");
    expect(takeRequests()).toEqual([]);
  });
});

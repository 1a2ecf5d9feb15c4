// ModuleVersionDeprecation lifecycle: check, diff, create, read, update, delete.
// Shape shared by every kind: validate → build the request → call the client → map to outputs.
//
// The resource is the deprecation of one private registry module version; its id is
// `organization/moduleName/provider/version`. Create and update deprecate the version (D1, one request:
// its answer includes the deprecation), destroy reverts it (D2). Refresh reads the registry (D3, one
// request). The server may store the reason with text appended, so drift is judged on what the program
// declares: a stored reason that equals or starts with the declared one matches.
//
// Setting a deprecation status is idempotent: D1 and D2 set `deprecated-status` (and the reason and
// link) to absolute values, so sending the same PATCH twice leaves the same state as sending it once.
// That is why the client retries their documented 500/503 failures (and lost connections) instead of
// reporting an outcome it cannot know.
//
// Import ids (`pulumi import wsbridge:index:ModuleVersionDeprecation <name> <id>`), one registry read (D3) each:
//   organization/moduleName/provider/version    the id create returns
//   moduleName/provider/version                 in the organization of `wsbridge:organization`
// A version that is not deprecated has nothing to adopt. D3 names neither server id, so an imported
// deprecation has `moduleVersionId` "" and `deprecationId` null until its next update (D1) reports them.
import { knownOutputs } from "../known-outputs";
import {
  moduleVersionDeprecationInputsSchema, type ModuleVersionDeprecationInputs,
} from "../../schemas/module-version-deprecation";
import {
  NotFoundError, OutcomeUnknownError, ServerError, TransportError, ValidationError,
  type Deprecation, type ModuleVersionDeprecation, type ModuleVersionRef, type RegistryModuleVersion, type WsbridgeClient,
} from "../api";
import { resolveSettings, settingsProblem, sharedClient, withDefaultOrganization } from "../config";
import {
  UNKNOWN, isUnknown, withStaleSettingsHint, userInputs, validate, withoutProvider, type Adoption, type CheckOutcome, type DiffOutcome,
  type Imported, type PropertyChange, type Props,
} from "../lifecycle";
import { assertServesTheApi, readUnlessGone } from "../serves-the-api";

const KIND = "ModuleVersionDeprecation";

/** The inputs that name the module version: another value is another deprecation (replace). */
const KEY_INPUTS = ["organization", "moduleName", "provider", "version"] as const;
/** The inputs D1 sets in place. */
const TEXT_INPUTS = ["reason", "link"] as const;

/** Inputs after check: the organization default has been applied. */
export type CheckedModuleVersionDeprecationInputs = ModuleVersionDeprecationInputs & { organization: string };

/** Everything a ModuleVersionDeprecation resource exposes. */
// A type alias (not an interface) so outputs pass where the engine's plain property maps are expected.
export type ModuleVersionDeprecationOutputs = {
  organization: string;
  moduleName: string;
  provider: string;
  version: string;
  /** `organization/moduleName/provider`, the module's registry address. */
  moduleSource: string;
  /**
   * The reason as declared (null when none is). After a refresh that found the reason changed outside
   * Pulumi, the reason the registry holds instead: that is what the next preview shows as the change.
   */
  reason: string | null;
  /** The link as declared (null when none is), or, after a refresh that found drift, the registry's link. */
  link: string | null;
  /** The reason as the registry stores it (the server may append text to the declared one). */
  registryReason: string | null;
  /** The link as the registry shows it. */
  registryLink: string | null;
  /** The server's id of the module version (D1 names it; D3 does not, so refresh keeps it). */
  moduleVersionId: string;
  /** The server's id of the deprecation (D1 names it; D3 does not, so refresh keeps it). */
  deprecationId: string | null;
};

/** The outputs a preview promises: each one known, or {@link UNKNOWN} where only the apply will tell. */
export type ModuleVersionDeprecationPreview = {
  [K in keyof ModuleVersionDeprecationOutputs]: ModuleVersionDeprecationOutputs[K] | typeof UNKNOWN;
};

// ---- check ----------------------------------------------------------------------------------

export async function check(_olds: Props, news: Props): Promise<CheckOutcome<Props>> {
  // A setting that cannot work fails the preview, naming it, before anything is planned.
  const problem = settingsProblem();
  if (problem !== undefined) throw new Error(problem);
  const { inputs, missing } = withDefaultOrganization(userInputs(news));
  const outcome = validate(moduleVersionDeprecationInputsSchema, inputs, KIND);
  if (missing !== undefined) outcome.failures.push(missing);
  // No request: everything checkable is in the inputs; whether the version exists is D1's answer.
  return outcome;
}

// ---- diff -----------------------------------------------------------------------------------

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  const declared = userInputs(news);
  // Another module version is another deprecation: create it, then revert the old one (they never
  // collide, so the new one need not wait for the delete).
  const replaces = KEY_INPUTS.filter((key) => isUnknown(declared[key]) || declared[key] !== olds[key]);
  // The old outputs hold the declared text (or, after a refresh that found drift, the registry's).
  const updates = TEXT_INPUTS.filter((key) => isUnknown(declared[key]) || (declared[key] ?? null) !== (olds[key] ?? null));
  const detailedDiff = [
    ...replaces.map((key) => changeOf(key, olds[key], declared[key], true)),
    ...updates.map((key) => changeOf(key, olds[key], declared[key], false)),
  ];
  return { changes: detailedDiff.length > 0, replaces: [...replaces], deleteBeforeReplace: false, detailedDiff };
}

/**
 * A property judged changed, as one path: an unknown value is an update; no value before (null in the
 * outputs) an add; a property the program no longer declares a delete between the old and new inputs.
 */
function changeOf(path: string, before: unknown, after: unknown, replace: boolean): PropertyChange {
  if (after === UNKNOWN) return { path, kind: "update", replace };
  if (after === undefined || after === null) return { path, kind: "delete", replace, inputDiff: true };
  return { path, kind: before === undefined || before === null ? "add" : "update", replace };
}

// ---- create ---------------------------------------------------------------------------------

export async function create(inputs: Props): Promise<{ id: string; outs: ModuleVersionDeprecationOutputs }> {
  const declared = parseChecked(inputs);
  const outs = await deprecate(declared, "create");
  return { id: idOf(declared), outs };
}

/** D1: one request, whose answer includes the deprecation as stored. */
async function deprecate(declared: CheckedModuleVersionDeprecationInputs, verb: "create" | "update"): Promise<ModuleVersionDeprecationOutputs> {
  const client = sharedClient();
  const ref = refOf(declared);
  try {
    const stored = await client.deprecateModuleVersion(ref, {
      ...(declared.reason === undefined ? {} : { reason: declared.reason }),
      ...(declared.link === undefined ? {} : { link: declared.link }),
    });
    return outputsOf(declared, stored);
  } catch (error) {
    throw await explained(client, error, ref, verb === "create" ? "deprecated" : "updated");
  }
}

// ---- read -----------------------------------------------------------------------------------

export async function read(
  id: string, props: Props | undefined,
): Promise<{ id: string; props?: ModuleVersionDeprecationOutputs; inputs?: Props }> {
  const previous = previousOutputs(id, withoutProvider(props));
  const client = sharedClient();
  // The version (or the module) is gone: so is its deprecation.
  const live = await readUnlessGone(client, "a module version", () => client.readRegistryModuleVersion({
    namespace: previous.organization, name: previous.moduleName, provider: previous.provider, version: previous.version,
  }), "refresh");
  if (live === undefined) return { id: "" };
  // Reverted outside Pulumi: the resource is gone (the next `up` deprecates the version again).
  if (live.deprecation === null) return { id: "" };
  const registryReason = live.deprecation.reason;
  const registryLink = live.deprecation.link;
  const outs: ModuleVersionDeprecationOutputs = {
    ...previous,
    // What the program declared while the registry still matches it; else what the registry holds (drift).
    reason: reasonMatches(previous.reason, registryReason) ? previous.reason : registryReason ?? "",
    link: linkMatches(previous.link, registryLink) ? previous.link : registryLink,
    registryReason,
    registryLink,
  };
  return { id: idOf(outs), props: outs, inputs: inputsFrom(outs) };
}

/** The stored reason matches the declared one when it equals it or extends it (the server may append text). */
function reasonMatches(declared: string | null, stored: string | null): boolean {
  return (stored ?? "").startsWith(declared ?? "");
}

/** Links are stored as sent; none declared matches none (or an empty one) stored. */
function linkMatches(declared: string | null, stored: string | null): boolean {
  return (declared ?? "") === (stored ?? "");
}

/** The inputs a program would declare to hold this state: what drift looks like in the next preview. */
function inputsFrom(outs: ModuleVersionDeprecationOutputs): Props {
  const inputs: Props = { organization: outs.organization, moduleName: outs.moduleName, provider: outs.provider, version: outs.version };
  if (outs.reason !== null) inputs.reason = outs.reason;
  if (outs.link !== null && outs.link !== "") inputs.link = outs.link;
  return inputs;
}

/** The previous outputs, with the key fields taken from the id where the state lacks them. */
function previousOutputs(id: string, state: Props): ModuleVersionDeprecationOutputs {
  const [organization = "", moduleName = "", provider = "", version = ""] = id.split("/");
  const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);
  const textOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);
  const key = {
    organization: text(state.organization, organization),
    moduleName: text(state.moduleName, moduleName),
    provider: text(state.provider, provider),
    version: text(state.version, version),
  };
  return {
    ...key,
    moduleSource: `${key.organization}/${key.moduleName}/${key.provider}`,
    reason: textOrNull(state.reason),
    link: textOrNull(state.link),
    registryReason: textOrNull(state.registryReason),
    registryLink: textOrNull(state.registryLink),
    moduleVersionId: text(state.moduleVersionId, ""),
    deprecationId: textOrNull(state.deprecationId),
  };
}

// ---- update ---------------------------------------------------------------------------------

export async function update(_id: string, _olds: Props, news: Props): Promise<{ outs: ModuleVersionDeprecationOutputs }> {
  // The same D1 as create: it sets the reason and link of the deprecation in place.
  return { outs: await deprecate(parseChecked(news), "update") };
}

// ---- delete ---------------------------------------------------------------------------------

export async function remove(id: string, props: Props): Promise<void> {
  const state = previousOutputs(id, withoutProvider(props));
  const ref = refOf(state);
  const client = sharedClient();
  try {
    // Only this resource's own version is reverted; D2 touches nothing else.
    await client.undeprecateModuleVersion(ref);
  } catch (error) {
    if (error instanceof NotFoundError) {
      // The version is gone, so nothing is left to revert: done. Unless it is still there and deprecated
      // (the 404 then means the organization lost access), or the address serves no API at all.
      const refusal = await stillDeprecated(client, ref);
      if (refusal === undefined) return;
      throw new Error(refusal, { cause: error });
    }
    const hinted = withStaleSettingsHint(error, "destroy");
    if (hinted !== error) throw hinted;
    throw await explained(client, error, ref, "reverted");
  }
}

/** After D2's 404: a message when the registry still shows the version deprecated; undefined when it is gone or reverted. */
async function stillDeprecated(client: WsbridgeClient, ref: ModuleVersionRef): Promise<string | undefined> {
  const live = await probe(client, ref);
  if (live === "gone") {
    await assertServesTheApi(client, ", so a module version not found there is not known to be gone");
    return undefined;
  }
  if (live.deprecation === null) return undefined;
  return `${label(ref)} could not be reverted: the registry still shows the version deprecated, but the deprecation ` +
    `endpoint answered 404, so ${noAccess(ref)}. Nothing was changed; fix the access and run destroy again, or ` +
    "`pulumi state delete` the resource to leave the version deprecated";
}

// ---- preview (plugin route) -------------------------------------------------------------------

/**
 * No request. The key inputs, `moduleSource`, `reason` and `link` are stored as declared. The registry's
 * reason and link are the server's (it appends to the reason; the spec promises no echo of either), and
 * a create learns both server ids from D1's answer.
 */
export async function previewCreate(news: Props): Promise<ModuleVersionDeprecationPreview> {
  return { ...declaredPart(userInputs(news)), moduleVersionId: UNKNOWN, deprecationId: UNKNOWN };
}

/**
 * No request. As {@link previewCreate}, but an update deprecates the same version again and D1 sets the
 * deprecation's text in place: both server ids stay the state's (unknown where the state has none yet,
 * e.g. after an import, as D1 then reports them).
 */
export async function previewUpdate(_id: string, olds: Props, news: Props): Promise<ModuleVersionDeprecationPreview> {
  const state = withoutProvider(olds);
  return {
    ...declaredPart(userInputs(news)),
    moduleVersionId: typeof state.moduleVersionId === "string" && state.moduleVersionId !== "" ? state.moduleVersionId : UNKNOWN,
    deprecationId: typeof state.deprecationId === "string" ? state.deprecationId : UNKNOWN,
  };
}

function declaredPart(inputs: Props): Omit<ModuleVersionDeprecationPreview, "moduleVersionId" | "deprecationId"> {
  const withDefault = { ...inputs, organization: inputs.organization ?? resolveSettings().organization ?? UNKNOWN };
  type Known = Omit<ModuleVersionDeprecationPreview, "moduleVersionId" | "deprecationId" | "registryReason" | "registryLink">;
  return { ...(knownOutputs(KIND, UNKNOWN, withDefault, "") as Known), registryReason: UNKNOWN, registryLink: UNKNOWN };
}

// ---- import (plugin route) --------------------------------------------------------------------

const IMPORT_FORMS = '"organization/moduleName/provider/version" or "moduleName/provider/version" (in the wsbridge:organization ' +
  "organization)";

/**
 * One request, as a refresh: the registry's version (D3). Adopts its deprecation with the reason and
 * link the registry holds, which are what the program declares to keep it; undefined when the version
 * is gone or not deprecated.
 */
export async function importById(importId: string, _internal: Props): Promise<Imported<ModuleVersionDeprecationOutputs> | undefined> {
  const key = parseImportId(importId);
  const client = sharedClient();
  const live = await readUnlessGone(client, "a module version", () =>
    client.readRegistryModuleVersion({ namespace: key.organization, name: key.moduleName, provider: key.provider, version: key.version }));
  if (live === undefined) return undefined;
  if (live.deprecation === null) return undefined;
  const outs = importedOutputs(key, live.deprecation);
  return { id: idOf(outs), props: outs, inputs: inputsFrom(outs) };
}

function importedOutputs(key: VersionKey, deprecation: Deprecation): ModuleVersionDeprecationOutputs {
  const { reason, link } = deprecation;
  return {
    ...key,
    moduleSource: `${key.organization}/${key.moduleName}/${key.provider}`,
    // No link is stored as "": declared as none, which refresh matches with it.
    reason, link: link === "" ? null : link, registryReason: reason, registryLink: link,
    moduleVersionId: "", deprecationId: null,
  };
}

/** What an import adopts of a version the registry lists (D4): its deprecation; none is nothing (undefined). */
export function adoptionOf(key: VersionKey, deprecation: Deprecation | null): Adoption | undefined {
  if (deprecation === null) return undefined;
  return { importId: idOf(key), inputs: inputsFrom(importedOutputs(key, deprecation)) };
}

export type VersionKey = { organization: string; moduleName: string; provider: string; version: string };

function parseImportId(importId: string): VersionKey {
  const parts = importId.split("/");
  if (parts.length !== 3 && parts.length !== 4) throw new Error(malformedImportId(importId, "it has neither 3 nor 4 parts"));
  const organization = parts.length === 4 ? parts[0] : resolveSettings().organization;
  if (organization === undefined) throw new Error(malformedImportId(importId, "it names no organization, and wsbridge:organization is not set"));
  const [moduleName = "", provider = "", version = ""] = parts.slice(-3);
  const key = { organization, moduleName, provider, version };
  const outcome = validate(moduleVersionDeprecationInputsSchema, key, KIND);
  const failure = outcome.failures[0];
  if (failure !== undefined) throw new Error(malformedImportId(importId, `its ${failure.property} ${failure.reason}`));
  return key;
}

function malformedImportId(importId: string, why: string): string {
  return `${KIND}: cannot import "${importId}": ${why}. Use ${IMPORT_FORMS}.`;
}

// ---- errors ---------------------------------------------------------------------------------

/**
 * The error to show for a failed D1/D2, naming the module version and what to do. The service answers 404
 * both for a missing version and for an organization without access to the module; one read of the
 * registry (D3) tells which.
 */
async function explained(client: WsbridgeClient, error: unknown, ref: ModuleVersionRef, verb: "deprecated" | "updated" | "reverted"): Promise<Error> {
  const what = `${label(ref)} could not be ${verb}`;
  if (error instanceof NotFoundError) {
    const live = await probe(client, ref).catch(() => undefined);
    const cause =
      live === "gone"
        ? `version ${ref.version} of module ${ref.name} (provider ${ref.provider}) does not exist in organization ` +
          `${ref.organization}'s private registry (the registry read answers 404 too). Check organization, moduleName, ` +
          "provider and version (publish the version first), and that the token can see the module"
        : live !== undefined
          ? `the version exists, so ${noAccess(ref)}`
          : `version ${ref.version} of module ${ref.name} (provider ${ref.provider}) does not exist in organization ` +
            `${ref.organization}'s private registry, or ${noAccess(ref)}`;
    return new Error(`${what}: the service answered 404: ${cause} (${error.message})`, { cause: error });
  }
  if (error instanceof ValidationError) {
    const property = propertyAt(error.pointer);
    return new Error(
      `${what}: the service refused the request as malformed (422)` +
        (error.pointer === undefined ? "" : ` at ${error.pointer}${property === undefined ? "" : `, which is the input \`${property}\``}`) +
        `: ${error.detail ?? error.title ?? "no detail given"}. Correct ${property ?? "the inputs"} and run \`pulumi up\` again (${error.message})`,
      { cause: error },
    );
  }
  if (error instanceof ServerError || error instanceof OutcomeUnknownError || error instanceof TransportError) {
    return new Error(
      `${what}: the service kept failing (${error.message}). Setting a deprecation status is safe to repeat: run ` +
        "`pulumi up` again (or `pulumi refresh` to see what the registry holds now)",
      { cause: error },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** D3, for explaining a 404 of D1/D2: the version as the registry shows it, or "gone". */
async function probe(client: WsbridgeClient, ref: ModuleVersionRef): Promise<RegistryModuleVersion | "gone"> {
  try {
    return await client.readRegistryModuleVersion({ namespace: ref.organization, name: ref.name, provider: ref.provider, version: ref.version });
  } catch (error) {
    if (error instanceof NotFoundError) return "gone";
    throw error;
  }
}

function noAccess(ref: ModuleVersionRef): string {
  return `organization ${ref.organization} is not entitled to deprecate module versions, or the token is not authorized ` +
    `to manage its registry modules (the service reports both as 404). Use a token of the organization's owners, the ` +
    `organization token, or a team token with "manage modules" access, in an organization whose plan includes module deprecation`;
}

/** The input a 422's JSON pointer refers to, when it is one of ours. */
function propertyAt(pointer: string | undefined): string | undefined {
  if (pointer === undefined) return undefined;
  if (pointer.endsWith("/reason")) return "reason";
  if (pointer.endsWith("/link")) return "link";
  return undefined;
}

// ---- mapping --------------------------------------------------------------------------------

function parseChecked(props: Props): CheckedModuleVersionDeprecationInputs {
  const parsed = moduleVersionDeprecationInputsSchema.parse(userInputs(props));
  const organization = parsed.organization ?? resolveSettings().organization;
  if (organization === undefined) throw new Error(`${KIND}: organization is required (or the wsbridge:organization stack config)`);
  return { ...parsed, organization };
}

function refOf(key: { organization: string; moduleName: string; provider: string; version: string }): ModuleVersionRef {
  return { organization: key.organization, name: key.moduleName, provider: key.provider, version: key.version };
}

export function idOf(key: { organization: string; moduleName: string; provider: string; version: string }): string {
  return `${key.organization}/${key.moduleName}/${key.provider}/${key.version}`;
}

function label(ref: ModuleVersionRef): string {
  return `${KIND} ${ref.organization}/${ref.name}/${ref.provider} version ${ref.version}`;
}

function outputsOf(declared: CheckedModuleVersionDeprecationInputs, stored: ModuleVersionDeprecation): ModuleVersionDeprecationOutputs {
  return {
    organization: declared.organization,
    moduleName: declared.moduleName,
    provider: declared.provider,
    version: declared.version,
    moduleSource: `${declared.organization}/${declared.moduleName}/${declared.provider}`,
    reason: declared.reason ?? null,
    link: declared.link ?? null,
    registryReason: stored.reason,
    registryLink: stored.link,
    moduleVersionId: stored.moduleVersionId,
    deprecationId: stored.deprecationId,
  };
}

// A stack made by an older commit's code changes nothing under the current code, on both routes: the
// promise of the restructuring (17856a4..): "same requests per operation, same messages, same state
// shapes; a stack made before the change previews no change after it".
//
// test/fixtures/older-state/ (made by scripts/make-older-state-fixtures.sh, see its README) holds one
// stack per route (`dynamic`: `pulumi-wsbridge`; `plugin`: `pulumi-resource-wsbridge` and
// `@pulumi-wsbridge/wsbridge`), made by that commit's code, emulator and the real CLI with the program
// of test/support/older-state-program.ts (every kind, with a representative set of inputs), then
// refreshed; the emulator's state file; and what that commit's own preview, up and refresh of those
// stacks showed (operations.json). Here the current emulator starts from a copy of that state file,
// and each route's stack, opened on a copy of its state and settings with the fixture's passphrase
// (test/support/older-state-stack.ts: on the emulator's new address), runs the same program with the
// current code. Each operation must show what the older code's showed: the same requests (none for
// preview and up, one read per resource for refresh) and the same messages; and
//
//  1. `preview`: every resource's step is `same`, and no write (POST, PATCH, PUT, DELETE) reaches the
//     emulator (on the plugin route the default provider is replaced once by the one that names the
//     plugin's release: RELEASED_DEFAULT below), except the one restore below;
//  2. `up`: every step is `same`, no write, and the state is the older commit's, except what the
//     engine records of the program and of its own bookkeeping (see `shape`) and the serialized
//     provider text. On a `same` step the engine calls no create, update or read: it checks and
//     diffs the program's inputs (the dynamic provider host runs the check and diff of the
//     `__provider` text of the program's inputs, the current one; the plugin, its Check and Diff,
//     after CheckConfig and DiffConfig of the default provider `default_0_1_0`, which stays the same
//     resource), then writes the checked inputs with the old outputs. So the inputs it wrote must
//     equal the older ones as the current check completes them: since issue 40 it fills in what the
//     program leaves out (`completed` below), and otherwise normalizes them as the older one did. The
//     dynamic route's inputs then hold the current `__provider` text, which is allowed to differ from
//     the older one, and is checked to load the runtime by the package's name only;
//  3. `refresh`: no write, and every resource's state stays as it was: what the current read makes of
//     the server is what the older code stored, its inputs completed as check completes them. (The
//     engine's summary of a refresh counts a resource whose outputs changed as `same`, so the state
//     itself is compared.)
//
// The one restore (issue 40: an input left out means what a create without it gives): the `reader`
// workspace declares only a name. The older code created it sending no execution mode, so the server
// gave it a mode of its own (`setting-overwrites` true, the service's default when a create names
// none); leaving the mode out now means inheriting it, so the first preview shows exactly that restore
// (`settingOverwrites.executionMode` and `.agentPool` true => false) and `up` sends it in one PATCH.
// Every other resource of the fixture holds what its omitted inputs mean: no change.
//
// One more test, without the engine: every runtime function the older dynamic state's provider texts
// call still exists (users' states run those texts on refresh and destroy).
//
// One preview, one up and one refresh per route: six engine operations.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pulumiCli } from "../../scripts/lib/stack-harness";
import { withOmissionsFilledOf } from "../../provider/runtime/adoption";
import { releaseHome } from "../../scripts/package-schema/release-home";
import {
  OLDER_STATE_EDITION,
  OLDER_STATE_ROUTES,
  olderStateMessages,
  olderStateProgram,
  olderStateRequestLines,
  type OlderStateLibrary,
  type OlderStateOperation,
  type OlderStateOperations,
  type OlderStateRoute,
} from "../support/older-state-program";
import {
  fixtureCommit,
  fixtureResources,
  OLDER_STATE_FIXTURE_DIR,
  openOlderStateStack,
  storedResources,
  type OlderStateStack,
  type StoredResource,
} from "../support/older-state-stack";

/**
 * The plugin route's default provider, before and now. The SDK now names where the plugin is released
 * (the package schema's pluginDownloadURL, issue 34), and the engine names a default provider by the
 * plugin's version and download URL; so a stack made by the older SDK, which named no URL, sees its
 * default provider replaced once: a create and a delete of the provider resource, with no request to
 * the API, while every resource stays `same` (docs/plugin.md, "Installing the plugin").
 */
const PACKAGE_JSON = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string; repository: string };
const PLUGIN_DOWNLOAD_URL = releaseHome(PACKAGE_JSON).pluginDownloadURL;
const OLDER_DEFAULT = `default_${PACKAGE_JSON.version.replace(/\./g, "_")}`;
const RELEASED_DEFAULT = `${OLDER_DEFAULT}_${PLUGIN_DOWNLOAD_URL.replace("://", "_/")}`;

/** Finding (or, the first time, building) the CLI may take minutes. */
const SETUP_TIMEOUT_MS = 20 * 60 * 1000;
const OPERATION_TIMEOUT_MS = 5 * 60 * 1000;
const COMMIT = fixtureCommit().slice(0, 7);

/** What the engine records of the program rather than of the resource: where it was registered, and when written. */
const ENGINE_RECORDS = ["created", "modified", "sourcePosition", "stackTrace"];

let cli: PulumiCommand;
let emulator: RunningEmulator;
let folder: string;

beforeAll(async () => {
  cli = await pulumiCli();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-older-state-"));
  const stateFile = path.join(folder, "emulator-state.json");
  fs.copyFileSync(path.join(OLDER_STATE_FIXTURE_DIR, "emulator-state.json"), stateFile);
  emulator = await startEmulator({ port: 0, edition: OLDER_STATE_EDITION, stateFile, quiet: true });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await emulator?.close();
  if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
});

async function library(route: OlderStateRoute): Promise<OlderStateLibrary> {
  return (route === "plugin" ? await import("@pulumi-wsbridge/wsbridge") : await import("pulumi-wsbridge")) as unknown as OlderStateLibrary;
}

/** Every step the engine announced, as `op name`, in its order. */
const stepsIn = (events: EngineEvent[]): string[] => events.flatMap((e) => {
  const m = e.resourcePreEvent?.metadata;
  return m ? [`${m.op} ${m.urn.split("::").pop() ?? ""}`] : [];
});

/** The requests that may change something on the server: all but GET. */
const writes = (): string[] => emulator.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

/** What each operation of the older code showed on the same stacks and server (the fixture's operations.json). */
const OLDER_OPERATIONS = JSON.parse(fs.readFileSync(path.join(OLDER_STATE_FIXTURE_DIR, "operations.json"), "utf8")) as OlderStateOperations;

/**
 * The operation's requests and messages are the older code's, and none of its requests is a write;
 * except `restores`, the writes the restore below sends (in the request lines too).
 */
function expectAsTheOlderCode(route: OlderStateRoute, operation: OlderStateOperation, events: EngineEvent[], restores: string[] = []): void {
  expect(writes()).toEqual(restores);
  const older = OLDER_OPERATIONS[route][operation];
  const restoreLines = olderStateRequestLines(emulator.requests().filter((r) => r.method !== "GET"));
  expect(restoreLines.length).toBe(restores.length);
  expect({ requests: olderStateRequestLines(emulator.requests()), messages: olderStateMessages(events) })
    .toEqual({ requests: [...older.requests, ...restoreLines].sort(), messages: older.messages });
}

/** The one resource the current code changes: see the header. */
const RESTORED = "reader";
/** Its restore, as the plugin route's preview shows it (`path: kind`): its own mode goes, inherited again. */
const RESTORE_PATHS = ["executionMode: delete", "settingOverwrites.agentPool: update", "settingOverwrites.executionMode: update"];

/** A resource's inputs as the current check completes them: what the program leaves out filled in. */
function completed(resource: StoredResource): StoredResource {
  const kind = resource.type.split(":").pop() ?? "";
  const fill = withOmissionsFilledOf[kind];
  if (fill === undefined || resource.inputs === undefined || resource.type.startsWith("pulumi:")) return resource;
  return { ...resource, inputs: fill({ ...resource.inputs }) };
}
const nameOf = (urn: string): string => urn.split("::").pop() ?? "";

/** Pulumi's marker of a secret value in serialized state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/**
 * A value with the engine's own choices made neutral: a secret's ciphertext (the engine encrypts again,
 * with a new nonce, whenever it writes a secret; the secret here is the token of the stack config).
 */
function neutral(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(neutral);
  if (typeof value !== "object" || value === null) return value;
  const object = value as Record<string, unknown>;
  if (SECRET_SIGNATURE in object) return { ...object, ciphertext: "(ciphertext)" };
  return Object.fromEntries(Object.entries(object).map(([key, v]) => [key, neutral(v)]));
}

/**
 * A resource's state as the package made it: without what the engine records of the program and of
 * its own bookkeeping (where and when it registered the resource; the empty property dependencies a
 * registration lists and a refresh drops; the order of `dependencies`), and (optionally) without the
 * serialized provider text.
 */
function shape(resource: StoredResource, withoutProviderText: boolean): Record<string, unknown> {
  const kept: Record<string, unknown> = Object.fromEntries(Object.entries(resource).filter(([key]) => !ENGINE_RECORDS.includes(key)));
  if (Array.isArray(resource["dependencies"])) kept["dependencies"] = [...(resource["dependencies"] as string[])].sort();
  const propertyDependencies = Object.entries((resource["propertyDependencies"] ?? {}) as Record<string, string[]>)
    .filter(([, urns]) => urns.length > 0).map(([key, urns]) => [key, [...urns].sort()]);
  delete kept["propertyDependencies"];
  if (propertyDependencies.length > 0) kept["propertyDependencies"] = Object.fromEntries(propertyDependencies);
  if (withoutProviderText) {
    for (const side of ["inputs", "outputs"] as const) {
      const props = resource[side];
      if (props !== undefined) kept[side] = Object.fromEntries(Object.entries(props).filter(([key]) => key !== "__provider"));
    }
  }
  return neutral(kept) as Record<string, unknown>;
}

const isDefaultProvider = (r: StoredResource): boolean => r.type.startsWith("pulumi:providers:") && /::default_[^:]*$/.test(r.urn);

/**
 * Each resource's shape by URN, the default provider left out and each reference to it made neutral:
 * on the plugin route it is replaced once (RELEASED_DEFAULT), which the tests check apart.
 */
const byUrn = (resources: StoredResource[], withoutProviderText: boolean): Record<string, Record<string, unknown>> =>
  Object.fromEntries(resources.filter((r) => !isDefaultProvider(r)).map((r) => {
    const kept = shape(r, withoutProviderText);
    if (typeof kept["provider"] === "string" && /::default_[^:]*::[^:]+$/.test(kept["provider"])) kept["provider"] = "(the default provider)";
    return [r.urn, kept];
  }));

/** The default providers a state holds: name → inputs. */
const defaultProviders = (resources: StoredResource[]): Record<string, unknown> =>
  Object.fromEntries(resources.filter(isDefaultProvider).map((r) => [r.urn.split("::").pop() ?? "", neutral(r.inputs)]));

/** The serialized provider texts a state holds, by resource and side (dynamic route). */
const providerTexts = (resources: StoredResource[]): Record<string, unknown> =>
  Object.fromEntries(resources.flatMap((r) => (["inputs", "outputs"] as const).flatMap((side) => {
    const text = r[side]?.["__provider"];
    return text === undefined ? [] : [[`${r.urn.split("::").pop() ?? ""} ${side}`, text]];
  })));

test(`the serialized providers in the dynamic stack ${COMMIT} made call only what the current runtime exports`, () => {
  // Users' states keep these texts and run them later (a refresh or a destroy reads with the text of
  // the last update): each runtime function one of them names must still exist (provider/runtime/index.ts).
  const runtime = require("pulumi-wsbridge/runtime") as Record<string, unknown>;
  const called = new Set<string>();
  for (const text of Object.values(providerTexts(fixtureResources("dynamic", "http://unused")))) {
    for (const match of String(text).matchAll(/require\("pulumi-wsbridge\/runtime"\)((?:\.\w+)+)\(/g)) called.add(match[1]!.slice(1));
  }
  // configure, and check, diff, create, read, update and delete of each of the seven kinds.
  expect(called.size).toBe(1 + 7 * 6);
  const missing = [...called].filter((name) => typeof name.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], runtime) !== "function");
  expect(missing).toEqual([]);
});

describe.each(OLDER_STATE_ROUTES)(`a stack made by ${COMMIT}, on the %s route`, (route) => {
  // Known once the emulator is up: the fixture's state, on the address of this test's emulator.
  let fixture: StoredResource[] = [];
  let everySame: string[] = [];
  let counted = 0;
  let older: OlderStateStack;

  // The steps of the first preview and up: on the plugin route, the default provider replaced (OLDER_DEFAULT).
  let firstSteps: string[] = [];
  // The steps of a refresh after that up.
  let refreshSteps: string[] = [];

  beforeAll(async () => {
    fixture = fixtureResources(route, emulator.url);
    everySame = fixture.map((r) => `same ${r.urn.split("::").pop() ?? ""}`).sort();
    firstSteps = route === "plugin"
      ? [...everySame.filter((step) => step !== `same ${OLDER_DEFAULT}`), `create ${RELEASED_DEFAULT}`, `delete ${OLDER_DEFAULT}`].sort()
      : everySame;
    refreshSteps = everySame.map((step) => step.replace(/^same /, "refresh ").replace(` ${OLDER_DEFAULT}`, route === "plugin" ? ` ${RELEASED_DEFAULT}` : ` ${OLDER_DEFAULT}`)).sort();
    // The engine's summaries do not count providers.
    counted = fixture.filter((r) => !r.type.startsWith("pulumi:providers:")).length;
    older = await openOlderStateStack({ cli, route, program: olderStateProgram(route, await library(route)), address: emulator.url });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await older?.dispose();
  });

  /** The steps of the first preview and up: the restore of the reader is its only update. */
  const withRestore = (steps: string[]): string[] => steps.map((step) => (step === `same ${RESTORED}` ? `update ${RESTORED}` : step)).sort();
  /** The reader's workspace id, which its restore PATCHes. */
  const restoredId = (): string => String(fixture.find((r) => nameOf(r.urn) === RESTORED && !r.type.startsWith("pulumi:"))?.id);

  test("previews no change to any resource but the reader's restore: every other resource same, the older code's requests (none) and messages, no write", async () => {
    emulator.clearRequests();
    const events: EngineEvent[] = [];
    const preview = await older.stack.preview({ color: "never", onEvent: (e) => events.push(e) });
    expect(stepsIn(events).sort()).toEqual(withRestore(firstSteps));
    expect(preview.changeSummary).toEqual({ same: counted - 1, update: 1 });
    expectAsTheOlderCode(route, "preview", events);
    // Exactly the restore: the inheritance of the execution mode and agent pool.
    const restore = events.flatMap((e) => {
      const m = e.resourcePreEvent?.metadata;
      if (m === undefined || nameOf(m.urn) !== RESTORED || m.op !== "update") return [];
      if (route === "plugin") return Object.entries((m.detailedDiff ?? {}) as Record<string, { diffKind: string }>).map(([path, d]) => `${path}: ${d.diffKind}`).sort();
      return [(m.new?.inputs as Record<string, unknown> | undefined)?.["settingOverwrites"]];
    });
    expect(restore).toEqual(route === "plugin" ? RESTORE_PATHS : [{ executionMode: false, agentPool: false }]);
  }, OPERATION_TIMEOUT_MS);

  test("up changes no resource but the reader's restore (one PATCH): the older code's requests and messages, the state the older code wrote, inputs completed", async () => {
    emulator.clearRequests();
    const events: EngineEvent[] = [];
    const up = await older.stack.up({ color: "never", onEvent: (e) => events.push(e) });
    expect(stepsIn(events).sort()).toEqual(withRestore(firstSteps));
    expect(up.summary.resourceChanges).toEqual({ same: counted - 1, update: 1 });
    expectAsTheOlderCode(route, "up", events, [`PATCH /api/v2/workspaces/${restoredId()}`]);

    const after = storedResources(older.stateFile);
    const others = (resources: StoredResource[]): StoredResource[] => resources.filter((r) => nameOf(r.urn) !== RESTORED);
    expect(byUrn(others(after), true)).toEqual(byUrn(others(fixture).map(completed), true));
    // The reader: its inputs completed, and the server's inheritance in its outputs.
    const reader = after.find((r) => nameOf(r.urn) === RESTORED && !r.type.startsWith("pulumi:"));
    expect(shape(reader as StoredResource, true)["inputs"]).toEqual(shape(completed(fixture.find((r) => r.urn === reader?.urn) as StoredResource), true)["inputs"]);
    const readerOutputs = (reader?.outputs?.["__outputs"] ?? reader?.outputs) as Record<string, unknown> | undefined;
    expect(readerOutputs?.["settingOverwrites"]).toEqual({ executionMode: false, agentPool: false });
    // The default provider: the same settings, and on the plugin route the release's URL beside them.
    const olderProvider = defaultProviders(fixture)[OLDER_DEFAULT] as Record<string, unknown>;
    expect(defaultProviders(after)).toEqual(route === "plugin"
      ? { [RELEASED_DEFAULT]: { ...olderProvider, __internal: { pluginDownloadURL: PLUGIN_DOWNLOAD_URL } } }
      : { [OLDER_DEFAULT]: olderProvider });
    const [texts, olderTexts] = [providerTexts(after), providerTexts(fixture)];
    if (route === "plugin") {
      expect(texts).toEqual({});
      expect(olderTexts).toEqual({});
    } else {
      // Every dynamic resource keeps a provider text on both sides, and each loads the runtime by the package's name only.
      expect(Object.keys(texts).sort()).toEqual(Object.keys(olderTexts).sort());
      for (const text of Object.values(texts)) {
        expect([...String(text).matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]).filter((name, i, all) => all.indexOf(name) === i)).toEqual(["pulumi-wsbridge/runtime"]);
      }
    }
  }, OPERATION_TIMEOUT_MS);

  test("refresh finds no drift: the older code's requests and messages, no write, every resource's state as the older code wrote it", async () => {
    const before = storedResources(older.stateFile);
    emulator.clearRequests();
    const events: EngineEvent[] = [];
    const refresh = await older.stack.refresh({ color: "never", onEvent: (e) => events.push(e) });
    expect(stepsIn(events).sort()).toEqual(refreshSteps);
    expect(refresh.summary.resourceChanges).toEqual({ same: counted });
    expectAsTheOlderCode(route, "refresh", events);
    // Whatever the engine did with the provider text, a read must find on the server what the older code
    // stored (the reader: what its restore stored), its inputs in check's form.
    expect(byUrn(storedResources(older.stateFile), false)).toEqual(byUrn(before, false));
    const others = (resources: StoredResource[]): StoredResource[] => resources.filter((r) => nameOf(r.urn) !== RESTORED);
    expect(byUrn(others(storedResources(older.stateFile)), true)).toEqual(byUrn(others(fixture).map(completed), true));
  }, OPERATION_TIMEOUT_MS);
});

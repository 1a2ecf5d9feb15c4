// A ModuleVersionDeprecation through the real Pulumi CLI against an emulator whose organization has the
// private module vpc/aws (1.0.0, 1.1.0, 2.0.0), on one stack: the create previewed and applied with one
// request, a no-op preview that sends nothing, the reason changed alone (an update of exactly `reason`),
// the version changed (a replace that deprecates the new version and reinstates the old), drift made on
// the server shown after refresh, a deprecation reverted outside dropped from the state, destroy
// reinstating the version, and eleven bad inputs failing two previews, each naming its property,
// with no request at all.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEPRECATION_REASON_SUFFIX } from "../../emulator";
import { stepsOf, type Step } from "../support/engine-events";
import type { ModuleVersionDeprecationArgs } from "pulumi-wsbridge";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const TYPE = "pulumi-nodejs:dynamic/wsbridge:ModuleVersionDeprecation";
const ORG = "example-org";

type Args = Record<string, unknown>;
/** What the program declares for the one managed deprecation ("vpc-old"). */
let declared: Args = { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "opens port 22", link: "https://example.com/upgrade" };
/** Extra resources with bad inputs, by name, when set. */
let badResources: [string, Args][] = [];

const e2e = useRealCliStack({
  projectName: "wsbridge-module-deprecation",
  emulator: {
    edition: "hosted",
    fixtures: { organizations: [{ name: ORG, registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "2.0.0"] }] }] },
  },
  program: async () => {
    const { ModuleVersionDeprecation } = await import("pulumi-wsbridge");
    if (badResources.length > 0) {
      // Only the bad resource, and no stack outputs: nothing of this failing preview is left awaiting
      // the engine after it stops (the SDK would report that as an unhandled "Resource monitor is terminating").
      for (const [name, args] of badResources) new ModuleVersionDeprecation(name, args as unknown as ModuleVersionDeprecationArgs);
      return {};
    }
    const deprecation = new ModuleVersionDeprecation("vpc-old", declared as unknown as ModuleVersionDeprecationArgs);
    return {
      id: deprecation.id, reason: deprecation.reason, registryReason: deprecation.registryReason, link: deprecation.link,
      registryLink: deprecation.registryLink, moduleSource: deprecation.moduleSource, moduleVersionId: deprecation.moduleVersionId,
    };
  },
});

// ---- helpers ---------------------------------------------------------------------------------

const d1Path = (version: string): string => `/api/v2/organizations/${ORG}/registry-modules/private/${ORG}/vpc/aws/${version}`;
const d3Path = (version: string): string => `/api/registry/v1/modules/${ORG}/vpc/aws/${version}`;

/** The registry's view of one version's deprecation (D3), read with the owner token. */
async function registryDeprecation(version: string): Promise<{ reason: string; link: string } | undefined> {
  const { status, doc } = await e2e.api<{ deprecation?: { reason: string; link: string } }>("GET", `${e2e.emulator.url}${d3Path(version)}`);
  expect(status).toBe(200);
  return doc.deprecation;
}

/** A change made outside Pulumi. */
async function outside(version: string, deprecation: Record<string, string>): Promise<void> {
  const { status } = await e2e.api("PATCH", `${e2e.emulator.url}${d1Path(version)}`, { data: { type: "module-versions", attributes: { deprecation } } });
  expect(status).toBe(200);
}

function takeRequests(): string[] {
  const list = e2e.requestLines();
  e2e.emulator.clearRequests();
  return list;
}

async function preview(): Promise<{ steps: Step[]; requests: string[] }> {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log, diff: true });
  return { steps: stepsOf(events, TYPE), requests: takeRequests() };
}

async function up(): Promise<{ changes: Record<string, number | undefined>; requests: string[]; outputs: Record<string, unknown> }> {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.result).toBe("succeeded");
  const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
  return { changes: result.summary.resourceChanges ?? {}, requests: takeRequests(), outputs };
}

async function refresh(): Promise<{ changes: Record<string, number | undefined>; requests: string[] }> {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.refresh({ onOutput: e2e.log });
  return { changes: result.summary.resourceChanges ?? {}, requests: takeRequests() };
}

// ---- create and no-op ------------------------------------------------------------------------

test("preview plans the create without a request, and up deprecates the version with one PATCH", async () => {
  const planned = await preview();
  expect(planned.steps).toEqual([{ op: "create", name: "vpc-old", changedInputs: ["link", "moduleName", "organization", "provider", "reason", "version"] }]);
  expect(planned.requests).toEqual([]);
  const applied = await up();
  expect(applied.changes).toEqual({ create: 2 });
  expect(applied.requests).toEqual([`PATCH ${d1Path("1.0.0")}`]);
  expect(applied.outputs).toEqual({
    id: `${ORG}/vpc/aws/1.0.0`, reason: "opens port 22", registryReason: `opens port 22${DEPRECATION_REASON_SUFFIX}`,
    link: "https://example.com/upgrade", registryLink: "https://example.com/upgrade", moduleSource: `${ORG}/vpc/aws`,
    moduleVersionId: expect.stringMatching(/^modver-/),
  });
  expect(await registryDeprecation("1.0.0")).toEqual({ reason: `opens port 22${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/upgrade" });
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

test("a preview with nothing changed (the server's longer reason included) plans nothing and sends no request", async () => {
  const { steps, requests } = await preview();
  expect(steps).toEqual([]);
  expect(requests).toEqual([]);
});

// ---- update and replace -----------------------------------------------------------------------

test("changing the reason previews an update of exactly reason and applies it with one PATCH", async () => {
  declared = { ...declared, reason: "opens port 22; use 1.1.0" };
  const { steps, requests } = await preview();
  expect(steps).toEqual([{ op: "update", name: "vpc-old", changedInputs: ["reason"] }]);
  expect(requests).toEqual([]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 1, update: 1 });
  expect(applied.requests).toEqual([`PATCH ${d1Path("1.0.0")}`]);
  expect((await registryDeprecation("1.0.0"))?.reason).toBe(`opens port 22; use 1.1.0${DEPRECATION_REASON_SUFFIX}`);
});

test("changing the version previews a replace, then deprecates the new version and reinstates the old one", async () => {
  declared = { ...declared, version: "1.1.0" };
  const { steps, requests } = await preview();
  expect(steps.map((s) => s.op)).toContain("replace");
  expect(steps.find((s) => s.op === "replace")?.changedInputs).toEqual(["version"]);
  expect(requests).toEqual([]);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 1, replace: 1 });
  // The new deprecation first, then the old one reverted: two PATCHes, no read.
  expect(applied.requests).toEqual([`PATCH ${d1Path("1.1.0")}`, `PATCH ${d1Path("1.0.0")}`]);
  expect(await registryDeprecation("1.0.0")).toBeUndefined();
  expect(await registryDeprecation("1.1.0")).toEqual({ reason: `opens port 22; use 1.1.0${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/upgrade" });
});

// ---- drift -----------------------------------------------------------------------------------

test("a link changed outside Pulumi shows after refresh (one read) as a planned update of exactly link", async () => {
  await outside("1.1.0", { "deprecated-status": "Deprecated", reason: "opens port 22; use 1.1.0", link: "https://example.com/elsewhere" });
  const refreshed = await refresh();
  expect(refreshed.requests).toEqual([`GET ${d3Path("1.1.0")}`]);
  const { steps, requests } = await preview();
  expect(steps).toEqual([{ op: "update", name: "vpc-old", changedInputs: ["link"] }]);
  expect(requests).toEqual([]);
});

test("a deprecation reverted outside Pulumi leaves the state at refresh, and up deprecates the version again as declared", async () => {
  await outside("1.1.0", { "deprecated-status": "Undeprecated" });
  const refreshed = await refresh();
  expect(refreshed.changes.delete).toBe(1);
  const applied = await up();
  expect(applied.changes).toEqual({ same: 1, create: 1 });
  expect(applied.requests).toEqual([`PATCH ${d1Path("1.1.0")}`]);
  // The declared link again, not the one set outside before.
  expect(await registryDeprecation("1.1.0")).toEqual({ reason: `opens port 22; use 1.1.0${DEPRECATION_REASON_SUFFIX}`, link: "https://example.com/upgrade" });
});

// ---- destroy --------------------------------------------------------------------------------

test("destroy reinstates the version with one PATCH", async () => {
  e2e.emulator.clearRequests();
  const result = await e2e.stack.destroy({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ delete: 2 });
  expect(takeRequests()).toEqual([`PATCH ${d1Path("1.1.0")}`]);
  expect(await registryDeprecation("1.1.0")).toBeUndefined();
});

// ---- bad inputs -----------------------------------------------------------------------------

// The engine stops a preview at the first resource whose check fails, but prints every failure of that
// resource: so each preview below declares one resource with several bad properties (one bad value per
// property), and two previews cover eleven bad inputs.
/** Per preview: the one resource's inputs, and for each bad property a part of the rule the CLI must print. */
const BAD_PREVIEWS: [Args, [string, string][]][] = [
  [
    { organization: "a/b", moduleName: "my vpc", provider: "", version: "latest", link: "not a url", reason: "x".repeat(2001), deprecated: true },
    [
      ["organization", "letters, digits, - and _ only"],
      ["moduleName", "letters, digits, - and _ only"],
      ["provider", "must not be empty"],
      ["version", "MAJOR.MINOR.PATCH"],
      ["link", "absolute http or https URL"],
      ["reason", "at most 2000 characters"],
      ["deprecated", "is not a property of ModuleVersionDeprecation"],
    ],
  ],
  [
    { moduleName: "", provider: "AWS", version: "v1.0.0", link: "ftp://x" },
    [["moduleName", "must not be empty"], ["provider", "lower-case letters"], ["version", 'no leading "v"'], ["link", "absolute http or https URL"]],
  ],
];
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("eleven bad inputs fail two previews, each naming its property and rule, with no request", async () => {
  try {
    for (const [inputs, problems] of BAD_PREVIEWS) {
      badResources = [["bad", inputs]];
      e2e.emulator.clearRequests();
      const message = String((await failureOf(e2e.stack.preview({ onOutput: e2e.log }))).message);
      for (const [property, rule] of problems) {
        // The CLI prints "resource 'bad': property <name> value {…} has a problem: <rule>".
        expect(message).toMatch(new RegExp(`resource 'bad': property ${property} value \\{[^}]*\\} has a problem: [^\\n]*${escape(rule)}`));
      }
      expect(e2e.emulator.requests()).toEqual([]);
    }
  } finally {
    badResources = [];
  }
});

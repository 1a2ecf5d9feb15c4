// The program of the older-state fixture (test/fixtures/older-state/): one stack per route, each
// declaring every resource kind with a representative set of inputs. Two places run it:
//
// - scripts/make-older-state-fixtures.sh copies this file into a worktree of an older commit and runs
//   it there (`up`, `refresh`, then what the test does), with that commit's code, to make the fixture;
// - test/cli/older-state.test.ts runs it with the current code on a copy of that fixture.
//
// So that both run the very same declarations with their own code, this file imports nothing at run
// time (only types, which the compiler erases): the caller passes the library it loaded
// (`pulumi-wsbridge` or `@pulumi-wsbridge/wsbridge`), and only the public classes and their
// constructor arguments are used, which the older commit had too.
import type { PulumiFn } from "@pulumi/pulumi/automation";

export type OlderStateRoute = "dynamic" | "plugin";
export const OLDER_STATE_ROUTES: readonly OlderStateRoute[] = ["dynamic", "plugin"];

/** The Pulumi project of both stacks; each route's stack is named after the route. */
export const OLDER_STATE_PROJECT = "wsbridge-older-state";

/**
 * The stacks' passphrase. Fixed, and committed with the fixture, so that the test can read the
 * fixture's secrets (the token, in the stack config and in the default provider's inputs). It
 * protects nothing: the token is the emulator's.
 */
export const OLDER_STATE_PASSPHRASE = "wsbridge-older-state-fixture";

/**
 * The emulator's port when the fixture was made, so that the address in its stack config and in each
 * Workspace's `htmlUrl`/`apiUrl` is known: the test runs its emulator on a free port and writes that
 * one's address in their place in its copies (test/support/older-state-stack.ts). Below Linux's range
 * of ephemeral ports (32768-60999), from which the other tests' emulators take theirs.
 */
export const OLDER_STATE_PORT = 28417;
/** The emulator's address as the fixture holds it. */
export const OLDER_STATE_ADDRESS = `http://127.0.0.1:${OLDER_STATE_PORT}`;

/** The emulator's edition: data retention policies exist only in the self-managed one. */
export const OLDER_STATE_EDITION = "self-managed";

/** What the emulator's state was seeded with, with fixed ids so that the program can name them. */
export const OLDER_STATE_IDS = {
  project: "prj-olderstate0001",
  pool: "apool-olderstate0001",
  oauthToken: "ot-olderstate0001",
  sshKey: "sshkey-olderstate0001",
  /** A workspace no stack manages, a consumer of one stack's workspace's state. */
  outsideConsumer: "ws-olderstateoutside01",
} as const;

/** The emulator's fixtures (docs/emulator.md, "Fixtures"), in the older commit's format too. */
export const OLDER_STATE_FIXTURES = {
  organizations: [{
    name: "example-org",
    projects: [{ id: OLDER_STATE_IDS.project, name: "platform", tagBindings: [{ key: "cost-center", value: "cc-7" }] }],
    sshKeys: [{ id: OLDER_STATE_IDS.sshKey, name: "deploy" }],
    agentPools: [{ id: OLDER_STATE_IDS.pool, name: "private-runners" }],
    oauthClients: [{ name: "github", oauthTokenId: OLDER_STATE_IDS.oauthToken }],
    registryModules: [{ name: "vpc", provider: "aws", versions: ["1.0.0", "1.1.0", "2.0.0"] }],
    workspaces: [{ id: OLDER_STATE_IDS.outsideConsumer, name: "older-state-outside", attributes: { "global-remote-state": false } }],
  }],
};

type Args = Record<string, unknown>;
interface Made {
  id: unknown;
  [output: string]: unknown;
}
type Constructor = new (name: string, args: Args) => Made;
/** The seven classes, as both libraries export them (the program passes plain values and outputs). */
export type OlderStateLibrary = Record<
  "Workspace" | "WorkspaceLock" | "SshKeyAssignment" | "DataRetentionPolicy" | "WorkspaceTagBindings" | "RemoteStateConsumers" | "ModuleVersionDeprecation",
  Constructor
>;

/** The route's short name in its workspaces' names: both stacks share one organization. */
const tag = (route: OlderStateRoute): string => (route === "dynamic" ? "dyn" : "plg");

/**
 * Every kind, with its inputs' common forms:
 * - `main`: a Workspace with most settings (VCS repository, project, tag bindings and flat tags,
 *   trigger prefixes, engine version, auto-destroy duration, …), locked by a WorkspaceLock, with an
 *   SSH key (SshKeyAssignment), a retention policy of N days, and two consumers of its state
 *   (additive RemoteStateConsumers: a Workspace of the program and a workspace outside it);
 * - `reader`: a Workspace with only a name, with additive tag bindings (one a key-only tag), the
 *   never-delete retention policy, and an exclusive consumer list;
 * - `agent`: a Workspace on an agent pool with a fixed auto-destroy time, with exclusive tag bindings;
 * - a ModuleVersionDeprecation with reason and link, its organization from the stack config.
 */
export function olderStateProgram(route: OlderStateRoute, lib: OlderStateLibrary): PulumiFn {
  const prefix = `older-${tag(route)}`;
  return async () => {
    const main = new lib.Workspace("main", {
      name: `${prefix}-main`,
      description: "made by an older commit",
      executionMode: "remote",
      settingOverwrites: { executionMode: true },
      allowDestroyPlan: false,
      autoApply: true,
      autoApplyRunTrigger: true,
      autoDestroyActivityDuration: "14d",
      fileTriggersEnabled: false,
      triggerPrefixes: ["modules/", "envs/"],
      globalRemoteState: false,
      projectRemoteState: false,
      queueAllRuns: true,
      speculativeEnabled: false,
      engineVersion: "1.9.5",
      workingDirectory: "stacks/prod",
      sourceName: "older-state-fixture",
      sourceUrl: "https://ci.example.com/pipelines/17",
      vcsRepo: { identifier: "acme/infrastructure", oauthTokenId: OLDER_STATE_IDS.oauthToken, branch: "main", ingressSubmodules: true },
      projectId: OLDER_STATE_IDS.project,
      tagBindings: { env: "prod", team: "platform" },
      tagNames: ["prod", "networking"],
      forceDelete: false,
    });
    const reader = new lib.Workspace("reader", { name: `${prefix}-reader` });
    const agent = new lib.Workspace("agent", {
      name: `${prefix}-agent`,
      executionMode: "agent",
      agentPoolId: OLDER_STATE_IDS.pool,
      settingOverwrites: { executionMode: true, agentPool: true },
      autoDestroyAt: "2031-01-31T18:00:00Z",
      triggerPatterns: ["/modules/**/*.tf"],
    });

    const lock = new lib.WorkspaceLock("main-lock", { workspaceId: main.id, reason: "older-state fixture", forceUnlockOnDestroy: true });
    const key = new lib.SshKeyAssignment("main-key", { workspaceId: main.id, sshKeyId: OLDER_STATE_IDS.sshKey });
    const days = new lib.DataRetentionPolicy("main-retention", { workspaceId: main.id, deleteOlderThanNDays: 30 });
    const never = new lib.DataRetentionPolicy("reader-retention", { workspaceId: reader.id, dontDelete: true });
    const tags = new lib.WorkspaceTagBindings("reader-tags", { workspaceId: reader.id, tags: { owner: "platform", tier: "" } });
    const onlyTags = new lib.WorkspaceTagBindings("agent-tags", { workspaceId: agent.id, tags: { env: "staging" }, exclusive: true });
    const readers = new lib.RemoteStateConsumers("main-readers", {
      workspaceId: main.id,
      consumerIds: [reader.id, OLDER_STATE_IDS.outsideConsumer],
    });
    const onlyReaders = new lib.RemoteStateConsumers("reader-readers", { workspaceId: reader.id, consumerIds: [main.id], exclusive: true });
    const deprecation = new lib.ModuleVersionDeprecation("vpc-deprecated", {
      moduleName: "vpc",
      provider: "aws",
      version: route === "dynamic" ? "1.0.0" : "1.1.0",
      reason: "opens port 22",
      link: "https://example.com/upgrade",
    });

    return {
      mainId: main.id, mainHtmlUrl: main["htmlUrl"], mainApiUrl: main["apiUrl"], mainTags: main["tagBindings"],
      mainEffectiveTags: main["effectiveTagBindings"], mainVcsRepo: main["vcsRepo"],
      readerId: reader.id, agentId: agent.id, agentAutoDestroyAt: agent["autoDestroyAt"],
      locked: lock["locked"], lockedReason: lock["lockedReason"], heldByThisResource: lock["heldByThisResource"],
      sshKeyId: key["sshKeyId"],
      retentionKind: days["kind"], retentionDays: days["deleteOlderThanNDays"], neverKind: never["kind"], neverDontDelete: never["dontDelete"],
      readerTags: tags["tags"], readerAllDirectTags: tags["allDirectTags"], readerEffectiveTags: tags["effectiveTags"],
      agentAllDirectTags: onlyTags["allDirectTags"],
      consumerIds: readers["consumerIds"], allConsumerIds: readers["allConsumerIds"], onlyConsumerIds: onlyReaders["allConsumerIds"],
      deprecationId: deprecation.id, moduleSource: deprecation["moduleSource"], registryReason: deprecation["registryReason"],
      registryLink: deprecation["registryLink"], moduleVersionId: deprecation["moduleVersionId"],
    };
  };
}

/** The fields of an emulator's request log entry that the fixture records (both versions log them). */
export interface OlderStateLoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number | null;
}

/**
 * The requests one engine operation sent, as sorted `METHOD /path?query status` lines: the engine runs
 * the resources' reads and diffs in parallel, so their order is not the code's. The emulator's own
 * `/_emulator/` calls are left out.
 */
export function olderStateRequestLines(entries: readonly OlderStateLoggedRequest[]): string[] {
  return entries
    .filter((e) => !e.path.startsWith("/_emulator/"))
    .map((e) => `${e.method} ${e.path}${e.query === "" ? "" : `?${e.query}`} ${e.status ?? "dropped"}`)
    .sort();
}

/** The operations the fixture's stacks went through with the older code after it was made, and the test repeats. */
export const OLDER_STATE_OPERATIONS = ["preview", "up", "refresh"] as const;
export type OlderStateOperation = (typeof OLDER_STATE_OPERATIONS)[number];

/** What one operation showed: its requests ({@link olderStateRequestLines}) and the messages the CLI printed (warnings, errors, infos; sorted). */
export interface OlderStateOperationRecord {
  requests: string[];
  messages: string[];
}

/** `operations.json`: what each operation of each route's stack showed with the older code. */
export type OlderStateOperations = Record<OlderStateRoute, Record<OlderStateOperation, OlderStateOperationRecord>>;

/** The messages of an operation's engine events (diagnostics other than debug ones), sorted. */
export function olderStateMessages(events: readonly { diagnosticEvent?: { severity: unknown; message: string } }[]): string[] {
  return events
    .flatMap((e) => (e.diagnosticEvent && String(e.diagnosticEvent.severity) !== "debug" ? [e.diagnosticEvent.message.trim()] : []))
    .sort();
}

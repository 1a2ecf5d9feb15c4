// Checks that need the whole program, so they run in the program (the resource classes), not in the
// provider: the provider sees one resource at a time. What they remember lives in one registry per
// program run. None of this is serialized into state.
import * as pulumi from "@pulumi/pulumi";
import { ownerUrl } from "../runtime/ownership";
import { KeyClaims, ONE_PER_KEY } from "../runtime/one-per-key";
import { resolveOrganization } from "../runtime/settings";

// ---- the registry of a program run ---------------------------------------------------------------

/** Who declares direct tags: WorkspaceTagBindings, or a Workspace's `tagBindings` (the whole set). */
export type TagKeyOwnerKind = "WorkspaceTagBindings" | "Workspace";

interface TagKeyClaim {
  kind: TagKeyOwnerKind;
  resourceName: string;
  exclusive: boolean;
  keys: string[];
}

/** A workspace's declared sharing of its state: with the whole organization, or with its project. */
export interface WorkspaceStateSharing {
  globalRemoteState: pulumi.Input<boolean | undefined>;
  projectRemoteState: pulumi.Input<boolean | undefined>;
}

/** What one program run has declared so far, for the checks that span resources. */
interface ProgramRun {
  tokenChecked: boolean;
  /** The keys the server holds one object per (runtime/one-per-key.ts). */
  keys: KeyClaims;
  /** Resolved workspace id → who declares which direct tag keys on it. */
  tagKeys: Map<string, TagKeyClaim[]>;
  /** Resolved workspace id → the RemoteStateConsumers declared on it. */
  consumerLists: Map<string, { name: string; exclusive: boolean }[]>;
  /** A Workspace's id outputs (by identity) → its declared state sharing and resource name. */
  stateSharing: WeakMap<object, WorkspaceStateSharing & { resourceName: string }>;
}

/** Per program run (the Automation API runs several in one process): keyed by the run's stack resource. */
const runs = new WeakMap<object, ProgramRun>();
const outsideAStack = {};

function thisRun(): ProgramRun {
  const key: object = pulumi.runtime.getStackResource() ?? outsideAStack;
  let run = runs.get(key);
  if (!run) {
    run = { tokenChecked: false, keys: new KeyClaims(), tagKeys: new Map(), consumerLists: new Map(), stateSharing: new WeakMap() };
    runs.set(key, run);
  }
  return run;
}

// ---- settings ---------------------------------------------------------------------------------------

/** The create-only marker that records which resource of which stack made a server object. */
export function ownerMarker(kind: string, resourceName: string): string {
  return ownerUrl({ project: pulumi.getProject(), stack: pulumi.getStack(), kind, name: resourceName });
}

/** The organization a resource without one gets, as the provider resolves it (stack config, then environment). */
export function defaultOrganization(): string | undefined {
  return resolveOrganization(pulumi.runtime.getConfig("wsbridge:organization"), process.env);
}

interface SecretAwareRuntime {
  isConfigSecret?: (key: string) => boolean;
}

/**
 * Warns once per run when `wsbridge:token` is set without `--secret`: it then sits in plaintext in
 * the stack's config file and in the state. (The SDK's check for secret keys is not part of its typed
 * API; where it is missing, nothing is said rather than something wrong.)
 */
export function warnIfTokenInPlaintext(): void {
  const run = thisRun();
  if (run.tokenChecked) return;
  run.tokenChecked = true;
  if (pulumi.runtime.getConfig("wsbridge:token") === undefined) return;
  const isSecret = (pulumi.runtime as unknown as SecretAwareRuntime).isConfigSecret;
  if (typeof isSecret !== "function" || isSecret("wsbridge:token")) return;
  void pulumi.log.warn(
    "wsbridge:token is set in plaintext: it is stored unencrypted in the stack's config file and in the state. " +
      "Run `pulumi config set --secret wsbridge:token <token>` to store it encrypted, or remove it " +
      "(`pulumi config rm wsbridge:token`) and set WSBRIDGE_TOKEN in the environment, where it is not stored at all.",
  );
}

// ---- one object per key -----------------------------------------------------------------------------

/**
 * Fails the program (an error diagnostic) when two resources of one kind declare the same key the
 * server holds one object per (runtime/one-per-key.ts names the fields), for example two Workspaces
 * named "net" in one organization: the service would refuse the second at `up`, or the two would
 * fight at every `up`. `inputs` hold the organization default where the kind has one.
 */
export function claimOnePerKey(kind: string, inputs: Readonly<Record<string, pulumi.Input<unknown> | undefined>>, resourceName: string): void {
  const rule = ONE_PER_KEY[kind];
  if (rule === undefined) return;
  const key = rule.fields.map((field) => inputs[field]);
  // Without an organization (none declared, no default) there is no key: check reports that instead.
  if (key.some((part) => part === undefined)) return;
  pulumi.all(key).apply((parts) => {
    if (parts.some((p) => p === undefined || p === "")) return;
    const conflict = thisRun().keys.claim(kind, parts.map(String), resourceName);
    // An error diagnostic fails the preview (and the up) without an unhandled rejection in the host.
    if (conflict !== undefined) void pulumi.log.error(conflict);
  });
}

// ---- direct tag keys ----------------------------------------------------------------------------------

/**
 * Records which resource declares which direct tag keys on a workspace, and fails the program (an error
 * diagnostic) when two declare the same key, or when an exclusive WorkspaceTagBindings shares a workspace
 * with any other declaration: the two would undo each other at every `up`. Runs once the workspace id
 * and the keys are known (for a workspace being created, its id is not known in preview: then at `up`).
 * Workspace's class calls it with kind "Workspace", its `id` and its `tagBindings` (exclusive: false).
 */
export function claimWorkspaceTagKeys(
  kind: TagKeyOwnerKind, resourceName: string, workspaceId: pulumi.Input<string>,
  tags: pulumi.Input<Record<string, string> | undefined> | undefined, exclusive: pulumi.Input<boolean | undefined>,
): void {
  if (tags === undefined) return;
  pulumi.all([workspaceId, tags, exclusive]).apply(([id, declared, isExclusive]) => {
    if (typeof id !== "string" || id === "") return;
    const claims = thisRun().tagKeys;
    const onWorkspace = claims.get(id) ?? [];
    const mine: TagKeyClaim = { kind, resourceName, exclusive: isExclusive === true, keys: Object.keys(declared ?? {}) };
    for (const other of onWorkspace) {
      if (other.kind === mine.kind && other.resourceName === mine.resourceName) continue;
      const names = `${other.kind} "${other.resourceName}" and ${mine.kind} "${mine.resourceName}"`;
      if ((mine.exclusive || other.exclusive) && (mine.kind === "WorkspaceTagBindings" || other.kind === "WorkspaceTagBindings")) {
        void pulumi.log.error(
          `${names} both declare tags of workspace "${id}", and one is exclusive (it owns the whole direct set), so the ` +
            "other's tags would be removed at every `up`. Use one exclusive resource alone, or make both additive " +
            "(exclusive: false), each with its own keys.",
        );
        return;
      }
      const shared = mine.keys.filter((key) => other.keys.includes(key));
      if (shared.length > 0) {
        void pulumi.log.error(
          `${names} both declare the tag key${shared.length > 1 ? "s" : ""} ${shared.map((k) => `"${k}"`).join(", ")} on ` +
            `workspace "${id}"; each key may be declared by one resource only (Workspace.tagBindings owns the whole ` +
            "direct set; WorkspaceTagBindings adds to a set shared with others). Remove the key from one of them.",
        );
        return;
      }
    }
    claims.set(id, [...onWorkspace.filter((c) => !(c.kind === mine.kind && c.resourceName === mine.resourceName)), mine]);
  });
}

// ---- remote state consumers -----------------------------------------------------------------------

/**
 * For the Workspace class: call in its constructor with the outputs that carry its id (`this.id`,
 * and `workspaceId` if that is another Output) and its `globalRemoteState` and `projectRemoteState`
 * inputs. A RemoteStateConsumers on one of those outputs then fails the preview when the workspace
 * shares its state globally or with its project, even while the workspace is not created yet (the id unknown).
 */
export function registerWorkspaceStateSharing(
  idOutputs: pulumi.Output<string>[], sharing: WorkspaceStateSharing, resourceName: string,
): void {
  const run = thisRun();
  for (const output of idOutputs) run.stateSharing.set(output, { ...sharing, resourceName });
}

/** A RemoteStateConsumers on a Workspace of the program that shares its state with everyone is refused by the service. */
export function refuseGloballySharedWorkspace(workspaceId: pulumi.Input<string>, name: string): void {
  if (typeof workspaceId !== "object" || workspaceId === null) return;
  const sharing = thisRun().stateSharing.get(workspaceId);
  if (sharing === undefined) return;
  pulumi.all([sharing.globalRemoteState, sharing.projectRemoteState]).apply(([global, project]) => {
    const [property, scope] = global === true ? ["globalRemoteState", "the whole organization"] : project === true ? ["projectRemoteState", "its project"] : [];
    if (property === undefined) return;
    void pulumi.log.error(
      `RemoteStateConsumers "${name}": workspaceId is Workspace "${sharing.resourceName}", which declares ` +
        `${property}: true, and the service refuses consumer lists for a workspace shared with ${scope}. ` +
        `Set ${property}: false on the workspace, or remove this resource.`,
    );
  });
}

/** Two exclusive consumer lists, or an exclusive one and another, on one workspace would undo each other at every `up`. */
export function claimConsumerList(workspaceId: pulumi.Input<string>, exclusive: pulumi.Input<boolean | undefined> | undefined, name: string): void {
  pulumi.all([workspaceId, exclusive]).apply(([id, isExclusive]) => {
    if (typeof id !== "string" || id === "") return;
    const claims = thisRun().consumerLists;
    const others = claims.get(id) ?? [];
    const mine = { name, exclusive: isExclusive === true };
    const clash = others.find((o) => o.name !== name && (o.exclusive || mine.exclusive));
    if (clash !== undefined) {
      void pulumi.log.error(
        `RemoteStateConsumers resources "${clash.name}" and "${name}" both manage workspace "${id}" and at least one ` +
          "has exclusive: true, which replaces the whole list, so they would undo each other at every `up`. Keep " +
          "one exclusive resource per workspace, or make them all additive (no `exclusive`).",
      );
      return;
    }
    claims.set(id, [...others, mine]);
  });
}

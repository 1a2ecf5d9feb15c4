import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceInputs } from "../../schemas/workspace";
import {
  OPTIONAL_INPUTS, WORKSPACE_REPORT_KEYS, type EffectiveTagBindingOutput, type VcsRepoOutput, type WorkspaceReport,
} from "../../runtime/kinds/workspace/fields";
import type { Assert, Equals } from "../../schemas/type-equality";
import { workspaceProvider } from "../serialized-providers";
import { claimWorkspaceTagKeys, defaultOrganization, ownerMarker, registerWorkspaceStateSharing } from "../program-checks";
import { WsbridgeResource, outputsReadFrom } from "../resource-base";

/** Arguments of a {@link Workspace}; every field may be a Pulumi `Input`. See {@link WorkspaceInputs}. */
export type WorkspaceArgs = { [K in keyof WorkspaceInputs]: pulumi.Input<WorkspaceInputs[K]> };

/**
 * A workspace of the Workspace Management API, with every setting the API lets a client write.
 *
 * - A property left out means what a create without it gives (its default or the inheritance); one
 *   with no fixed default is not managed while left out (docs/resources/workspace.md).
 * - Renaming updates in place; changing `organization` replaces the workspace (deleting first, since
 *   names are unique: see docs/resources/workspace.md, "Create and update").
 * - Destroy uses safe delete unless `forceDelete` is set, so a workspace that still manages resources
 *   is never removed by accident.
 * - `adoptExisting: true` takes over a workspace that already exists under the declared name.
 *
 * Outputs that an update cannot change (`workspaceId`, `apiUrl`, `htmlUrl`, `name`, `organization`) stay
 * known during `pulumi preview`, so resources that use them preview exactly.
 *
 * @example
 * const ws = new Workspace("networking", { name: "networking-prod", description: "VPCs and peering", autoApply: true });
 */
export class Workspace extends WsbridgeResource {
  /** The workspace's id (`ws-…`), the same as the resource's `id`. Known during preview. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The workspace's name. */
  declare readonly name: pulumi.Output<string>;
  /** The organization that owns the workspace. */
  declare readonly organization: pulumi.Output<string>;
  /** The description (`""` when none). */
  declare readonly description: pulumi.Output<string>;
  /** `remote`, `local` or `agent`: the workspace's own or the one it inherits. */
  declare readonly executionMode: pulumi.Output<string>;
  /** The agent pool that runs its plans, or null. */
  declare readonly agentPoolId: pulumi.Output<string | null>;
  /** The deprecated `operations` flag as the server reports it. */
  declare readonly operations: pulumi.Output<boolean | null>;
  /** Which inherited settings the workspace overwrites. */
  declare readonly settingOverwrites: pulumi.Output<{
    /** True: the workspace's own `executionMode` applies. False: it inherits. */
    executionMode: boolean;
    /** True: the workspace's own `agentPoolId` applies. False: it inherits the default agent pool. */
    agentPool: boolean;
  }>;
  /** Whether destroy plans can be queued. */
  declare readonly allowDestroyPlan: pulumi.Output<boolean>;
  /** Null where the edition has no assessments (self-managed). */
  declare readonly assessmentsEnabled: pulumi.Output<boolean | null>;
  /** Whether runs started by VCS, UI or CLI apply automatically after a successful plan. */
  declare readonly autoApply: pulumi.Output<boolean>;
  /** Whether runs started by run triggers apply automatically after a successful plan. */
  declare readonly autoApplyRunTrigger: pulumi.Output<boolean>;
  /** When the next scheduled destroy run happens (ISO 8601), or null. */
  declare readonly autoDestroyAt: pulumi.Output<string | null>;
  /** The workspace's own, or its project's while it inherits it. */
  declare readonly autoDestroyActivityDuration: pulumi.Output<string | null>;
  /** The server's `auto-destroy-status`, or null. */
  declare readonly autoDestroyStatus: pulumi.Output<string | null>;
  /** The server's `inherits-project-auto-destroy`, or null. */
  declare readonly inheritsProjectAutoDestroy: pulumi.Output<boolean | string | null>;
  /** Whether runs start only for changes to files under the trigger prefixes or patterns. */
  declare readonly fileTriggersEnabled: pulumi.Output<boolean>;
  /** The glob patterns of the files whose changes start runs. */
  declare readonly triggerPatterns: pulumi.Output<string[]>;
  /** The path prefixes whose changes start runs. */
  declare readonly triggerPrefixes: pulumi.Output<string[]>;
  /** Whether every workspace of the organization may read this one's state. */
  declare readonly globalRemoteState: pulumi.Output<boolean>;
  /** Whether the other workspaces of its project may read this one's state; null when the server does not report it. */
  declare readonly projectRemoteState: pulumi.Output<boolean | null>;
  /** Whether runs are queued right after creation. */
  declare readonly queueAllRuns: pulumi.Output<boolean>;
  /** Whether automatic speculative plans run. */
  declare readonly speculativeEnabled: pulumi.Output<boolean>;
  /** The server's `structured-run-output-enabled`, or null. */
  declare readonly structuredRunOutputEnabled: pulumi.Output<boolean | null>;
  /** The engine version or version constraint the workspace uses; null if the server sent none. */
  declare readonly engineVersion: pulumi.Output<string | null>;
  /** `""` for the repository root. */
  declare readonly workingDirectory: pulumi.Output<string>;
  /** "Created via …". */
  declare readonly sourceName: pulumi.Output<string | null>;
  /** The creating client's URL, without the provider's ownership marker. */
  declare readonly sourceUrl: pulumi.Output<string | null>;
  /** The server's `source` attribute, or null. */
  declare readonly source: pulumi.Output<string | null>;
  /** The server's `environment` attribute, or null. */
  declare readonly environment: pulumi.Output<string | null>;
  /** The repository with the server's details (`webhookUrl`, `repositoryHttpUrl`, …), or null. */
  declare readonly vcsRepo: pulumi.Output<VcsRepoOutput | null>;
  /** The server's `vcs-repo-identifier`, or null. */
  declare readonly vcsRepoIdentifier: pulumi.Output<string | null>;
  /** The name of the VCS connection's OAuth client (`oauth-client-name`), or null. */
  declare readonly oauthClientName: pulumi.Output<string | null>;
  /** The project the workspace belongs to (`prj-…`), or null. */
  declare readonly projectId: pulumi.Output<string | null>;
  /** The SSH key assigned to the workspace (`sshkey-…`), or null. */
  declare readonly sshKeyId: pulumi.Output<string | null>;
  /** The id of the workspace's current run, or null. */
  declare readonly currentRunId: pulumi.Output<string | null>;
  /** The id of the workspace's current state version, or null. */
  declare readonly currentStateVersionId: pulumi.Output<string | null>;
  /** The id of the workspace's current configuration version, or null. */
  declare readonly currentConfigurationVersionId: pulumi.Output<string | null>;
  /** Flat tags, sorted. */
  declare readonly tagNames: pulumi.Output<string[]>;
  /** Key-value tags bound directly to the workspace. */
  declare readonly tagBindings: pulumi.Output<Record<string, string>>;
  /** Direct and project-inherited key-value tags; `inheritedFrom` is the project id, or null for direct ones. */
  declare readonly effectiveTagBindings: pulumi.Output<EffectiveTagBindingOutput[]>;
  /** What the token may do on the workspace (`canUpdate`, `canForceDelete`, …). */
  declare readonly permissions: pulumi.Output<Record<string, boolean>>;
  /** `actions.is-destroyable`. */
  declare readonly isDestroyable: pulumi.Output<boolean | null>;
  /** Whether the workspace is locked (by anyone). */
  declare readonly locked: pulumi.Output<boolean>;
  /** The reason of the workspace's current lock, or null. */
  declare readonly lockedReason: pulumi.Output<string | null>;
  /** Who holds the lock (`users`, `teams` or `runs`, and an id), or null. */
  declare readonly lockedBy: pulumi.Output<{
    /** `users`, `teams` or `runs`. */
    type: string;
    /** The id of the user, team or run. */
    id: string;
  } | null>;
  /** How many resources the workspace's current state manages. */
  declare readonly resourceCount: pulumi.Output<number>;
  /** ISO 8601, UTC. */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the workspace was last updated (ISO 8601, UTC). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** The server's `latest-change-at` (ISO 8601), or null. */
  declare readonly latestChangeAt: pulumi.Output<string | null>;
  /** When the last health assessment result came in (`last-assessment-result-at`), or null. */
  declare readonly lastAssessmentResultAt: pulumi.Output<string | null>;
  /** Milliseconds, over the last 30 runs that errored or applied. */
  declare readonly applyDurationAverage: pulumi.Output<number | null>;
  /** The server's `plan-duration-average` (milliseconds), or null. */
  declare readonly planDurationAverage: pulumi.Output<number | null>;
  /** The server's `policy-check-failures`, or null. */
  declare readonly policyCheckFailures: pulumi.Output<number | null>;
  /** The server's `run-failures`, or null. */
  declare readonly runFailures: pulumi.Output<number | null>;
  /** The server's `workspace-kpis-runs-count`, or null. */
  declare readonly workspaceKpisRunsCount: pulumi.Output<number | null>;
  /** The workspace's page in the service's UI. Known during preview. */
  declare readonly htmlUrl: pulumi.Output<string>;
  /** The workspace's address in the API (`…/api/v2/workspaces/<id>`). Known during preview. */
  declare readonly apiUrl: pulumi.Output<string>;
  /** The declared `forceDelete` (false when it is not declared). */
  declare readonly forceDelete: pulumi.Output<boolean>;
  /** The declared `adoptExisting` (false when it is not declared). */
  declare readonly adoptExisting: pulumi.Output<boolean>;

  /**
   * @param name The resource's name in the program (part of its URN).
   * @param args What it manages: the properties of {@link WorkspaceInputs}, each may be a Pulumi `Input`.
   * @param opts Pulumi resource options. `deleteBeforeReplace` defaults to true: a workspace's name is
   * unique in its organization, so a replacement that keeps it must delete the old workspace first.
   */
  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    // Registered: what the program declares, and `__outputs`, which holds every output; the rest are
    // read from it (see `outputsReadFrom` below). An input passed as an Output or a Promise may resolve
    // to undefined, which the provider sees as not declared: `__namedOutputs` asks it to report those
    // outputs by name anyway, so the registered property resolves to the server's value.
    const registered: Record<string, unknown> = { __outputs: undefined };
    for (const [key, value] of Object.entries(args)) if (value !== undefined) registered[key] = value;
    const namedOutputs = OPTIONAL_INPUTS.filter((key) => isEventual(args[key]));
    // `__owner` marks the workspace as this resource's (runtime/ownership.ts); it is not a user input.
    const internal = { __owner: ownerMarker("Workspace", name), ...(namedOutputs.length > 0 && { __namedOutputs: namedOutputs }) };
    // Names are unique in an organization, so a replacement that keeps the name must delete first; the
    // provider cannot tell `up --replace` from a retried create (docs/resources/workspace.md). Overridable.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    const inputs = { ...args, organization: args.organization ?? defaultOrganization() };
    super(name, { kind: "Workspace", provider: workspaceProvider, inputs, props: { ...registered, ...internal } }, options);
    // What the set-valued resources of the same program must know about this workspace: its direct
    // tag keys (a key is owned by one resource) and whether its state is shared with everyone.
    claimWorkspaceTagKeys("Workspace", name, this.id, args.tagBindings, false);
    registerWorkspaceStateSharing([this.id], { globalRemoteState: args.globalRemoteState, projectRemoteState: args.projectRemoteState }, name);
  }
}

// Every output the server's state gives a workspace, read from `__outputs` unless registered by name.
outputsReadFrom("__outputs", Workspace.prototype, WORKSPACE_REPORT_KEYS);

/** A value the program cannot see yet: it may still resolve to undefined. */
function isEventual(value: unknown): boolean {
  return pulumi.Output.isInstance(value) || (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function");
}

// The class declares every output the state holds, each with the state's type: the field list is the
// runtime's (kinds/workspace/fields.ts), and this fails to compile when the two part.
type DeclaredOutputs = {
  [K in keyof WorkspaceReport]: K extends keyof Workspace ? Workspace[K] extends pulumi.Output<infer T> ? T : never : never;
};
type ClassDeclaresEveryOutput = Assert<Equals<DeclaredOutputs, WorkspaceReport>>;

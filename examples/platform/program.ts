// A platform project with every kind pulumi-wsbridge manages: three workspaces, their tags, who may
// read whose state, an SSH key, a data retention policy, a lock and a module version deprecation. The
// body is a function of plain settings so it runs as a Pulumi program (index.ts) and inline through
// the Automation API (the repository's tests) without being copied.
import * as pulumi from "@pulumi/pulumi";
import {
  DataRetentionPolicy, ModuleVersionDeprecation, RemoteStateConsumers, SshKeyAssignment, Workspace,
  WorkspaceLock, WorkspaceTagBindings,
} from "pulumi-wsbridge";

/** What the program needs from outside; read from stack config by {@link readConfig}. */
export interface PlatformSettings {
  /** Prefix of every workspace name, so two copies of the program (two stacks) do not collide. */
  namePrefix: string;
  /** The project (`prj-…`) the three workspaces belong to. */
  projectId: string;
  /** The SSH key (`sshkey-…`) the app workspace's runs use to fetch private modules. */
  sshKeyId: string;
  /** The app workspace's description. */
  appDescription: string;
  /** Value of the `cost-center` tag of the production app workspace. */
  costCenter: string;
  /** Days the network workspace keeps old versions; null leaves the policy out (the hosted edition has none). */
  dataRetentionDays: number | null;
  /** The private registry module version to deprecate, and what its consumers are told. */
  deprecation: { moduleName: string; provider: string; version: string; reason: string; link: string };
}

export const DEFAULT_APP_DESCRIPTION = "The application; reads subnet ids from the network workspace's state";

/**
 * Settings from stack config (`pulumi config set namePrefix …`; see README.md). `wsbridge` is the
 * provider's namespace: with `wsbridge:edition` set to `hosted` the retention policy is left out.
 */
export function readConfig(config: pulumi.Config, providerConfig: pulumi.Config): PlatformSettings {
  const hosted = providerConfig.get("edition") === "hosted";
  // Same defaults as Pulumi.yaml, for runs that do not read it (the Automation API's inline programs).
  return {
    namePrefix: config.get("namePrefix") ?? "platform",
    projectId: config.get("projectId") ?? "prj-platform000000001",
    sshKeyId: config.get("sshKeyId") ?? "sshkey-platformdeploy1",
    appDescription: config.get("appDescription") ?? DEFAULT_APP_DESCRIPTION,
    costCenter: config.get("costCenter") ?? "cc-1042",
    dataRetentionDays: hosted ? null : (config.getNumber("dataRetentionDays") ?? 30),
    deprecation: {
      moduleName: config.get("moduleName") ?? "vpc",
      provider: config.get("moduleProvider") ?? "aws",
      version: config.get("deprecatedVersion") ?? "1.0.0",
      reason: config.get("deprecationReason") ?? "1.0.0 opens port 22 to the world; use 1.1.0 or later",
      link: config.get("deprecationLink") ?? "https://example.com/modules/vpc/upgrade-to-1.1",
    },
  };
}

/** A workspace as a reviewer wants to see it. */
export interface WorkspaceSummary {
  id: pulumi.Output<string>;
  name: pulumi.Output<string>;
  url: pulumi.Output<string>;
}

/** The stack outputs. */
export interface PlatformOutputs {
  workspaces: { network: WorkspaceSummary; app: WorkspaceSummary; appStaging: WorkspaceSummary };
  /** Workspace name → the names of the workspaces allowed to read its state. */
  stateReaders: pulumi.Output<Record<string, string[]>>;
  sshKey: { workspace: pulumi.Output<string>; sshKeyId: pulumi.Output<string | null> };
  lock: { workspace: pulumi.Output<string>; locked: pulumi.Output<boolean>; reason: pulumi.Output<string | null>; heldByThisStack: pulumi.Output<boolean> };
  /** Null when the policy is left out (hosted edition). */
  dataRetention: { workspace: pulumi.Output<string>; deleteOlderThanNDays: pulumi.Output<number | null> } | null;
  /** The deprecation as the registry stores it (the server may append text to the reason). */
  deprecation: { moduleSource: pulumi.Output<string>; version: pulumi.Output<string>; reason: pulumi.Output<string | null>; link: pulumi.Output<string | null> };
}

export function program(settings: PlatformSettings): PlatformOutputs {
  const { namePrefix, projectId } = settings;

  // The network layer: its state (subnet ids) is shared with the app workspaces only, so it must not
  // be shared with the whole organization (the service refuses consumer lists then).
  const network = new Workspace("network", {
    name: `${namePrefix}-network`,
    description: "VPCs, subnets and peering shared by the app workspaces",
    projectId,
    globalRemoteState: false,
    // The whole direct tag set, declared on the workspace itself.
    tagBindings: { team: "platform", layer: "network" },
  });
  const app = new Workspace("app", { name: `${namePrefix}-app`, description: settings.appDescription, projectId });
  const appStaging = new Workspace("app-staging", {
    name: `${namePrefix}-app-staging`,
    description: "Staging copy of the application; frozen while a release is verified",
    projectId,
  });

  // The app workspaces' tags as their own resources: additive, so tags others bind stay. Only
  // production is billed to the app's cost center.
  new WorkspaceTagBindings("app-tags", { workspaceId: app.id, tags: { team: "apps", env: "prod", "cost-center": settings.costCenter } });
  new WorkspaceTagBindings("app-staging-tags", { workspaceId: appStaging.id, tags: { team: "apps", env: "staging" } });

  // Both app workspaces read the network's outputs through remote state.
  const readers = new RemoteStateConsumers("network-state-readers", { workspaceId: network.id, consumerIds: [app.id, appStaging.id] });

  // The app's runs fetch private modules over SSH.
  const key = new SshKeyAssignment("app-ssh-key", { workspaceId: app.id, sshKeyId: settings.sshKeyId });

  // Keep 30 days of old state and configuration versions of the network (self-managed edition only).
  const retention = settings.dataRetentionDays === null ? undefined
    : new DataRetentionPolicy("network-retention", { workspaceId: network.id, deleteOlderThanNDays: settings.dataRetentionDays });

  // No runs on staging while a release is verified; destroy unlocks it before deleting the workspace.
  const freeze = new WorkspaceLock("app-staging-freeze", { workspaceId: appStaging.id, reason: "release 2.4 under verification" });

  // Consumers of the module's broken version see this warning at `terraform init`.
  const deprecation = new ModuleVersionDeprecation("vpc-deprecation", settings.deprecation);

  const summary = (ws: Workspace): WorkspaceSummary => ({ id: ws.workspaceId, name: ws.name, url: ws.htmlUrl });
  return {
    workspaces: { network: summary(network), app: summary(app), appStaging: summary(appStaging) },
    stateReaders: pulumi.all([network.name, app.workspaceId, app.name, appStaging.workspaceId, appStaging.name, readers.consumerIds])
      .apply(([networkName, appId, appName, stagingId, stagingName, consumerIds]) => {
        const nameOf: Record<string, string> = { [appId]: appName, [stagingId]: stagingName };
        return { [networkName]: consumerIds.map((id) => nameOf[id] ?? id).sort() };
      }),
    sshKey: { workspace: app.name, sshKeyId: key.sshKeyId },
    lock: { workspace: appStaging.name, locked: freeze.locked, reason: freeze.lockedReason, heldByThisStack: freeze.heldByThisResource },
    dataRetention: retention ? { workspace: network.name, deleteOlderThanNDays: retention.deleteOlderThanNDays } : null,
    deprecation: {
      moduleSource: deprecation.moduleSource,
      version: deprecation.version,
      reason: deprecation.registryReason,
      link: deprecation.registryLink,
    },
  };
}

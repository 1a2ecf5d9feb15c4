// A platform team's workspaces, managed with pulumi-wsbridge. The body is a function of plain
// settings so it can run as a Pulumi program (index.ts), inline through the Automation API and
// under Pulumi's mocks (the repository's tests do both) without being copied.
import * as pulumi from "@pulumi/pulumi";
import { Workspace, getWorkspaceOutput } from "pulumi-wsbridge";

/**
 * What the program needs from outside: ids of objects set up once by hand (or by another stack),
 * which differ per organization. Read from stack config by {@link readConfig}.
 */
export interface PlatformSettings {
  /** The project (`prj-…`) the production workspaces belong to. */
  projectId: string;
  /** The agent pool (`apool-…`) whose agents can reach the private Kubernetes API. */
  agentPoolId: string;
  /** The OAuth token (`ot-…`) of the organization's VCS connection. */
  oauthTokenId: string;
  /** A workspace another team manages: looked up (read only), never changed here. */
  sharedWorkspaceName: string;
  /** The repository (`org/repo`) every workspace runs from. */
  repository: string;
  /** Prefix of every workspace name, so two copies of the program (e.g. two stacks) do not collide. */
  namePrefix: string;
}

/** Settings from stack config (`pulumi config set projectId prj-…` etc.; see README.md). */
export function readConfig(config: pulumi.Config): PlatformSettings {
  return {
    projectId: config.require("projectId"),
    agentPoolId: config.require("agentPoolId"),
    oauthTokenId: config.require("oauthTokenId"),
    sharedWorkspaceName: config.require("sharedWorkspaceName"),
    // Same defaults as Pulumi.yaml, for runs that do not read it (the Automation API's inline programs).
    repository: config.get("repository") ?? "acme/platform-infra",
    namePrefix: config.get("namePrefix") ?? "platform",
  };
}

/** The stack outputs. */
export interface PlatformOutputs {
  networkWorkspaceId: pulumi.Output<string>;
  networkUrl: pulumi.Output<string>;
  clusterWorkspaceId: pulumi.Output<string>;
  clusterUrl: pulumi.Output<string>;
  clusterExecutionMode: pulumi.Output<string>;
  sandboxWorkspaceId: pulumi.Output<string>;
  sandboxUrl: pulumi.Output<string>;
  sharedWorkspaceId: pulumi.Output<string>;
  sharedWorkspaceUrl: pulumi.Output<string>;
}

export function program(settings: PlatformSettings): PlatformOutputs {
  const { projectId, agentPoolId, oauthTokenId, repository, namePrefix } = settings;
  // Bound to every workspace; the project may add its own (up to 10 more) on top.
  const ownership = { team: "platform", "cost-center": "cc-1042" };

  // The network layer: runs from the repository's network/ folder, and also re-plans when a shared
  // module it uses changes (prefixes are in addition to the working directory).
  const network = new Workspace("network", {
    name: `${namePrefix}-network`,
    description: "VPCs, subnets and peering for every environment",
    projectId,
    vcsRepo: { identifier: repository, oauthTokenId, branch: "main" },
    workingDirectory: "network",
    triggerPrefixes: ["modules/vpc/", "modules/shared/"],
    engineVersion: "~> 1.9.0",
    // Other workspaces read its outputs (subnet ids) through remote state.
    globalRemoteState: true,
    tagBindings: { ...ownership, env: "prod", layer: "network" },
    tagNames: ["platform", "network"],
  });

  // The Kubernetes clusters: their API is private, so plans run on agents inside the network rather
  // than on the service's runners. Glob patterns select exactly the files that should start a run.
  const cluster = new Workspace("cluster", {
    name: `${namePrefix}-clusters`,
    // Interpolating the network workspace's id makes this workspace depend on it: created after,
    // destroyed before, and the description always names the workspace whose state it reads.
    description: pulumi.interpolate`Kubernetes clusters; reads subnet ids from ${network.name} (${network.workspaceId}) via remote state`,
    projectId,
    executionMode: "agent",
    agentPoolId,
    vcsRepo: { identifier: repository, oauthTokenId, branch: "main" },
    workingDirectory: "clusters",
    triggerPatterns: ["clusters/**/*.tf", "modules/k8s/**/*"],
    engineVersion: "~> 1.9.0",
    tagBindings: { ...ownership, env: "prod", layer: "clusters" },
    tagNames: ["platform", "kubernetes"],
  });

  // A workspace another team owns (DNS zones, say): read, never managed, so destroy leaves it alone.
  const shared = getWorkspaceOutput({ name: settings.sharedWorkspaceName });

  // A sandbox for experiments: state storage only (runs happen on laptops), in the organization's
  // default project, removed by the service after two weeks without activity.
  const sandbox = new Workspace("sandbox", {
    name: `${namePrefix}-sandbox`,
    description: pulumi.interpolate`Experiments against the zones of ${shared.name} (${shared.id}); destroyed after 14 idle days`,
    executionMode: "local",
    autoDestroyActivityDuration: "14d",
    tagBindings: { ...ownership, env: "sandbox" },
    tagNames: ["sandbox"],
  });

  return {
    networkWorkspaceId: network.workspaceId,
    networkUrl: network.htmlUrl,
    clusterWorkspaceId: cluster.workspaceId,
    clusterUrl: cluster.htmlUrl,
    clusterExecutionMode: cluster.executionMode,
    sandboxWorkspaceId: sandbox.workspaceId,
    sandboxUrl: sandbox.htmlUrl,
    sharedWorkspaceId: shared.id,
    sharedWorkspaceUrl: shared.htmlUrl,
  };
}

// The quickstart's body: one workspace with a description. A function of plain settings, so the same
// code runs as the Pulumi program (index.ts) and inline through the Automation API (the repository's
// tests), where a module's top level would run only on its first import.
import * as pulumi from "@pulumi/pulumi";
import { Workspace } from "pulumi-wsbridge";

/** What the program reads from stack config (see README.md). */
export interface QuickstartSettings {
  /** The workspace's name: unique in the organization. */
  workspaceName: string;
}

/** Settings from stack config; the default is the one in Pulumi.yaml, for runs that do not read it. */
export function readConfig(config: pulumi.Config): QuickstartSettings {
  return { workspaceName: config.get("workspaceName") ?? "quickstart-networking" };
}

/** The stack outputs. */
export interface QuickstartOutputs {
  workspaceId: pulumi.Output<string>;
  organization: pulumi.Output<string>;
  executionMode: pulumi.Output<string>;
  workspaceUrl: pulumi.Output<string>;
}

export function program(settings: QuickstartSettings): QuickstartOutputs {
  const networking = new Workspace("networking", {
    name: settings.workspaceName,
    description: "VPCs and peering, managed by pulumi-wsbridge",
  });
  return {
    workspaceId: networking.workspaceId,
    organization: networking.organization,
    executionMode: networking.executionMode,
    workspaceUrl: networking.htmlUrl,
  };
}

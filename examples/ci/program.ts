// A service's workspace and its tags: the program pull-request.yml previews on pull requests (with a
// read-only token) and deploys from the default branch. The body is a function of plain settings so it
// runs as a Pulumi program (index.ts) and inline through the Automation API (the repository's tests)
// without being copied.
import * as pulumi from "@pulumi/pulumi";
import { Workspace, WorkspaceTagBindings } from "pulumi-wsbridge";

/** What the program reads from stack config; every key has a default (Pulumi.yaml). */
export interface CiSettings {
  /** The service's workspace: unique in the organization. */
  workspaceName: string;
  /** Value of the `team` tag. */
  team: string;
  /** Value of the `env` tag. */
  env: string;
}

/** Settings from stack config (`pulumi config set workspaceName …`; see README.md). */
export function readConfig(config: pulumi.Config): CiSettings {
  // Same defaults as Pulumi.yaml, for runs that do not read it (the Automation API's inline programs).
  return {
    workspaceName: config.get("workspaceName") ?? "service-prod",
    team: config.get("team") ?? "platform",
    env: config.get("env") ?? "prod",
  };
}

/** The stack outputs. */
export interface CiOutputs {
  workspaceId: pulumi.Output<string>;
  workspaceName: pulumi.Output<string>;
  workspaceUrl: pulumi.Output<string>;
  tagBindingsId: pulumi.Output<string>;
  /** The tags this stack manages, as the server last reported them. */
  tags: pulumi.Output<Record<string, string>>;
}

export function program(settings: CiSettings): CiOutputs {
  const service = new Workspace("service", {
    name: settings.workspaceName,
    description: "Managed by Pulumi: previewed read-only on pull requests, deployed from the default branch by GitHub Actions",
  });

  // Additive, unlike Workspace.tagBindings: tags others bind (a cost center set in the UI, say) stay,
  // and neither a preview nor an up of this stack reports them as drift.
  const tags = new WorkspaceTagBindings("service-tags", {
    workspaceId: service.id,
    tags: { team: settings.team, env: settings.env, "deployed-by": "github-actions" },
  });

  return {
    workspaceId: service.workspaceId,
    workspaceName: service.name,
    workspaceUrl: service.htmlUrl,
    tagBindingsId: tags.id,
    tags: tags.tags,
  };
}

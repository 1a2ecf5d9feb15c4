// A workspace with a description. Run `pulumi up` here with the stack config set (see README), or
// `npm run demo` at the repository root to run it against the local emulator.
import * as pulumi from "@pulumi/pulumi";
import { Workspace } from "pulumi-wsbridge";

const config = new pulumi.Config();

const networking = new Workspace("networking", {
  name: config.get("workspaceName") ?? "quickstart-networking",
  description: "VPCs and peering, managed by pulumi-wsbridge",
});

export const workspaceId = networking.workspaceId;
export const organization = networking.organization;
export const executionMode = networking.executionMode;
export const workspaceUrl = networking.htmlUrl;

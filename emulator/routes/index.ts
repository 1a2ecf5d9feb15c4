/**
 * The route table: every handler module contributes its routes, grouped like the spec.
 */
import type { RouteDef } from "../context";
import { dataRetentionRoutes } from "./data-retention";
import { lockRoutes } from "./lock";
import { metaRoutes } from "./meta";
import { moduleVersionRoutes } from "./module-versions";
import { registryRoutes } from "./registry";
import { remoteStateConsumerRoutes } from "./remote-state-consumers";
import { setupOrganizationRoutes } from "./setup-organizations";
import { setupRegistryRoutes } from "./setup-registry";
import { setupResourceRoutes } from "./setup-resources";
import { setupStateRoutes } from "./setup-state";
import { setupStateOutputRoutes } from "./setup-state-outputs";
import { setupTeamAccessRoutes } from "./setup-team-access";
import { setupTeamRoutes } from "./setup-teams";
import { sshKeyRoutes } from "./ssh-key";
import { tagBindingRoutes } from "./tag-bindings";
import { tagRoutes } from "./tags";
import { workspaceRoutes } from "./workspaces";

export const allRoutes: RouteDef[] = [
  ...metaRoutes,
  // A: workspaces
  ...workspaceRoutes,
  // B: lock and SSH key
  ...lockRoutes,
  ...sshKeyRoutes,
  // C: consumers, tags, tag bindings, data retention
  ...remoteStateConsumerRoutes,
  ...tagRoutes,
  ...tagBindingRoutes,
  ...dataRetentionRoutes,
  // D: module versions and the registry read API
  ...moduleVersionRoutes,
  ...registryRoutes,
  // Setup calls
  ...setupOrganizationRoutes,
  ...setupResourceRoutes,
  ...setupRegistryRoutes,
  ...setupStateRoutes,
  ...setupStateOutputRoutes,
  ...setupTeamRoutes,
  ...setupTeamAccessRoutes,
];

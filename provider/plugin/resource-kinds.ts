// The package's resource types as the plugin serves them: each type token to its kind's lifecycle in
// the runtime (the same objects the dynamic route's serialized providers call), and what a URN tells
// about the resource: the owner marker a create writes (runtime/ownership.ts) names the same
// project, stack, kind and resource name on both routes, so either route recognizes the other's objects.
import * as runtime from "../runtime";
import { ownerUrl } from "../runtime/ownership";
import type { KindLifecycle, Props } from "../runtime/lifecycle";

/** `wsbridge:index:<Kind>` → the kind's lifecycle. */
const KINDS: Readonly<Record<string, KindLifecycle>> = {
  "wsbridge:index:Workspace": runtime.workspace,
  "wsbridge:index:WorkspaceLock": runtime.workspaceLock,
  "wsbridge:index:SshKeyAssignment": runtime.sshKeyAssignment,
  "wsbridge:index:DataRetentionPolicy": runtime.dataRetentionPolicy,
  "wsbridge:index:WorkspaceTagBindings": runtime.workspaceTagBindings,
  "wsbridge:index:RemoteStateConsumers": runtime.remoteStateConsumers,
  "wsbridge:index:ModuleVersionDeprecation": runtime.moduleVersionDeprecation,
};

/** The lifecycle of a type token; an Error naming the known types for any other. */
export function kindOf(type: string): KindLifecycle {
  const kind = KINDS[type];
  if (kind === undefined) throw new Error(`unknown resource type ${type}; this provider serves ${Object.keys(KINDS).join(", ")}`);
  return kind;
}

export interface UrnParts {
  stack: string;
  project: string;
  /** The resource's own type token (the last of a qualified type `parent$…$type`). */
  type: string;
  name: string;
}

/** `urn:pulumi:<stack>::<project>::<qualified type>::<name>` (a name may itself hold `::`). */
export function parseUrn(urn: string): UrnParts | undefined {
  if (!urn.startsWith("urn:pulumi:")) return undefined;
  const parts = urn.slice("urn:pulumi:".length).split("::");
  if (parts.length < 4) return undefined;
  const [stack, project, qualified] = parts as [string, string, string];
  return { stack, project, type: qualified.split("$").pop() ?? qualified, name: parts.slice(3).join("::") };
}

/**
 * What the plugin adds to a resource's inputs for the kind (never stored as inputs): the owner
 * marker, and the URN for notes to the user.
 */
export function internalInputsOf(urn: string): Props {
  const parts = parseUrn(urn);
  if (parts === undefined) return {};
  const kind = parts.type.split(":").pop() ?? parts.type;
  return { __owner: ownerUrl({ project: parts.project, stack: parts.stack, kind, name: parts.name }), __urn: urn };
}

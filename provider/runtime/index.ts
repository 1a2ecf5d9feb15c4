// STABLE CONTRACT. Serialized providers in users' state files call these names
// (`require("pulumi-wsbridge/runtime").<kind>.<method>(...)`) long after they were written, so
// exports may be added but never renamed or removed, and their signatures only widened.
import * as config from "./config";
import type { Imported, KindLifecycle, KindModule, Props } from "./lifecycle";
import { assertMayChange, refuseChangesIfReadOnly, type RefusedOperation } from "./read-only";
import type * as workspaceKind from "./kinds/workspace";
import type * as workspaceLockKind from "./kinds/workspace-lock";
import type * as sshKeyAssignmentKind from "./kinds/ssh-key-assignment";
import type * as dataRetentionPolicyKind from "./kinds/data-retention-policy";
import type * as workspaceTagBindingsKind from "./kinds/workspace-tag-bindings";
import type * as remoteStateConsumersKind from "./kinds/remote-state-consumers";
import type * as moduleVersionDeprecationKind from "./kinds/module-version-deprecation";

/**
 * A kind's lifecycle, its module loaded on the first call: the provider process serves only the kinds
 * a program declares, so a Workspace-only program does not load the other six (tens of milliseconds).
 * Every call that could change the server passes the read-only switch first (read-only.ts), here,
 * where both doors come through.
 */
function lifecycleOf<M extends KindModule>(name: string, load: () => M) {
  let loaded: M | undefined;
  const kind = (): M => (loaded ??= load());
  return {
    check: (olds: Props, news: Props) => kind().check(olds, news) as ReturnType<M["check"]>,
    diff: async (id: string, olds: Props, news: Props) => refuseChangesIfReadOnly(name, id, olds, news, await kind().diff(id, olds, news)),
    create: (inputs: Props) => mayChange(name, "create", undefined, () => kind().create(inputs)) as ReturnType<M["create"]>,
    read: (id: string, props: Props | undefined) => kind().read(id, props) as ReturnType<M["read"]>,
    update: (id: string, olds: Props, news: Props) => mayChange(name, "update", id, () => kind().update(id, olds, news)) as ReturnType<M["update"]>,
    delete: (id: string, props: Props) => mayChange(name, "delete", id, () => kind().remove(id, props)),
    previewCreate: (news: Props) => mayChange(name, "create", undefined, () => kind().previewCreate(news)),
    previewUpdate: (id: string, olds: Props, news: Props) => kind().previewUpdate(id, olds, news),
    importById: (importId: string, internal: Props): Promise<Imported<Props> | undefined> => kind().importById(importId, internal),
  } satisfies KindLifecycle;
}

/** `change()`, unless the provider is read-only: then a rejection that says so, and nothing is sent. */
function mayChange<T>(kind: string, operation: RefusedOperation, id: string | undefined, change: () => Promise<T>): Promise<T> {
  try {
    assertMayChange(kind, operation, id);
  } catch (refusal) {
    return Promise.reject(refusal);
  }
  return change();
}

/** The part of Pulumi's dynamic `ConfigureRequest` the runtime reads. */
export interface ConfigureRequest {
  readonly config?: config.ConfigSource;
}

/**
 * Records the stack config (`wsbridge:address`, `wsbridge:token`, `wsbridge:organization`,
 * `wsbridge:edition`). Never throws for a missing value: previews without credentials still run
 * check and diff; the first API call reports what is missing.
 */
export async function configure(req: ConfigureRequest | undefined): Promise<void> {
  config.configure(req?.config);
}

export const workspace = lifecycleOf("Workspace", () => require("./kinds/workspace") as typeof workspaceKind);

export const workspaceLock = lifecycleOf("WorkspaceLock", () => require("./kinds/workspace-lock") as typeof workspaceLockKind);

export const sshKeyAssignment = lifecycleOf("SshKeyAssignment", () => require("./kinds/ssh-key-assignment") as typeof sshKeyAssignmentKind);

export const dataRetentionPolicy = lifecycleOf("DataRetentionPolicy", () => require("./kinds/data-retention-policy") as typeof dataRetentionPolicyKind);

export const workspaceTagBindings = lifecycleOf("WorkspaceTagBindings", () => require("./kinds/workspace-tag-bindings") as typeof workspaceTagBindingsKind);

export const remoteStateConsumers = lifecycleOf("RemoteStateConsumers", () => require("./kinds/remote-state-consumers") as typeof remoteStateConsumersKind);

export const moduleVersionDeprecation = lifecycleOf("ModuleVersionDeprecation", () => require("./kinds/module-version-deprecation") as typeof moduleVersionDeprecationKind);

/** The lookups, for the provider plugin's Invoke (the dynamic route's program calls them itself). */
export const lookups = {
  workspaces: () => require("./lookups/workspaces") as typeof import("./lookups/workspaces"),
  moduleVersions: () => require("./lookups/module-versions") as typeof import("./lookups/module-versions"),
};

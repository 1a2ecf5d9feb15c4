// The serialized provider objects: the one place where the dynamic door reaches the runtime by the
// package's name (`pulumi-wsbridge/runtime`) instead of a relative import. Pulumi stores the text of these objects in the state of every
// resource and runs it later (destroy and refresh use the text from the last update), so each method
// is one self-contained line that loads the installed runtime by package name. Nothing else may be
// referenced here: a captured module-level value would be serialized into state, and the token must
// never be. The runtime's export names are therefore a permanent contract (provider/runtime/index.ts).
//
// The package specifier is repeated as a literal on purpose: a shared constant would be captured too.
import type * as pulumi from "@pulumi/pulumi";

type Provider = Required<Omit<pulumi.dynamic.ResourceProvider, "configure">> &
  Pick<pulumi.dynamic.ResourceProvider, "configure">;

export const workspaceProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").workspace.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").workspace.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").workspace.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").workspace.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").workspace.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").workspace.delete(id, props); },
};

export const workspaceLockProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").workspaceLock.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").workspaceLock.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").workspaceLock.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").workspaceLock.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").workspaceLock.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").workspaceLock.delete(id, props); },
};

export const sshKeyAssignmentProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").sshKeyAssignment.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").sshKeyAssignment.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").sshKeyAssignment.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").sshKeyAssignment.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").sshKeyAssignment.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").sshKeyAssignment.delete(id, props); },
};

export const dataRetentionPolicyProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").dataRetentionPolicy.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").dataRetentionPolicy.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").dataRetentionPolicy.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").dataRetentionPolicy.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").dataRetentionPolicy.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").dataRetentionPolicy.delete(id, props); },
};

export const workspaceTagBindingsProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").workspaceTagBindings.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").workspaceTagBindings.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").workspaceTagBindings.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").workspaceTagBindings.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").workspaceTagBindings.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").workspaceTagBindings.delete(id, props); },
};

export const remoteStateConsumersProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").remoteStateConsumers.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").remoteStateConsumers.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").remoteStateConsumers.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").remoteStateConsumers.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").remoteStateConsumers.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").remoteStateConsumers.delete(id, props); },
};

export const moduleVersionDeprecationProvider: Provider = {
  async configure(req) { return require("pulumi-wsbridge/runtime").configure(req); },
  async check(olds, news) { return require("pulumi-wsbridge/runtime").moduleVersionDeprecation.check(olds, news); },
  async diff(id, olds, news) { return require("pulumi-wsbridge/runtime").moduleVersionDeprecation.diff(id, olds, news); },
  async create(inputs) { return require("pulumi-wsbridge/runtime").moduleVersionDeprecation.create(inputs); },
  async read(id, props) { return require("pulumi-wsbridge/runtime").moduleVersionDeprecation.read(id, props); },
  async update(id, olds, news) { return require("pulumi-wsbridge/runtime").moduleVersionDeprecation.update(id, olds, news); },
  async delete(id, props) { return require("pulumi-wsbridge/runtime").moduleVersionDeprecation.delete(id, props); },
};

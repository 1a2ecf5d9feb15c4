// The serialized provider objects: the one place where the dynamic door reaches the runtime by the
// package's name (`pulumi-wsbridge/runtime`) instead of a relative import. Pulumi stores the text of
// these objects in the state of every resource and runs it later (destroy and refresh use the text
// from the last update), so each method is one self-contained line that loads the installed runtime
// by package name. Nothing else may be referenced here: a captured module-level value would be
// serialized into state, and the token must never be. The runtime's export names are therefore a
// permanent contract (provider/runtime/index.ts).
//
// The package specifier is repeated as a literal on purpose: a shared constant would be captured too.
import type * as pulumi from "@pulumi/pulumi";
// Types only (erased from the emitted code): the compiler checks each line against the runtime's contract.
import type * as Runtime from "../runtime";

type Provider = Required<Omit<pulumi.dynamic.ResourceProvider, "configure">> &
  Pick<pulumi.dynamic.ResourceProvider, "configure">;

export const workspaceProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspace.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspace.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspace.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspace.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspace.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspace.delete(id, props); },
};

export const workspaceLockProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceLock.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceLock.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceLock.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceLock.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceLock.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceLock.delete(id, props); },
};

export const sshKeyAssignmentProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).sshKeyAssignment.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).sshKeyAssignment.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).sshKeyAssignment.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).sshKeyAssignment.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).sshKeyAssignment.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).sshKeyAssignment.delete(id, props); },
};

export const dataRetentionPolicyProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).dataRetentionPolicy.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).dataRetentionPolicy.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).dataRetentionPolicy.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).dataRetentionPolicy.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).dataRetentionPolicy.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).dataRetentionPolicy.delete(id, props); },
};

export const workspaceTagBindingsProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceTagBindings.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceTagBindings.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceTagBindings.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceTagBindings.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceTagBindings.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).workspaceTagBindings.delete(id, props); },
};

export const remoteStateConsumersProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).remoteStateConsumers.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).remoteStateConsumers.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).remoteStateConsumers.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).remoteStateConsumers.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).remoteStateConsumers.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).remoteStateConsumers.delete(id, props); },
};

export const moduleVersionDeprecationProvider: Provider = {
  async configure(req) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).configure(req); },
  async check(olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).moduleVersionDeprecation.check(olds, news); },
  async diff(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).moduleVersionDeprecation.diff(id, olds, news); },
  async create(inputs) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).moduleVersionDeprecation.create(inputs); },
  async read(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).moduleVersionDeprecation.read(id, props); },
  async update(id, olds, news) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).moduleVersionDeprecation.update(id, olds, news); },
  async delete(id, props) { return (require("pulumi-wsbridge/runtime") as typeof Runtime).moduleVersionDeprecation.delete(id, props); },
};

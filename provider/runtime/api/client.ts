/**
 * WsbridgeClient: one method per endpoint of the spec (A1–D4), in the spec's order. Each method
 * delegates to its operation group; the shared Requester does transport, retries, rate limit and errors.
 *
 * Constructing a client never throws for a missing token (previews without credentials still run check
 * and diff); the first request throws MissingTokenError instead.
 */
import type { DataRetentionPolicy, DataRetentionPolicyInput } from "./documents/data-retention";
import type { Project } from "./documents/projects";
import type { DeprecationInput, ModuleVersionDeprecation, ModuleVersionRef } from "./documents/module-versions";
import type {
  RegistryModule, RegistryModuleRef, RegistryModuleVersion, RegistryModuleVersionRef, RegistryModuleVersionSummary,
} from "./documents/registry";
import type { CurrentState, CurrentStateReadOptions, NoCurrentState } from "./documents/state-versions";
import type { EffectiveTagBinding, TagBinding, TagBindingInput } from "./documents/tag-bindings";
import type { Tag, TagRef } from "./documents/tags";
import type { WorkspaceCreateOptions, WorkspaceListOptions, WorkspaceUpdateOptions } from "./documents/workspace-requests";
import type { Workspace } from "./documents/workspaces";
import * as dataRetention from "./operations/data-retention";
import * as locks from "./operations/locks";
import * as moduleVersions from "./operations/module-versions";
import { detectEdition, ping, type PingInfo } from "./operations/ping";
import * as projects from "./operations/projects";
import * as registry from "./operations/registry";
import * as consumers from "./operations/remote-state-consumers";
import * as sshKeys from "./operations/ssh-keys";
import * as stateVersions from "./operations/state-versions";
import * as tagBindings from "./operations/tag-bindings";
import * as tags from "./operations/tags";
import type { WorkspaceReadOptions } from "./operations/workspaces";
import * as workspaces from "./operations/workspaces";
import { Requester, type ClientSettings, type Edition } from "./requester";
import type { RetryOptions } from "./retry";

export class WsbridgeClient {
  /** The normalized base address, e.g. `https://app.terraform.io`. */
  readonly address: string;
  private readonly core: Requester;
  private readonly configuredEdition: Edition | undefined;
  /** The retry budgets in force (callers that resolve unknown outcomes themselves use the same ones). */
  readonly retryOptions: Readonly<RetryOptions>;

  constructor(settings: ClientSettings) {
    this.core = new Requester(settings);
    this.address = this.core.address;
    this.retryOptions = this.core.retry;
    this.configuredEdition = settings.edition;
  }

  /** `GET /api/v2/ping`: edition, API version and advertised rate limit. */
  ping(): Promise<PingInfo> {
    return ping(this.core);
  }

  /** The configured edition, else the one detected from ping (once per process per address). */
  async edition(): Promise<Edition> {
    return this.configuredEdition ?? detectEdition(this.core);
  }

  // A. Workspaces -------------------------------------------------------------------------------------

  /** A1. Never repeated once sent: an unknown outcome throws OutcomeUnknownError; resolve it with
   * readWorkspaceByName. */
  createWorkspace(organization: string, options: WorkspaceCreateOptions, read?: WorkspaceReadOptions): Promise<Workspace> {
    return workspaces.createWorkspace(this.core, organization, options, read);
  }

  /** A2. Every workspace of the organization, all pages. */
  listWorkspaces(organization: string, options?: WorkspaceListOptions): AsyncIterable<Workspace> {
    return workspaces.listWorkspaces(this.core, organization, options);
  }

  /** A3. */
  readWorkspaceByName(organization: string, name: string, options?: WorkspaceReadOptions): Promise<Workspace> {
    return workspaces.readWorkspaceByName(this.core, organization, name, options);
  }

  /** A4. */
  readWorkspace(workspaceId: string, options?: WorkspaceReadOptions): Promise<Workspace> {
    return workspaces.readWorkspace(this.core, workspaceId, options);
  }

  /** A5. */
  updateWorkspace(workspaceId: string, options: WorkspaceUpdateOptions, read?: WorkspaceReadOptions): Promise<Workspace> {
    return workspaces.updateWorkspace(this.core, workspaceId, options, read);
  }

  /** A6. */
  updateWorkspaceByName(organization: string, name: string, options: WorkspaceUpdateOptions): Promise<Workspace> {
    return workspaces.updateWorkspaceByName(this.core, organization, name, options);
  }

  /** A7. ConflictError (reason "not-safe-to-delete") while it manages resources. */
  safeDeleteWorkspace(workspaceId: string): Promise<void> {
    return workspaces.safeDeleteWorkspace(this.core, workspaceId);
  }

  /** A8. */
  safeDeleteWorkspaceByName(organization: string, name: string): Promise<void> {
    return workspaces.safeDeleteWorkspaceByName(this.core, organization, name);
  }

  /** A9. */
  forceDeleteWorkspace(workspaceId: string): Promise<void> {
    return workspaces.forceDeleteWorkspace(this.core, workspaceId);
  }

  /** A10. */
  forceDeleteWorkspaceByName(organization: string, name: string): Promise<void> {
    return workspaces.forceDeleteWorkspaceByName(this.core, organization, name);
  }

  // B. Lock, unlock, SSH key --------------------------------------------------------------------------

  /** B1. */
  lockWorkspace(workspaceId: string, reason?: string): Promise<Workspace> {
    return locks.lockWorkspace(this.core, workspaceId, reason);
  }

  /** B2. Retries 503 for retry.unlockRetryPeriodMs. */
  unlockWorkspace(workspaceId: string): Promise<Workspace> {
    return locks.unlockWorkspace(this.core, workspaceId);
  }

  /** B3. */
  forceUnlockWorkspace(workspaceId: string): Promise<Workspace> {
    return locks.forceUnlockWorkspace(this.core, workspaceId);
  }

  /** B4. */
  assignSshKey(workspaceId: string, sshKeyId: string): Promise<Workspace> {
    return sshKeys.assignSshKey(this.core, workspaceId, sshKeyId);
  }

  /** B4 with id null. */
  unassignSshKey(workspaceId: string): Promise<Workspace> {
    return sshKeys.unassignSshKey(this.core, workspaceId);
  }

  // C. Remote state consumers, tags, tag bindings, data retention -------------------------------------

  /** C1. All pages. */
  listRemoteStateConsumers(workspaceId: string): AsyncIterable<Workspace> {
    return consumers.listRemoteStateConsumers(this.core, workspaceId);
  }

  /** C2. */
  addRemoteStateConsumers(workspaceId: string, consumerIds: string[]): Promise<void> {
    return consumers.addRemoteStateConsumers(this.core, workspaceId, consumerIds);
  }

  /** C3. */
  replaceRemoteStateConsumers(workspaceId: string, consumerIds: string[]): Promise<void> {
    return consumers.replaceRemoteStateConsumers(this.core, workspaceId, consumerIds);
  }

  /** C4. */
  removeRemoteStateConsumers(workspaceId: string, consumerIds: string[]): Promise<void> {
    return consumers.removeRemoteStateConsumers(this.core, workspaceId, consumerIds);
  }

  /** C5. All pages. */
  listTags(workspaceId: string): AsyncIterable<Tag> {
    return tags.listTags(this.core, workspaceId);
  }

  /** C6. */
  addTags(workspaceId: string, tagRefs: TagRef[]): Promise<void> {
    return tags.addTags(this.core, workspaceId, tagRefs);
  }

  /** C7. */
  removeTags(workspaceId: string, tagRefs: TagRef[]): Promise<void> {
    return tags.removeTags(this.core, workspaceId, tagRefs);
  }

  /** C8. */
  listTagBindings(workspaceId: string): Promise<TagBinding[]> {
    return tagBindings.listTagBindings(this.core, workspaceId);
  }

  /** C9. */
  listEffectiveTagBindings(workspaceId: string): Promise<EffectiveTagBinding[]> {
    return tagBindings.listEffectiveTagBindings(this.core, workspaceId);
  }

  /** C10. Additive: never removes keys. */
  addTagBindings(workspaceId: string, bindings: TagBindingInput[]): Promise<TagBinding[]> {
    return tagBindings.addTagBindings(this.core, workspaceId, bindings);
  }

  /** C11 (self-managed edition only). */
  readDataRetentionPolicy(workspaceId: string): Promise<DataRetentionPolicy> {
    return dataRetention.readDataRetentionPolicy(this.core, this.editionSource(), workspaceId);
  }

  /** C12 (self-managed edition only). */
  setDataRetentionPolicy(workspaceId: string, policy: DataRetentionPolicyInput): Promise<DataRetentionPolicy> {
    return dataRetention.setDataRetentionPolicy(this.core, this.editionSource(), workspaceId, policy);
  }

  /** C13 (self-managed edition only). */
  deleteDataRetentionPolicy(workspaceId: string): Promise<void> {
    return dataRetention.deleteDataRetentionPolicy(this.core, this.editionSource(), workspaceId);
  }

  // D. Module version deprecation ---------------------------------------------------------------------

  /** D1. */
  deprecateModuleVersion(ref: ModuleVersionRef, deprecation: DeprecationInput): Promise<ModuleVersionDeprecation> {
    return moduleVersions.deprecateModuleVersion(this.core, ref, deprecation);
  }

  /** D2. */
  undeprecateModuleVersion(ref: ModuleVersionRef): Promise<void> {
    return moduleVersions.undeprecateModuleVersion(this.core, ref);
  }

  /** D3. */
  readRegistryModuleVersion(ref: RegistryModuleVersionRef): Promise<RegistryModuleVersion> {
    return registry.readRegistryModuleVersion(this.core, ref);
  }

  /** D4. */
  listRegistryModuleVersions(ref: RegistryModuleRef): Promise<RegistryModuleVersionSummary[]> {
    return registry.listRegistryModuleVersions(this.core, ref);
  }

  /** The organization's projects, all pages (not in the spec; go-tfe `Projects.List`). */
  listProjects(organization: string): AsyncIterable<Project> {
    return projects.listProjects(this.core, organization);
  }

  /** The organization's registry modules, all pages (not in the spec; go-tfe `RegistryModules.List`). */
  listRegistryModules(organization: string): AsyncIterable<RegistryModule> {
    return registry.listRegistryModules(this.core, organization);
  }

  /**
   * The workspace's current state: its latest state version and the raw state it holds (not in the
   * spec; go-tfe `StateVersions.ReadCurrent`, then `Download`). GETs only. `{ none: true }` when the
   * workspace has no current state version; NotFoundError when there is no such workspace (or the token
   * may not see it, or may not read its state). The token is never sent to a download URL on another
   * origin than `address` (operations/state-versions.ts, Requester.download).
   */
  readCurrentState(organization: string, workspaceName: string, options?: CurrentStateReadOptions): Promise<CurrentState | NoCurrentState> {
    return stateVersions.readCurrentState(this.core, organization, workspaceName, options);
  }

  private editionSource(): dataRetention.EditionSource {
    return { configured: this.configuredEdition, detect: () => detectEdition(this.core) };
  }
}

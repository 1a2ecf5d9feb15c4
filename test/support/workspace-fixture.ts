// A workspace as the API client models it, with every field at the value a new workspace has, for the
// pure tests of `wsbridge adopt` (its plan, its drift); a test states only what differs.
import type { Workspace } from "../../provider/runtime/api";

export function workspace(id: string, name: string, extra: Partial<Workspace> = {}): Workspace {
  return {
    id, name, organization: "org", description: null, executionMode: "remote", engineVersion: null, operations: null,
    locked: false, lockedReason: null, lockedBy: null, resourceCount: 0, globalRemoteState: false, autoApply: false,
    autoApplyRunTrigger: false, allowDestroyPlan: true, fileTriggersEnabled: true, queueAllRuns: false, speculativeEnabled: true,
    structuredRunOutputEnabled: null, workingDirectory: null, triggerPatterns: [], triggerPrefixes: [], vcsRepo: null,
    projectId: null, sshKeyId: null, tagNames: [], settingOverwrites: { executionMode: true, agentPool: true },
    agentPoolId: null, autoDestroyAt: null, autoDestroyActivityDuration: null, inheritsProjectAutoDestroy: false,
    dataRetentionPolicy: null, effectiveTagBindings: [],
    ...extra,
  } as unknown as Workspace;
}

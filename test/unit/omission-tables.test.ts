// The omission tables (provider/schemas/omission.ts and each kind's `*_OMITTED`, issue 40) against the
// code that applies them: each kind's check fills in exactly the fixed values its table names (and what
// the table says check derives or takes from the settings), the Workspace inputs an update restores are
// exactly the table's "none" and "inherited" ones that settingOverwrites does not carry, and what adopt
// and import write (withoutFixedValues) is what check completes again (withFixedValues). Check runs
// against an in-process emulator (self-managed: the edition data retention policies need).
import * as runtime from "../../provider/runtime";
import type { CheckOutcome, Props } from "../../provider/runtime/lifecycle";
import { INHERITED_THROUGH_OVERWRITES, RESTORED_WHEN_OMITTED } from "../../provider/runtime/kinds/workspace/fields";
import { type Omission, withFixedValues, withoutFixedValues } from "../../provider/schemas/omission";
import { WORKSPACE_OMITTED } from "../../provider/schemas/workspace";
import { WORKSPACE_LOCK_OMITTED } from "../../provider/schemas/workspace-lock";
import { REMOTE_STATE_CONSUMERS_OMITTED } from "../../provider/schemas/remote-state-consumers";
import { WORKSPACE_TAG_BINDINGS_OMITTED } from "../../provider/schemas/workspace-tag-bindings";
import { SSH_KEY_ASSIGNMENT_OMITTED } from "../../provider/schemas/ssh-key-assignment";
import { DATA_RETENTION_POLICY_OMITTED } from "../../provider/schemas/data-retention-policy";
import { MODULE_VERSION_DEPRECATION_OMITTED } from "../../provider/schemas/module-version-deprecation";
import { useRuntimeEmulator } from "../support/runtime-emulator";

type Table = Readonly<Record<string, Omission>>;

const fixture = useRuntimeEmulator({
  emulator: {
    edition: "self-managed",
    fixtures: {
      organizations: [{
        name: "example-org",
        workspaces: [
          { name: "subject", attributes: { "global-remote-state": false } },
          { name: "reader", attributes: { "global-remote-state": false } },
        ],
      }],
    },
  },
});
const ids = new Map<string, string>();
const ws = (name: string): string => ids.get(name) as string;

beforeAll(async () => {
  for (const name of ["subject", "reader"]) {
    const { doc } = await fixture.api<{ data: { id: string } }>("GET", `/organizations/${fixture.emulator.organization}/workspaces/${name}`);
    ids.set(name, doc.data.id);
  }
});

/** Each kind: its table, its check, and its smallest valid program (every optional input left out). */
interface KindCase {
  table: Table;
  check: (olds: Props, news: Props) => Promise<CheckOutcome<Props>>;
  minimal: () => Props;
}

const KINDS: Record<string, KindCase> = {
  Workspace: { table: WORKSPACE_OMITTED, check: runtime.workspace.check, minimal: () => ({ name: "minimal" }) },
  WorkspaceLock: { table: WORKSPACE_LOCK_OMITTED, check: runtime.workspaceLock.check, minimal: () => ({ workspaceId: ws("subject") }) },
  RemoteStateConsumers: {
    table: REMOTE_STATE_CONSUMERS_OMITTED, check: runtime.remoteStateConsumers.check,
    minimal: () => ({ workspaceId: ws("subject"), consumerIds: [ws("reader")] }),
  },
  WorkspaceTagBindings: {
    table: WORKSPACE_TAG_BINDINGS_OMITTED, check: runtime.workspaceTagBindings.check, minimal: () => ({ workspaceId: ws("subject"), tags: { env: "prod" } }),
  },
  SshKeyAssignment: {
    table: SSH_KEY_ASSIGNMENT_OMITTED, check: runtime.sshKeyAssignment.check, minimal: () => ({ workspaceId: ws("subject"), sshKeyId: "sshkey-abcdefghijklmnop" }),
  },
  // One form of the pair is required; the other one is left out.
  DataRetentionPolicy: {
    table: DATA_RETENTION_POLICY_OMITTED, check: runtime.dataRetentionPolicy.check, minimal: () => ({ workspaceId: ws("subject"), deleteOlderThanNDays: 30 }),
  },
  ModuleVersionDeprecation: {
    table: MODULE_VERSION_DEPRECATION_OMITTED, check: runtime.moduleVersionDeprecation.check,
    minimal: () => ({ moduleName: "vpc", provider: "aws", version: "1.0.0" }),
  },
};

/** The table's top-level entries (a `parent.key` entry is a key of an object input). */
function topLevel(table: Table): [string, Omission][] {
  return Object.entries(table).filter(([path]) => !path.includes("."));
}

describe("check fills in exactly what the table says leaving an input out means", () => {
  test.each(Object.keys(KINDS))("%s: the fixed values, plus what is derived or is the provider's setting; nothing else", async (kind) => {
    const { table, check, minimal } = KINDS[kind] as KindCase;
    const program = minimal();
    const { inputs, failures } = await check({}, program);
    expect(failures).toEqual([]);
    const added = Object.fromEntries(Object.entries(inputs).filter(([key]) => !(key in program)));
    // Every fixed value, as the table holds it.
    const fixed = Object.fromEntries(topLevel(table).flatMap(([key, o]) => (o.means === "value" ? [[key, o.value]] : [])));
    // And the keys check completes otherwise: derived from the other inputs, or the provider's setting.
    const completed = topLevel(table).filter(([, o]) => o.means === "derived" || o.means === "setting").map(([key]) => key);
    expect(Object.keys(added).sort()).toEqual([...Object.keys(fixed), ...completed].sort());
    expect(Object.fromEntries(Object.keys(fixed).map((key) => [key, added[key]]))).toStrictEqual(fixed);
    for (const key of completed) expect([key, added[key]]).not.toEqual([key, undefined]);
  });

  test("the Workspace's nested fixed values are filled inside a declared repository only", async () => {
    const nested = Object.fromEntries(Object.entries(WORKSPACE_OMITTED).flatMap(([path, o]) =>
      (path.startsWith("vcsRepo.") && o.means === "value" ? [[path.slice("vcsRepo.".length), o.value]] : [])));
    expect(Object.keys(nested).sort()).toEqual(["branch", "ingressSubmodules", "tagsRegex"]);
    const repo = { identifier: "acme/infra", oauthTokenId: "ot-1" };
    const { inputs, failures } = await runtime.workspace.check({}, { name: "minimal", vcsRepo: repo });
    expect(failures).toEqual([]);
    expect(inputs.vcsRepo).toStrictEqual({ ...repo, ...nested });
  });

  test("the tables the test covers are every kind's", () => {
    // A kind added to the runtime without a case here would not be covered.
    const kinds = Object.keys(runtime).filter((key) => !["configure", "lookups"].includes(key)).sort();
    expect(kinds).toEqual(["dataRetentionPolicy", "moduleVersionDeprecation", "remoteStateConsumers", "sshKeyAssignment", "workspace", "workspaceLock", "workspaceTagBindings"]);
    expect(Object.keys(KINDS)).toHaveLength(kinds.length);
  });
});

describe("the Workspace inputs an update restores when they are left out", () => {
  test("are the table's \"none\" and \"inherited\" inputs, but for those settingOverwrites carries (executionMode, agentPoolId)", () => {
    const restoredByTable = topLevel(WORKSPACE_OMITTED)
      .filter(([, o]) => o.means === "none" || o.means === "inherited")
      .map(([key]) => key)
      .filter((key) => !Object.hasOwn(INHERITED_THROUGH_OVERWRITES, key));
    expect([...RESTORED_WHEN_OMITTED].sort()).toEqual(restoredByTable.sort());
    expect(RESTORED_WHEN_OMITTED).toEqual(expect.arrayContaining(["vcsRepo", "autoDestroyAt", "autoDestroyActivityDuration"]));
  });

  test("what settingOverwrites carries is inherited by the table, each through a settingOverwrites key the table derives", () => {
    expect(Object.keys(INHERITED_THROUGH_OVERWRITES)).toEqual(expect.arrayContaining(["executionMode", "agentPoolId"]));
    const table: Table = WORKSPACE_OMITTED;
    for (const [input, overwrite] of Object.entries(INHERITED_THROUGH_OVERWRITES)) {
      expect([input, table[input]?.means]).toEqual([input, "inherited"]);
      expect([input, table[`settingOverwrites.${overwrite}`]?.means]).toEqual([input, "derived"]);
    }
  });
});

describe("withoutFixedValues undoes withFixedValues", () => {
  // Inputs that hold no value the table would fill in anyway (what adopt and import write).
  const CASES: [string, Table, Props][] = [
    ["a Workspace declaring nothing optional", WORKSPACE_OMITTED, { name: "w", organization: "o" }],
    ["a Workspace with values other than the defaults", WORKSPACE_OMITTED, {
      name: "w", description: "d", autoApply: true, allowDestroyPlan: false, triggerPrefixes: ["modules/"], workingDirectory: "envs/prod",
      tagNames: ["a"], engineVersion: "1.9.0", executionMode: "local",
    }],
    ["a Workspace with a repository naming only its identifier", WORKSPACE_OMITTED, { name: "w", vcsRepo: { identifier: "acme/infra" } }],
    ["a Workspace with a repository's own branch and tags", WORKSPACE_OMITTED, {
      name: "w", fileTriggersEnabled: false, vcsRepo: { identifier: "acme/infra", oauthTokenId: "ot-1", branch: "dev", ingressSubmodules: true, tagsRegex: "^v" },
    }],
    ["a WorkspaceLock with its reason", WORKSPACE_LOCK_OMITTED, { workspaceId: "ws-1", reason: "freeze" }],
    ["a WorkspaceLock without one", WORKSPACE_LOCK_OMITTED, { workspaceId: "ws-1", forceUnlockOnDestroy: true }],
    ["an exclusive RemoteStateConsumers", REMOTE_STATE_CONSUMERS_OMITTED, { workspaceId: "ws-1", consumerIds: ["ws-2"], exclusive: true }],
    ["an additive WorkspaceTagBindings", WORKSPACE_TAG_BINDINGS_OMITTED, { workspaceId: "ws-1", tags: { env: "prod" } }],
    ["an SshKeyAssignment (no fixed values)", SSH_KEY_ASSIGNMENT_OMITTED, { workspaceId: "ws-1", sshKeyId: "sshkey-1" }],
    ["a DataRetentionPolicy (no fixed values)", DATA_RETENTION_POLICY_OMITTED, { workspaceId: "ws-1", dontDelete: true }],
    ["a ModuleVersionDeprecation (no fixed values)", MODULE_VERSION_DEPRECATION_OMITTED, { moduleName: "vpc", provider: "aws", version: "1.0.0", reason: "r" }],
  ];

  test.each(CASES)("%s", (_what, table, inputs) => {
    const filled = withFixedValues(table, inputs);
    expect(withoutFixedValues(table, filled)).toStrictEqual(inputs);
    // And the other way round: what was filled in is filled in again, identically.
    expect(withFixedValues(table, withoutFixedValues(table, filled))).toStrictEqual(filled);
    // Neither changes its argument.
    expect(filled).not.toBe(inputs);
  });

  test("a value equal to the default is not kept: it is what leaving the input out means", () => {
    const inputs = { name: "w", description: "", autoApply: false, triggerPatterns: [], vcsRepo: { identifier: "acme/infra", branch: "" } };
    expect(withoutFixedValues(WORKSPACE_OMITTED, withFixedValues(WORKSPACE_OMITTED, inputs))).toStrictEqual({ name: "w", vcsRepo: { identifier: "acme/infra" } });
  });

  test("withFixedValues leaves a declared value, an unknown object and a wrong type alone", () => {
    expect(withFixedValues(WORKSPACE_OMITTED, { name: "w", autoApply: true })).toMatchObject({ autoApply: true, allowDestroyPlan: true });
    const odd = { name: "w", vcsRepo: "not an object" };
    expect(withFixedValues(WORKSPACE_OMITTED, odd).vcsRepo).toBe("not an object");
  });
});

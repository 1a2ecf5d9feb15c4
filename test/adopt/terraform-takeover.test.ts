// What moves from Terraform to Pulumi and what it is called (provider/adopt/terraform/takeover.ts and
// addresses.ts), on the state OpenTofu wrote with the tfe provider against the emulator
// (test/fixtures/terraform-migration/): the workspaces, their settings' consumers, the key and the
// policy move, named after their addresses; the project, the SSH key and terraform_data stay, each with
// its reason; a state that holds nothing of the tfe provider or another organization's is refused.
import * as fs from "node:fs";
import * as path from "node:path";
import { nameOfAddress } from "../../provider/adopt/terraform/addresses";
import { readTerraformState, type TerraformState } from "../../provider/adopt/terraform/state";
import { TakeoverError, takeoverOf } from "../../provider/adopt/terraform/takeover";

const FIXTURES = path.join(__dirname, "..", "fixtures", "terraform-migration");
const state = readTerraformState(fs.readFileSync(path.join(FIXTURES, "terraform.tfstate"), "utf8"), "terraform.tfstate");

describe("names after Terraform addresses", () => {
  test.each([
    [{ module: [], name: "app" }, "app"],
    [{ module: [], name: "batch", key: 0 }, "batch-0"],
    [{ module: [{ name: "team", key: "web" }], name: "ws" }, "team-web-ws"],
    [{ module: [{ name: "a" }, { name: "b", key: 2 }], name: "x" }, "a-b-2-x"],
    [{ module: [], name: "ws", key: "eu west/1" }, "ws-eu_west_1"],
    [{ module: [], name: "ws", key: "" }, "ws-_"],
    [{ module: [], name: "tfe_workspace_app_8C1E2A4B" }, "tfe_workspace_app_8C1E2A4B"],
  ] as const)("%j → %s", (instance, name) => {
    expect(nameOfAddress(instance)).toBe(name);
  });
});

describe("the fixture's takeover", () => {
  const takeover = takeoverOf(state, "example-org", "terraform.tfstate");

  test("takes each workspace, the key of the one that has one, the settings' consumers and the workspace's policy, named after their addresses", () => {
    expect(takeover.taken.map((t) => `${t.kind} ${t.name} ← ${t.address} (${t.workspaceId})`).sort()).toEqual([
      "DataRetentionPolicy app ← tfe_data_retention_policy.app (ws-if1DUJVYATI1W8Nw)",
      "RemoteStateConsumers app ← tfe_workspace_settings.app (ws-if1DUJVYATI1W8Nw)",
      "SshKeyAssignment app ← tfe_workspace.app (ws-if1DUJVYATI1W8Nw)",
      "Workspace app ← tfe_workspace.app (ws-if1DUJVYATI1W8Nw)",
      "Workspace batch-0 ← tfe_workspace.batch[0] (ws-T69G3bYAsW3DJVX5)",
      "Workspace batch-1 ← tfe_workspace.batch[1] (ws-wSHSUskR8TYIXuwA)",
      "Workspace batch-2 ← tfe_workspace.batch[2] (ws-TREp3fODdscptfWD)",
      "Workspace team-api-ws ← module.team[\"api\"].tfe_workspace.ws (ws-HUHivj3JnOsBnDNL)",
      "Workspace team-web-ws ← module.team[\"web\"].tfe_workspace.ws (ws-w82yaAyX8edPjhmX)",
    ]);
  });

  test("releases exactly the instances something is taken from, the ones release-removed.tf names", () => {
    expect(takeover.released.map((i) => i.address).sort()).toEqual([
      "module.team[\"api\"].tfe_workspace.ws", "module.team[\"web\"].tfe_workspace.ws", "tfe_data_retention_policy.app", "tfe_workspace.app",
      "tfe_workspace.batch[0]", "tfe_workspace.batch[1]", "tfe_workspace.batch[2]", "tfe_workspace_settings.app",
    ]);
    const removedFrom = [...fs.readFileSync(path.join(FIXTURES, "release-removed.tf"), "utf8").matchAll(/^\s*from = (\S+)$/gm)].map((m) => m[1]).sort();
    const configAddresses = [...new Set(takeover.released.map((i) => (i.module.length > 0 ? `module.${i.module[0]?.name}` : i.configAddress)))].sort();
    expect(configAddresses).toEqual(removedFrom);
  });

  test("keeps the project, the SSH key and terraform_data, each with its reason; nothing is left unmanaged", () => {
    expect(takeover.kept).toEqual([
      { address: "terraform_data.app_reference", reason: "another provider's (terraform.io/builtin/terraform)" },
      { address: "tfe_project.platform", reason: "tfe_project has no kind in this package" },
      { address: "tfe_ssh_key.deploy", reason: "tfe_ssh_key has no kind in this package" },
    ]);
    expect(takeover.unmanaged).toEqual([]);
  });
});

/** The fixture's state with only the instances `keep` accepts. */
const only = (keep: (address: string) => boolean): TerraformState => ({ ...state, instances: state.instances.filter((i) => keep(i.address)) });

test("settings of a workspace Terraform did not create: only its consumers are taken, and the report says its settings are managed by neither", () => {
  const takeover = takeoverOf(only((a) => a === "tfe_workspace_settings.app"), "example-org", "s.tfstate");
  expect(takeover.taken.map((t) => `${t.kind} ${t.name}`)).toEqual(["RemoteStateConsumers app"]);
  expect(takeover.unmanaged).toEqual([
    "tfe_workspace_settings.app: the execution settings of workspace ws-if1DUJVYATI1W8Nw, which Terraform did not create: Pulumi takes its remote-state consumers only, and the workspace and its settings stay as they are, managed by neither",
  ]);
});

test("an organization's data retention policy stays with Terraform", () => {
  const policy = state.instances.find((i) => i.type === "tfe_data_retention_policy");
  if (policy === undefined) throw new Error("no policy in the fixture");
  const orgPolicy = { ...policy, attributes: { ...policy.attributes, workspace_id: null, organization: "example-org" } };
  const takeover = takeoverOf({ ...state, instances: [orgPolicy, ...state.instances.filter((i) => i.type === "tfe_workspace")] }, "example-org", "s.tfstate");
  expect(takeover.kept).toEqual([{ address: "tfe_data_retention_policy.app", reason: "an organization's data retention policy: DataRetentionPolicy manages a workspace's only" }]);
  expect(takeover.taken.some((t) => t.kind === "DataRetentionPolicy")).toBe(false);
});

describe("a state adopt cannot take over is refused with a sentence", () => {
  const refusal = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (error instanceof TakeoverError) return error.message;
      throw error;
    }
    throw new Error("no refusal");
  };

  test("one with no object of the tfe provider", () => {
    expect(refusal(() => takeoverOf(only((a) => a === "terraform_data.app_reference"), "example-org", "s.tfstate")))
      .toBe("s.tfstate: holds no object of the tfe provider (hashicorp/tfe): there is nothing for adopt to take over.");
  });

  test("another organization's", () => {
    expect(refusal(() => takeoverOf(state, "other-org", "s.tfstate")))
      .toBe("s.tfstate: manages objects of organization \"example-org\", not of \"other-org\": run adopt with --organization example-org.");
  });
});

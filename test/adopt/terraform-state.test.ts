// Reading what a Terraform configuration manages from its state (provider/adopt/terraform/state.ts), on
// the real files OpenTofu 1.10.10 and terraform-provider-tfe v0.79.0 wrote against the emulator
// (test/fixtures/terraform-migration/, whose README says how they were made): the raw state and
// `tofu show -json` of it give the same instances, addresses as Terraform prints them, and every input
// that cannot be read fails with a sentence naming it.
import * as fs from "node:fs";
import * as path from "node:path";
import { readTerraformState, TerraformStateError, type TerraformInstance } from "../../provider/adopt/terraform/state";

const FIXTURES = path.join(__dirname, "..", "fixtures", "terraform-migration");
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), "utf8");

/** What the comparison looks at: everything but the attributes, and of those the id. */
const summary = (instance: TerraformInstance): Record<string, unknown> => ({
  address: instance.address, configAddress: instance.configAddress, module: instance.module, type: instance.type, name: instance.name,
  key: instance.key, provider: instance.provider, id: instance.attributes.id, dependencies: [...instance.dependencies].sort(),
});

const failure = (text: string): string => {
  try {
    readTerraformState(text, "input.json");
  } catch (error) {
    if (error instanceof TerraformStateError) return error.message;
    throw error;
  }
  throw new Error("read without an error");
};

describe("the fixture's state", () => {
  const raw = readTerraformState(fixture("terraform.tfstate"), "terraform.tfstate");
  const shown = readTerraformState(fixture("show.json"), "show.json");

  test("holds every managed instance, each with its address as Terraform prints it; the data source is not one", () => {
    expect(raw.instances.map((i) => i.address).sort()).toEqual([
      "module.team[\"api\"].tfe_workspace.ws",
      "module.team[\"web\"].tfe_workspace.ws",
      "terraform_data.app_reference",
      "tfe_data_retention_policy.app",
      "tfe_project.platform",
      "tfe_ssh_key.deploy",
      "tfe_workspace.app",
      "tfe_workspace.batch[0]",
      "tfe_workspace.batch[1]",
      "tfe_workspace.batch[2]",
      "tfe_workspace_settings.app",
    ]);
    expect(raw).toMatchObject({ form: "raw state", terraformVersion: "1.10.10" });
  });

  test("the raw state and `tofu show -json` of it give the same instances, and the same attributes of every tfe_ one", () => {
    const byAddress = (instances: readonly TerraformInstance[]): TerraformInstance[] => [...instances].sort((a, b) => (a.address < b.address ? -1 : 1));
    expect(byAddress(shown.instances).map(summary)).toEqual(byAddress(raw.instances).map(summary));
    // Only dynamically typed attributes differ between the forms (terraform_data's `input`: `{ value, type }`
    // in the raw state, the value in show -json); the tfe provider's schema has none.
    const tfe = (instances: readonly TerraformInstance[]): Readonly<Record<string, unknown>>[] => byAddress(instances).filter((i) => i.type.startsWith("tfe_")).map((i) => i.attributes);
    expect(tfe(shown.instances)).toEqual(tfe(raw.instances));
    expect(shown.form).toBe("show -json");
  });

  test("module calls and instance keys are parsed: a for_each key is a string, a count index a number; the configuration address drops both", () => {
    const web = raw.instances.find((i) => i.address === "module.team[\"web\"].tfe_workspace.ws");
    expect(web && summary(web)).toEqual({
      address: "module.team[\"web\"].tfe_workspace.ws", configAddress: "module.team.tfe_workspace.ws", module: [{ name: "team", key: "web" }],
      type: "tfe_workspace", name: "ws", key: undefined, provider: "hashicorp/tfe", id: "ws-w82yaAyX8edPjhmX", dependencies: [],
    });
    const batch = raw.instances.find((i) => i.address === "tfe_workspace.batch[2]");
    expect(batch && { key: batch.key, configAddress: batch.configAddress, module: batch.module }).toEqual({ key: 2, configAddress: "tfe_workspace.batch", module: [] });
  });

  test("dependencies are configuration addresses, as the state records them: what the kept terraform_data refers to", () => {
    const kept = raw.instances.find((i) => i.address === "terraform_data.app_reference");
    expect(kept && { provider: kept.provider, dependencies: kept.dependencies }).toEqual({
      provider: "terraform.io/builtin/terraform", dependencies: ["tfe_project.platform", "tfe_ssh_key.deploy", "tfe_workspace.app"],
    });
  });

  test("a provider from Terraform's registry and one from OpenTofu's read alike", () => {
    const fromTerraform = fixture("terraform.tfstate").split("registry.opentofu.org/").join("registry.terraform.io/");
    expect(readTerraformState(fromTerraform, "terraform.tfstate").instances.map((i) => i.provider)).toEqual(raw.instances.map((i) => i.provider));
  });
});

describe("an input that cannot be read fails with a sentence naming it", () => {
  test("not JSON", () => {
    expect(failure("terraform {}")).toBe("input.json: is not JSON: give a raw state (terraform.tfstate, `terraform state pull`) or `terraform show -json` of it.");
  });

  test("an encrypted OpenTofu state", () => {
    expect(failure(JSON.stringify({ serial: 1, lineage: "x", meta: {}, encrypted_data: "AAAA", encryption_version: "v0" })))
      .toContain("input.json: is an encrypted OpenTofu state: give `tofu state pull` or `tofu show -json` of it");
  });

  test("a state of an older format", () => {
    expect(failure(JSON.stringify({ version: 3, serial: 1, modules: [] }))).toContain("input.json: is a state of format version 3; format 4");
  });

  test("a plan instead of a state", () => {
    expect(failure(fixture("plan-forget.json"))).toBe("input.json: is a plan (`terraform show -json <planfile>`), not a state: give the state, or `terraform show -json` without a plan file.");
  });

  test("JSON of something else", () => {
    expect(failure("[]")).toBe("input.json: is not a Terraform state: its JSON is not an object.");
    expect(failure("{\"name\": \"x\"}")).toContain("input.json: is neither a raw Terraform state");
  });

  test("a module address Terraform does not write", () => {
    const state = { version: 4, terraform_version: "1.9.0", resources: [{ module: "module.team[web]", mode: "managed", type: "tfe_workspace", name: "ws", provider: "provider[\"registry.terraform.io/hashicorp/tfe\"]", instances: [{ attributes: { id: "ws-1" } }] }] };
    expect(failure(JSON.stringify(state))).toBe("input.json: has a module address Terraform does not write: \"module.team[web]\".");
  });
});

test("an empty state reads as no instances, in either form", () => {
  expect(readTerraformState(JSON.stringify({ version: 4, terraform_version: "1.10.0", serial: 0, lineage: "x", outputs: {}, resources: [] }), "s").instances).toEqual([]);
  expect(readTerraformState(JSON.stringify({ format_version: "1.0", terraform_version: "1.10.0" }), "s").instances).toEqual([]);
});

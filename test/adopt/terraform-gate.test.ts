// The gate between Terraform's plan of the release and its apply (provider/adopt/terraform/gate.ts), on
// the plans OpenTofu made of the fixture's configuration (test/fixtures/terraform-migration/): the
// release with `removed` blocks forgets every moved object and passes; the same resource blocks deleted
// without them would delete each one, and the gate fails naming every address.
import * as fs from "node:fs";
import * as path from "node:path";
import { checkReleasePlan, gateReport, PlanUnreadableError } from "../../provider/adopt/terraform/gate";
import { readTerraformState } from "../../provider/adopt/terraform/state";
import { takeoverOf } from "../../provider/adopt/terraform/takeover";

const FIXTURES = path.join(__dirname, "..", "fixtures", "terraform-migration");
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const released = takeoverOf(readTerraformState(fixture("terraform.tfstate"), "terraform.tfstate"), "example-org", "terraform.tfstate").released.map((i) => i.address);

test("the release's plan forgets every released object: the gate passes", () => {
  expect(checkReleasePlan(fixture("plan-forget.json"), "plan-forget.json", released)).toEqual([]);
  expect(gateReport([])).toBe("The plan forgets every released object and changes none of them: Terraform may apply it.");
});

test("the plan of resource blocks deleted without removed blocks deletes them: the gate fails naming each address", () => {
  const findings = checkReleasePlan(fixture("plan-delete.json"), "plan-delete.json", released);
  expect(findings).toEqual([...released].sort().map((address) => ({ address, action: "delete" })));
  const report = gateReport(findings);
  expect(report).toContain("these 8 are not forgotten:\n  module.team[\"api\"].tfe_workspace.ws: delete, not forget\n");
  expect(report).toContain("  tfe_workspace_settings.app: delete, not forget\n");
  expect(report).toContain("Do not apply it");
});

test("a replaced, updated or absent released object fails the gate too", () => {
  const plan = JSON.parse(fixture("plan-forget.json")) as { resource_changes: { address: string; change: { actions: string[] } }[] };
  const set = (address: string, actions: string[]): void => {
    const change = plan.resource_changes.find((c) => c.address === address);
    if (change === undefined) throw new Error(`no ${address} in the plan`);
    change.change.actions = actions;
  };
  set("tfe_workspace.app", ["delete", "create"]);
  set("tfe_workspace.batch[1]", ["update"]);
  plan.resource_changes = plan.resource_changes.filter((c) => c.address !== "tfe_data_retention_policy.app");
  expect(checkReleasePlan(JSON.stringify(plan), "p.json", released)).toEqual([
    { address: "tfe_data_retention_policy.app", action: "missing" },
    { address: "tfe_workspace.app", action: "replace" },
    { address: "tfe_workspace.batch[1]", action: "update" },
  ]);
});

test("a state or text given instead of a plan is refused with a sentence", () => {
  const refusal = (text: string): string => {
    try {
      checkReleasePlan(text, "in.json", released);
    } catch (error) {
      if (error instanceof PlanUnreadableError) return error.message;
      throw error;
    }
    throw new Error("no refusal");
  };
  expect(refusal(fixture("show.json"))).toBe("in.json: is a state, not a plan: run `terraform plan -out=<planfile>`, then give `terraform show -json <planfile>`.");
  expect(refusal("Plan: 0 to add")).toBe("in.json: is not JSON: give `terraform show -json <planfile>` of the release's plan.");
});

describe("after `state rm` (older versions, CDKTF)", () => {
  type Plan = { resource_changes: { address: string }[]; prior_state: { values: { root_module: { resources: { address: string }[]; child_modules?: { resources: { address: string }[] }[] } } } };
  const planWithout = (addresses: readonly string[], alsoFromPrior: boolean): string => {
    const plan = JSON.parse(fixture("plan-forget.json")) as Plan;
    plan.resource_changes = plan.resource_changes.filter((c) => !addresses.includes(c.address));
    if (alsoFromPrior) {
      const root = plan.prior_state.values.root_module;
      root.resources = root.resources.filter((r) => !addresses.includes(r.address));
      for (const child of root.child_modules ?? []) child.resources = child.resources.filter((r) => !addresses.includes(r.address));
    }
    return JSON.stringify(plan);
  };

  test("a released object in neither the plan's changes nor its prior state was forgotten already: the gate passes", () => {
    expect(checkReleasePlan(planWithout(released, true), "plan.json", released)).toEqual([]);
  });

  test("one still in the prior state but not in the changes is still Terraform's: the gate fails", () => {
    expect(checkReleasePlan(planWithout(["tfe_workspace.app"], false), "plan.json", released)).toEqual([{ address: "tfe_workspace.app", action: "missing" }]);
  });
});

test("the plan of a run that errored is refused", () => {
  const plan = { ...(JSON.parse(fixture("plan-forget.json")) as object), errored: true };
  expect(() => checkReleasePlan(JSON.stringify(plan), "plan.json", released)).toThrow("is the plan of a run that errored");
});

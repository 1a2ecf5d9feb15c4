// The release written for the user's tool and version (provider/adopt/terraform/release.ts), for the
// fixture's state (test/fixtures/terraform-migration/): the `removed` blocks of release-removed.tf,
// which OpenTofu planned as forgetting every moved object; `lifecycle { destroy = false }` only where
// the version needs and takes it; `state rm` where a block cannot say it; and what the kept
// terraform_data should refer to instead.
import * as fs from "node:fs";
import * as path from "node:path";
import { forgetForm, parseReleaseTool, writeRelease, type ReleaseTool } from "../../provider/adopt/terraform/release";
import { readTerraformState } from "../../provider/adopt/terraform/state";
import { takeoverOf } from "../../provider/adopt/terraform/takeover";

const FIXTURES = path.join(__dirname, "..", "fixtures", "terraform-migration");
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const state = readTerraformState(fixture("terraform.tfstate"), "terraform.tfstate");
const { released } = takeoverOf(state, "example-org", "terraform.tfstate");
const tool = (text: string): ReleaseTool => {
  const parsed = parseReleaseTool(text);
  if (parsed === undefined) throw new Error(`not a tool: ${text}`);
  return parsed;
};
const froms = (file: string): string[] => [...file.matchAll(/^\s*from = (\S+)$/gm)].map((m) => m[1] ?? "");

test.each([
  ["terraform 1.6.6", "state rm"], ["terraform 1.7.0", "removed with lifecycle"], ["terraform v1.14.1", "removed with lifecycle"],
  ["opentofu 1.6.2", "state rm"], ["tofu 1.7.0", "removed"], ["opentofu 1.9.1", "removed"], ["opentofu 1.10.10", "removed with lifecycle"],
])("%s forgets with %s", (text, form) => {
  expect(forgetForm(tool(text))).toBe(form);
});

test("for OpenTofu 1.10 the blocks are release-removed.tf's, the one OpenTofu planned as forgetting every moved object, dependents first", () => {
  const release = writeRelease(state, released, tool("opentofu 1.10.10"));
  expect(froms(release.file).sort()).toEqual(froms(fixture("release-removed.tf")).sort());
  const order = froms(release.file);
  expect(order.indexOf("tfe_workspace_settings.app")).toBeLessThan(order.indexOf("tfe_workspace.app"));
  expect(order.indexOf("tfe_workspace_settings.app")).toBeLessThan(order.indexOf("module.team"));
  expect(order.indexOf("tfe_data_retention_policy.app")).toBeLessThan(order.indexOf("tfe_workspace.app"));
  expect(release.file.match(/lifecycle \{\n    destroy = false\n  \}/g)).toHaveLength(5);
  expect(release.stateRm).toEqual([]);
  expect(release.deleteFromConfiguration).toEqual(["module.team", "tfe_data_retention_policy.app", "tfe_workspace.app", "tfe_workspace.batch", "tfe_workspace_settings.app"]);
});

test("the kept terraform_data that refers to tfe_workspace.app is told what to refer to instead, with the data block to add; the removed blocks' file has none", () => {
  const release = writeRelease(state, released, tool("terraform 1.9.0"));
  expect(release.rewrites).toEqual([
    { address: "terraform_data.app_reference", refersTo: "tfe_workspace.app", instead: "data.tfe_workspace.app.id (or the literal id \"ws-if1DUJVYATI1W8Nw\")" },
  ]);
  expect(release.dataBlocks).toBe("data \"tfe_workspace\" \"app\" {\n  name = \"app-prod\"\n}\n");
  expect(release.file).not.toContain("data ");
});

test("OpenTofu 1.7 to 1.9 gets the blocks without lifecycle, which it would reject; older versions get state rm for every instance", () => {
  const tofu19 = writeRelease(state, released, tool("opentofu 1.9.0"));
  expect(froms(tofu19.file)).toHaveLength(5);
  expect(tofu19.file).not.toContain("lifecycle");
  const terraform16 = writeRelease(state, released, tool("terraform 1.6.0"));
  expect(froms(terraform16.file)).toEqual([]);
  expect(terraform16.stateRm).toEqual([...released].map((i) => `terraform state rm '${i.address}'`).sort());
});

test("one instance of several moving: no block can name it, so a state rm does, and the resource block stays to be edited", () => {
  const one = released.filter((i) => i.address === "tfe_workspace.batch[1]");
  const release = writeRelease(state, one, tool("opentofu 1.10.0"));
  expect(froms(release.file)).toEqual([]);
  expect(release.stateRm).toEqual(["tofu state rm 'tfe_workspace.batch[1]'"]);
  expect(release.deleteFromConfiguration).toEqual([]);
});

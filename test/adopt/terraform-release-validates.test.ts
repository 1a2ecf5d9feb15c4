// The release files written for the fixture's state (provider/adopt/terraform/release.ts) checked by the real
// OpenTofu, the version that wrote test/fixtures/terraform-migration/ (scripts/setup-tofu.sh): `tofu init
// -backend=false` and `tofu validate` on the `removed` blocks alone, which need no provider. The tfe provider
// is on no registry these machines reach, so nothing that needs it (the data blocks, the fixture's whole
// configuration) is validated here.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseReleaseTool, writeRelease, type ReleaseTool } from "../../provider/adopt/terraform/release";
import { readTerraformState } from "../../provider/adopt/terraform/state";
import { takeoverOf } from "../../provider/adopt/terraform/takeover";
import { tofuBinary, tofuValidate } from "../support/tofu";

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
const removedBlocks = (file: string): string[] => [...file.matchAll(/^removed \{\n[\s\S]*?^\}\n/gm)].map((m) => m[0]);

// The first run on a machine builds tofu (several minutes with empty Go caches) unless scripts/test.sh did.
beforeAll(() => {
  tofuBinary();
}, 600_000);

test("the release for OpenTofu 1.10, removed blocks with lifecycle { destroy = false }, passes tofu validate", () => {
  const release = writeRelease(state, released, tool("opentofu 1.10.10"));
  expect(froms(release.file)).toHaveLength(5);
  expect(release.file).toContain("destroy = false");
  const result = tofuValidate({ "removed.tf": release.file });
  expect(result.output).toContain("The configuration is valid");
  expect(result.status).toBe(0);
});

test("the release for OpenTofu 1.8, removed blocks without lifecycle, passes tofu validate", () => {
  const release = writeRelease(state, released, tool("opentofu 1.8.0"));
  expect(froms(release.file)).toHaveLength(5);
  expect(release.file).not.toContain("lifecycle");
  const result = tofuValidate({ "removed.tf": release.file });
  expect(result.output).toContain("The configuration is valid");
  expect(result.status).toBe(0);
});

test("a removed block whose from names one instance (tfe_workspace.batch[0]) is refused, which is why one instance of several gets a state rm", () => {
  const release = writeRelease(state, released, tool("opentofu 1.10.10"));
  const oneInstance = release.file.replace("from = tfe_workspace.batch\n", "from = tfe_workspace.batch[0]\n");
  expect(froms(oneInstance)).toContain("tfe_workspace.batch[0]");
  const result = tofuValidate({ "removed.tf": oneInstance });
  expect(result.status).not.toBe(0);
  expect(result.output).toContain("Resource instance address with keys is not allowed");
  expect(result.output).toContain("tfe_workspace.batch[0]");
});

test("the fixture's release-removed.tf needs the tfe provider (a provider block, tfe resources and a data block), so its removed blocks are validated alone, and pass", () => {
  const file = fixture("release-removed.tf");
  expect(file).toMatch(/^provider "tfe" \{/m);
  expect(file).toMatch(/^data "tfe_workspace" /m);
  const blocks = removedBlocks(file);
  expect(blocks.flatMap(froms).sort()).toEqual(froms(file).sort());
  expect(blocks).toHaveLength(5);
  const result = tofuValidate({ "removed.tf": blocks.join("\n") });
  expect(result.output).toContain("The configuration is valid");
  expect(result.status).toBe(0);
});

// CLI, plugin launcher and SDK must be one release: the engine and the SDK negotiate features, and a
// mismatch shows up as odd preview or serialization behaviour rather than a clear error.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiCli, repoRoot } from "../../scripts/lib/stack-harness";

function lockedSdkVersion(): string {
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages["node_modules/@pulumi/pulumi"]?.version;
  if (!version) throw new Error("package-lock.json does not pin @pulumi/pulumi");
  return version;
}

test("pulumi version equals the @pulumi/pulumi version in package-lock.json", async () => {
  const cli = await pulumiCli();
  const printed = execFileSync(cli.command, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  expect(printed.trim()).toBe(`v${lockedSdkVersion()}`);
});

test("the Go module the CLI is built from pins the same release", () => {
  const goMod = fs.readFileSync(path.join(repoRoot, "scripts/pulumi-cli/go.mod"), "utf8");
  expect(goMod).toMatch(new RegExp(`^\\s*github\\.com/pulumi/pulumi/pkg/v3 v${lockedSdkVersion().replace(/\./g, "\\.")}\\b`, "m"));
  expect(goMod).toMatch(new RegExp(`^\\s*github\\.com/pulumi/pulumi/sdk/v3 v${lockedSdkVersion().replace(/\./g, "\\.")}\\b`, "m"));
});

test("the dynamic-provider launcher beside the CLI is the one the SDK ships", async () => {
  const cli = await pulumiCli();
  const launcher = path.join(path.dirname(cli.command), "pulumi-resource-pulumi-nodejs");
  const shipped = path.join(repoRoot, "node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs");
  expect(fs.readFileSync(launcher, "utf8")).toBe(fs.readFileSync(shipped, "utf8"));
  expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
});

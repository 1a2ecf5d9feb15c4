// The Terraform side of the migration tests: the emulator started from the fixture's persisted data
// (test/fixtures/terraform-migration/, made by OpenTofu with the tfe provider against this emulator), so
// every id in its state exists with the values Terraform set, and a read-only token (a team with `read`
// on every workspace) as adopt's users run it with.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";

export const TERRAFORM_FIXTURES = path.join(__dirname, "..", "fixtures", "terraform-migration");
export const fixturePath = (name: string): string => path.join(TERRAFORM_FIXTURES, name);
export const fixtureText = (name: string): string => fs.readFileSync(fixturePath(name), "utf8");

/** The organization the fixture's objects are in. */
export const TERRAFORM_ORGANIZATION = "example-org";

/** A copy of the fixture's emulator data in `dir` (the emulator writes to its state file). */
export function copyEmulatorData(dir: string): string {
  const file = path.join(dir, "emulator-data.json");
  fs.copyFileSync(fixturePath("emulator-data.json"), file);
  return file;
}

export interface TerraformEstate {
  readonly emulator: RunningEmulator;
  readonly readOnlyToken: string;
  /** A folder of the test's own, removed by close(). */
  readonly dir: string;
  close(): Promise<void>;
}

export async function startTerraformEstate(): Promise<TerraformEstate> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-terraform-"));
  const emulator = await startEmulator({ port: 0, quiet: true, stateFile: copyEmulatorData(dir), edition: "self-managed" });
  const readOnlyToken = emulator.issueToken({ kind: "team", team: "migration-readers", access: "read" });
  return {
    emulator, readOnlyToken, dir,
    close: async () => {
      await emulator.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

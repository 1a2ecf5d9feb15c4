// The real OpenTofu CLI (scripts/setup-tofu.sh: the version that wrote test/fixtures/terraform-migration/),
// and `tofu validate` of a configuration made of given files, with no network: a configuration with no
// provider (only `removed` blocks, say) needs none downloaded. The tfe provider itself is on no registry
// these machines reach, so files that need it cannot be validated here.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// Not stack-harness's repoRoot: that module loads @pulumi/pulumi (about a CPU-second), which nothing here needs.
const repoRoot = path.join(__dirname, "..", "..");

let found: string | undefined;

/**
 * The `tofu` executable: the one scripts/test.sh found or built before jest started (WSBRIDGE_TOFU), else
 * what scripts/setup-tofu.sh prints, run once per process (a single file run outside scripts/test.sh; the
 * first run on a machine builds it, several minutes with empty Go caches).
 */
export function tofuBinary(): string {
  const given = process.env.WSBRIDGE_TOFU;
  if (given !== undefined && given !== "") return given;
  if (found === undefined) {
    const printed = execFileSync("bash", [path.join(repoRoot, "scripts/setup-tofu.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const last = printed.trim().split("\n").pop() ?? "";
    if (last === "") throw new Error("scripts/setup-tofu.sh printed no path");
    found = last;
  }
  return found;
}

export interface TofuResult {
  /** The exit status of `tofu init`, if it failed, else of `tofu validate`. */
  status: number;
  /** What the command of `status` printed, stdout then stderr. */
  output: string;
}

/**
 * Writes `files` (name → text) into a fresh temporary folder and runs `tofu init -backend=false` and then
 * `tofu validate` there; init already refuses a configuration it cannot read, so its failure is the result.
 * The CLI configuration is an empty file of the folder's and no TF_* variable of the caller's reaches tofu
 * (TF_CLI_ARGS and the like would change what runs). The folder is removed afterwards.
 */
export function tofuValidate(files: Record<string, string>): TofuResult {
  const tofu = tofuBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-tofu-"));
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const cliConfig = path.join(dir, ".tofurc");
    fs.writeFileSync(cliConfig, "");
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("TF_")) env[key] = value;
    Object.assign(env, { TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" });
    const run = (args: string[]): TofuResult => {
      const result = spawnSync(tofu, args, { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
      if (result.error !== undefined) throw result.error;
      if (result.status === null) throw new Error(`tofu ${args[0] ?? ""} ended by ${result.signal ?? "a signal"}`);
      return { status: result.status, output: result.stdout + result.stderr };
    };
    const init = run(["init", "-backend=false", "-input=false", "-no-color"]);
    if (init.status !== 0) return init;
    return run(["validate", "-no-color"]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

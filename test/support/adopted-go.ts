// The Go program `wsbridge adopt --language go` wrote, run on the real CLI with no Go language host:
// its files (main.go without its main, adopted.go, each adopted_<n>.go) beside test/go/_adopt/main.go,
// which runs Program and Adopted inline through the Automation API, in a module of their own (nothing
// is written into test/go, which other tests build at the same time). A split's programs share one
// module and one build, each a package of its own.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot, type StackSecrets } from "../../scripts/lib/stack-harness";

/** What a command printed on stdout; its stderr in the error when it fails. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      (error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`))));
  });
}

/** main.go's `func main() { … }`, which the driver replaces. */
const MAIN = /\nfunc main\(\) \{\n[\s\S]*?\n\}\n/;

/** The module's go.mod (requiring test/go, the Go SDK replaced by the repository's) and go.sum. */
function moduleFiles(module: string): void {
  const goDir = path.join(repoRoot, "test", "go");
  const goVersion = /^go (\S+)$/m.exec(fs.readFileSync(path.join(goDir, "go.mod"), "utf8"))?.[1] ?? "1.25";
  fs.writeFileSync(path.join(module, "go.mod"), [
    "module wsbridge.test/adopt", "", `go ${goVersion}`, "",
    "require github.com/pulumi-wsbridge/pulumi-wsbridge/test/go v0.0.0", "",
    `replace github.com/pulumi-wsbridge/pulumi-wsbridge/test/go => ${goDir}`, "",
    `replace github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go => ${path.join(repoRoot, "sdk", "go")}`, "",
  ].join("\n"));
  fs.copyFileSync(path.join(goDir, "go.sum"), path.join(module, "go.sum"));
}

/** The program's files from `programDir` into `target`, main.go as program.go without its main, in package `pkg`. */
function copyProgram(programDir: string, target: string, pkg: string): void {
  fs.mkdirSync(target, { recursive: true });
  for (const file of fs.readdirSync(programDir).filter((f) => f.endsWith(".go"))) {
    let text = fs.readFileSync(path.join(programDir, file), "utf8");
    if (file === "main.go") text = text.replace(MAIN, "\n");
    if (pkg !== "main") text = text.replace(/^package main$/m, `package ${pkg}`);
    fs.writeFileSync(path.join(target, file === "main.go" ? "program.go" : file), text);
  }
}

/**
 * A Go module in `dir`/`name` holding test/go/_adopt/main.go and the adopted program's files from
 * `programDir`, over test/go's module and the Go SDK by replace directives, with test/go's go.sum.
 */
export function goModuleOf(programDir: string, dir: string, name = "go-module"): string {
  const module = path.join(dir, name);
  fs.rmSync(module, { recursive: true, force: true });
  fs.mkdirSync(module, { recursive: true });
  moduleFiles(module);
  fs.copyFileSync(path.join(repoRoot, "test", "go", "_adopt", "main.go"), path.join(module, "main.go"));
  copyProgram(programDir, module, "main");
  return module;
}

/**
 * The programs of several folders (a split's) in one module, each a package of its own, and
 * test/go/_adopt/main.go running the one WSBRIDGE_GO_PROGRAM names (its index): built once, with
 * `go build`, for every stack of the split, where a module per folder costs a build and a link each.
 * Returns the built driver's path.
 */
export async function goDriverOfFolders(programDirs: readonly string[], dir: string): Promise<string> {
  const module = path.join(dir, "go-folders");
  fs.rmSync(module, { recursive: true, force: true });
  fs.mkdirSync(module, { recursive: true });
  moduleFiles(module);
  const driver = fs.readFileSync(path.join(repoRoot, "test", "go", "_adopt", "main.go"), "utf8");
  const dispatched = driver.replace("if err := Program(pctx); err != nil {", "if err := program(pctx); err != nil {").replace("return Adopted(pctx)", "return adopted(pctx)");
  if (dispatched === driver) throw new Error("test/go/_adopt/main.go no longer calls Program and Adopted as goDriverOfFolders expects");
  fs.writeFileSync(path.join(module, "main.go"), dispatched);
  programDirs.forEach((programDir, i) => copyProgram(programDir, path.join(module, `p${i}`), `p${i}`));
  const cases = (call: string): string[] => programDirs.flatMap((_d, i) => [`\tcase ${i}:`, `\t\treturn p${i}.${call}(ctx)`]);
  fs.writeFileSync(path.join(module, "programs.go"), [
    "package main", "", "import (", '\t"fmt"', '\t"os"', '\t"strconv"', "", '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"', "",
    ...programDirs.map((_d, i) => `\tp${i} "wsbridge.test/adopt/p${i}"`), ")", "",
    "func chosen() int {", '\tn, _ := strconv.Atoi(os.Getenv("WSBRIDGE_GO_PROGRAM"))', "\treturn n", "}", "",
    "func program(ctx *pulumi.Context) error {", "\tswitch chosen() {", ...cases("Program"), "\t}", '\treturn fmt.Errorf("no program %d", chosen())', "}", "",
    "func adopted(ctx *pulumi.Context) error {", "\tswitch chosen() {", ...cases("Adopted"), "\t}", '\treturn fmt.Errorf("no program %d", chosen())', "}", "",
  ].join("\n"));
  await runCommand("go", ["build", "-o", "driver", "."], module, { ...process.env, HOME: os.homedir(), GOFLAGS: "-mod=mod -trimpath" });
  return path.join(module, "driver");
}

/**
 * `go run . <project> <stack> <action>` in the module (or the built `driver` of goDriverOfFolders, running
 * the program of folder `index`): the change summary the operation printed. HOME stays the user's: Go keeps
 * its build and module caches below it (an empty HOME would have Go download and compile the Pulumi SDK
 * afresh: minutes). A stack that `pulumi stack init` made: its settings file in `stack.settingsFrom` (with its
 * secrets provider) is copied to where test/go/harness opens the stack, as YamlProject.inlineStack does for
 * TypeScript; one the harness makes gets `stack.secrets`' provider.
 */
export async function runAdoptedGo(
  module: string, action: "preview" | "up",
  stack: { project: string; name: string; workDir: string; settingsFrom?: string; secrets?: StackSecrets; env: Record<string, string> },
  settings: { address: string; token: string; organization: string }, driver?: { path: string; index: number },
): Promise<Record<string, number>> {
  if (stack.settingsFrom !== undefined) {
    const settingsFile = `Pulumi.${stack.name}.yaml`;
    const stackDir = path.join(stack.workDir, `${stack.project}.${stack.name}`);
    fs.mkdirSync(stackDir, { recursive: true });
    fs.copyFileSync(path.join(stack.settingsFrom, settingsFile), path.join(stackDir, settingsFile));
  }
  const env = {
    ...stack.env, HOME: os.homedir(), GOFLAGS: "-mod=mod -trimpath", WSBRIDGE_GO_ADDRESS: settings.address, WSBRIDGE_GO_TOKEN: settings.token,
    WSBRIDGE_GO_ORGANIZATION: settings.organization, WSBRIDGE_GO_WORKDIR: stack.workDir, WSBRIDGE_GO_PROGRAM: String(driver?.index ?? 0),
    ...(stack.secrets === undefined ? {} : { WSBRIDGE_GO_SECRETS_PROVIDER: stack.secrets.provider }),
  };
  const printed = driver === undefined
    ? await runCommand("go", ["run", ".", stack.project, stack.name, action], module, env)
    : await runCommand(driver.path, [stack.project, stack.name, action], module, env);
  return JSON.parse(printed.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;
}

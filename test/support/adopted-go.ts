// The Go program `wsbridge adopt --language go` wrote, run on the real CLI with no Go language host:
// its files (main.go without its main, adopted.go, each adopted_<n>.go) beside test/go/_adopt/main.go,
// which runs Program and Adopted inline through the Automation API, in a module of their own (nothing
// is written into test/go, which other tests build at the same time).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../scripts/lib/stack-harness";

/** What a command printed on stdout; its stderr in the error when it fails. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      (error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`))));
  });
}

/** main.go's `func main() { … }`, which the driver replaces. */
const MAIN = /\nfunc main\(\) \{\n[\s\S]*?\n\}\n/;

/**
 * A Go module in `dir`/`name` holding test/go/_adopt/main.go and the adopted program's files from
 * `programDir`, over test/go's module and the Go SDK by replace directives, with test/go's go.sum.
 */
export function goModuleOf(programDir: string, dir: string, name = "go-module"): string {
  const goDir = path.join(repoRoot, "test", "go");
  const module = path.join(dir, name);
  fs.rmSync(module, { recursive: true, force: true });
  fs.mkdirSync(module, { recursive: true });
  const goVersion = /^go (\S+)$/m.exec(fs.readFileSync(path.join(goDir, "go.mod"), "utf8"))?.[1] ?? "1.25";
  fs.writeFileSync(path.join(module, "go.mod"), [
    "module wsbridge.test/adopt", "", `go ${goVersion}`, "",
    "require github.com/pulumi-wsbridge/pulumi-wsbridge/test/go v0.0.0", "",
    `replace github.com/pulumi-wsbridge/pulumi-wsbridge/test/go => ${goDir}`, "",
    `replace github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go => ${path.join(repoRoot, "sdk", "go")}`, "",
  ].join("\n"));
  fs.copyFileSync(path.join(goDir, "go.sum"), path.join(module, "go.sum"));
  fs.copyFileSync(path.join(goDir, "_adopt", "main.go"), path.join(module, "main.go"));
  for (const file of fs.readdirSync(programDir).filter((f) => f.endsWith(".go"))) {
    const text = fs.readFileSync(path.join(programDir, file), "utf8");
    fs.writeFileSync(path.join(module, file === "main.go" ? "program.go" : file), file === "main.go" ? text.replace(MAIN, "\n") : text);
  }
  return module;
}

/**
 * `go run . <project> <stack> <action>` in the module: the change summary the operation printed. HOME
 * stays the user's: Go keeps its build and module caches below it (an empty HOME would have Go
 * download and compile the Pulumi SDK afresh: minutes).
 */
export async function runAdoptedGo(
  module: string, action: "preview" | "up", stack: { project: string; name: string; workDir: string; env: Record<string, string> },
  settings: { address: string; token: string; organization: string },
): Promise<Record<string, number>> {
  const printed = await runCommand("go", ["run", ".", stack.project, stack.name, action], module, {
    ...stack.env, HOME: os.homedir(), GOFLAGS: "-mod=mod", WSBRIDGE_GO_ADDRESS: settings.address, WSBRIDGE_GO_TOKEN: settings.token,
    WSBRIDGE_GO_ORGANIZATION: settings.organization, WSBRIDGE_GO_WORKDIR: stack.workDir,
  });
  return JSON.parse(printed.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;
}

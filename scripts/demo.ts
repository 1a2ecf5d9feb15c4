// The demo: starts the emulator, runs `pulumi up` of examples/quickstart with the real CLI, prints
// the outputs, destroys, stops the emulator and removes every temporary file. Run by scripts/demo.sh.
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";
import { createStack, emulatorStackConfig, pulumiCli, repoRoot } from "./lib/stack-harness";

interface EmulatorProcess {
  url: string;
  token: string;
  organization: string;
  child: ChildProcess;
}

/** Starts `wsbridge-emulator` as its own process, as a user would, and reads the lines it prints. */
function startEmulatorProcess(): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [path.join(repoRoot, "dist/emulator/cli.js"), "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const seen: Record<string, string> = {};
    const lines = readline.createInterface({ input: child.stdout! });
    child.once("exit", (code) => reject(new Error(`the emulator exited early (code ${code})`)));
    lines.on("line", (line) => {
      const match = /^WSBRIDGE_EMULATOR_(URL|TOKEN|ORGANIZATION)=(.*)$/.exec(line);
      if (match) seen[match[1]!] = match[2]!;
      if (seen.URL && seen.TOKEN && seen.ORGANIZATION) {
        lines.close();
        child.stdout?.resume();
        resolve({ url: seen.URL, token: seen.TOKEN, organization: seen.ORGANIZATION, child });
      }
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function main(): Promise<void> {
  const cli = await pulumiCli();
  console.log(`Pulumi CLI: ${cli.version?.toString() ?? "unknown"} (${cli.command})`);
  const emulator = await startEmulatorProcess();
  console.log(`Emulator:   ${emulator.url} (organization ${emulator.organization})\n`);
  const example = path.join(repoRoot, "examples/quickstart/index.ts");
  const harness = await createStack({
    cli,
    projectName: "wsbridge-quickstart",
    stackName: "demo",
    config: emulatorStackConfig(emulator),
    program: async () => {
      delete require.cache[example];
      return require(example) as Record<string, unknown>;
    },
  });
  const print = (text: string): void => void process.stdout.write(text);
  try {
    console.log("$ pulumi up (examples/quickstart)");
    const up = await harness.stack.up({ onOutput: print, color: "never" });
    console.log("\nOutputs of examples/quickstart:");
    for (const [name, output] of Object.entries(up.outputs)) console.log(`  ${name.padEnd(14)} ${String(output.value)}`);
    console.log("\n$ pulumi destroy");
    await harness.stack.destroy({ onOutput: print, color: "never" });
  } finally {
    await harness.dispose();
    await stop(emulator.child);
  }
  console.log("\nDemo finished: the workspace was created, shown and destroyed; the emulator is stopped.");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// Makes the older-state fixture's files with an older commit's code. scripts/make-older-state-fixtures.sh
// copies this file and older-state-program.ts into a worktree of that commit and runs it there
// (`node -r ./scripts/lib/register-ts.js test/support/older-state-fixture-run.ts <out>`), so every
// import below resolves to that commit's code: its stack harness, its `pulumi-wsbridge`, its generated
// SDK and plugin archive, and its emulator (dist/emulator/cli.js, started as its own process).
//
// 1. For each route: `up` of the shared program, then `refresh` (the lock, the key, the tag bindings and
//    the consumers change what a Workspace's outputs show of its workspace after it was created: a
//    refresh takes that in, as a user's next refresh would, so that the state is in step with the
//    server), and the stack's state and settings are copied to <out>.
// 2. For each route, on that state and the server as both stacks left it (what the test starts from):
//    `preview`, `up` and `refresh` with this commit's code, each of which must change nothing and send
//    no write; the requests and messages of each are written to <out>/operations.json, for the test
//    to compare.
// 3. The emulator's state file is copied to <out>.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { createStack, emulatorStackConfig, pulumiCli, repoRoot, type HarnessStack } from "../../scripts/lib/stack-harness";
import {
  OLDER_STATE_EDITION,
  OLDER_STATE_FIXTURES,
  OLDER_STATE_PASSPHRASE,
  OLDER_STATE_PORT,
  OLDER_STATE_PROJECT,
  OLDER_STATE_ROUTES,
  olderStateMessages,
  olderStateProgram,
  olderStateRequestLines,
  type OlderStateLibrary,
  type OlderStateLoggedRequest,
  type OlderStateOperation,
  type OlderStateOperationRecord,
  type OlderStateOperations,
  type OlderStateRoute,
} from "./older-state-program";

interface EmulatorProcess {
  url: string;
  token: string;
  organization: string;
  child: ChildProcess;
}

/** This commit's `wsbridge-emulator`, on the fixture's port, persisting to `stateFile`. */
function startEmulator(stateFile: string, fixturesFile: string): Promise<EmulatorProcess> {
  const args = [
    path.join(repoRoot, "dist/emulator/cli.js"), "--port", String(OLDER_STATE_PORT), "--edition", OLDER_STATE_EDITION,
    "--fixtures", fixturesFile, "--state-file", stateFile, "--quiet",
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const seen: Record<string, string> = {};
    const lines = readline.createInterface({ input: child.stdout! });
    child.once("exit", (code) => reject(new Error(`the emulator exited early (code ${code}); is port ${OLDER_STATE_PORT} taken?`)));
    lines.on("line", (line) => {
      const match = /^WSBRIDGE_EMULATOR_(URL|TOKEN|ORGANIZATION)=(.*)$/.exec(line);
      if (match) seen[match[1]!] = match[2]!;
      if (seen.URL && seen.TOKEN && seen.ORGANIZATION) {
        lines.close();
        child.stdout?.resume();
        child.removeAllListeners("exit");
        resolve({ url: seen.URL, token: seen.TOKEN, organization: seen.ORGANIZATION, child });
      }
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The emulator's request log since it was last cleared, then clears it. */
async function takeRequests(emulator: EmulatorProcess): Promise<string[]> {
  const res = await fetch(`${emulator.url}/_emulator/requests`);
  const entries = (await res.json()) as OlderStateLoggedRequest[];
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
  return olderStateRequestLines(entries);
}

/** The engine's steps other than `same`, as `op name` (a refresh's steps are all `refresh`). */
function changes(events: EngineEvent[]): string[] {
  return events.flatMap((e) => {
    const m = e.resourcePreEvent?.metadata;
    return m && m.op !== "same" && m.op !== "refresh" ? [`${m.op} ${m.urn.split("::").pop() ?? ""}`] : [];
  });
}

/** The file backend's state file of the stack (`.pulumi/stacks/<project>/<stack>.json`). */
function stackStateFile(harness: HarnessStack, route: OlderStateRoute): string {
  const file = path.join(harness.dir, "backend", ".pulumi", "stacks", OLDER_STATE_PROJECT, `${route}.json`);
  if (!fs.existsSync(file)) throw new Error(`no state file at ${file}`);
  return file;
}

async function library(route: OlderStateRoute): Promise<OlderStateLibrary> {
  return (route === "plugin" ? await import("@pulumi-wsbridge/wsbridge") : await import("pulumi-wsbridge")) as unknown as OlderStateLibrary;
}

/** Step 1: the stack made, in step with the server, and its files copied to `out`. */
async function makeStack(route: OlderStateRoute, emulator: EmulatorProcess, out: string): Promise<HarnessStack> {
  const harness = await createStack({
    cli: await pulumiCli(),
    projectName: OLDER_STATE_PROJECT,
    stackName: route,
    program: olderStateProgram(route, await library(route)),
    config: emulatorStackConfig(emulator),
    env: { PULUMI_CONFIG_PASSPHRASE: OLDER_STATE_PASSPHRASE },
    plugin: route === "plugin",
  });
  const up = await harness.stack.up({ color: "never" });
  console.log(`${route}: up ${JSON.stringify(up.summary.resourceChanges)}`);
  const refresh = await harness.stack.refresh({ color: "never" });
  console.log(`${route}: refresh ${JSON.stringify(refresh.summary.resourceChanges)}`);
  fs.copyFileSync(stackStateFile(harness, route), path.join(out, `${route}.state.json`));
  fs.copyFileSync(path.join(harness.dir, `Pulumi.${route}.yaml`), path.join(out, `Pulumi.${route}.yaml`));
  return harness;
}

/** Step 2: what the test repeats, with this commit's code: no change, no write; the requests and messages of each operation. */
async function repeatWhatTheTestDoes(
  route: OlderStateRoute, harness: HarnessStack, emulator: EmulatorProcess,
): Promise<Record<OlderStateOperation, OlderStateOperationRecord>> {
  const { stack } = harness;
  const run = async (operation: OlderStateOperation): Promise<OlderStateOperationRecord> => {
    await takeRequests(emulator);
    const events: EngineEvent[] = [];
    const onEvent = (e: EngineEvent): void => void events.push(e);
    if (operation === "preview") await stack.preview({ color: "never", onEvent });
    else if (operation === "up") await stack.up({ color: "never", onEvent });
    else await stack.refresh({ color: "never", onEvent });
    const requests = await takeRequests(emulator);
    const changed = changes(events);
    if (changed.length > 0) throw new Error(`${route}: this commit's own ${operation} of its fixture changes ${changed.join(", ")}`);
    const written = requests.filter((line) => !line.startsWith("GET "));
    if (written.length > 0) throw new Error(`${route}: this commit's own ${operation} of its fixture writes: ${written.join(", ")}`);
    const messages = olderStateMessages(events);
    console.log(`${route}: ${operation}: no change, ${requests.length} GET requests, ${messages.length} messages`);
    return { requests, messages };
  };
  return { preview: await run("preview"), up: await run("up"), refresh: await run("refresh") };
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (out === undefined) throw new Error("usage: older-state-fixture-run.ts <output folder>");
  fs.mkdirSync(out, { recursive: true });
  const fixturesFile = path.join(out, "fixtures.json");
  const stateFile = path.join(out, "emulator-state.json");
  fs.writeFileSync(fixturesFile, `${JSON.stringify(OLDER_STATE_FIXTURES, null, 2)}\n`);
  const emulator = await startEmulator(stateFile, fixturesFile);
  const stacks = new Map<OlderStateRoute, HarnessStack>();
  try {
    for (const route of OLDER_STATE_ROUTES) stacks.set(route, await makeStack(route, emulator, out));
    const operations: Partial<OlderStateOperations> = {};
    for (const [route, harness] of stacks) operations[route] = await repeatWhatTheTestDoes(route, harness, emulator);
    fs.writeFileSync(path.join(out, "operations.json"), `${JSON.stringify(operations, null, 2)}\n`);
  } finally {
    for (const harness of stacks.values()) await harness.dispose();
    await stop(emulator.child);
  }
  fs.rmSync(fixturesFile);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

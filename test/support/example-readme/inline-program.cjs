// `pulumi up` / `pulumi preview` in the folder of a user's copy of an example, for the README test:
// runs the folder's index.ts inline (Automation API, the real CLI as the engine) on the currently
// selected stack of the backend the user logged in to, with the Pulumi.<stack>.yaml the CLI wrote.
// Everything resolves from the folder's node_modules (the SDK, the installed pulumi-wsbridge, the
// folder's TypeScript), as the language host would resolve it. Appends one JSON line per run to
// $WSBRIDGE_README_RUN_LOG: { command, args, changes, outputs }. After `up` the Automation API would ask
// the CLI three more questions (`stack output` twice, `stack history`) that `pulumi up` itself never
// asks; as the tests' harness does (scripts/lib/stack-harness.ts), they are answered from the run's
// summary event and the state file the CLI just wrote, and by the CLI only when those cannot answer.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

const folder = process.cwd();
const fromFolder = createRequire(path.join(folder, "package.json"));
const { LocalWorkspace, PulumiCommand, Stack } = fromFolder("@pulumi/pulumi/automation");
const ts = fromFolder("typescript");

// The language host compiles the program with the project's TypeScript; so does this.
require.extensions[".ts"] = function loadTypeScript(module, filename) {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, "utf8"), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};

/** The flags a README may use; any other one fails loudly rather than being ignored. */
function parse(args) {
  const options = { diff: false, stack: undefined };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--diff") options.diff = true;
    else if (arg === "--yes" || arg === "-y" || arg === "--skip-preview") continue;
    else if (arg === "--stack" || arg === "-s") options.stack = args[++i];
    else throw new Error(`inline-program.cjs does not know the flag ${arg}: teach it, or change the README`);
  }
  return options;
}

/** Pulumi's marker of a secret value in serialized state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** The stack resource's outputs in the file backend the user logged in to; undefined when not there. */
function outputsInState(stackName) {
  const home = process.env.PULUMI_HOME ?? path.join(process.env.HOME ?? "", ".pulumi");
  let current;
  try {
    current = JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")).current;
  } catch {
    return undefined;
  }
  if (typeof current !== "string" || !current.startsWith("file://")) return undefined;
  const stacks = path.join(current.slice("file://".length), ".pulumi", "stacks");
  if (!fs.existsSync(stacks)) return undefined;
  const file = fs.readdirSync(stacks, { withFileTypes: true, recursive: true }).find((e) => e.isFile() && e.name === `${stackName}.json`);
  if (file === undefined) return undefined;
  const resources = JSON.parse(fs.readFileSync(path.join(file.parentPath, file.name), "utf8")).checkpoint?.latest?.resources ?? [];
  const outputs = resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  return JSON.stringify(outputs).includes(SECRET_SIGNATURE) ? undefined : outputs;
}

/** Answers the Automation API's follow-ups of `up` from the run (see the header). */
function answerFollowUpsFromTheRun(stack, run) {
  const viaCli = { outputs: stack.outputs.bind(stack), info: stack.info.bind(stack) };
  stack.outputs = async () => {
    const outputs = outputsInState(stack.name);
    if (outputs === undefined) return viaCli.outputs();
    return Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]));
  };
  stack.info = async (showSecrets) => {
    if (run.summary === undefined) return viaCli.info(showSecrets);
    return { kind: "update", startTime: new Date(), endTime: new Date(), message: "", environment: {}, config: {},
      result: "succeeded", resourceChanges: run.summary.resourceChanges };
  };
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const options = parse(args);
  const pulumiCommand = await PulumiCommand.get({ root: process.env.WSBRIDGE_REAL_PULUMI_ROOT });
  // index.ts's `export =` becomes module.exports: its fields are the stack outputs. One run per
  // process, so its top level runs exactly once, as under the language host.
  const program = async () => fromFolder(path.join(folder, "index.ts"));
  const workspace = await LocalWorkspace.create({ workDir: folder, pulumiCommand, program });
  const name = options.stack ?? (await workspace.stack())?.name;
  if (name === undefined) throw new Error("no stack selected (pulumi stack init / select)");
  const stack = await Stack.select(name, workspace);
  const onOutput = (text) => process.stdout.write(text);
  const record = { command, args };
  if (command === "preview") {
    record.changes = (await stack.preview({ onOutput, diff: options.diff })).changeSummary;
  } else {
    const run = {};
    answerFollowUpsFromTheRun(stack, run);
    const onEvent = (event) => {
      if (event.summaryEvent) run.summary = event.summaryEvent;
    };
    const result = await stack.up({ onOutput, onEvent, diff: options.diff });
    record.changes = result.summary.resourceChanges;
    record.outputs = Object.fromEntries(Object.entries(result.outputs).map(([key, o]) => [key, o.secret ? "[secret]" : o.value]));
  }
  if (process.env.WSBRIDGE_README_RUN_LOG) fs.appendFileSync(process.env.WSBRIDGE_README_RUN_LOG, `${JSON.stringify(record)}\n`);
}

main().catch((e) => {
  process.stderr.write(`error: ${e && e.message ? e.message : String(e)}\n`);
  process.exit(1);
});

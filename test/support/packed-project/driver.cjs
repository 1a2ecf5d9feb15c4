// Runs programs through `up`, a no-op `preview` and `destroy` with the real Pulumi CLI, from inside a
// project that installed pulumi-wsbridge from its tarball: the Automation API, the SDK and the package
// all resolve from that project's node_modules, as in a user's project (no link to the repository).
// Programs run inline because no Node.js language host can be built on these machines. Several
// program modules (a CommonJS one and an ES module, say) are declared together in one stack, each
// with its own workspace; the stack's outputs are each program's outputs under its workspace's name.
//
//   node driver.cjs <file with settings as JSON>
// Settings: { cliRoot, url, token, organization, programs: [{ module, workspaceName }], stateDir,
// blankedVariables }. Prints one JSON line.
//
// After `up` and `destroy` the Automation API asks the CLI for the outputs (`stack output`, twice) and
// the summary (`stack history`); as the tests' harness does (scripts/lib/stack-harness.ts), those are
// answered from the run's summary event and the state file the CLI just wrote.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");

/** Pulumi's marker of a secret value in serialized state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

function outputsInState(backend) {
  const file = path.join(backend, ".pulumi", "stacks", "packed", "dev.json");
  if (!fs.existsSync(file)) return undefined;
  const resources = JSON.parse(fs.readFileSync(file, "utf8")).checkpoint?.latest?.resources ?? [];
  const outputs = resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  return JSON.stringify(outputs).includes(SECRET_SIGNATURE) ? undefined : outputs;
}

/** Answers the follow-ups from the last run (see the header); the CLI only where they cannot. */
function answerFollowUpsFromTheRun(stack, backend, last) {
  const viaCli = { outputs: stack.outputs.bind(stack), info: stack.info.bind(stack) };
  stack.outputs = async () => {
    const outputs = outputsInState(backend);
    if (outputs === undefined) return viaCli.outputs();
    return Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]));
  };
  stack.info = async (showSecrets) => {
    if (last.summary === undefined) return viaCli.info(showSecrets);
    return { kind: last.kind, startTime: new Date(), endTime: new Date(), message: "", environment: {}, config: {},
      result: "succeeded", resourceChanges: last.summary.resourceChanges };
  };
}

async function main() {
  const [settingsFile] = process.argv.slice(2);
  const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8"));
  const pulumiCommand = await PulumiCommand.get({ root: settings.cliRoot });
  const backend = path.join(settings.stateDir, "backend");
  const home = path.join(settings.stateDir, "home");
  fs.mkdirSync(backend, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  // Each program module exports a function that declares the resources and returns the outputs
  // (`module.exports = …` for CommonJS, which import() gives as the default export).
  const programs = await Promise.all(settings.programs.map(async ({ module, workspaceName }) =>
    ({ workspaceName, declare: (await import(pathToFileURL(path.resolve(module)).href)).default })));
  const stack = await LocalWorkspace.createStack(
    {
      stackName: "dev",
      projectName: "packed",
      program: async () => Object.fromEntries(programs.map(({ workspaceName, declare }) => [workspaceName, declare(workspaceName)])),
    },
    {
      pulumiCommand,
      workDir: process.cwd(),
      envVars: {
        PULUMI_BACKEND_URL: pathToFileURL(backend).href,
        PULUMI_HOME: home,
        PULUMI_CONFIG_PASSPHRASE: "packed-project",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // No credentials or settings of the machine's own reach the stack (the test's harness list).
        ...Object.fromEntries(settings.blankedVariables.map((name) => [name, ""])),
      },
    },
  );
  const last = {};
  answerFollowUpsFromTheRun(stack, backend, last);
  const summarized = (kind) => {
    last.kind = kind;
    last.summary = undefined;
    return { onEvent: (event) => { if (event.summaryEvent) last.summary = event.summaryEvent; } };
  };
  await stack.setAllConfig({
    "wsbridge:address": { value: settings.url },
    "wsbridge:token": { value: settings.token, secret: true },
    "wsbridge:organization": { value: settings.organization },
  });
  const up = await stack.up(summarized("update"));
  const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  const preview = await stack.preview();
  const destroy = await stack.destroy(summarized("destroy"));
  const report = {
    sdkVersion: require("@pulumi/pulumi/package.json").version,
    packageDir: fs.realpathSync(path.dirname(require.resolve("pulumi-wsbridge/package.json"))),
    up: up.summary.resourceChanges,
    outputs,
    preview: preview.changeSummary,
    destroy: destroy.summary.resourceChanges,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e && e.stack ? e.stack : String(e)}\n`);
  process.exit(1);
});

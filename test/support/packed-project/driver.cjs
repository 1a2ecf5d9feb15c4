// Runs one program through `up`, a no-op `preview` and `destroy` with the real Pulumi CLI, from inside
// a project that installed pulumi-wsbridge from its tarball: the Automation API, the SDK and the
// package all resolve from that project's node_modules, as in a user's project (no link to the
// repository). Programs run inline because no Node.js language host can be built on these machines.
//
//   node driver.cjs <program module> <file with settings as JSON>
// Settings: { cliRoot, url, token, organization, workspaceName, stateDir, blankedVariables }.
// Prints one JSON line.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");

async function main() {
  const [programModule, settingsFile] = process.argv.slice(2);
  const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8"));
  const pulumiCommand = await PulumiCommand.get({ root: settings.cliRoot });
  const backend = path.join(settings.stateDir, "backend");
  const home = path.join(settings.stateDir, "home");
  fs.mkdirSync(backend, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  // The program module exports a function that declares the resources and returns the outputs
  // (`module.exports = …` for CommonJS, which import() gives as the default export).
  const { default: declare } = await import(pathToFileURL(path.resolve(programModule)).href);
  const stack = await LocalWorkspace.createStack(
    { stackName: "dev", projectName: "packed", program: async () => declare(settings.workspaceName) },
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
  await stack.setAllConfig({
    "wsbridge:address": { value: settings.url },
    "wsbridge:token": { value: settings.token, secret: true },
    "wsbridge:organization": { value: settings.organization },
  });
  const up = await stack.up();
  const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  const preview = await stack.preview();
  const destroy = await stack.destroy();
  await stack.workspace.removeStack("dev");
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

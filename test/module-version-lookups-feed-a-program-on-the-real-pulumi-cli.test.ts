// listModuleVersionsOutput and getModuleVersionOutput in a program run by the real Pulumi CLI against
// the emulator: the program refuses to pin a deprecated module version (its preview fails with the
// registry's reason, sending only GETs), and with a version that is not deprecated it exports the
// versions and which of them are deprecated. The Output plumbing itself is proven by the workspace
// lookups' CLI test; this one stays minimal. It fails (never skips) without the CLI, and imports
// `pulumi-wsbridge` from dist/: run `npx tsc -p tsconfig.json` first.
import * as pulumi from "@pulumi/pulumi";
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../scripts/lib/stack-harness";
import { failureOf } from "./support/failure";

const REASON = "1.0.0 leaks subnets";
const LINK = "https://example.com/vpc/upgrade";

let emulator: RunningEmulator;
let cli: PulumiCommand;
let harness: HarnessStack;
let printed = "";
const log = (text: string): void => {
  printed += text;
};

beforeAll(async () => {
  cli = await pulumiCli();
  emulator = await startEmulator({
    port: 0,
    quiet: true,
    fixtures: {
      organizations: [{
        name: "example-org",
        registryModules: [{ name: "vpc", provider: "aws", versions: [{ version: "1.0.0", deprecation: { reason: REASON, link: LINK } }, "1.1.0"] }],
      }],
    },
  });
  harness = await createStack({
    cli,
    projectName: "wsbridge-module-lookups-e2e",
    config: { ...emulatorStackConfig(emulator), "wsbridge-module-lookups-e2e:vpcVersion": { value: "1.0.0" } },
    program: async () => {
      const { getModuleVersionOutput, listModuleVersionsOutput } = await import("pulumi-wsbridge");
      const pin = new pulumi.Config().require("vpcVersion");
      // The organization, address and token come from the stack config, read in the program process.
      const pinned = getModuleVersionOutput({ moduleName: "vpc", provider: "aws", version: pin }).apply((v) => {
        // An error logged fails the preview and the update; a throw inside apply would escape as an unhandled rejection.
        if (v.deprecated) {
          pulumi.log.error(`Refusing to pin vpc ${v.version}: it is deprecated (${v.deprecation?.reason ?? "no reason given"}; see ${v.deprecation?.link ?? "no link"})`);
          return undefined;
        }
        return v.version;
      });
      const listed = listModuleVersionsOutput({ moduleName: "vpc", provider: "aws" });
      return {
        pinnedVpcVersion: pinned,
        vpcVersions: listed.versions,
        deprecatedVpcVersions: listed.versions.apply((vs) => vs.filter((v) => v.deprecated).map((v) => v.version)),
      };
    },
  });
}, 20 * 60 * 1000);

afterAll(async () => {
  await harness?.dispose();
  await emulator?.close();
});

test("preview refuses to pin a deprecated version, naming the registry's reason and link, and sends only GETs", async () => {
  emulator.clearRequests();
  const err = await failureOf(harness.stack.preview({ onOutput: log }));
  expect(err.message).toContain(`Refusing to pin vpc 1.0.0: it is deprecated (${REASON}; see ${LINK})`);
  const requests = emulator.requests();
  expect(requests.map((r) => `${r.method} ${r.path}`)).toContain("GET /api/registry/v1/modules/example-org/vpc/aws/1.0.0");
  expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
});

test("up with a version that is not deprecated exports every version and which are deprecated; nothing holds the token", async () => {
  await harness.stack.setConfig("vpcVersion", { value: "1.1.0" });
  const up = await harness.stack.up({ onOutput: log });
  expect(up.outputs["pinnedVpcVersion"]?.value).toBe("1.1.0");
  expect(up.outputs["deprecatedVpcVersions"]?.value).toEqual(["1.0.0"]);
  expect(up.outputs["vpcVersions"]?.value).toEqual([
    { version: "1.0.0", deprecated: true, deprecation: { reason: REASON, link: LINK } },
    { version: "1.1.0", deprecated: false, deprecation: null },
  ]);
  expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  expect(printed.length).toBeGreaterThan(0);
  expect(printed).not.toContain(emulator.token);
  expect(harness.allStoredText()).toContain(REASON);
  expect(harness.allStoredText()).not.toContain(emulator.token);
});

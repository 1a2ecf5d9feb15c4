// listModuleVersionsOutput and getModuleVersionOutput in a program run by the real Pulumi CLI against
// the emulator: the program refuses to pin a deprecated module version (its preview fails with the
// registry's reason, sending only GETs), and with a version that is not deprecated it exports the
// versions and which of them are deprecated. The Output plumbing itself is proven by the workspace
// lookups' CLI test; this one stays minimal. It fails (never skips) without the CLI, and imports
// `pulumi-wsbridge` from dist/: run `npx tsc -p tsconfig.json` first.
import * as pulumi from "@pulumi/pulumi";
import { failureOf } from "../support/failure";
import { useRealCliStack } from "../support/real-cli-stack";

const REASON = "1.0.0 leaks subnets";
const LINK = "https://example.com/vpc/upgrade";

const e2e = useRealCliStack({
  projectName: "wsbridge-module-lookups-e2e",
  emulator: {
    quiet: true,
    fixtures: {
      organizations: [{
        name: "example-org",
        registryModules: [{ name: "vpc", provider: "aws", versions: [{ version: "1.0.0", deprecation: { reason: REASON, link: LINK } }, "1.1.0"] }],
      }],
    },
  },
  config: { "wsbridge-module-lookups-e2e:vpcVersion": { value: "1.0.0" } },
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

test("preview refuses to pin a deprecated version, naming the registry's reason and link, and sends only GETs", async () => {
  e2e.emulator.clearRequests();
  const err = await failureOf(e2e.stack.preview({ onOutput: e2e.log }));
  expect(err.message).toContain(`Refusing to pin vpc 1.0.0: it is deprecated (${REASON}; see ${LINK})`);
  const requests = e2e.emulator.requests();
  expect(e2e.requestLines()).toContain("GET /api/registry/v1/modules/example-org/vpc/aws/1.0.0");
  expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
});

test("up with a version that is not deprecated exports every version and which are deprecated; nothing holds the token", async () => {
  await e2e.stack.setConfig("vpcVersion", { value: "1.1.0" });
  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.outputs["pinnedVpcVersion"]?.value).toBe("1.1.0");
  expect(up.outputs["deprecatedVpcVersions"]?.value).toEqual(["1.0.0"]);
  expect(up.outputs["vpcVersions"]?.value).toEqual([
    { version: "1.0.0", deprecated: true, deprecation: { reason: REASON, link: LINK } },
    { version: "1.1.0", deprecated: false, deprecation: null },
  ]);
  expect(e2e.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
  expect(e2e.printed.length).toBeGreaterThan(0);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
  expect(e2e.harness.allStoredText()).toContain(REASON);
  expect(e2e.harness.allStoredText()).not.toContain(e2e.emulator.token);
});

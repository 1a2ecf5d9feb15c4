// Explicit providers on the plugin route, on the real CLI: one program manages workspaces on two servers
// (two emulators), the default provider from the stack config and `new Provider("eu", { address, token,
// organization })` for the other. Each resource and lookup reaches only its own server; a preview with
// nothing changed reaches neither; rotating the second server's token updates the provider and replaces
// nothing; the token is stored only encrypted; destroy deletes each workspace on its own server.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { useRealCliStack } from "../support/real-cli-stack";
import { plannedSteps } from "../support/plugin-route";

const EU_ORG = "eu-org";
let eu: RunningEmulator;
let euToken = "";

const e2e = useRealCliStack({
  projectName: "wsbridge-plugin-providers",
  plugin: true,
  program: async () => {
    const pulumi = await import("@pulumi/pulumi");
    const wsbridge = await import("@pulumi-wsbridge/wsbridge");
    const euProvider = new wsbridge.Provider("eu", { address: eu.url, token: pulumi.secret(euToken), organization: EU_ORG });
    const home = new wsbridge.Workspace("home", { name: "home-network" });
    const away = new wsbridge.Workspace("away", { name: "eu-network", description: "in the EU" }, { provider: euProvider });
    // A lookup through the explicit provider reads the EU server.
    const found = wsbridge.getWorkspaceOutput({ name: "eu-network" }, { provider: euProvider, dependsOn: [away] });
    return { homeId: home.id, homeOrg: home.organization, awayId: away.id, awayOrg: away.organization, foundId: found.id };
  },
});

beforeAll(async () => {
  eu = await startEmulator({ port: 0, fixtures: { organizations: [{ name: EU_ORG }] } });
  euToken = eu.issueToken({ kind: "owner", organization: EU_ORG });
});

afterAll(async () => {
  await eu?.close();
});

function clearBoth(): void {
  e2e.emulator.clearRequests();
  eu.clearRequests();
}

const euLines = (): string[] => eu.requests().map((r) => `${r.method} ${r.path.replace("/api/v2", "").replace(/ws-[A-Za-z0-9]+/g, "ws-…")}`);
const homeLines = (): string[] => e2e.requestLines((p) => p.replace("/api/v2", "").replace(/ws-[A-Za-z0-9]+/g, "ws-…"));

test("up creates each workspace on its own provider's server, and the lookup reads the second server", async () => {
  clearBoth();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.outputs.homeOrg?.value).toBe(e2e.emulator.organization);
  expect(result.outputs.awayOrg?.value).toBe(EU_ORG);
  expect(result.outputs.foundId?.value).toBe(result.outputs.awayId?.value);
  expect(homeLines()).toEqual([`POST /organizations/${e2e.emulator.organization}/workspaces`]);
  expect(euLines()).toEqual([`POST /organizations/${EU_ORG}/workspaces`, `GET /organizations/${EU_ORG}/workspaces/eu-network`]);
  const onEu = await fetch(`${eu.url}/api/v2/workspaces/${String(result.outputs.awayId?.value)}`, { headers: { authorization: `Bearer ${euToken}` } });
  expect(onEu.status).toBe(200);
});

test("a preview with nothing changed sends no request to either server but the lookup's read", async () => {
  clearBoth();
  const events: EngineEvent[] = [];
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(plannedSteps(events, "wsbridge:index:Workspace")).toEqual([]);
  expect(homeLines()).toEqual([]);
  expect(euLines()).toEqual([`GET /organizations/${EU_ORG}/workspaces/eu-network`]);
});

test("a new token for the second server updates its provider and replaces nothing", async () => {
  euToken = eu.issueToken({ kind: "owner", organization: EU_ORG });
  const events: EngineEvent[] = [];
  await e2e.stack.preview({ onEvent: (e) => events.push(e), onOutput: e2e.log });
  expect(plannedSteps(events, "pulumi:providers:wsbridge")).toEqual([{ op: "update", name: "eu", paths: [], diffs: ["token"] }]);
  expect(plannedSteps(events, "wsbridge:index:Workspace")).toEqual([]);
  clearBoth();
  const result = await e2e.stack.up({ onOutput: e2e.log });
  expect(result.summary.resourceChanges).toEqual({ same: 3, update: 1 });
  expect(homeLines()).toEqual([]);
  expect(euLines()).toEqual([`GET /organizations/${EU_ORG}/workspaces/eu-network`]);
});

test("the tokens are stored only encrypted, and printed nowhere", () => {
  const stored = e2e.harness.allStoredText();
  expect(stored).not.toContain(euToken);
  expect(stored).not.toContain(e2e.emulator.token);
  expect(e2e.printed).not.toContain(euToken);
});

test("destroy deletes each workspace on its own server", async () => {
  clearBoth();
  await e2e.stack.destroy({ onOutput: e2e.log });
  expect(homeLines()).toEqual(["POST /workspaces/ws-…/actions/safe-delete"]);
  expect(euLines()).toEqual(["POST /workspaces/ws-…/actions/safe-delete"]);
});

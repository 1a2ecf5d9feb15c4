// Scale (issue 14): the `listWorkspaces` lookup's runtime (what the program process runs) over an
// organization of 1,000 workspaces, seeded through the emulator's fixtures, reads every page of 100 and
// nothing more: each workspace comes back exactly once, from ten list requests, pages 1 to 10.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { listWorkspaces, type LookupContext } from "../../provider/runtime/lookups/workspaces";

const WORKSPACE_COUNT = 1000;
const PAGE_SIZE = 100; // the client's page size, the largest the service accepts
const NAMES = Array.from({ length: WORKSPACE_COUNT }, (_, i) => `fleet-${String(i).padStart(4, "0")}`);

/** An empty HOME, so no credentials file of the developer's can take part. */
const home = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-thousand-home-"));
let emulator: RunningEmulator;
let context: LookupContext;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    quiet: true,
    fixtures: { organizations: [{ name: "example-org", workspaces: NAMES.map((name) => ({ name })) }] },
  });
  const settings: Record<string, string> = {
    "wsbridge:address": emulator.url, "wsbridge:token": emulator.token, "wsbridge:organization": emulator.organization,
  };
  context = { config: { get: (key) => settings[key] }, env: { HOME: home } };
});

afterAll(async () => {
  await emulator?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

test("a lookup of 1,000 workspaces returns each of them once, reading pages 1 to 10 of 100 and no further", async () => {
  emulator.clearRequests();

  const results = await listWorkspaces({}, context);

  expect(results).toHaveLength(WORKSPACE_COUNT);
  expect(results.map((w) => w.name).sort()).toEqual(NAMES);
  expect(new Set(results.map((w) => w.id)).size).toBe(WORKSPACE_COUNT);
  const requests = emulator.requests();
  expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(
    Array.from({ length: WORKSPACE_COUNT / PAGE_SIZE }, () => "GET /api/v2/organizations/example-org/workspaces 200"),
  );
  const pages = requests.map((r) => new URLSearchParams(r.query));
  expect(pages.map((q) => q.get("page[number]"))).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
  expect(pages.map((q) => q.get("page[size]"))).toEqual(Array.from({ length: 10 }, () => String(PAGE_SIZE)));
});

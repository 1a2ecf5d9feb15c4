// A reviewer's (or a CI job's) read-only team token on the real Pulumi CLI: after an owner's `up` of a
// small program (two workspaces and a set of tag bindings), the program is changed and the stack is
// given a token with `read` access only. Its preview works and shows the changes without one write;
// its `up` fails with a message that says the token may not make the change, and the server is as
// the owner left it (the only writes it saw are the refused ones). Fails (never skips) without the
// CLI. Imports `pulumi-wsbridge` from dist/: run `npx tsc -p tsconfig.json` first.
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { stepsOf } from "../support/engine-events";
import { useRealCliStack } from "../support/real-cli-stack";

const TYPE = (kind: string): string => `pulumi-nodejs:dynamic/wsbridge:${kind}`;
const DECLARED = { apiDescription: "Public API", tier: "gold" };
const CHANGED = { apiDescription: "Public API, now with rate limits", tier: "platinum" };

let readOnlyToken = "";
let declared = DECLARED;

const e2e = useRealCliStack({
  projectName: "wsbridge-read-only",
  emulator: { quiet: true },
  program: async () => {
    const { Workspace, WorkspaceTagBindings } = await import("pulumi-wsbridge");
    const api = new Workspace("api", { name: "ro-api", description: declared.apiDescription });
    const worker = new Workspace("worker", { name: "ro-worker", description: "Background jobs" });
    // On the workspace that does not change, so its update is attempted even when the api's fails.
    new WorkspaceTagBindings("worker-tags", { workspaceId: worker.id, tags: { tier: declared.tier, team: "web" } });
    return { id: api.id };
  },
});

type Doc = { id: string; attributes: Record<string, unknown> };

async function get(apiPath: string): Promise<{ status: number; data?: Doc | Doc[] }> {
  const { status, doc } = await e2e.api<{ data?: Doc | Doc[] }>("GET", apiPath);
  return { status, data: doc.data };
}

/** What the server holds of the program's objects, read with the owner token. */
async function serverState(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const name of ["ro-api", "ro-worker"]) {
    const ws = (await get(`/organizations/${e2e.emulator.organization}/workspaces/${name}`)).data as Doc;
    const bindings = ((await get(`/workspaces/${ws.id}/tag-bindings`)).data as Doc[]).map((b) => [b.attributes["key"], b.attributes["value"]]);
    out[name] = { description: ws.attributes["description"], updatedAt: ws.attributes["updated-at"], tags: Object.fromEntries(bindings) };
  }
  return out;
}

beforeAll(async () => {
  readOnlyToken = e2e.emulator.issueToken({ kind: "team", access: "read" });
  const up = await e2e.stack.up({ onOutput: e2e.log });
  expect(up.summary.resourceChanges).toEqual({ create: 4 });
  // From here on the stack runs with the read-only token, and the program declares the changes.
  await e2e.stack.setConfig("wsbridge:token", { value: readOnlyToken, secret: true });
  declared = CHANGED;
}, 20 * 60 * 1000);

test("with a read-only token, a preview of the changed program shows the changes and sends no write", async () => {
  const events: EngineEvent[] = [];
  e2e.emulator.clearRequests();
  const preview = await e2e.stack.preview({ onOutput: e2e.log, onEvent: (e) => events.push(e) });
  expect(preview.changeSummary).toEqual({ same: 2, update: 2 });
  expect(stepsOf(events, TYPE("Workspace"))).toEqual([{ op: "update", name: "api", changedInputs: ["description"] }]);
  expect(stepsOf(events, TYPE("WorkspaceTagBindings"))).toEqual([{ op: "update", name: "worker-tags", changedInputs: ["tags"] }]);
  const sent = e2e.emulator.requests();
  expect(sent.length).toBeGreaterThan(0); // the preview did talk to the server, with the read-only token
  expect(sent.filter((r) => r.tokenKind !== "team")).toEqual([]);
  expect(sent.filter((r) => r.method !== "GET")).toEqual([]);
});

let upFailure = "";

test("with a read-only token, up fails, the server is unchanged and the only writes it saw were refused", async () => {
  const before = await serverState();
  e2e.emulator.clearRequests();
  // --continue-on-error: the engine attempts every change instead of stopping at the first refusal.
  const failure = await e2e.stack.up({ onOutput: e2e.log, continueOnError: true }).then(() => undefined, (error: unknown) => error);
  if (!(failure instanceof Error)) throw new Error("up with a read-only token succeeded");
  upFailure = failure.message;
  expect(upFailure).not.toContain(readOnlyToken);
  expect(upFailure).not.toContain(e2e.emulator.token);

  // Every request came with the read-only token; both writes (the workspace, the tags) were refused.
  const sent = e2e.emulator.requests();
  expect(sent.filter((r) => r.tokenKind !== "team")).toEqual([]);
  const refusedWrites = sent.filter((r) => r.method !== "GET");
  expect(refusedWrites.map((r) => r.method).sort()).toEqual(["PATCH", "PATCH"]);
  for (const write of refusedWrites) expect([403, 404]).toContain(write.status);
  expect(await serverState()).toEqual(before);
  expect(before["ro-api"]).toEqual(expect.objectContaining({ description: DECLARED.apiDescription }));
  expect(before["ro-worker"]).toEqual(expect.objectContaining({ tags: { tier: DECLARED.tier, team: "web" } }));
});

test("the tag bindings' error says the token may not manage the workspace's tags, and what access it needs", () => {
  expect(upFailure).toMatch(/WorkspaceTagBindings on workspace "ws-[A-Za-z0-9]+": the tags were not bound because the token may not manage the workspace's tags \(it needs admin access/);
});

test("the workspace's error says the token may not change its settings, not that it may not exist", () => {
  expect(upFailure).toMatch(/Workspace[^\n]*ro-api|Workspace[^\n]*ws-[A-Za-z0-9]+/);
  expect(upFailure).toMatch(/wsbridge:Workspace \(api\):\s*\n\s*error: [^\n]*token may not (change|update)/);
});

test("nothing the CLI printed contains a token", () => {
  expect(e2e.printed).toContain(TYPE("Workspace")); // the logs really were captured
  expect(e2e.printed).not.toContain(readOnlyToken);
  expect(e2e.printed).not.toContain(e2e.emulator.token);
});

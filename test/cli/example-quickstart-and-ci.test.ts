// examples/quickstart and examples/ci, run by the real Pulumi CLI against the emulator: up creates
// what each declares (checked on the emulator) with the expected stack outputs, a second preview
// changes nothing and sends no mutating request, and destroy leaves nothing behind. The quickstart
// gets the provider's settings from stack config, as its README says; the ci example gets them from
// the environment, as pull-request.yml passes them, and its preview runs with a read-only team token,
// as the workflow's pull-request job does. Fails (never skips) without the CLI (scripts/setup-pulumi.sh
// finds or builds it). Imports `pulumi-wsbridge` from dist/: run `npx tsc -p tsconfig.json` first.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { createStack, emulatorStackConfig, repoRoot, type HarnessStack } from "../../scripts/lib/stack-harness";
import { useEmulatorAndCli } from "../support/real-cli-stack";

const TYPE = (kind: string): string => `pulumi-nodejs:dynamic/wsbridge:${kind}`;

/** The project name in an example's Pulumi.yaml: its config keys live in that namespace. */
function projectNameOf(example: string): string {
  const yaml = fs.readFileSync(path.join(repoRoot, "examples", example, "Pulumi.yaml"), "utf8");
  return /^name:\s*(\S+)\s*$/m.exec(yaml)?.[1] ?? "";
}

type Resource = { id: string; attributes: Record<string, unknown> };

// One emulator for the file; each describe makes (and disposes) its own stack.
const e2e = useEmulatorAndCli({ quiet: true });
let printed = "";
const log = (text: string): void => {
  printed += text;
};

async function get(apiPath: string): Promise<{ status: number; data?: Resource | Resource[] }> {
  const { status, doc } = await e2e.api<{ data?: Resource | Resource[] }>("GET", apiPath);
  return { status, data: doc.data };
}

async function workspace(name: string): Promise<{ status: number; data?: Resource }> {
  const res = await get(`/organizations/${e2e.emulator.organization}/workspaces/${name}`);
  return { status: res.status, data: Array.isArray(res.data) ? undefined : res.data };
}

async function tagBindings(workspaceId: string): Promise<Record<string, unknown>> {
  const res = await get(`/workspaces/${workspaceId}/tag-bindings`);
  return Object.fromEntries((Array.isArray(res.data) ? res.data : []).map((b) => [b.attributes["key"], b.attributes["value"]]));
}

const page = (name: string): string => `${e2e.emulator.url}/app/${e2e.emulator.organization}/workspaces/${name}`;

/** The dynamic resources left in the stack's state. */
async function managedInState(harness: HarnessStack): Promise<string[]> {
  const state = await harness.stack.exportStack();
  return ((state.deployment as { resources?: { type: string }[] }).resources ?? [])
    .map((r) => r.type).filter((type) => type.startsWith(TYPE("")));
}

describe("examples/quickstart, with the provider's settings in stack config", () => {
  const NAME = "quickstart-networking";
  let harness: HarnessStack;
  let workspaceId = "";

  beforeAll(async () => {
    const projectName = projectNameOf("quickstart");
    expect(projectName).toBe("wsbridge-quickstart");
    harness = await createStack({
      cli: e2e.cli,
      projectName,
      // Only the provider's settings: the program keeps its default workspace name.
      config: emulatorStackConfig(e2e.emulator),
      // What examples/quickstart/index.ts does, as a function: inline programs run once per operation,
      // and a module's top level would run only on its first import.
      program: async () => {
        const { program, readConfig } = await import("../../examples/quickstart/program");
        return program(readConfig(new pulumi.Config()));
      },
    });
  }, 20 * 60 * 1000);

  afterAll(async () => {
    await harness?.dispose();
  });

  test("up creates the workspace with its description, and the outputs describe it", async () => {
    const up = await harness.stack.up({ onOutput: log });
    expect(up.summary.resourceChanges).toEqual({ create: 2 }); // the stack and the workspace

    const ws = (await workspace(NAME)).data;
    if (!ws) throw new Error(`${NAME} is missing on the emulator`);
    workspaceId = ws.id;
    expect(ws.attributes["description"]).toBe("VPCs and peering, managed by pulumi-wsbridge");

    const out = (key: string): unknown => up.outputs[key]?.value;
    expect(out("workspaceId")).toBe(ws.id);
    expect(out("organization")).toBe(e2e.emulator.organization);
    // Not declared: the organization's default, as the server reports it.
    expect(out("executionMode")).toBe(ws.attributes["execution-mode"]);
    expect(out("executionMode")).toBe("remote");
    expect(out("workspaceUrl")).toBe(page(NAME));
  });

  test("a second preview shows no changes and sends no mutating request", async () => {
    e2e.emulator.clearRequests();
    const preview = await harness.stack.preview({ onOutput: log, diff: true });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(e2e.writes()).toEqual([]);
  });

  test("destroy deletes the workspace and empties the state", async () => {
    e2e.emulator.clearRequests();
    const destroyed = await harness.stack.destroy({ onOutput: log });
    expect(destroyed.summary.resourceChanges).toEqual({ delete: 2 });
    expect(e2e.writes()).toEqual([`POST /api/v2/workspaces/${workspaceId}/actions/safe-delete`]);
    expect((await workspace(NAME)).status).toBe(404);
    expect(await managedInState(harness)).toEqual([]);
  });
});

describe("examples/ci, with the provider's settings in the environment as pull-request.yml passes them", () => {
  const NAME = "service-prod";
  const VARIABLES = ["WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION"] as const;
  const saved: Partial<Record<(typeof VARIABLES)[number], string>> = {};
  let harness: HarnessStack;
  let workspaceId = "";

  beforeAll(async () => {
    const projectName = projectNameOf("ci");
    expect(projectName).toBe("wsbridge-ci");
    // In a real run the program and the provider share the CLI's environment; an inline program runs
    // in this process, so it gets the address and organization here (it never needs the token).
    for (const name of VARIABLES) saved[name] = process.env[name];
    process.env["WSBRIDGE_ADDRESS"] = e2e.emulator.url;
    process.env["WSBRIDGE_ORGANIZATION"] = e2e.emulator.organization;
    harness = await createStack({
      cli: e2e.cli,
      projectName,
      // No wsbridge:* config at all, as in the workflow; one setting of the example's own.
      config: { [`${projectName}:env`]: { value: "dev" } },
      env: { WSBRIDGE_ADDRESS: e2e.emulator.url, WSBRIDGE_TOKEN: e2e.emulator.token, WSBRIDGE_ORGANIZATION: e2e.emulator.organization },
      // What examples/ci/index.ts does, as a function (inline programs run once per operation).
      program: async () => {
        const { program, readConfig } = await import("../../examples/ci/program");
        return program(readConfig(new pulumi.Config()));
      },
    });
  }, 20 * 60 * 1000);

  afterAll(async () => {
    await harness?.dispose();
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  test("up creates the workspace and binds its tags, and the outputs describe them", async () => {
    const up = await harness.stack.up({ onOutput: log });
    expect(up.summary.resourceChanges).toEqual({ create: 3 }); // the stack, the workspace, its tags

    const ws = (await workspace(NAME)).data;
    if (!ws) throw new Error(`${NAME} is missing on the emulator`);
    workspaceId = ws.id;
    expect(ws.attributes["description"]).toBe(
      "Managed by Pulumi: previewed read-only on pull requests, deployed from the default branch by GitHub Actions",
    );
    const tags = { team: "platform", env: "dev", "deployed-by": "github-actions" };
    expect(await tagBindings(ws.id)).toEqual(tags);

    const out = (key: string): unknown => up.outputs[key]?.value;
    expect(out("workspaceId")).toBe(ws.id);
    expect(out("workspaceName")).toBe(NAME);
    expect(out("workspaceUrl")).toBe(page(NAME));
    expect(out("tagBindingsId")).toMatch(new RegExp(`^${ws.id}:[0-9a-f]{12}$`));
    expect(out("tags")).toEqual(tags);
  });

  /** Runs `preview` with a read-only team token in the environment, as the pull-request job does. */
  async function previewWithReadOnlyToken(): Promise<Record<string, number>> {
    const env = harness.stack.workspace.envVars;
    const writeToken = env["WSBRIDGE_TOKEN"] ?? "";
    env["WSBRIDGE_TOKEN"] = e2e.emulator.issueToken({ kind: "team", access: "read" });
    e2e.emulator.clearRequests();
    try {
      return (await harness.stack.preview({ onOutput: log, diff: true })).changeSummary;
    } finally {
      env["WSBRIDGE_TOKEN"] = writeToken;
    }
  }

  test("a preview with a read-only token from the environment, as the pull-request job runs it, shows no changes and sends no mutating request", async () => {
    expect(await previewWithReadOnlyToken()).toEqual({ same: 3 });
    expect(e2e.writes()).toEqual([]);
  });

  test("a pull request's change previews with that token as one update of the tags, reading with it and writing nothing", async () => {
    const key = `${projectNameOf("ci")}:env`;
    await harness.stack.setConfig(key, { value: "staging" });
    try {
      expect(await previewWithReadOnlyToken()).toEqual({ same: 2, update: 1 });
    } finally {
      await harness.stack.setConfig(key, { value: "dev" });
    }
    // The tags' check reads the workspace's bindings (for the limit of 10), with the read-only token.
    expect(e2e.emulator.requests().map((r) => `${r.method} ${r.path} ${r.tokenKind ?? "none"}`))
      .toEqual([`GET /api/v2/workspaces/${workspaceId}/tag-bindings team`]);
  });

  test("the token from the environment is stored nowhere: not in the stack's config, state or backups", () => {
    const stored = harness.allStoredText();
    expect(stored).toContain(NAME); // the state really was read
    expect(stored).not.toContain(e2e.emulator.token);
  });

  test("destroy unbinds the tags, then deletes the workspace, and empties the state", async () => {
    e2e.emulator.clearRequests();
    const destroyed = await harness.stack.destroy({ onOutput: log });
    expect(destroyed.summary.resourceChanges).toEqual({ delete: 3 });
    expect(e2e.writes()).toEqual([
      `PATCH /api/v2/workspaces/${workspaceId}`,
      `POST /api/v2/workspaces/${workspaceId}/actions/safe-delete`,
    ]);
    expect((await workspace(NAME)).status).toBe(404);
    expect(await managedInState(harness)).toEqual([]);
  });
});

test("nothing the CLI printed contains the token", () => {
  expect(printed).toContain(TYPE("WorkspaceTagBindings")); // the logs really were captured
  expect(printed).not.toContain(e2e.emulator.token);
});

// `pulumi import` of every kind on the real Pulumi CLI, with the provider plugin installed as users
// install it, against a self-managed emulator (the edition where DataRetentionPolicy exists).
//
// The project is a YAML project (support/yaml-import-project.ts says why). Stack "bare" imports each
// kind by its resource id with the issue's own command, `pulumi import wsbridge:index:<Kind> <name> <id>`,
// and --generate-code=false; stack "dev" imports every kind by its other id forms in one
// `pulumi import --file`, with code generation: the YAML program it prints, written into Pulumi.yaml,
// previews with no change and no request. The TypeScript the CLI would print in a Node.js project
// comes from Pulumi's own importer and Node.js program generator (scripts/sdkgen import-program):
// it type-checks against the SDK and, as the same stack's program, also previews with no change.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { Fixtures } from "../../emulator";
import { withOmissionsFilledOf } from "../../provider/runtime/adoption";
import { ownerUrl } from "../../provider/runtime/ownership";
import { useEmulatorAndCli } from "../support/real-cli-stack";
import {
  YamlProject, afterDuration, diagnosticsByResource, printedProgram, programFromTypeScript, resourceSummary, resourcesByName,
  typeErrorsOf, typescriptImportProgram,
} from "../support/yaml-import-project";

const ORG = "example-org";
const PROJECT = "wsbridge-import";
/** The Go program's first build may take minutes with an empty Go cache; nothing here is timed. */
const GENERATION_TIMEOUT_MS = 15 * 60_000;

const REASON = "CVE-2024-1: upgrade to 2.0.0";
const ADVISORY = "https://example.com/advisories/cve-2024-1";

const fixtures: Fixtures = {
  organizations: [{
    name: ORG,
    projects: [{ id: "prj-platform01", name: "platform", tagBindings: [{ key: "cost-center", value: "42" }] }],
    sshKeys: [{ id: "sshkey-deploy01", name: "deploy" }],
    registryModules: [{
      name: "vpc", provider: "aws",
      versions: ["1.0.0", { version: "1.1.0", deprecation: { reason: REASON, link: ADVISORY } }, "2.0.0"],
    }],
    workspaces: [
      {
        id: "ws-net0001", name: "networking", project: "platform", tags: ["legacy"], tagBindings: [{ key: "team", value: "net" }],
        attributes: { description: "VPCs and peering, made by hand", "auto-apply": true, "engine-version": "1.9.8" },
      },
      { id: "ws-lock0001", name: "frozen" },
      { id: "ws-key0001", name: "keyed", sshKey: "deploy" },
      { id: "ws-drp0001", name: "retained" },
      { id: "ws-tag0001", name: "tagged", project: "platform", tagBindings: [{ key: "team", value: "data" }, { key: "env", value: "prod" }] },
      { id: "ws-src0001", name: "shared", attributes: { "global-remote-state": false } },
      { id: "ws-rda0001", name: "reader-a" },
      { id: "ws-rdb0001", name: "reader-b" },
    ],
  }],
};

/** The id a WorkspaceTagBindings create gives to these keys in this mode (the kind's formula). */
function tagBindingsId(workspaceId: string, mode: "additive" | "exclusive", keys: string[]): string {
  return `${workspaceId}:${createHash("sha256").update(`${mode}\n${[...keys].sort().join("\n")}`).digest("hex").slice(0, 12)}`;
}

/** The id a RemoteStateConsumers create gives: the workspace and 12 hex of the resource's owner marker. */
function consumersId(workspaceId: string, stack: string, name: string): string {
  const owner = ownerUrl({ project: PROJECT, stack, kind: "RemoteStateConsumers", name });
  return `${workspaceId}:${createHash("sha256").update(owner).digest("hex").slice(0, 12)}`;
}

// Only what differs from what leaving an input out means (issue 40): the defaults are check's to fill in.
const NETWORKING_INPUTS = {
  autoApply: true, description: "VPCs and peering, made by hand",
  engineVersion: "1.9.8", executionMode: "remote", globalRemoteState: false, name: "networking",
  organization: ORG, projectId: "prj-platform01",
  // Only the direct binding: "cost-center" is the project's, and stays inherited.
  tagBindings: { team: "net" }, tagNames: ["legacy"],
};
const DEPRECATION_INPUTS = { link: ADVISORY, moduleName: "vpc", organization: ORG, provider: "aws", reason: REASON, version: "1.1.0" };

interface ByIdImport {
  kind: string;
  name: string;
  importId: string;
  /** The resource's id after the import. */
  id: string;
  /** What the import sent (`METHOD path?query`, below /api/v2). */
  requests: string[];
  inputs: Record<string, unknown>;
}

/** Stack "bare": each kind by the id its resources have (the form `pulumi import` documents first). */
const BY_ID: ByIdImport[] = [
  {
    kind: "Workspace", name: "net", importId: "ws-net0001", id: "ws-net0001",
    requests: ["GET /workspaces/ws-net0001?include=effective_tag_bindings"], inputs: NETWORKING_INPUTS,
  },
  {
    kind: "WorkspaceLock", name: "freeze", importId: "ws-lock0001", id: "ws-lock0001",
    requests: ["GET /workspaces/ws-lock0001"], inputs: { reason: "change freeze", workspaceId: "ws-lock0001" },
  },
  {
    kind: "SshKeyAssignment", name: "deployKey", importId: "ws-key0001", id: "ws-key0001",
    requests: ["GET /workspaces/ws-key0001"], inputs: { sshKeyId: "sshkey-deploy01", workspaceId: "ws-key0001" },
  },
  {
    kind: "DataRetentionPolicy", name: "retention", importId: "ws-drp0001", id: "ws-drp0001",
    requests: ["GET /workspaces/ws-drp0001/relationships/data-retention-policy"],
    inputs: { deleteOlderThanNDays: 30, workspaceId: "ws-drp0001" },
  },
  {
    kind: "WorkspaceTagBindings", name: "teamTags", importId: "ws-tag0001", id: tagBindingsId("ws-tag0001", "additive", ["env", "team"]),
    requests: ["GET /workspaces/ws-tag0001?include=effective_tag_bindings"],
    inputs: { tags: { env: "prod", team: "data" }, workspaceId: "ws-tag0001" },
  },
  {
    kind: "RemoteStateConsumers", name: "readers", importId: "ws-src0001", id: consumersId("ws-src0001", "bare", "readers"),
    requests: ["GET /workspaces/ws-src0001/relationships/remote-state-consumers?page[number]=1&page[size]=100"],
    inputs: { consumerIds: ["ws-rda0001", "ws-rdb0001"], workspaceId: "ws-src0001" },
  },
  {
    kind: "ModuleVersionDeprecation", name: "vpcOld", importId: `${ORG}/vpc/aws/1.1.0`, id: `${ORG}/vpc/aws/1.1.0`,
    requests: [`GET /api/registry/v1/modules/${ORG}/vpc/aws/1.1.0`], inputs: DEPRECATION_INPUTS,
  },
];

interface FormImport {
  kind: string;
  name: string;
  importId: string;
  id: string;
  requests: string[];
}

/** Stack "dev": every kind by its other id forms, in one `pulumi import --file` (same names as "bare" where the form adopts the same). */
const OTHER_FORMS: FormImport[] = [
  {
    kind: "Workspace", name: "net", importId: `${ORG}/networking`, id: "ws-net0001",
    requests: [`GET /organizations/${ORG}/workspaces/networking?include=effective_tag_bindings`],
  },
  { kind: "WorkspaceLock", name: "freeze", importId: `${ORG}/frozen`, id: "ws-lock0001", requests: [`GET /organizations/${ORG}/workspaces/frozen`] },
  { kind: "SshKeyAssignment", name: "deployKey", importId: `${ORG}/keyed`, id: "ws-key0001", requests: [`GET /organizations/${ORG}/workspaces/keyed`] },
  {
    kind: "DataRetentionPolicy", name: "retention", importId: `${ORG}/retained`, id: "ws-drp0001",
    requests: [`GET /organizations/${ORG}/workspaces/retained`, "GET /workspaces/ws-drp0001/relationships/data-retention-policy"],
  },
  // The id the "bare" import (as a create) gave: the keys it was created with.
  {
    kind: "WorkspaceTagBindings", name: "teamTags", importId: tagBindingsId("ws-tag0001", "additive", ["env", "team"]),
    id: tagBindingsId("ws-tag0001", "additive", ["env", "team"]), requests: ["GET /workspaces/ws-tag0001?include=effective_tag_bindings"],
  },
  {
    kind: "WorkspaceTagBindings", name: "allTags", importId: "ws-tag0001:exclusive", id: tagBindingsId("ws-tag0001", "exclusive", ["env", "team"]),
    requests: ["GET /workspaces/ws-tag0001?include=effective_tag_bindings"],
  },
  {
    kind: "WorkspaceTagBindings", name: "envTag", importId: "ws-tag0001/env", id: tagBindingsId("ws-tag0001", "additive", ["env"]),
    requests: ["GET /workspaces/ws-tag0001?include=effective_tag_bindings"],
  },
  // An id a create returned names its creator, not its consumers: the import's own owner makes the new id.
  {
    kind: "RemoteStateConsumers", name: "readers", importId: consumersId("ws-src0001", "bare", "readers"),
    id: consumersId("ws-src0001", "dev", "readers"),
    requests: ["GET /workspaces/ws-src0001/relationships/remote-state-consumers?page[number]=1&page[size]=100"],
  },
  {
    kind: "RemoteStateConsumers", name: "allReaders", importId: "ws-src0001:exclusive", id: consumersId("ws-src0001", "dev", "allReaders"),
    requests: ["GET /workspaces/ws-src0001/relationships/remote-state-consumers?page[number]=1&page[size]=100"],
  },
  {
    kind: "RemoteStateConsumers", name: "readerA", importId: "ws-src0001/ws-rda0001", id: consumersId("ws-src0001", "dev", "readerA"),
    requests: ["GET /workspaces/ws-src0001/relationships/remote-state-consumers?page[number]=1&page[size]=100"],
  },
  {
    kind: "ModuleVersionDeprecation", name: "vpcOld", importId: "vpc/aws/1.1.0", id: `${ORG}/vpc/aws/1.1.0`,
    requests: [`GET /api/registry/v1/modules/${ORG}/vpc/aws/1.1.0`],
  },
];

/** What `pulumi import --file` prints for OTHER_FORMS, after its advice: a YAML program. */
const EXPECTED_YAML = `resources:
  net:
    type: wsbridge:Workspace
    properties:
      autoApply: true
      description: VPCs and peering, made by hand
      engineVersion: 1.9.8
      executionMode: remote
      globalRemoteState: false
      name: networking
      organization: example-org
      projectId: prj-platform01
      tagBindings:
        team: net
      tagNames:
        - legacy
    options:
      protect: true
  freeze:
    type: wsbridge:WorkspaceLock
    properties:
      reason: change freeze
      workspaceId: ws-lock0001
    options:
      protect: true
  deployKey:
    type: wsbridge:SshKeyAssignment
    properties:
      sshKeyId: sshkey-deploy01
      workspaceId: ws-key0001
    options:
      protect: true
  retention:
    type: wsbridge:DataRetentionPolicy
    properties:
      deleteOlderThanNDays: 30
      workspaceId: ws-drp0001
    options:
      protect: true
  teamTags:
    type: wsbridge:WorkspaceTagBindings
    properties:
      tags:
        env: prod
        team: data
      workspaceId: ws-tag0001
    options:
      protect: true
  allTags:
    type: wsbridge:WorkspaceTagBindings
    properties:
      exclusive: true
      tags:
        env: prod
        team: data
      workspaceId: ws-tag0001
    options:
      protect: true
  envTag:
    type: wsbridge:WorkspaceTagBindings
    properties:
      tags:
        env: prod
      workspaceId: ws-tag0001
    options:
      protect: true
  readers:
    type: wsbridge:RemoteStateConsumers
    properties:
      consumerIds:
        - ws-rda0001
        - ws-rdb0001
      workspaceId: ws-src0001
    options:
      protect: true
  allReaders:
    type: wsbridge:RemoteStateConsumers
    properties:
      consumerIds:
        - ws-rda0001
        - ws-rdb0001
      exclusive: true
      workspaceId: ws-src0001
    options:
      protect: true
  readerA:
    type: wsbridge:RemoteStateConsumers
    properties:
      consumerIds:
        - ws-rda0001
      workspaceId: ws-src0001
    options:
      protect: true
  vpcOld:
    type: wsbridge:ModuleVersionDeprecation
    properties:
      link: ${ADVISORY}
      moduleName: vpc
      organization: example-org
      provider: aws
      reason: '${REASON}'
      version: 1.1.0
    options:
      protect: true
`;

const e2e = useEmulatorAndCli({ edition: "self-managed", fixtures, quiet: true });
let project: YamlProject;
/** The TypeScript program the generator wrote, and what the inline preview printed. */
let typescript = "";
let inlinePrinted = "";

/** The requests since the last call, as `METHOD path?query` (below /api/v2, the query decoded); clears the log. */
function takeRequests(): string[] {
  const lines = e2e.emulator.requests().map((r) =>
    `${r.method} ${r.path.replace(/^\/api\/v2(?=\/)/, "")}${r.query === "" ? "" : `?${decodeURIComponent(r.query)}`}`);
  e2e.emulator.clearRequests();
  return lines;
}

function importFileOf(entries: Array<{ kind: string; name: string; importId: string }>): string {
  const file = path.join(project.dir, `import-${entries[0]?.name ?? "none"}-${entries.length}.json`);
  fs.writeFileSync(file, JSON.stringify({ resources: entries.map((e) => ({ type: `wsbridge:index:${e.kind}`, name: e.name, id: e.importId })) }));
  return file;
}

beforeAll(async () => {
  // What a user did by hand before adopting it: a lock, a workspace's own retention policy, consumers.
  expect((await e2e.api("POST", "/workspaces/ws-lock0001/actions/lock", { reason: "change freeze" })).status).toBe(200);
  const policy = { data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 30 } } };
  expect((await e2e.api("POST", "/workspaces/ws-drp0001/relationships/data-retention-policy", policy)).status).toBe(201);
  const consumers = { data: [{ type: "workspaces", id: "ws-rda0001" }, { type: "workspaces", id: "ws-rdb0001" }] };
  expect((await e2e.api("POST", "/workspaces/ws-src0001/relationships/remote-state-consumers", consumers)).status).toBe(204);
  project = YamlProject.create(e2e.cli, PROJECT);
  const settings = { address: e2e.emulator.url, token: e2e.emulator.token, organization: ORG };
  await project.initStack("bare", settings);
  await project.initStack("dev", settings);
  e2e.emulator.clearRequests();
}, GENERATION_TIMEOUT_MS);

afterAll(() => project?.dispose());

describe("stack bare: `pulumi import wsbridge:index:<Kind> <name> <id> --generate-code=false`", () => {
  test.each(BY_ID.map((c) => [c.kind, c] as const))(
    "adopts a %s with the requests of its refresh, prints nothing but the import, and records the inputs that reproduce it",
    async (_kind, c) => {
      const first = c === BY_ID[0];
      const { stdout } = await project.ok(["import", `wsbridge:index:${c.kind}`, c.name, c.importId, "--stack", "bare", "--yes", "--skip-preview", "--generate-code=false"]);
      expect(takeRequests()).toEqual(c.requests);
      expect(resourceSummary(stdout)).toEqual(first ? ["+ 1 created", "= 1 imported", "2 changes"] : ["= 1 imported", `${BY_ID.indexOf(c) + 1} unchanged`]);
      expect(afterDuration(stdout)).toBe("");
      const imported = resourcesByName(await project.exportState("bare")).get(c.name);
      expect({ id: imported?.id, inputs: imported?.inputs, protect: imported?.protect }).toEqual({ id: c.id, inputs: c.inputs, protect: true });
      expect(takeRequests()).toEqual([]);
    },
  );

  test("a refresh of the seven sends exactly the requests their imports sent, and finds nothing changed", async () => {
    const { stdout } = await project.ok(["refresh", "--stack", "bare", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(takeRequests().sort()).toEqual(BY_ID.flatMap((c) => c.requests).sort());
    expect(resourceSummary(stdout)).toEqual(["8 unchanged"]);
  });
});

describe("stack dev: `pulumi import --file` of the other id forms, with the printed YAML program", () => {
  let printed = "";

  test("imports all eleven with one read each at preview and one at import, and prints their YAML program", async () => {
    const { stdout } = await project.ok(["import", "--file", importFileOf(OTHER_FORMS), "--stack", "dev", "--yes"]);
    expect(takeRequests().sort()).toEqual(OTHER_FORMS.flatMap((c) => [...c.requests, ...c.requests]).sort());
    expect(resourceSummary(stdout)).toEqual(["+ 1 created", "= 11 imported", "12 changes"]);
    printed = printedProgram(stdout);
    expect(printed).toBe(EXPECTED_YAML);
    expect(afterDuration(stdout)).toBe(
      "Please copy the following code into your Pulumi application. Not doing so\n" +
        "will cause Pulumi to report that an update will happen on the next update command.\n\n" +
        "Please note that the imported resources are marked as protected. To destroy them\n" +
        "you will need to remove the `protect` option and run `pulumi update` *before*\n" +
        `the destroy will take effect.\n\n${EXPECTED_YAML}`.trim(),
    );
  });

  test("each form adopts under the id a create would give: the same as by id, except the owner's part of a consumers id", async () => {
    const dev = resourcesByName(await project.exportState("dev"));
    expect(Object.fromEntries([...dev].map(([name, r]) => [name, r.id]))).toEqual(Object.fromEntries(OTHER_FORMS.map((c) => [c.name, c.id])));
    const bare = resourcesByName(await project.exportState("bare"));
    // The same inputs as check completes them (the engine records the import's own inputs for a single
    // import, and checked ones for an import file: what the program leaves out filled in, or not).
    const completed = (r: { type: string; inputs?: Record<string, unknown> } | undefined): Record<string, unknown> | undefined =>
      r?.inputs === undefined ? undefined : (withOmissionsFilledOf[r.type.split(":").pop() ?? ""] ?? ((i: Record<string, unknown>) => i))({ ...r.inputs });
    for (const c of BY_ID) expect({ name: c.name, inputs: completed(dev.get(c.name)) }).toEqual({ name: c.name, inputs: completed(bare.get(c.name)) });
    expect(completed(dev.get("allTags"))).toEqual({ exclusive: true, tags: { env: "prod", team: "data" }, workspaceId: "ws-tag0001" });
    expect(completed(dev.get("envTag"))).toEqual({ exclusive: false, tags: { env: "prod" }, workspaceId: "ws-tag0001" });
    expect(completed(dev.get("allReaders"))).toEqual({ consumerIds: ["ws-rda0001", "ws-rdb0001"], exclusive: true, workspaceId: "ws-src0001" });
    expect(completed(dev.get("readerA"))).toEqual({ consumerIds: ["ws-rda0001"], exclusive: false, workspaceId: "ws-src0001" });
  });

  test("the printed program, written into Pulumi.yaml, previews on the YAML host with no change and no request", async () => {
    project.writeProgram(printed);
    const { stdout } = await project.ok(["preview", "--stack", "dev", "--expect-no-changes"]);
    expect(resourceSummary(stdout)).toEqual(["12 unchanged"]);
    expect(takeRequests()).toEqual([]);
  });

  test("a malformed id of each kind fails the import with the kind's message, before any request, importing nothing", async () => {
    const malformed = [
      { kind: "Workspace", name: "badWorkspace", importId: "networking" },
      { kind: "WorkspaceLock", name: "badLock", importId: "frozen" },
      { kind: "SshKeyAssignment", name: "badKey", importId: `${ORG}/keyed/deploy` },
      { kind: "DataRetentionPolicy", name: "badPolicy", importId: "ws-drp0001:30" },
      { kind: "WorkspaceTagBindings", name: "badTags", importId: "ws-tag0001:inclusive" },
      { kind: "RemoteStateConsumers", name: "badReaders", importId: "ws-src0001/ws-src0001" },
      { kind: "ModuleVersionDeprecation", name: "badDeprecation", importId: "vpc/aws" },
    ];
    const before = await project.exportState("dev");
    // --parallel above seven: every import's check starts before the first failure stops the run, whatever the core count.
    const { stdout, code } = await project.run(["import", "--file", importFileOf(malformed), "--stack", "dev", "--yes", "--parallel", "16"]);
    expect(code).not.toBe(0);
    const byWorkspace = (kind: string, id: string) =>
      `${kind}: cannot import ${JSON.stringify(id)}: an import id is "ws-<id>" (the workspace id) or "<organization>/<workspace name>".`;
    const failed = (message: string) => [`error: Preview failed: ${message}`];
    expect(diagnosticsByResource(stdout)).toEqual({
      "wsbridge:index:Workspace (badWorkspace)": failed(byWorkspace("Workspace", "networking")),
      "wsbridge:index:WorkspaceLock (badLock)": failed(byWorkspace("WorkspaceLock", "frozen")),
      "wsbridge:index:SshKeyAssignment (badKey)": failed(byWorkspace("SshKeyAssignment", `${ORG}/keyed/deploy`)),
      "wsbridge:index:DataRetentionPolicy (badPolicy)": failed(byWorkspace("DataRetentionPolicy", "ws-drp0001:30")),
      "wsbridge:index:WorkspaceTagBindings (badTags)": failed(
        'WorkspaceTagBindings: cannot import "ws-tag0001:inclusive": it is none of the accepted forms. Use "ws-…" (every direct tag, ' +
          'additive), "ws-…:exclusive" (every direct tag, exclusive), "ws-…/key1,key2" (those keys, additive) or "ws-…:<12 hex>" (the id create returned).'),
      "wsbridge:index:RemoteStateConsumers (badReaders)": failed(
        'RemoteStateConsumers: cannot import "ws-src0001/ws-src0001": a workspace cannot consume its own state. Use "ws-…" (every consumer, ' +
          'additive), "ws-…:exclusive" (the whole list, exclusive), "ws-…/ws-a,ws-b" (those consumers, additive) or "ws-…:<12 hex>" (an id create returned).'),
      "wsbridge:index:ModuleVersionDeprecation (badDeprecation)": failed(
        'ModuleVersionDeprecation: cannot import "vpc/aws": it has neither 3 nor 4 parts. Use "organization/moduleName/provider/version" or ' +
          '"moduleName/provider/version" (in the wsbridge:organization organization).'),
    });
    expect(takeRequests()).toEqual([]);
    expect(await project.exportState("dev")).toEqual(before);
  });

  test("an id naming nothing to adopt (an unlocked workspace as a WorkspaceLock) fails the import after the one read", async () => {
    const { stdout, code } = await project.run(["import", "wsbridge:index:WorkspaceLock", "keyedLock", "ws-key0001", "--stack", "dev", "--yes", "--generate-code=false"]);
    expect(code).not.toBe(0);
    expect(diagnosticsByResource(stdout)).toEqual({ "wsbridge:index:WorkspaceLock (keyedLock)": ["error: Preview failed: resource 'ws-key0001' does not exist"] });
    expect(takeRequests()).toEqual(["GET /workspaces/ws-key0001"]);
  });
});

describe("the TypeScript `pulumi import` would print in a Node.js project", () => {
  test("is what Pulumi's importer and Node.js program generator write from the stack's state: the eleven, protected", async () => {
    const statePath = path.join(project.dir, "dev-state.json");
    fs.writeFileSync(statePath, JSON.stringify(await project.exportState("dev")));
    typescript = await typescriptImportProgram(statePath, importFileOf(OTHER_FORMS));
    const declarations = typescript.split("\n").filter((line) => line.startsWith("const ") || line.startsWith("import "));
    expect(declarations).toEqual([
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as wsbridge from "@pulumi-wsbridge/wsbridge";',
      ...OTHER_FORMS.map((c) => `const ${c.name} = new wsbridge.${c.kind}("${c.name}", {`),
    ]);
    expect(typescript.split("\n").filter((line) => line.trim() === "protect: true,")).toHaveLength(OTHER_FORMS.length);
    expect(typescript).toContain(`const vpcOld = new wsbridge.ModuleVersionDeprecation("vpcOld", {
    link: "${ADVISORY}",
    moduleName: "vpc",
    organization: "example-org",
    provider: "aws",
    reason: "${REASON}",
    version: "1.1.0",
}, {
    protect: true,
});`);
    expect(takeRequests()).toEqual([]);
  }, GENERATION_TIMEOUT_MS);

  test("type-checks against the SDK with the repository's strict compiler options", () => {
    expect(typescript).not.toBe("");
    expect(typeErrorsOf(typescript)).toEqual([]);
  });

  // `pulumi import` made the unversioned default provider ("default"), as it does in any project unless
  // the import file names a version; the SDK's resources ask for the plugin's version and name its
  // release (pluginDownloadURL), so the first preview of the pasted program moves them to the default
  // provider the engine names after both: a provider step, no resource change.
  test("run as the same stack's program (inline, through the Automation API), previews every resource unchanged and sends no request", async () => {
    const stack = await project.inlineStack("dev", programFromTypeScript(typescript));
    const events: EngineEvent[] = [];
    const result = await stack.preview({ onEvent: (e) => events.push(e), onOutput: (text) => { inlinePrinted += text; } });
    expect(result.changeSummary).toEqual({ same: 12 });
    const steps = events.flatMap((e) => (e.resourcePreEvent ? [`${e.resourcePreEvent.metadata.op} ${e.resourcePreEvent.metadata.urn.split("::").pop()}`] : []));
    expect(steps.sort()).toEqual([
      "create default_0_1_0_github_/api.github.com/pulumi-wsbridge/pulumi-wsbridge", "delete default", ...[`${PROJECT}-dev`, ...OTHER_FORMS.map((c) => c.name)].map((name) => `same ${name}`),
    ].sort());
    expect(takeRequests()).toEqual([]);
  });
});

test("the token is in nothing the CLI printed, in no state, backup or setting, and in neither generated program", () => {
  expect(project.printed).toContain("Importing (dev)"); // the record is of the runs above
  expect(project.printed).not.toContain(e2e.emulator.token);
  expect(inlinePrinted).toContain("Previewing update (dev)");
  expect(inlinePrinted).not.toContain(e2e.emulator.token);
  expect(typescript).toContain("new wsbridge.Workspace(");
  expect(typescript).not.toContain(e2e.emulator.token);
  expect(project.allStoredText()).not.toContain(e2e.emulator.token);
  expect(project.allStoredText()).toContain("wsbridge:token");
});

// `wsbridge adopt` against the emulator, below the CLI: what it reads (GETs only, and no more than
// its request floor), what it writes (the same files on every run), what it reports it could not
// adopt, and how it fails (a sentence, exit 1, nothing written).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { seedEstate, type EstateManifest } from "../support/adopt-estate";
import { runAdopt } from "../support/adopt-run";
import { pulumiCliRoot } from "../../scripts/lib/stack-harness";

interface Report {
  counts: Record<string, number>;
  resources: { kind: string; name: string; importId: string }[];
  skipped: { kind: string; object: string; reason: string }[];
  inherited: { kind: string; object: string; reason: string }[];
}

let emulator: RunningEmulator;
let estate: EstateManifest;
let dir: string;
let cliBin: string;
/** The settings from the environment as a user sets them; a second run reads the folder's stacks with `pulumi` (a file backend of its own). */
const env = (): NodeJS.ProcessEnv => ({
  WSBRIDGE_ADDRESS: emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly, WSBRIDGE_ORGANIZATION: estate.organization,
  PATH: `${cliBin}${path.delimiter}${process.env.PATH ?? ""}`, PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
  PULUMI_HOME: path.join(dir, "pulumi-home"), PULUMI_CONFIG_PASSPHRASE: "", HOME: dir,
});
/** Every file below `out`, by path relative to it. */
const filesIn = (out: string): Map<string, string> => new Map(
  (fs.readdirSync(out, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile())
    .map((e) => { const full = path.join(e.parentPath, e.name); return [path.relative(out, full), fs.readFileSync(full, "utf8")] as const; }),
);
const outDir = (name: string): string => path.join(dir, name);
const readReport = (out: string): Report => JSON.parse(fs.readFileSync(path.join(out, "adoption-report.json"), "utf8")) as Report;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, quiet: true, edition: "self-managed" });
  estate = await seedEstate(emulator.url, emulator.token, { workspaces: 40, edition: "self-managed" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-adopt-"));
  fs.mkdirSync(path.join(dir, "backend"));
  cliBin = path.join(pulumiCliRoot(), "bin");
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  emulator.clearFaults();
  emulator.clearRequests();
});

describe("what it reads", () => {
  test("GETs only, exactly its floor: ping, the project and workspace pages, a consumer list per workspace whose state is not global, a policy per workspace that names its own, the module list and each module's versions", async () => {
    const run = await runAdopt(["--out", outDir("floor")], env());
    expect(run.code).toBe(0);
    const requests = emulator.requests();
    expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
    const readable = estate.workspaces.filter((w) => w.id !== estate.unreadableWorkspaceId);
    const pages = (n: number): number => Math.max(1, Math.ceil(n / 100));
    const count = (pattern: RegExp): number => requests.filter((r) => pattern.test(r.path)).length;
    expect({
      ping: count(/^\/api\/v2\/ping$/),
      projects: count(/\/organizations\/[^/]+\/projects$/),
      workspacePages: count(/\/organizations\/[^/]+\/workspaces$/),
      consumerLists: count(/\/relationships\/remote-state-consumers$/),
      policies: count(/\/relationships\/data-retention-policy$/),
      modulePages: count(/\/registry-modules$/),
      versionLists: count(/^\/api\/registry\/v1\/modules\/.*\/versions$/),
      total: requests.length,
    }).toEqual({
      ping: 1,
      projects: 1,
      workspacePages: pages(readable.length),
      consumerLists: readable.filter((w) => !w.globalRemoteState).length,
      policies: estate.retentionPolicies.length,
      modulePages: 1,
      versionLists: estate.modules.length,
      total: 1 + 1 + pages(readable.length) + readable.filter((w) => !w.globalRemoteState).length + estate.retentionPolicies.length + 1 + estate.modules.length,
    });
  });

  test("a re-run on the same organization writes the same files, byte for byte, in every language", async () => {
    for (const language of ["yaml", "typescript", "python", "go"]) {
      const out = outDir(`again-${language}`);
      expect((await runAdopt(["--out", out, "--language", language], env())).code).toBe(0);
      const first = filesIn(out);
      expect((await runAdopt(["--out", out, "--language", language], env())).code).toBe(0);
      expect(filesIn(out)).toEqual(first);
    }
  });

  test("the token appears in nothing it prints or writes", async () => {
    const out = outDir("secret");
    const run = await runAdopt(["--out", out, "--language", "typescript"], env());
    const written = [...filesIn(out).values()].join("\n");
    expect(`${run.stdout}${run.stderr}${written}`).not.toContain(estate.tokens.readOnly);
  });
});

describe("what it cannot adopt, listed with the reason in the summary and the report", () => {
  test("a run's lock, an unreadable consumer list, policy and module, and the tags and settings workspaces inherit", async () => {
    const subject = estate.consumers[1]?.workspaceId ?? "";
    const withPolicy = estate.retentionPolicies[0]?.workspaceId ?? "";
    const module = estate.modules[0];
    emulator.setFaults({
      script: [
        { match: { method: "GET", path: `/api/v2/workspaces/${subject}/relationships/remote-state-consumers` }, status: 404 },
        { match: { method: "GET", path: `/api/v2/workspaces/${withPolicy}/relationships/data-retention-policy` }, status: 403 },
        { match: { method: "GET", path: `/api/registry/v1/modules/${estate.organization}/${module?.name}/${module?.provider}/versions` }, status: 404 },
      ],
    });
    const out = outDir("skipped");
    const run = await runAdopt(["--out", out], env());
    expect(run.code).toBe(0);
    const report = readReport(out);
    const reasons = report.skipped.map((s) => `${s.kind}: ${s.object}: ${s.reason}`);
    for (const locked of estate.runLocks) {
      expect(reasons).toContainEqual(expect.stringMatching(new RegExp(`^WorkspaceLock: the lock on workspace \\S+ \\(${locked}\\): .*locked by run run-.*whose lock ends with the run`)));
    }
    expect(reasons).toContainEqual(expect.stringMatching(new RegExp(`^RemoteStateConsumers: the remote-state consumers of workspace \\S+ \\(${subject}\\): the token cannot read .* \\(404\\)$`)));
    expect(reasons).toContainEqual(expect.stringMatching(new RegExp(`^DataRetentionPolicy: the data-retention policy of workspace \\S+ \\(${withPolicy}\\): the token cannot read .* \\(403\\)$`)));
    expect(reasons).toContainEqual(`ModuleVersionDeprecation: module ${module?.name}/${module?.provider}: the token cannot read the versions of module ${module?.name}/${module?.provider} (404)`);
    expect(report.skipped).toHaveLength(estate.runLocks.length + 3);
    expect(run.stdout).toContain(`Not adopted (${report.skipped.length}):`);
    expect(fs.readFileSync(path.join(out, "adoption-report.md"), "utf8")).toContain(`## Not adopted (${report.skipped.length})`);

    const inheritedTags = report.inherited.filter((i) => i.kind === "Tag binding");
    const projectOf = new Map(estate.workspaces.map((w) => [w.id, w.projectId]));
    const expected = estate.workspaces.filter((w) => w.id !== estate.unreadableWorkspaceId).flatMap((w) => {
      const inherited = estate.projectTags.find((p) => p.projectId === projectOf.get(w.id))?.tags ?? {};
      return Object.keys(inherited).filter((key) => !(key in w.tags)).map((key) => `${w.id}:${key}`);
    });
    expect(inheritedTags.map((i) => `${/\((ws-[^)]+)\)$/.exec(i.object)?.[1]}:${/^tag ([^=\s]+)/.exec(i.object)?.[1]}`).sort()).toEqual(expected.sort());
  });
});

describe("how it fails: a sentence, exit 1 (2 for usage), and nothing written", () => {
  const failsWith = async (args: string[], environment: NodeJS.ProcessEnv, code: number, sentence: RegExp): Promise<void> => {
    const out = outDir(`fail-${Math.random().toString(36).slice(2)}`);
    const run = await runAdopt(["--out", out, ...args], environment);
    expect({ code: run.code, stderr: run.stderr.trim().split("\n").at(-1) }).toEqual({ code, stderr: expect.stringMatching(sentence) });
    expect(fs.existsSync(out)).toBe(false);
    expect(run.stdout).toBe("");
  };

  test("a token the server refuses", () =>
    failsWith([], { ...env(), WSBRIDGE_TOKEN: "not-a-token" }, 1, /refused the token \(401 Unauthorized on GET .*\): check --token, WSBRIDGE_TOKEN or TFE_TOKEN.*Nothing was written\.$/));
  test("an organization that does not exist", () =>
    failsWith(["--organization", "no-such-org"], env(), 1, /^Organization "no-such-org" was not found at http:\/\/127\.0\.0\.1:\d+, or the token may not read it \(404 on GET .*\)\. Nothing was written\.$/));
  test("rate limits past the retry budget", async () => {
    emulator.setFaults({ script: [{ match: { method: "GET", path: "/api/v2/organizations/*/workspaces" }, status: 429, retryAfterSeconds: 1, times: 5 }] });
    await failsWith([], { ...env(), WSBRIDGE_MAX_RATE_LIMIT_RETRIES: "0" }, 1, /kept rate limiting the reads \(429 on GET .*\) past the client's retry budget.*Nothing was written\.$/);
  });
  test("a 5xx that outlasts the retries", async () => {
    emulator.setFaults({ script: [{ match: { method: "GET", path: "/api/v2/organizations/*/projects" }, status: 503, times: 5 }] });
    await failsWith([], { ...env(), WSBRIDGE_MAX_RETRIES: "0" }, 1, /failed to answer GET .*projects \(503.*\) after 1 attempt: run adopt again later\. Nothing was written\.$/);
  });
  test("no token at all", () =>
    failsWith([], { WSBRIDGE_ADDRESS: emulator.url, WSBRIDGE_ORGANIZATION: estate.organization, HOME: dir }, 1, /^No API token for http:.*: pass --token, or set WSBRIDGE_TOKEN or TFE_TOKEN.*Nothing was written\.$/));
  test("no organization", () =>
    failsWith([], { WSBRIDGE_ADDRESS: emulator.url, WSBRIDGE_TOKEN: estate.tokens.readOnly }, 2, /^No organization: pass --organization, or set WSBRIDGE_ORGANIZATION or TFE_ORGANIZATION\. Nothing was written\.$/));
  test("a --project that names no project", () =>
    failsWith(["--project", "nope"], env(), 1, /^--project "nope" names no project of the organization \(it has .*"Default Project".*\)\.$/));
  test("an unknown flag, and a bad value", async () => {
    await failsWith(["--frobnicate"], env(), 2, /^Unknown argument "--frobnicate"\. See wsbridge adopt --help\.$/);
    await failsWith(["--language", "cobol"], env(), 2, /^--language must be one of yaml, typescript, python, go, got "cobol"\.$/);
    await failsWith(["--split-by", "team"], env(), 2, /^--split-by must be project or tag:<key>, got "team"\.$/);
    await failsWith(["--concurrency", "0"], env(), 2, /^--concurrency must be a whole number from 1 to 64, got "0"\.$/);
  });

  test("a folder holding a Pulumi project adopt did not write is refused, and left as it was", async () => {
    const out = outDir("foreign");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: mine\nruntime: nodejs\n");
    const run = await runAdopt(["--out", out], env());
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/Pulumi\.yaml exists and was not written by `wsbridge adopt`: choose an empty folder with --out \(nothing was written\)\.$/);
    expect(fs.readdirSync(out)).toEqual(["Pulumi.yaml"]);
    expect(emulator.requests()).toEqual([]);
  });
});

test("--help names every flag, and where each connection setting falls back to", async () => {
  const run = await runAdopt(["--help"]);
  expect(run.code).toBe(0);
  for (const flag of ["--address", "--token", "--organization", "--edition", "--project", "--workspace", "--tag", "--exclude", "--no-modules", "--out", "--language", "--project-name", "--split-by", "--concurrency"]) {
    expect(run.stdout).toContain(flag);
  }
  expect(run.stdout).toMatch(/WSBRIDGE_ADDRESS or TFE_ADDRESS/);
  expect(run.stdout).toMatch(/WSBRIDGE_TOKEN or TFE_TOKEN/);
});

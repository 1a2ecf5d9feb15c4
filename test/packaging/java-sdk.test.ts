// sdk/java is the provider plugin's Java SDK as Pulumi's Java generator (pulumi-java v1.34.0) writes
// it from schema/schema.json, with the pom.xml scripts/sdkgen/java writes beside the generator's
// build.gradle (scripts/generate-java-sdk.sh). These tests regenerate it and compare, then build it
// with Maven against com.pulumi:pulumi from Maven Central, and compile the program of
// docs/languages/java.md against that build, depending on the SDK by its Maven coordinates as users
// will. Nothing runs a Java program: there is no Pulumi Java language host here.
//
// Maven and Go are required, not optional: without either the tests fail, saying which is missing.
// The first run builds the generator program (about two and a half minutes with empty Go caches) and
// downloads the Pulumi Java SDK and Maven's plugins (about a minute); later runs take seconds plus
// about 20 seconds of Maven, hence the long timeouts.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.join(__dirname, "../..");
const LONG_MS = 15 * 60_000;
const SDK = path.join(root, "sdk/java");

interface Schema {
  name: string;
  version: string;
  pluginDownloadURL?: string;
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
}

const schema = JSON.parse(fs.readFileSync(path.join(root, "schema/schema.json"), "utf8")) as Schema;
const tokenName = (token: string): string => token.replace(/^wsbridge:index:/, "");
const KINDS = Object.keys(schema.resources).map(tokenName).sort();
const FUNCTIONS = Object.keys(schema.functions).map(tokenName).sort();
const JAVA_PACKAGE = "com/pulumi/wsbridge";

function run(command: string, args: string[], cwd = root): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: "utf8", timeout: LONG_MS, maxBuffer: 64 * 1024 * 1024 });
}

/** What a command printed, less the module downloads of a first run. */
function printed(result: SpawnSyncReturns<string>): string[] {
  return `${result.stdout}${result.stderr}`.split("\n").filter((line) => line !== "" && !line.startsWith("go: downloading "));
}

/** Throws a sentence naming the tool if it is not on PATH. */
function requireTool(tool: string, why: string): void {
  const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" });
  if (found.status !== 0) throw new Error(`${tool} is not on PATH; ${why}`);
}

/** What Maven (target/) and Gradle (build/, .gradle/) leave in the SDK's directory: sdk/java/.gitignore lists them. */
const BUILD_LEFTOVERS = new Set(["target", "build", ".gradle"]);

/** Every file under `dir`, relative to it. */
function files(dir: string, under = ""): string[] {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(under, entry.name);
    if (entry.isDirectory()) return BUILD_LEFTOVERS.has(entry.name) && under === "" ? [] : files(dir, relative);
    return [relative];
  }).sort();
}

/** The text of an element of a pom, first occurrence after `after` (a regexp source). */
function pomValue(pom: string, element: string, after = ""): string | undefined {
  return new RegExp(`${after}[\\s\\S]*?<${element}>([^<]*)</${element}>`).exec(pom)?.[1];
}

/** groupId:artifactId → version of a pom's <dependencies>. */
function pomDependencies(pom: string): Record<string, string> {
  const section = /<dependencies>([\s\S]*?)<\/dependencies>/.exec(pom)?.[1] ?? "";
  const deps: Record<string, string> = {};
  for (const [, body = ""] of section.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    deps[`${pomValue(body, "groupId")}:${pomValue(body, "artifactId")}`] = pomValue(body, "version") ?? "";
  }
  return deps;
}

/** The code block that follows the line `marker` in docs/languages/java.md. */
function docBlock(marker: string, language: string): string {
  const doc = fs.readFileSync(path.join(root, "docs/languages/java.md"), "utf8");
  const at = doc.indexOf(marker);
  if (at < 0) throw new Error(`docs/languages/java.md has no line with ${JSON.stringify(marker)}`);
  const block = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(doc.slice(at));
  if (!block?.[1]) throw new Error(`docs/languages/java.md has no ${language} block after ${JSON.stringify(marker)}`);
  return block[1];
}

const sdkPom = fs.readFileSync(path.join(SDK, "pom.xml"), "utf8");
const COORDINATES = {
  groupId: pomValue(sdkPom, "groupId", "</modelVersion>"),
  artifactId: pomValue(sdkPom, "artifactId", "</modelVersion>"),
  version: pomValue(sdkPom, "version", "</modelVersion>"),
};

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-java-sdk-"));
});

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe("generation", () => {
  let out: string;
  let generated: SpawnSyncReturns<string>;

  beforeAll(() => {
    requireTool("go", "scripts/generate-java-sdk.sh runs Pulumi's Java generator with it");
    out = path.join(work, "generated");
    generated = run("bash", ["scripts/generate-java-sdk.sh", "--out", out]);
  }, LONG_MS);

  test("the generator writes the SDK and reports nothing but its one known warning (Config.token() loses the secret flag)", () => {
    expect({ status: generated.status, printed: printed(generated) }).toEqual({
      status: 0,
      printed: [
        "WARN: secret property token (property of config) does not have an Output type",
        `sdkgen (java): wrote ${files(path.join(out, "java")).length} files to ${out}/java`,
      ],
    });
  });

  test("the committed sdk/java is what scripts/generate-java-sdk.sh writes from schema/schema.json (after changing the schema: bash scripts/generate-java-sdk.sh)", () => {
    const fresh = path.join(out, "java");
    expect(files(SDK)).toEqual(files(fresh));
    const differing = files(fresh).filter((f) => !fs.readFileSync(path.join(fresh, f)).equals(fs.readFileSync(path.join(SDK, f))));
    expect(differing).toEqual([]);
  });
});

describe("the Maven project beside the generator's build.gradle", () => {
  const gradle = fs.readFileSync(path.join(SDK, "build.gradle"), "utf8");

  test("names the schema's package and version, under the publisher's io.github namespace", () => {
    expect(COORDINATES).toEqual({ groupId: "io.github.pulumi-wsbridge", artifactId: schema.name, version: schema.version });
    expect(gradle).toContain(`? "${schema.version}"`);
  });

  test("depends on every library build.gradle does, com.pulumi:pulumi at 1.36.1 (served by Maven Central), none older than build.gradle asks", () => {
    const fromGradle = Object.fromEntries([...gradle.matchAll(/implementation\("([^:"]+:[^:"]+):([^"]+)"\)/g)].map(([, key = "", version = ""]) => [key, version]));
    const fromPom = pomDependencies(sdkPom);
    expect(Object.keys(fromPom).sort()).toEqual(Object.keys(fromGradle).sort());
    expect(fromPom["com.pulumi:pulumi"]).toBe("1.36.1");
    const parts = (v: string): number[] => v.split(".").map(Number);
    const notOlder = (a: string, b: string): boolean => {
      const [x, y] = [parts(a), parts(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
      return true;
    };
    for (const [key, version] of Object.entries(fromGradle)) expect({ key, notOlder: notOlder(fromPom[key] ?? "0", version) }).toEqual({ key, notOlder: true });
  });

  test("gives Maven the version.txt and plugin.json build.gradle writes at build time, filtered with the project's version", () => {
    const resources = path.join(SDK, "src/maven/resources", JAVA_PACKAGE);
    expect(fs.readFileSync(path.join(resources, "version.txt"), "utf8")).toBe("${project.version}");
    expect(JSON.parse(fs.readFileSync(path.join(resources, "plugin.json"), "utf8"))).toEqual({
      resource: true, name: schema.name, ...(schema.pluginDownloadURL ? { server: schema.pluginDownloadURL } : {}), version: "${project.version}",
    });
    expect(gradle).toContain(`name "${schema.name}"`);
    if (schema.pluginDownloadURL) expect(gradle).toContain(`server "${schema.pluginDownloadURL}"`);
  });
});

describe("built with Maven", () => {
  let reactor: string;
  let built: SpawnSyncReturns<string>;
  const jar = (): string => path.join(reactor, "wsbridge/target", `${COORDINATES.artifactId}-${COORDINATES.version}.jar`);

  // One Maven run over a reactor of two projects: a copy of sdk/java (so no target/ is left in the
  // tree) and the program of docs/languages/java.md, whose pom names the SDK by its coordinates:
  // Maven takes it from the reactor, as from ~/.m2 after `mvn install`.
  beforeAll(() => {
    requireTool("mvn", "the Java SDK is built with Maven (on Debian: apt-get install maven)");
    reactor = path.join(work, "reactor");
    fs.cpSync(SDK, path.join(reactor, "wsbridge"), { recursive: true, filter: (src) => !BUILD_LEFTOVERS.has(path.relative(SDK, src)) });
    const program = path.join(reactor, "program");
    fs.mkdirSync(path.join(program, "src/main/java/workspaces"), { recursive: true });
    fs.writeFileSync(path.join(program, "pom.xml"), docBlock("`pom.xml`:", "xml"));
    fs.writeFileSync(path.join(program, "src/main/java/workspaces/App.java"), docBlock("`src/main/java/workspaces/App.java`:", "java"));
    fs.writeFileSync(path.join(reactor, "pom.xml"), [
      `<project xmlns="http://maven.apache.org/POM/4.0.0">`,
      `  <modelVersion>4.0.0</modelVersion>`,
      `  <groupId>test</groupId><artifactId>reactor</artifactId><version>0</version><packaging>pom</packaging>`,
      `  <modules><module>wsbridge</module><module>program</module></modules>`,
      `</project>`, "",
    ].join("\n"));
    built = run("mvn", ["-B", "-q", "--no-transfer-progress", "package"], reactor);
  }, LONG_MS);

  /** Maven's status and, on failure, the end of what it printed. */
  const outcome = (): { status: number | null; printed: string[] } => ({ status: built.status, printed: built.status === 0 ? [] : printed(built).slice(-40) });

  test("mvn package builds sdk/java against com.pulumi:pulumi from Maven Central, into a jar with a class for every resource, its Args and every function", () => {
    expect(outcome()).toEqual({ status: 0, printed: [] });
    const listed = run("jar", ["tf", jar()]);
    expect(listed.status).toBe(0);
    const entries = new Set(listed.stdout.split("\n"));
    const expected = [
      ...KINDS.flatMap((kind) => [`${JAVA_PACKAGE}/${kind}.class`, `${JAVA_PACKAGE}/${kind}Args.class`]),
      `${JAVA_PACKAGE}/Provider.class`, `${JAVA_PACKAGE}/WsbridgeFunctions.class`,
      ...FUNCTIONS.map((fn) => `${JAVA_PACKAGE}/outputs/${fn.charAt(0).toUpperCase()}${fn.slice(1)}Result.class`),
    ];
    expect(expected.filter((entry) => !entries.has(entry))).toEqual([]);
  });

  test("the jar holds the version.txt the SDK reads its version from and the plugin.json naming plugin wsbridge 0.1.0", () => {
    expect(outcome()).toEqual({ status: 0, printed: [] });
    const extracted = path.join(work, "jar");
    fs.mkdirSync(extracted, { recursive: true });
    expect(run("jar", ["xf", jar(), `${JAVA_PACKAGE}/version.txt`, `${JAVA_PACKAGE}/plugin.json`], extracted).status).toBe(0);
    expect(fs.readFileSync(path.join(extracted, JAVA_PACKAGE, "version.txt"), "utf8")).toBe("0.1.0");
    expect(JSON.parse(fs.readFileSync(path.join(extracted, JAVA_PACKAGE, "plugin.json"), "utf8"))).toEqual({
      resource: true, name: "wsbridge", ...(schema.pluginDownloadURL ? { server: schema.pluginDownloadURL } : {}), version: "0.1.0",
    });
  });

  test("the program of docs/languages/java.md (Workspace and WorkspaceLock with their Args builders, a lookup) compiles against it, depending on the SDK by its Maven coordinates", () => {
    const programPom = docBlock("`pom.xml`:", "xml");
    expect(pomDependencies(programPom)[`${COORDINATES.groupId}:${COORDINATES.artifactId}`]).toBe(COORDINATES.version);
    expect(outcome()).toEqual({ status: 0, printed: [] });
    expect(fs.existsSync(path.join(reactor, "program/target/classes/workspaces/App.class"))).toBe(true);
  });
});

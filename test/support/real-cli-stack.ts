// The setup every real-CLI test file shares, in one place: the Pulumi CLI, an in-process emulator, a
// stack whose config points at it, what the CLI printed, a small client of the emulator's API and the
// emulator's request log as lines. Each file used to repeat these ~30 lines; now a file states only
// what differs (the program, the emulator's fixtures, extra config).
//
// `useRealCliStack()` registers its own beforeAll/afterAll, so call it at the top level of a test file
// (or of a describe): the object it returns is usable inside tests and inside hooks declared after it.
// A file with its own stacks (several, or one per test) composes `useEmulatorAndCli()` with
// `createStack()`; one with two emulators calls `useRealCliStack()` twice.
import type { ConfigMap, PulumiCommand, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { request } from "undici";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { createStack, emulatorStackConfig, pulumiCli, type HarnessStack } from "../../scripts/lib/stack-harness";
import { testStackSecrets } from "./transit-keeper";

/** Starting the emulator is quick; finding (or, the first time, building) the CLI may take minutes. */
const SETUP_TIMEOUT_MS = 20 * 60 * 1000;

/** What {@link RealCliEmulator.api} answers: the status and the parsed body (`{}` when there is none). */
export interface ApiReply<T> {
  status: number;
  doc: T;
}

/** The CLI and a running emulator, for files that make their own stacks. */
export interface RealCliEmulator {
  readonly cli: PulumiCommand;
  readonly emulator: RunningEmulator;
  /**
   * Sends a request as an outside client would (default: the owner's token). `path` is below `/api/v2`,
   * or a whole URL (the registry's API is elsewhere). The body is typed by the caller, not checked:
   * tests assert on it.
   */
  api<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<ApiReply<T>>;
  /** The requests since the emulator's last clear, as "METHOD /path" (the path mapped by `shown`). */
  requestLines(shown?: (path: string) => string): string[];
  /** The same for the requests that may change something: all but GET. */
  writes(shown?: (path: string) => string): string[];
}

/** {@link RealCliEmulator} with one stack whose config points at the emulator. */
export interface RealCliStack extends RealCliEmulator {
  readonly harness: HarnessStack;
  readonly stack: Stack;
  /** Everything passed to {@link log}: what the CLI printed, for checking that no token appears. */
  readonly printed: string;
  /** An `onOutput` for the stack's operations that collects into {@link printed}. */
  readonly log: (text: string) => void;
}

export interface RealCliStackOptions {
  projectName: string;
  program: PulumiFn;
  /** How to start the emulator (always on a free port). */
  emulator?: EmulatorOptions;
  /** Stack config besides the emulator's address, token (a secret) and organization; wins over them. */
  config?: ConfigMap;
  /** Extra environment for the CLI and the provider process. */
  env?: Record<string, string>;
  /** Install the provider plugin in the stack's PULUMI_HOME (programs that use the generated SDK). */
  plugin?: boolean;
}

/** A request path as the emulator logged it, without the `/api/v2` prefix. */
export const belowApi = (path: string): string => path.replace("/api/v2", "");

/** Set up the CLI and one emulator for this file (or describe); closed after its tests. */
export function useEmulatorAndCli(options: EmulatorOptions = {}): RealCliEmulator {
  const fixture = new EmulatorAndCli(options);
  beforeAll(() => fixture.start(), SETUP_TIMEOUT_MS);
  afterAll(() => fixture.stop());
  return fixture;
}

/** Set up the CLI, one emulator and one stack pointed at it for this file (or describe). */
export function useRealCliStack(options: RealCliStackOptions): RealCliStack {
  const fixture = new StackOnEmulator(options);
  beforeAll(() => fixture.start(), SETUP_TIMEOUT_MS);
  afterAll(() => fixture.stop());
  return fixture;
}

// The CLI is found once per test file, however many fixtures the file uses.
let sharedCli: Promise<PulumiCommand> | undefined;

function ready<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set up yet: use it inside a test, or in a hook declared after the fixture`);
  return value;
}

class EmulatorAndCli implements RealCliEmulator {
  #cli: PulumiCommand | undefined;
  #emulator: RunningEmulator | undefined;

  constructor(private readonly emulatorOptions: EmulatorOptions) {}

  get cli(): PulumiCommand {
    return ready(this.#cli, "the Pulumi CLI");
  }

  get emulator(): RunningEmulator {
    return ready(this.#emulator, "the emulator");
  }

  async start(): Promise<void> {
    this.#cli = await (sharedCli ??= pulumiCli());
    this.#emulator = await startEmulator({ ...this.emulatorOptions, port: 0 });
  }

  async stop(): Promise<void> {
    await this.#emulator?.close();
  }

  async api<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<ApiReply<T>> {
    const emulator = this.emulator;
    const res = await request(path.startsWith("http") ? path : `${emulator.url}/api/v2${path}`, {
      method: method as "GET",
      headers: { authorization: `Bearer ${token ?? emulator.token}`, "content-type": "application/vnd.api+json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, doc: (text === "" ? {} : JSON.parse(text)) as T };
  }

  requestLines(shown: (path: string) => string = (path) => path): string[] {
    return this.emulator.requests().map((r) => `${r.method} ${shown(r.path)}`);
  }

  writes(shown: (path: string) => string = (path) => path): string[] {
    return this.emulator.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${shown(r.path)}`);
  }
}

class StackOnEmulator extends EmulatorAndCli implements RealCliStack {
  #harness: HarnessStack | undefined;
  #printed = "";
  readonly log = (text: string): void => {
    this.#printed += text;
  };

  constructor(private readonly options: RealCliStackOptions) {
    super(options.emulator ?? {});
  }

  get harness(): HarnessStack {
    return ready(this.#harness, "the stack");
  }

  get stack(): Stack {
    return this.harness.stack;
  }

  get printed(): string {
    return this.#printed;
  }

  override async start(): Promise<void> {
    await super.start();
    const { projectName, program, config, env, plugin } = this.options;
    this.#harness = await createStack({
      cli: this.cli,
      projectName,
      program,
      config: { ...emulatorStackConfig(this.emulator), ...config },
      ...(env === undefined ? {} : { env }),
      ...(plugin === true && { plugin }),
      secrets: testStackSecrets(),
    });
  }

  override async stop(): Promise<void> {
    await this.#harness?.dispose();
    await super.stop();
  }
}

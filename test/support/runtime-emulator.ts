// The setup every runtime-level test file shares (the provider's runtime called in-process, against an
// in-process emulator), in one place: the emulator, no credentials from the environment or a developer's
// home, the runtime configured for the emulator before each test with a clean request log, a small client
// of the emulator's API and the request log as lines. A file states only what differs (the emulator's
// fixtures, the default config, its own helpers).
//
// `useRuntimeEmulator()` registers its own beforeAll/afterAll/beforeEach, so call it at the top level of
// a test file (or of a describe), before the file's own hooks: the object it returns is usable inside
// tests and inside hooks declared after it. The runtime's config is one per process, so a file with a
// second emulator (say a hosted one beside a self-managed one) passes `configureEachTest: false` to the
// second, which then only clears its log before each test, and calls its `configureWith` where a test
// wants the runtime pointed at it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import * as runtime from "../../provider/runtime";
import { resetConfigForTests } from "../../provider/runtime/config";
import { resetEditionCache } from "../../provider/runtime/api/operations/ping";
import type { ApiReply } from "./real-cli-stack";
import { isolatedHome } from "./isolated-home";

export type { ApiReply } from "./real-cli-stack";

/** The environment variables that would give the runtime an address, a token, an organization or an edition. */
const CREDENTIAL_VARIABLES = [
  "TFE_TOKEN", "TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION",
  "WSBRIDGE_TOKEN", "WSBRIDGE_ADDRESS", "WSBRIDGE_ORGANIZATION", "WSBRIDGE_EDITION",
];

export interface RuntimeEmulatorOptions {
  /** How to start the emulator (always on a free port). */
  emulator?: EmulatorOptions;
  /** Config the runtime gets before each test besides the emulator's address, token and organization; wins over them. */
  config?: Record<string, string>;
  /**
   * Forget the editions the runtime detected whenever it is configured (files that switch the edition
   * or the address, and count the ping that detects it). Off, the detection of the first test holds.
   */
  resetEditionCache?: boolean;
  /** Configure the runtime for this emulator before each test (default); off for a second emulator in a file. */
  configureEachTest?: boolean;
}

/** One emulator for this file (or describe), and the runtime configured for it before each test. */
export interface RuntimeEmulator {
  readonly emulator: RunningEmulator;
  /**
   * Configures the runtime for this emulator, as a program's stack config would: its address, `token`
   * (default: the owner's) and organization, with `extra` winning over them (another address, an edition).
   */
  configureWith(token?: string, extra?: Record<string, string>): Promise<void>;
  /**
   * Sends a request as an outside client would (default: the owner's token). `path` is below `/api/v2`,
   * or a whole URL. The body is typed by the caller, not checked: tests assert on it.
   */
  api<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<ApiReply<T>>;
  /** The requests since the emulator's last clear, as "METHOD /path" (the path mapped by `shown`). */
  requestsMade(shown?: (path: string) => string): string[];
  /** {@link requestsMade}, then clears the log: each call tells what came since the one before. */
  takeRequests(shown?: (path: string) => string): string[];
}

/** A request path without its query, for files whose assertions leave paging and filters aside. */
export const withoutQuery = (path: string): string => path.split("?")[0] as string;

/** Set up one emulator for this file (or describe), and the runtime for it before each test. */
export function useRuntimeEmulator(options: RuntimeEmulatorOptions = {}): RuntimeEmulator {
  const fixture = new RuntimeEmulatorFixture(options);
  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());
  beforeEach(() => fixture.beforeEachTest());
  return fixture;
}

// Each test file has its own module registry, so this is once per file however many fixtures it uses.
let environmentIsolated = false;

/** No credentials of the developer's may answer for a missing setting: not the environment's, nor a credentials file. */
function isolateFromTheEnvironment(): void {
  if (environmentIsolated) return;
  environmentIsolated = true;
  for (const name of CREDENTIAL_VARIABLES) delete process.env[name];
  process.env.HOME = isolatedHome();
}

class RuntimeEmulatorFixture implements RuntimeEmulator {
  #emulator: RunningEmulator | undefined;

  constructor(private readonly options: RuntimeEmulatorOptions) {}

  get emulator(): RunningEmulator {
    if (this.#emulator === undefined) {
      throw new Error("the emulator is not set up yet: use it inside a test, or in a hook declared after useRuntimeEmulator()");
    }
    return this.#emulator;
  }

  async start(): Promise<void> {
    isolateFromTheEnvironment();
    this.#emulator = await startEmulator({ ...this.options.emulator, port: 0 });
  }

  async stop(): Promise<void> {
    await this.#emulator?.close();
  }

  /** Faults back to the emulator's own (a test's scripted faults end with it), config, a clean log. */
  async beforeEachTest(): Promise<void> {
    const emulator = this.emulator;
    const startFaults = this.options.emulator?.faults;
    if (startFaults === undefined) emulator.clearFaults();
    else emulator.setFaults(startFaults);
    if (this.options.configureEachTest !== false) await this.configureWith(undefined, this.options.config);
    emulator.clearRequests();
  }

  // Arrow functions, so that a file may take them out of the object: `const { requestsMade } = fixture`.
  readonly configureWith = (token?: string, extra: Record<string, string> = {}): Promise<void> => {
    const emulator = this.emulator;
    resetConfigForTests();
    if (this.options.resetEditionCache === true) resetEditionCache();
    const settings: Record<string, string> = {
      "wsbridge:address": emulator.url, "wsbridge:token": token ?? emulator.token, "wsbridge:organization": emulator.organization, ...extra,
    };
    return runtime.configure({ config: { get: (key: string) => settings[key] } });
  };

  readonly api = async <T = unknown>(method: string, apiPath: string, body?: unknown, token?: string): Promise<ApiReply<T>> => {
    const emulator = this.emulator;
    const res = await request(apiPath.startsWith("http") ? apiPath : `${emulator.url}/api/v2${apiPath}`, {
      method: method as "GET",
      headers: { authorization: `Bearer ${token ?? emulator.token}`, "content-type": "application/vnd.api+json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, doc: (text === "" ? {} : JSON.parse(text)) as T };
  };

  readonly requestsMade = (shown: (path: string) => string = (p) => p): string[] =>
    this.emulator.requests().map((r) => `${r.method} ${shown(r.path)}`);

  readonly takeRequests = (shown?: (path: string) => string): string[] => {
    const list = this.requestsMade(shown);
    this.emulator.clearRequests();
    return list;
  };
}

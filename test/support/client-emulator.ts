/**
 * Helpers for the client's tests against the emulator: fixtures, clients with short retry budgets, and a
 * recorder that keeps every error message so a suite can assert the token never appears in one.
 */
import { WsbridgeClient, type ClientSettings } from "../../provider/runtime/api";
import type { Fixtures, RequestLogEntry, RunningEmulator } from "../../emulator";
import { failureOf } from "./failure";

/** Short waits so that retry tests stay fast; attempts are what the tests count. */
export const TEST_RETRY: NonNullable<ClientSettings["retry"]> = {
  minDelayMs: 1, maxDelayMs: 5, maxAttempts: 4, maxRateLimitRetries: 20, rateLimitMaxWaitMs: 5_000, budgetMs: 30_000,
  unlockRetryPeriodMs: 5_000,
};

/** A client for the emulator. The client-side limiter is off unless asked for: the emulator advertises
 * 30 req/s, and pacing every test to ~20 req/s would only make the suite slow. */
export function clientFor(emu: RunningEmulator, overrides: Partial<ClientSettings> = {}): WsbridgeClient {
  return new WsbridgeClient({
    address: emu.url, token: emu.token, retry: TEST_RETRY, timeoutMs: 5_000, rateLimit: { enabled: false }, ...overrides,
  });
}

export const SSH_KEY_ID = "sshkey-fixture0001";
export const OAUTH_TOKEN_ID = "ot-fixture0001";
export const PROJECT_ID = "prj-platform000001";
export const BULK = 105;

/** Everything the endpoint tests need, seeded at start. */
export function clientFixtures(): Fixtures {
  return {
    organizations: [{
      name: "example-org",
      projects: [{ id: PROJECT_ID, name: "platform", tagBindings: [{ key: "team", value: "infra" }] }],
      sshKeys: [{ id: SSH_KEY_ID, name: "deploy" }],
      oauthClients: [{ name: "github", oauthTokenId: OAUTH_TOKEN_ID }],
      registryModules: [{ name: "vpc", provider: "aws", description: "A VPC", versions: ["1.0.0", "1.1.0", "2.0.0"] }],
      workspaces: [
        { name: "busy", resourceCount: 3 },
        ...Array.from({ length: BULK }, (_, i) => ({ name: `bulk-${String(i).padStart(3, "0")}` })),
      ],
    }],
  };
}

/** Requests of the log matching a method and a path pattern. */
export function attempts(emu: RunningEmulator, method: string, path: string | RegExp): RequestLogEntry[] {
  return emu.requests().filter((r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)));
}

/** Awaits a promise that must fail; returns the error and remembers its message. */
export class ErrorRecorder {
  readonly messages: string[] = [];

  async failure(promise: Promise<unknown>): Promise<Error> {
    const err = await failureOf(promise);
    this.messages.push(String(err.message), String(err.stack));
    return err;
  }
}

/** Unique names so tests sharing one emulator do not collide. */
let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** The client's public methods: ping, edition, then one per endpoint of the spec (A1–D4, B4 as two), then the service's reads adopt needs. */
export const CLIENT_METHODS = [
  "ping", "edition",
  "createWorkspace", "listWorkspaces", "readWorkspaceByName", "readWorkspace", "updateWorkspace", "updateWorkspaceByName",
  "safeDeleteWorkspace", "safeDeleteWorkspaceByName", "forceDeleteWorkspace", "forceDeleteWorkspaceByName",
  "lockWorkspace", "unlockWorkspace", "forceUnlockWorkspace", "assignSshKey", "unassignSshKey",
  "listRemoteStateConsumers", "addRemoteStateConsumers", "replaceRemoteStateConsumers", "removeRemoteStateConsumers",
  "listTags", "addTags", "removeTags", "listTagBindings", "listEffectiveTagBindings", "addTagBindings",
  "readDataRetentionPolicy", "setDataRetentionPolicy", "deleteDataRetentionPolicy",
  "deprecateModuleVersion", "undeprecateModuleVersion", "readRegistryModuleVersion", "listRegistryModuleVersions",
  // Not in the spec; the service's, as go-tfe calls them (`wsbridge adopt` reads them).
  "listProjects", "listRegistryModules", "readCurrentState",
] as const;

/** Wraps a client so that every method called on it is added to `called` (a suite then checks that it
 * called them all against the emulator). */
export function recordingCalls(client: WsbridgeClient, called: Set<string>): WsbridgeClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || typeof prop !== "string") return value;
      return (...args: unknown[]): unknown => {
        called.add(prop);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

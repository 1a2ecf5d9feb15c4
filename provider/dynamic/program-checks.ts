// Checks that need the whole program, so they run in the program (the resource classes), not in the
// provider: the provider sees one resource at a time. None of this is serialized into state.
import * as pulumi from "@pulumi/pulumi";
import { ownerUrl } from "../runtime/ownership";
import { KeyClaims } from "../runtime/one-per-key";
import { resolveOrganization } from "../runtime/settings";

/** The create-only marker that records which resource of which stack made a server object. */
export function ownerMarker(kind: string, resourceName: string): string {
  return ownerUrl({ project: pulumi.getProject(), stack: pulumi.getStack(), kind, name: resourceName });
}

/** Per program run (the Automation API runs several in one process): keyed by the run's stack resource. */
const runs = new WeakMap<object, { tokenChecked: boolean; claims: KeyClaims }>();
const outsideAStack = {};

function thisRun(): { tokenChecked: boolean; claims: KeyClaims } {
  const key: object = pulumi.runtime.getStackResource() ?? outsideAStack;
  let run = runs.get(key);
  if (!run) runs.set(key, (run = { tokenChecked: false, claims: new KeyClaims() }));
  return run;
}

interface SecretAwareRuntime {
  isConfigSecret?: (key: string) => boolean;
}

/**
 * Warns once per run when `wsbridge:token` is set without `--secret`: it then sits in plaintext in
 * the stack's config file and in the state. (The SDK's check for secret keys is not part of its typed
 * API; where it is missing, nothing is said rather than something wrong.)
 */
export function warnIfTokenInPlaintext(): void {
  const run = thisRun();
  if (run.tokenChecked) return;
  run.tokenChecked = true;
  if (pulumi.runtime.getConfig("wsbridge:token") === undefined) return;
  const isSecret = (pulumi.runtime as unknown as SecretAwareRuntime).isConfigSecret;
  if (typeof isSecret !== "function" || isSecret("wsbridge:token")) return;
  void pulumi.log.warn(
    "wsbridge:token is set in plaintext: it is stored unencrypted in the stack's config file and in the state. " +
      "Run `pulumi config set --secret wsbridge:token <token>` to store it encrypted, or remove it " +
      "(`pulumi config rm wsbridge:token`) and set WSBRIDGE_TOKEN in the environment, where it is not stored at all.",
  );
}

/**
 * Fails the program (an error diagnostic) when two resources of one kind claim the same key the server
 * holds one object per (runtime/one-per-key.ts), for example two Workspaces named "net" in one
 * organization: the service would refuse the second at `up`, or the two would fight at every `up`.
 */
export function claimUniqueName(kind: string, key: pulumi.Input<string | undefined>[], resourceName: string): void {
  pulumi.all(key).apply((parts) => {
    if (parts.some((p) => p === undefined || p === "")) return;
    const claims = thisRun().claims;
    const conflict = claims.claim(kind, parts as string[], resourceName);
    // An error diagnostic fails the preview (and the up) without an unhandled rejection in the host.
    if (conflict !== undefined) void pulumi.log.error(conflict);
  });
}

/** The organization a resource without one gets, as the provider resolves it (stack config, then environment). */
export function defaultOrganization(): string | undefined {
  return resolveOrganization(pulumi.runtime.getConfig("wsbridge:organization"), process.env);
}

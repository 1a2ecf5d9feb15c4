// Checks that need the whole program, so they run in the program (the resource classes), not in the
// provider: the provider sees one resource at a time. None of this is serialized into state.
import * as pulumi from "@pulumi/pulumi";
import { ownerUrl } from "../runtime/ownership";

/** The create-only marker that records which resource of which stack made a server object. */
export function ownerMarker(kind: string, resourceName: string): string {
  return ownerUrl({ project: pulumi.getProject(), stack: pulumi.getStack(), kind, name: resourceName });
}

/** Per program run (the Automation API runs several in one process): keyed by the run's stack resource. */
const runs = new WeakMap<object, { tokenChecked: boolean; names: Map<string, string> }>();
const outsideAStack = {};

function thisRun(): { tokenChecked: boolean; names: Map<string, string> } {
  const key: object = pulumi.runtime.getStackResource() ?? outsideAStack;
  let run = runs.get(key);
  if (!run) runs.set(key, (run = { tokenChecked: false, names: new Map() }));
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
 * Fails the program (an error diagnostic) when two resources of one kind claim the same unique server name (for example two
 * Workspaces named "net" in one organization): the service would refuse the second at `up`.
 */
export function claimUniqueName(
  kind: string, key: pulumi.Input<string | undefined>[], resourceName: string,
  rule = "names are unique on the server",
): void {
  pulumi.all(key).apply((parts) => {
    if (parts.some((p) => p === undefined || p === "")) return;
    const id = `${kind}\u0000${parts.join("\u0000")}`;
    const names = thisRun().names;
    const other = names.get(id);
    if (other !== undefined && other !== resourceName) {
      // An error diagnostic fails the preview (and the up) without an unhandled rejection in the host.
      void pulumi.log.error(
        `${kind} resources "${other}" and "${resourceName}" both declare "${parts.join("/")}"; ` +
          `${rule}, so only one resource may declare each`,
      );
      return;
    }
    names.set(id, resourceName);
  });
}

/** The organization a resource without one gets, as the provider resolves it (stack config, then environment). */
export function defaultOrganization(): string | undefined {
  const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);
  return nonEmpty(pulumi.runtime.getConfig("wsbridge:organization")) ??
    nonEmpty(process.env["WSBRIDGE_ORGANIZATION"]) ?? nonEmpty(process.env["TFE_ORGANIZATION"]);
}

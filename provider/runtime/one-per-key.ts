// Objects the server holds one of per key: a workspace name in an organization, a workspace's lock, SSH
// key or retention policy, a module version's deprecation. Two resources of one program declaring the
// same key would fight at every `up` (or the second create would be refused), so both routes fail the
// preview instead: the dynamic route in the program (dynamic/program-checks.ts), the provider
// plugin in its process, which checks every resource of its deployment.

/** The kinds with such a key: the inputs that make it up, and the rule, as the message states it. */
export const ONE_PER_KEY: Readonly<Record<string, { readonly fields: readonly string[]; readonly rule: string }>> = {
  Workspace: { fields: ["organization", "name"], rule: "names are unique on the server" },
  WorkspaceLock: { fields: ["workspaceId"], rule: "a workspace has one lock" },
  SshKeyAssignment: { fields: ["workspaceId"], rule: "a workspace has one SSH key" },
  DataRetentionPolicy: { fields: ["workspaceId"], rule: "a workspace has one data retention policy" },
  ModuleVersionDeprecation: { fields: ["organization", "moduleName", "provider", "version"], rule: "a module version has one deprecation" },
};

/** What two resources declaring one key are told. */
export function sameKeyMessage(kind: string, first: string, second: string, parts: readonly string[]): string {
  const rule = ONE_PER_KEY[kind]?.rule ?? "the server holds one per key";
  return `${kind} resources "${first}" and "${second}" both declare "${parts.join("/")}"; ${rule}, so only one resource may declare each`;
}

/** The keys claimed so far, by which resource: the first to claim a key keeps it. */
export class KeyClaims {
  readonly #claims = new Map<string, { name: string; identity: string }>();

  /**
   * Claims the key for a resource, named `resourceName` in messages and told apart by `identity` (its
   * URN where known: two resources of one name may have different parents). The message when another
   * resource holds the key, else undefined.
   */
  claim(kind: string, parts: readonly string[], resourceName: string, identity = resourceName): string | undefined {
    const id = `${kind}\u0000${parts.join("\u0000")}`;
    const other = this.#claims.get(id);
    if (other !== undefined && other.identity !== identity) return sameKeyMessage(kind, other.name, resourceName, parts);
    this.#claims.set(id, { name: resourceName, identity });
    return undefined;
  }
}

// Which stack resource created a server object. A create writes it into the object's create-only
// `source-url` (shown by the service as "Created via pulumi-wsbridge"); the service keeps it and a
// person can read it. It is what lets a create tell its own interrupted attempt (adopt it) from an
// object someone else made (refuse it), and name the resource to alias after a rename.
//
// The URL points at the package's page, which is what the spec asks source-url to be ("a URL
// describing the creating client"); the owner rides in the fragment, which no browser sends anywhere.

/** A resource of a stack: the parts of its URN that stay fixed for its whole life. */
export interface Owner {
  project: string;
  stack: string;
  /** The resource kind, e.g. `Workspace`. */
  kind: string;
  /** The resource's name in the program (the first argument of its constructor). */
  name: string;
}

const PAGE = "https://www.npmjs.com/package/pulumi-wsbridge";
const PREFIX = `${PAGE}#owner=`;

export function ownerUrl(owner: Owner): string {
  return PREFIX + [owner.project, owner.stack, owner.kind, owner.name].map(encodeURIComponent).join("/");
}

/** The owner a `source-url` names, or undefined for anything this package did not write. */
export function parseOwnerUrl(url: string | null | undefined): Owner | undefined {
  if (typeof url !== "string" || !url.startsWith(PREFIX)) return undefined;
  const parts = url.slice(PREFIX.length).split("/");
  if (parts.length !== 4) return undefined;
  try {
    const [project, stack, kind, name] = parts.map(decodeURIComponent) as [string, string, string, string];
    return { project, stack, kind, name };
  } catch {
    return undefined;
  }
}

export function sameOwner(a: Owner, b: Owner): boolean {
  return a.project === b.project && a.stack === b.stack && a.kind === b.kind && a.name === b.name;
}

/**
 * Whether the last `check` of a resource found it in the state, per owner marker, for this provider
 * process. The engine checks a resource before it creates it, in the same process, so `create` can
 * tell the second half of a replacement (the old instance is live and must go first) from a retry of
 * an interrupted create (the object found is its own and is adopted). Kept out of the inputs, where
 * a value that changes between the first create and later updates would show in every preview.
 */
const checkedInState = new Map<string, boolean>();

export function noteCheck(marker: string, inState: boolean): void {
  checkedInState.set(marker, inState);
}

export function lastCheckFoundInState(marker: string): boolean {
  return checkedInState.get(marker) === true;
}

/** "resource "net" of stack wsbridge-demo/dev" */
export function describeOwner(owner: Owner): string {
  return `resource "${owner.name}" of stack ${owner.project}/${owner.stack}`;
}

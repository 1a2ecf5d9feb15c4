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
const FRAGMENT = "#owner=";

export function ownerUrl(owner: Owner): string {
  return PAGE + FRAGMENT + [owner.project, owner.stack, owner.kind, owner.name].map(encodeURIComponent).join("/");
}

/**
 * The owner a `source-url` names, or undefined for anything this package did not write. The marker
 * is the `#owner=` fragment: on the package's page, or on a `sourceUrl` the program declared.
 */
export function parseOwnerUrl(url: string | null | undefined): Owner | undefined {
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) return undefined;
  const at = url.indexOf(FRAGMENT);
  if (at < 0) return undefined;
  const parts = url.slice(at + FRAGMENT.length).split("/");
  if (parts.length !== 4) return undefined;
  try {
    const [project, stack, kind, name] = parts.map(decodeURIComponent) as [string, string, string, string];
    return { project, stack, kind, name };
  } catch {
    return undefined;
  }
}

/** `#owner=…` of a marker, to put on another URL; undefined when there is no marker. */
export function ownerFragmentOf(marker: string | undefined): string | undefined {
  if (marker === undefined || parseOwnerUrl(marker) === undefined) return undefined;
  return marker.slice(marker.indexOf(FRAGMENT));
}

/** A `source-url` as the program declared it: without the marker fragment. */
export function withoutOwnerFragment(url: string): string {
  return parseOwnerUrl(url) === undefined ? url : url.slice(0, url.indexOf(FRAGMENT));
}

export function sameOwner(a: Owner, b: Owner): boolean {
  return a.project === b.project && a.stack === b.stack && a.kind === b.kind && a.name === b.name;
}

/**
 * Objects a create adopted in this provider process (one deployment). A create-before-delete
 * replacement that keeps the name (`pulumi up --replace` with `deleteBeforeReplace: false`) looks to
 * the provider exactly like a retry of an interrupted create: the engine checks the replacement
 * without the old inputs and does not diff it. Its create adopts the old object, and the engine then
 * deletes the old resource's id, which is the same object: delete must leave it to its new owner.
 */
const adoptedThisRun = new Set<string>();

export function noteAdopted(id: string): void {
  adoptedThisRun.add(id);
}

export function adoptedInThisRun(id: string): boolean {
  return adoptedThisRun.has(id);
}

/** "resource "net" of stack wsbridge-demo/dev" */
export function describeOwner(owner: Owner): string {
  return `resource "${owner.name}" of stack ${owner.project}/${owner.stack}`;
}

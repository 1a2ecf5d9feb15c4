// The URLs of a workspace, from what a preview already knows: the API's address, the workspace's id,
// its organization and its name. The resource's outputs, the plugin's previews, the dynamic class's
// known outputs and the lookups all use these. Pure and dependency-free (the program loads it).

/**
 * The workspace's address in the API, below the address's own path (where the client sends its
 * requests): `new URL("/api/…", address)` would drop a base path such as `https://host/tfe`.
 */
export function workspaceApiUrl(address: string, id: string): string {
  return `${address.replace(/\/+$/, "")}/api/v2/workspaces/${encodeURIComponent(id)}`;
}

/** The workspace's page in the service's UI, as the service links it (`/app/<organization>/workspaces/<name>`). */
export function workspaceHtmlUrl(address: string, organization: string, name: string): string {
  return absoluteUrl(address, `/app/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(name)}`);
}

/**
 * The page the server links (`self-html`) made absolute against the address; built from the organization
 * and the name where a server omits it.
 */
export function linkedHtmlUrl(address: string, workspace: { htmlUrl: string | null; organization: string; name: string }): string {
  return workspace.htmlUrl === null ? workspaceHtmlUrl(address, workspace.organization, workspace.name) : absoluteUrl(address, workspace.htmlUrl);
}

/** A link the server gives (e.g. `self-html`, an absolute path) made absolute against the address. */
export function absoluteUrl(address: string, link: string): string {
  return new URL(link, address).toString();
}

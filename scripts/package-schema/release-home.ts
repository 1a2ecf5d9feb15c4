// Where the package lives and is released, derived from package.json's `repository` (its one
// source): the package schema's repository, homepage, logoUrl and pluginDownloadURL, and the release
// command's GitHub release and Go module tag.

export interface ReleaseHome {
  /** GitHub owner and repository name, e.g. `pulumi-wsbridge` and `pulumi-wsbridge`. */
  owner: string;
  repo: string;
  /** https://github.com/<owner>/<repo> */
  repository: string;
  homepage: string;
  /**
   * Where the engine downloads the plugin: `github://api.github.com/<owner>/<repo>`, i.e. the asset
   * `pulumi-resource-wsbridge-v<version>-<os>-<arch>.tar.gz` of the GitHub release `v<version>`.
   */
  pluginDownloadURL: string;
  /** The logo in the repository (docs/logo.png on main), as the registry and the .NET package show it. */
  logoUrl: string;
}

/** The repository file logoUrl names. */
export const LOGO_PATH = "docs/logo.png";

export function releaseHome(pkg: { repository?: string | { url: string }; homepage?: string }): ReleaseHome {
  const url = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const match = /github\.com[/:]([^/]+)\/([^/.]+?)(?:\.git)?\/?$/.exec(url ?? "");
  if (match === null) throw new Error(`package.json repository must name a GitHub repository (https://github.com/<owner>/<repo>), got ${JSON.stringify(url)}`);
  const [, owner, repo] = match as unknown as [string, string, string];
  const repository = `https://github.com/${owner}/${repo}`;
  return {
    owner,
    repo,
    repository,
    homepage: pkg.homepage ?? repository,
    pluginDownloadURL: `github://api.github.com/${owner}/${repo}`,
    logoUrl: `https://raw.githubusercontent.com/${owner}/${repo}/main/${LOGO_PATH}`,
  };
}

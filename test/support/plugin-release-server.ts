// A stand-in for the project's GitHub releases, on 127.0.0.1: it serves the plugin archives under
// GitHub's download path (/<owner>/<repo>/releases/download/v<version>/<asset>), and `overrides` is the
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES value that sends the engine here instead of to GitHub for the
// package schema's pluginDownloadURL (github://api.github.com/<owner>/<repo>). The CLI reads that
// variable when it starts, so a test puts it in the environment of each Pulumi command.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { pulumiPlatform, stackFolderEnvironment } from "../../scripts/lib/stack-harness";
import { releaseHome } from "../../scripts/package-schema/release-home";

const ROOT = path.resolve(__dirname, "..", "..");
const PACKAGE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; repository?: string | { url: string }; homepage?: string };

/**
 * The path the engine asks a release server for: GitHub's download path of this machine's archive of
 * the plugin (package.json's version unless `version` says otherwise).
 */
export function releaseAssetPath(version: string = PACKAGE_JSON.version): string {
  const home = releaseHome(PACKAGE_JSON);
  return `/${home.owner}/${home.repo}/releases/download/v${version}/pulumi-resource-wsbridge-v${version}-${pulumiPlatform()}.tar.gz`;
}

export interface PluginReleaseServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The value of PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES that points the engine here. */
  overrides: string;
  /** Every request's path, in order (the assets the engine downloaded). */
  requests: string[];
  close(): Promise<void>;
}

export interface ReleaseServerOptions {
  /** The folder of release assets (default: dist/plugin, where `npm run build:plugin` writes the archives). */
  assets?: string;
  /** Answer every asset with these bytes instead (a corrupt archive), status 200. */
  corruptWith?: Buffer;
}

export async function servePluginReleases(options: ReleaseServerOptions = {}): Promise<PluginReleaseServer> {
  const assets = options.assets ?? path.join(ROOT, "dist", "plugin");
  const home = releaseHome(PACKAGE_JSON);
  const prefix = `/${home.owner}/${home.repo}/releases/download/`;
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = request.url ?? "/";
    requests.push(url);
    // /<owner>/<repo>/releases/download/v<version>/<asset>: the asset must be of that version.
    const match = url.startsWith(prefix) ? /^v([^/]+)\/(pulumi-resource-[a-z]+-v([^/]+)-[a-z]+-[a-z0-9]+\.tar\.gz)$/.exec(url.slice(prefix.length)) : null;
    const file = match !== null && match[1] === match[3] ? path.join(assets, match[2]!) : undefined;
    if (file === undefined || !fs.existsSync(file)) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    }
    const body = options.corruptWith ?? fs.readFileSync(file);
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    overrides: `^${escapeRegExp(home.pluginDownloadURL)}=${origin}${prefix}v\${VERSION}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The environment of a stack folder (stackFolderEnvironment) whose CLI starts with an empty plugin
 * cache and automatic plugin acquisition on (the CLI's default, which the other tests turn off), and
 * fetches this project's plugin from `server`.
 */
export function fetchingEnvironment(cli: PulumiCommand, dir: string, server: PluginReleaseServer, extra: Record<string, string> = {}): Record<string, string> {
  const { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: _off, ...env } = stackFolderEnvironment(cli, dir, {
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: server.overrides,
    ...extra,
  });
  return env;
}

// The package version and its package schema, for the plugin (which serves them) and `wsbridge adopt`
// (which writes programs typed by the schema). The bundled plugin (scripts/build-plugin.js) carries
// both as constants, so the archive needs no file but its bundle; run from the sources (tests), they
// are read from the package's own package.json and schema/schema.json.
import * as fs from "node:fs";
import * as path from "node:path";

// Replaced by the bundler with literals; undefined when running unbundled.
declare const WSBRIDGE_PLUGIN_VERSION: string | undefined;
declare const WSBRIDGE_PACKAGE_SCHEMA: string | undefined;

/** The package root: the nearest folder above this file whose package.json names pulumi-wsbridge. */
function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: unknown }).name === "pulumi-wsbridge") return dir;
    if (path.dirname(dir) === dir) throw new Error("pulumi-wsbridge's package.json was not found above " + __dirname);
  }
}

/** The version built into the bundled plugin; undefined when running from the package's files. */
export function bundledVersion(): string | undefined {
  return typeof WSBRIDGE_PLUGIN_VERSION === "string" ? WSBRIDGE_PLUGIN_VERSION : undefined;
}

/** The plugin's version: the package's (the SDK asks the engine for exactly this version). */
export function pluginVersion(): string {
  if (typeof WSBRIDGE_PLUGIN_VERSION === "string") return WSBRIDGE_PLUGIN_VERSION;
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/** The package schema's text, byte for byte the committed schema/schema.json. */
export function packageSchemaText(): string {
  if (typeof WSBRIDGE_PACKAGE_SCHEMA === "string") return WSBRIDGE_PACKAGE_SCHEMA;
  return fs.readFileSync(path.join(packageRoot(), "schema", "schema.json"), "utf8");
}

import * as os from "node:os";
import * as path from "node:path";

/** The per-user cache the project's tools share (scripts/setup-pulumi.sh uses the same folder). */
export function cacheRoot(): string {
  return process.env.WSBRIDGE_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-wsbridge");
}

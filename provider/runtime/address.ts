// Which API address a setting chain resolves to. Pure and dependency-free, because the resource
// classes need it in the program (to derive URLs that stay known during preview) without loading
// the runtime's HTTP client.

export const DEFAULT_ADDRESS = "https://app.terraform.io";

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

/** Stack config `wsbridge:address`, then WSBRIDGE_ADDRESS, TFE_ADDRESS, https:// + TFE_HOSTNAME, then the default; no trailing slash. */
export function resolveAddress(configured: string | undefined, env: NodeJS.ProcessEnv): string {
  const tfeHostname = nonEmpty(env["TFE_HOSTNAME"]);
  return (
    nonEmpty(configured) ??
    nonEmpty(env["WSBRIDGE_ADDRESS"]) ??
    nonEmpty(env["TFE_ADDRESS"]) ??
    (tfeHostname ? (/^https?:\/\//.test(tfeHostname) ? tfeHostname : `https://${tfeHostname}`) : undefined) ??
    DEFAULT_ADDRESS
  ).replace(/\/+$/, "");
}

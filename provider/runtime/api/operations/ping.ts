/**
 * Ping (`GET /api/v2/ping`, 204): the service's identity headers. Used to detect the edition once per
 * process per address, and it also teaches the rate limiter the advertised `X-RateLimit-Limit`.
 */
import { headerValue } from "../transport";
import type { Edition, Requester } from "../requester";

export interface PingInfo {
  edition: Edition;
  /** `TFP-API-Version`. */
  apiVersion?: string;
  /** `X-RateLimit-Limit`, requests per second. */
  rateLimit?: number;
  /** `TFP-AppName`: `HCP Terraform` for the hosted edition. */
  appName?: string;
  /** `X-TFE-Version` (self-managed only). */
  serverVersion?: string;
}

/** Hosted when the app name says so; otherwise any app name or server version means self-managed. */
export function editionFromHeaders(header: (name: string) => string | undefined, address: string): Edition {
  const appName = header("tfp-appname");
  if (appName !== undefined && appName !== "") return appName === "HCP Terraform" ? "hosted" : "self-managed";
  const declared = header("x-wsbridge-edition");
  if (declared === "hosted" || declared === "self-managed") return declared;
  if (header("x-tfe-version")) return "self-managed";
  return /(^|\.)terraform\.io$/.test(new URL(address).hostname) ? "hosted" : "self-managed";
}

export async function ping(core: Requester): Promise<PingInfo> {
  // Ping needs no credentials, so previews without a token can still learn the edition.
  const res = await core.request({ method: "GET", path: "/api/v2/ping", tokenOptional: true });
  const header = (name: string) => headerValue(res.headers, name);
  const info: PingInfo = { edition: editionFromHeaders(header, core.address) };
  const apiVersion = header("tfp-api-version");
  const limit = Number(header("x-ratelimit-limit"));
  const appName = header("tfp-appname");
  const serverVersion = header("x-tfe-version");
  if (apiVersion) info.apiVersion = apiVersion;
  if (Number.isFinite(limit) && limit > 0) info.rateLimit = limit;
  if (appName) info.appName = appName;
  if (serverVersion) info.serverVersion = serverVersion;
  return info;
}

/** Detected editions, per address, for the life of the process (a failed detection is not cached). */
const editions = new Map<string, Promise<Edition>>();

export function detectEdition(core: Requester): Promise<Edition> {
  let pending = editions.get(core.address);
  if (!pending) {
    pending = ping(core).then((info) => info.edition);
    editions.set(core.address, pending);
    pending.catch(() => editions.delete(core.address));
  }
  return pending;
}

/** Forgets detected editions (tests). */
export function resetEditionCache(): void {
  editions.clear();
}

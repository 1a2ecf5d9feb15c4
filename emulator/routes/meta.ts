/**
 * Ping and service discovery.
 */
import type { HandlerResult, RequestContext, RouteDef } from "../context";
import { errors } from "../errors";

export const TFE_VERSION = "v202510-1";

function ping(ctx: RequestContext): HandlerResult {
  const hosted = ctx.app.edition === "hosted";
  const headers: Record<string, string> = {
    "TFP-API-Version": "2.6",
    "TFP-AppName": hosted ? "HCP Terraform" : "Terraform Enterprise",
  };
  if (!hosted) headers["X-TFE-Version"] = TFE_VERSION;
  return { status: 204, headers };
}

/** `/.well-known/terraform.json`, served only when the emulator speaks the real wire name (`terraform-version`). */
function discovery(ctx: RequestContext): HandlerResult {
  if (ctx.app.versionAttribute !== "terraform-version") throw errors.notFound();
  return {
    status: 200,
    body: {
      "modules.v1": "/api/registry/v1/modules/",
      "motd.v1": "/api/terraform/motd",
      "state.v2": "/api/v2/",
      "tfe.v2": "/api/v2/",
      "tfe.v2.1": "/api/v2/",
      "tfe.v2.2": "/api/v2/",
    },
  };
}

export const metaRoutes: RouteDef[] = [
  { method: "GET", path: "/api/v2/ping", handler: ping, auth: false },
  { method: "GET", path: "/.well-known/terraform.json", handler: discovery, auth: false, registry: true },
];

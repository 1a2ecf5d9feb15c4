/**
 * Private-registry module version deprecation (spec D1, D2): `module-versions` with the `deprecations`
 * resource delivered in `included`.
 */
import { z } from "zod";
import { RULES, text } from "../../../schemas/rules";
import { InvalidOptionsError } from "../errors";
import { requestDocument, type RequestDocument } from "./common";

export const moduleVersionDocument = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal("module-versions"),
    relationships: z.object({
      deprecation: z.object({ data: z.object({ id: z.string(), type: z.string() }).nullable().optional() }).optional(),
    }).nullable().optional(),
  }),
  included: z.array(z.object({
    id: z.string(),
    type: z.string(),
    attributes: z.object({ reason: z.string().nullable().optional(), link: z.string().nullable().optional() }).optional(),
  })).optional(),
});

/** Identifies a private module version: `organization/name/provider@version`. */
export interface ModuleVersionRef {
  organization: string;
  /** The module's name. */
  name: string;
  /** The provider the module is for (e.g. `aws`). */
  provider: string;
  version: string;
}

export interface DeprecationInput {
  /** Optional: why (the server may append text to it). */
  reason?: string;
  /** Optional: URL with more information. */
  link?: string;
}

export interface ModuleVersionDeprecation {
  moduleVersionId: string;
  deprecationId: string | null;
  /** As stored by the server, which may differ from what was sent. */
  reason: string | null;
  link: string | null;
}

export function toModuleVersionDeprecation(doc: z.output<typeof moduleVersionDocument>): ModuleVersionDeprecation {
  const ref = doc.data.relationships?.deprecation?.data ?? null;
  const inc = doc.included?.find((i) => i.type === "deprecations" && (ref === null || i.id === ref.id));
  return {
    moduleVersionId: doc.data.id,
    deprecationId: ref?.id ?? inc?.id ?? null,
    reason: inc?.attributes?.reason ?? null,
    link: inc?.attributes?.link ?? null,
  };
}

export function validateDeprecation(operation: string, d: DeprecationInput): void {
  if (d === null || typeof d !== "object") throw new InvalidOptionsError(operation, "deprecation", "must be an object");
  if (d.link !== undefined) {
    try { new URL(d.link); } catch { throw new InvalidOptionsError(operation, "deprecation.link", `must be an absolute URL, got "${d.link}"`); }
  }
}

/** D1 request document: `Deprecated` with an optional reason and link (an absolute URL). */
export const deprecateRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal("module-versions"),
    attributes: z.strictObject({
      deprecation: z.strictObject({
        "deprecated-status": z.literal("Deprecated"),
        reason: text(RULES.deprecationReason).optional(),
        link: text(RULES.deprecationLink).optional(),
      }),
    }),
  }),
});

/** D2 request document: only the status. */
export const undeprecateRequest = z.strictObject({
  data: z.strictObject({
    type: z.literal("module-versions"),
    attributes: z.strictObject({ deprecation: z.strictObject({ "deprecated-status": z.literal("Undeprecated") }) }),
  }),
});

/** D1 body. */
export function deprecateBody(d: DeprecationInput): RequestDocument {
  return requestDocument(deprecateRequest, {
    data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Deprecated", reason: d.reason, link: d.link } } },
  });
}

/** D2 body. */
export function undeprecateBody(): RequestDocument {
  return requestDocument(undeprecateRequest, {
    data: { type: "module-versions", attributes: { deprecation: { "deprecated-status": "Undeprecated" } } },
  });
}

/**
 * D1, D2. Deprecate / undeprecate a private module version. Setting a status is idempotent, so the
 * documented 500/503 failures are retried.
 */
import {
  deprecateBody, moduleVersionDocument, undeprecateBody, toModuleVersionDeprecation, validateDeprecation,
  type DeprecationInput, type ModuleVersionDeprecation, type ModuleVersionRef,
} from "../documents/module-versions";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

function versionPath(operation: string, ref: ModuleVersionRef): string {
  requireId(operation, "ref.organization", ref?.organization);
  requireId(operation, "ref.name", ref.name);
  requireId(operation, "ref.provider", ref.provider);
  requireId(operation, "ref.version", ref.version);
  const org = seg(ref.organization);
  return `/api/v2/organizations/${org}/registry-modules/private/${org}/${seg(ref.name)}/${seg(ref.provider)}/${seg(ref.version)}`;
}

/** D1. */
export async function deprecateModuleVersion(core: Requester, ref: ModuleVersionRef, deprecation: DeprecationInput): Promise<ModuleVersionDeprecation> {
  const path = versionPath("deprecateModuleVersion", ref);
  validateDeprecation("deprecateModuleVersion", deprecation);
  const res = await core.request({ method: "PATCH", path, body: deprecateBody(deprecation), idempotent: true });
  return toModuleVersionDeprecation(core.parse(moduleVersionDocument, res));
}

/** D2. */
export async function undeprecateModuleVersion(core: Requester, ref: ModuleVersionRef): Promise<void> {
  const path = versionPath("undeprecateModuleVersion", ref);
  const res = await core.request({ method: "PATCH", path, body: undeprecateBody(), idempotent: true });
  core.parse(moduleVersionDocument, res);
}

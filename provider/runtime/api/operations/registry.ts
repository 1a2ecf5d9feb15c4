/**
 * D3, D4. Registry read API under `/api/registry/v1` (plain JSON; 404 is `{"errors":["Not Found"]}`).
 */
import {
  registryModuleListDocument, registryModuleVersionDocument, registryModuleVersionsDocument, toRegistryModuleVersion, toRegistryModuleVersionSummaries,
  type RegistryModule, type RegistryModuleRef, type RegistryModuleVersion, type RegistryModuleVersionRef, type RegistryModuleVersionSummary,
} from "../documents/registry";
import { nextPageOf, pageSize, paginate } from "../paginate";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

function modulePath(operation: string, ref: RegistryModuleRef): string {
  requireId(operation, "ref.namespace", ref?.namespace);
  requireId(operation, "ref.name", ref.name);
  requireId(operation, "ref.provider", ref.provider);
  return `/api/registry/v1/modules/${seg(ref.namespace)}/${seg(ref.name)}/${seg(ref.provider)}`;
}

/** D3. One version, with `deprecation` (null when not deprecated). */
export async function readRegistryModuleVersion(core: Requester, ref: RegistryModuleVersionRef): Promise<RegistryModuleVersion> {
  const base = modulePath("readRegistryModuleVersion", ref);
  requireId("readRegistryModuleVersion", "ref.version", ref.version);
  const res = await core.request({ method: "GET", path: `${base}/${seg(ref.version)}`, plainJson: true });
  return toRegistryModuleVersion(core.parse(registryModuleVersionDocument, res));
}

/** D4. Every version, with its deprecation. */
export async function listRegistryModuleVersions(core: Requester, ref: RegistryModuleRef): Promise<RegistryModuleVersionSummary[]> {
  const base = modulePath("listRegistryModuleVersions", ref);
  const res = await core.request({ method: "GET", path: `${base}/versions`, plainJson: true });
  return toRegistryModuleVersionSummaries(core.parse(registryModuleVersionsDocument, res));
}

/** The organization's registry modules, all pages (go-tfe `RegistryModules.List`; see documents/registry.ts). */
export function listRegistryModules(core: Requester, organization: string): AsyncGenerator<RegistryModule, void, undefined> {
  requireId("listRegistryModules", "organization", organization);
  const size = pageSize(undefined);
  return paginate(async (page) => {
    const res = await core.request({
      method: "GET", path: `/api/v2/organizations/${seg(organization)}/registry-modules`,
      query: { "page[number]": page, "page[size]": size },
    });
    const doc = core.parse(registryModuleListDocument, res);
    return {
      items: doc.data.map((m) => ({
        id: m.id, name: m.attributes.name, namespace: m.attributes.namespace, provider: m.attributes.provider,
        registryName: m.attributes["registry-name"] ?? "private",
      })),
      nextPage: nextPageOf(doc),
    };
  });
}

/**
 * C8–C10. Key-value tags. The PATCH is additive (adds keys, updates values, never removes); replacing
 * the whole set goes through updateWorkspace({ tagBindings }).
 */
import {
  effectiveTagBindingListDocument, tagBindingListDocument, tagBindingsBody, toEffectiveTagBinding, toTagBinding, validateTagBindings,
  type EffectiveTagBinding, type TagBinding, type TagBindingInput,
} from "../documents/tag-bindings";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

const base = (workspaceId: string) => `/api/v2/workspaces/${seg(workspaceId)}`;

/** C8. Bindings set directly on the workspace (all of them; not paginated). */
export async function listTagBindings(core: Requester, workspaceId: string): Promise<TagBinding[]> {
  requireId("listTagBindings", "workspaceId", workspaceId);
  const res = await core.request({ method: "GET", path: `${base(workspaceId)}/tag-bindings` });
  return core.parse(tagBindingListDocument, res).data.map(toTagBinding);
}

/** C9. Direct bindings plus those inherited from the project (`inheritedFrom`). */
export async function listEffectiveTagBindings(core: Requester, workspaceId: string): Promise<EffectiveTagBinding[]> {
  requireId("listEffectiveTagBindings", "workspaceId", workspaceId);
  const res = await core.request({ method: "GET", path: `${base(workspaceId)}/effective-tag-bindings` });
  return core.parse(effectiveTagBindingListDocument, res).data.map(toEffectiveTagBinding);
}

/** C10. Adds or updates the given keys; returns the bindings the server reports. */
export async function addTagBindings(core: Requester, workspaceId: string, bindings: TagBindingInput[]): Promise<TagBinding[]> {
  requireId("addTagBindings", "workspaceId", workspaceId);
  validateTagBindings("addTagBindings", "bindings", bindings);
  const res = await core.request({
    method: "PATCH", path: `${base(workspaceId)}/tag-bindings`, idempotent: true,
    body: tagBindingsBody(bindings),
  });
  return core.parse(tagBindingListDocument, res).data.map(toTagBinding);
}

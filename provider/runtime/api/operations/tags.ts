/**
 * C5–C7. Flat tags of a workspace.
 */
import { isTagByName, tagListDocument, tagRefsBody, toTag, validateTagRefs, type Tag, type TagRef } from "../documents/tags";
import { MAX_PAGE_SIZE, nextPageOf, paginate } from "../paginate";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

const tagsPath = (workspaceId: string) => `/api/v2/workspaces/${seg(workspaceId)}/relationships/tags`;

/** C5. Reads every page. */
export function listTags(core: Requester, workspaceId: string): AsyncGenerator<Tag, void, undefined> {
  requireId("listTags", "workspaceId", workspaceId);
  return paginate(async (page) => {
    const res = await core.request({
      method: "GET", path: tagsPath(workspaceId), query: { "page[number]": page, "page[size]": MAX_PAGE_SIZE },
    });
    const doc = core.parse(tagListDocument, res);
    return { items: doc.data.map(toTag), nextPage: nextPageOf(doc) };
  });
}

/** C6. Adding a tag twice changes nothing, so the POST is retried like a read. */
export async function addTags(core: Requester, workspaceId: string, tags: TagRef[]): Promise<void> {
  requireId("addTags", "workspaceId", workspaceId);
  validateTagRefs("addTags", tags);
  if (tags.length === 0) return;
  await core.request({ method: "POST", path: tagsPath(workspaceId), body: tagRefsBody(tags), idempotent: true });
}

/** C7. By name, removing twice is harmless; by id, a repeat can answer 404 (the tag may be gone from
 * the organization), so only all-by-name removals are retried after a lost connection. */
export async function removeTags(core: Requester, workspaceId: string, tags: TagRef[]): Promise<void> {
  requireId("removeTags", "workspaceId", workspaceId);
  validateTagRefs("removeTags", tags);
  if (tags.length === 0) return;
  await core.request({ method: "DELETE", path: tagsPath(workspaceId), body: tagRefsBody(tags), idempotent: tags.every(isTagByName) });
}

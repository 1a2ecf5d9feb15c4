/**
 * The organization's projects (not in the spec; see documents/projects.ts).
 */
import { projectListDocument, type Project } from "../documents/projects";
import { MAX_PAGE_SIZE, nextPageOf, paginate } from "../paginate";
import { seg, type Requester } from "../requester";
import { requireId } from "./common";

/** Every project of the organization, all pages. */
export function listProjects(core: Requester, organization: string): AsyncGenerator<Project, void, undefined> {
  requireId("listProjects", "organization", organization);
  return paginate(async (page) => {
    const res = await core.request({
      method: "GET", path: `/api/v2/organizations/${seg(organization)}/projects`,
      query: { "page[number]": page, "page[size]": MAX_PAGE_SIZE },
    });
    const doc = core.parse(projectListDocument, res);
    return { items: doc.data.map((p) => ({ id: p.id, name: p.attributes.name })), nextPage: nextPageOf(doc) };
  });
}

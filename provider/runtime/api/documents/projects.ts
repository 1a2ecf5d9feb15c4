/**
 * Projects, as `GET /api/v2/organizations/:organization/projects` lists them. Not in the spec, which
 * names projects only as a workspace's relationship; the service's endpoint, as the official Go client
 * calls it (go-tfe `project.go`, `Projects.List`). Read by `wsbridge adopt` to resolve `--project <name>`
 * and to name the project an inherited tag comes from.
 */
import { z } from "zod";
import { paginatedDocument } from "./common";

export const projectListDocument = paginatedDocument(z.object({
  id: z.string(),
  type: z.literal("projects"),
  attributes: z.object({ name: z.string() }),
}));

export interface Project {
  id: string;
  name: string;
}

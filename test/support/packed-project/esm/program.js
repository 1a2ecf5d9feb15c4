// The program as an ES module ("type": "module"), importing the package by name.
import { Workspace } from "pulumi-wsbridge";

export default (name) => {
  const ws = new Workspace("packed", { name, description: "installed from the tarball, as an ES module" });
  return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl };
};

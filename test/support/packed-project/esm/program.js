// The program as an ES module ("type": "module"), importing the package by name. The workspace's name
// is also its resource name, so that the driver can declare it beside the CommonJS program.
import { Workspace } from "pulumi-wsbridge";

export default (name) => {
  const ws = new Workspace(name, { name, description: "installed from the tarball, as an ES module" });
  return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl };
};

// The program as a CommonJS module, the way `tsc` compiles a user's index.ts by default. The workspace's
// name is also its resource name, so that the driver can declare several programs in one stack.
"use strict";
const { Workspace } = require("pulumi-wsbridge");

module.exports = (name) => {
  const ws = new Workspace(name, { name, description: "installed from the tarball" });
  return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl };
};

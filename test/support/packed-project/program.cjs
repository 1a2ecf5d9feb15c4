// The program as a CommonJS module, the way `tsc` compiles a user's index.ts by default.
"use strict";
const { Workspace } = require("pulumi-wsbridge");

module.exports = (name) => {
  const ws = new Workspace("packed", { name, description: "installed from the tarball" });
  return { workspaceId: ws.workspaceId, description: ws.description, htmlUrl: ws.htmlUrl };
};

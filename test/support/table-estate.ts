// A small estate for the table form's pure tests: five workspaces of one project (one on another engine
// version, names no language takes as a variable, a name another resource takes), what hangs off them,
// a consumer outside the selection, and a deprecated module version.
import type { DiscoveredModule, Estate } from "../../provider/adopt/model";
import type { Workspace } from "../../provider/runtime/api";
import { workspace } from "./workspace-fixture";

const user = { type: "users", id: "user-1" } as Workspace["lockedBy"];

/** Five workspaces of one project (one on another engine, one with a collision), and a deprecation. */
export function tableEstate(): Estate {
  const common = { projectId: "prj-1", engineVersion: "1.9.5" };
  const modules: DiscoveredModule[] = [{
    module: { name: "vpc", provider: "aws" } as DiscoveredModule["module"],
    versions: [{ version: "1.2.0", deprecation: { reason: "use 2.x", link: "https://example.test/vpc" } } as never],
  }];
  return {
    address: "https://example.test", organization: "org", edition: "self-managed",
    workspaces: [
      { workspace: workspace("ws-0000000000000009", "9-lives", { ...common, autoApply: true }) },
      { workspace: workspace("ws-000000000000000a", "a-b-c", { ...common, autoApply: true, locked: true, lockedBy: user, lockedReason: "change freeze" }) },
      { workspace: workspace("ws-000000000000000b", "a-bc", { ...common, autoApply: true, sshKeyId: "sshkey-1" }) },
      {
        workspace: workspace("ws-000000000000000c", "class", { ...common, autoApply: true, locked: true, lockedBy: user }),
        consumers: [workspace("ws-0000000000000009", "9-lives"), workspace("ws-00000000000000ff", "outside")],
      },
      { workspace: workspace("ws-000000000000000d", "class-lock", { ...common, engineVersion: "1.8.0" }) },
    ],
    unselected: new Map([["ws-00000000000000ff", "outside"]]),
    projects: new Map([["prj-1", "platform"]]),
    modules,
  };
}

// The pure parts of adopting again into a folder whose stack owns part of the organization: where a
// batch goes in a user's Pulumi.yaml (their bytes untouched), what the plan leaves out because the
// program already declares it (held by the stack, or declared by a batch that is now the user's), how
// it refers to what the stack holds, and what the stack holds that is gone or changed on the server.
import type { DataRetentionPolicy, Workspace } from "../../provider/runtime/api";
import { workspace } from "../support/workspace-fixture";
import { driftOf } from "../../provider/adopt/drift";
import type { HeldObject, Holdings } from "../../provider/adopt/held";
import type { DiscoveredWorkspace, Estate } from "../../provider/adopt/model";
import { isHeld, ownedBy } from "../../provider/adopt/owned";
import { planAdoption } from "../../provider/adopt/plan";
import { UnwritableProgramError, declaredResources, findBlock, insertBlock, removeBlock, type YamlBatch } from "../../provider/adopt/program/yaml-batch";


function estate(workspaces: DiscoveredWorkspace[], extra: Partial<Estate> = {}): Estate {
  return {
    address: "https://example.test", organization: "org", edition: "self-managed", workspaces,
    unselected: new Map(), projects: new Map(), ...extra,
  };
}

function held(kind: HeldObject["kind"], name: string, subject: string, inputs: Record<string, unknown> = {}, consumerIds?: string[]): HeldObject {
  return { kind, name, subject, urn: `urn:pulumi:dev::p::wsbridge:index:${kind}::${name}`, inputs, ...(consumerIds !== undefined && { consumerIds }) };
}

function holdings(objects: HeldObject[]): Holdings {
  return { stack: "dev", objects, names: new Set(objects.map((o) => o.name)) };
}

const batch = (entries: string[]): YamlBatch => ({ batch: 2, entryLines: entries, objects: 1 });
const ENTRY = ["  new-one:", "    type: wsbridge:index:Workspace", "    properties:", "      name: new-one"];

describe("a batch in the user's Pulumi.yaml", () => {
  test("goes after the last entry of resources:, before what follows it, and every byte the user wrote stays as it was", () => {
    const user = "name: p\nruntime: yaml\nresources:\n  a:\n    type: t\n    properties:\n      x: 1 # mine\n  # a note of mine\n  b:\n    type: t\n\n# outputs follow\noutputs:\n  o: ${a.id}\n";
    const { text, block } = insertBlock(user, batch(ENTRY));
    expect(block).toBe(`  # ---- wsbridge adopt, batch 2: 1 object added (adoption-report.md); adopt's until the stack holds one of them or you edit this block, then yours ----\n${ENTRY.join("\n")}\n  # ---- end of wsbridge adopt, batch 2 ----\n`);
    expect(text.replace(block, "")).toBe(user);
    expect(text.indexOf(block)).toBeGreaterThan(text.indexOf("  b:\n    type: t\n"));
    expect(text.indexOf(block)).toBeLessThan(text.indexOf("outputs:"));
    expect([...declaredResources(text).keys()]).toEqual(["a", "b", "new-one"]);
  });

  test("takes the indentation of the user's entries", () => {
    const user = "name: p\nresources:\n    a:\n        type: t\n";
    const { text } = insertBlock(user, batch(ENTRY));
    expect(text).toContain("\n    new-one:\n      type: wsbridge:index:Workspace\n");
    expect([...declaredResources(text).keys()]).toEqual(["a", "new-one"]);
  });

  test("an empty resources ({} or nothing), or none at all, gets the block as its entries", () => {
    for (const user of ["name: p\nresources: {}\n", "name: p\nresources:\n", "name: p\n", "name: p"]) {
      const { text } = insertBlock(user, batch(ENTRY));
      expect([...declaredResources(text).keys()]).toEqual(["new-one"]);
    }
  });

  test("found again by its markers, and removed leaving the user's text", () => {
    const user = "name: p\nresources:\n  a:\n    type: t\n";
    const { text, block } = insertBlock(user, batch(ENTRY));
    const where = findBlock(text, 2);
    expect(where === undefined ? "" : text.slice(where.start, where.end)).toBe(block);
    expect(findBlock(text, 1)).toBeUndefined();
    expect(removeBlock(text, 2)).toBe(user);
  });

  test("a Pulumi.yaml that is not valid YAML, or whose resources is a list, is refused with a sentence", () => {
    expect(() => insertBlock("name: [unclosed\n", batch(ENTRY))).toThrow(UnwritableProgramError);
    expect(() => insertBlock("resources:\n  - a\n", batch(ENTRY))).toThrow(/neither a block mapping nor empty/);
  });
});

describe("the plan of a run that adds to an owned program", () => {
  const app = workspace("ws-app", "app-prod", { locked: true, lockedReason: "freeze", lockedBy: { type: "users", id: "user-1" } } as Partial<Workspace>);
  const web = workspace("ws-web", "web-prod", { sshKeyId: "sshkey-1" });
  const fresh = workspace("ws-new", "app-prod", {});
  const found = (ws: Workspace, consumers?: Workspace[]): DiscoveredWorkspace => ({ workspace: ws, ...(consumers !== undefined && { consumers }) });

  test("what the stack holds is left out, whatever it is named; a new name avoids every name the stack and the program use", () => {
    const stack = holdings([held("Workspace", "application", "ws-app"), held("WorkspaceLock", "app-prod", "ws-app"), held("Workspace", "web", "ws-web")]);
    const plan = planAdoption(estate([found(app), found(web), found(fresh)]), ownedBy(stack, [], undefined));
    expect(plan.resources.map((r) => [r.kind, r.name, r.importId])).toEqual([
      ["Workspace", "app-prod-2", "ws-new"],
      ["SshKeyAssignment", "web-prod-ssh-key", "ws-web"],
    ]);
    // TypeScript and Go: the held workspace by id, with the resource that holds it named.
    expect(plan.resources[1]?.inputs.workspaceId).toEqual({ kind: "literal", value: "ws-web", comment: "web: held by this stack, declared in your program" });
  });

  test("Pulumi YAML refers to a held workspace by the name the stack holds it by, when the program declares that name", () => {
    const stack = holdings([held("Workspace", "web-renamed", "ws-web")]);
    const plan = planAdoption(estate([found(web)]), ownedBy(stack, [], new Map([["web-renamed", "wsbridge:index:Workspace"]])));
    expect(plan.resources.map((r) => [r.name, r.inputs.workspaceId])).toEqual([["web-prod-ssh-key", { kind: "ref", resource: "web-renamed" }]]);
  });

  test("consumers: one more additive list with only those no resource declares yet", () => {
    const consumers = [workspace("ws-a", "a"), workspace("ws-b", "b"), workspace("ws-c", "c")];
    const stack = holdings([held("Workspace", "app-prod", "ws-app"), held("RemoteStateConsumers", "app-prod-consumers", "ws-app", {}, ["ws-a", "ws-b"])]);
    const plan = planAdoption(estate([found(app, consumers)], { unselected: new Map([["ws-a", "a"], ["ws-b", "b"], ["ws-c", "c"]]) }), ownedBy(stack, [], undefined));
    const list = plan.resources.find((r) => r.kind === "RemoteStateConsumers");
    expect([list?.name, list?.importId]).toEqual(["app-prod-consumers-2", "ws-app/ws-c"]);
  });

  test("what a batch the user now owns declared is not added again, even where the stack does not hold it (removed on purpose, or not applied yet)", () => {
    const kept = [{ batch: 1, file: "Pulumi.yaml", sha256: "x", resources: [{ kind: "SshKeyAssignment" as const, name: "web-prod-ssh-key", importId: "ws-web" }] }];
    const stack = holdings([held("Workspace", "web-prod", "ws-web")]);
    expect(isHeld(stack, kept[0]!.resources[0]!)).toBe(false);
    expect(planAdoption(estate([found(web)]), ownedBy(stack, kept, undefined)).resources).toEqual([]);
  });

  test("a consumer list is held when a held list names each of its consumers", () => {
    const stack = holdings([held("RemoteStateConsumers", "x", "ws-app", {}, ["ws-a", "ws-b", "ws-c"])]);
    expect(isHeld(stack, { kind: "RemoteStateConsumers", name: "y", importId: "ws-app/ws-a,ws-c" })).toBe(true);
    expect(isHeld(stack, { kind: "RemoteStateConsumers", name: "y", importId: "ws-app/ws-a,ws-d" })).toBe(false);
  });
});

describe("what the stack holds, against the server", () => {
  const policy = { id: "drp-1", kind: "delete-older", deleteOlderThanNDays: 30, target: { type: "workspaces", id: "ws-app" } } as unknown as DataRetentionPolicy;

  test("each kind is gone when its object is: a deleted workspace (its dependents go with its command), an unlock, an unassigned key, a removed policy, a reverted deprecation", () => {
    const unlocked = workspace("ws-app", "app");
    const objects = [
      held("Workspace", "gone", "ws-gone"), held("WorkspaceLock", "gone-lock", "ws-gone"),
      held("WorkspaceLock", "app-lock", "ws-app"), held("SshKeyAssignment", "app-key", "ws-app"), held("DataRetentionPolicy", "app-policy", "ws-app"),
      held("ModuleVersionDeprecation", "vpc-dep", "org/vpc/aws/1.0.0"),
    ];
    const drift = driftOf(estate([{ workspace: unlocked }], {
      modules: [{ module: { name: "vpc", provider: "aws" } as never, versions: [{ version: "1.0.0", deprecation: null } as never] }],
    }), holdings(objects));
    expect(drift.gone.map((g) => [g.name, g.reason])).toEqual([
      ["gone", "workspace ws-gone is not in the organization any more (deleted, or the token may no longer read it)"],
      ["app-lock", "workspace app (ws-app) is not locked any more"],
      ["app-key", "workspace app (ws-app) has no SSH key any more"],
      ["app-policy", "workspace app (ws-app) has no data-retention policy of its own any more"],
      ["vpc-dep", "version 1.0.0 of module vpc/aws is not deprecated any more"],
    ]);
    expect(drift.gone[0]?.forget).toBe("pulumi state delete --stack dev --force --yes --target-dependents 'urn:pulumi:dev::p::wsbridge:index:Workspace::gone'");
    expect(drift.gone[1]?.forget).toBe("pulumi state delete --stack dev --force --yes 'urn:pulumi:dev::p::wsbridge:index:WorkspaceLock::app-lock'");
    expect(drift.changed).toEqual([]);
  });

  test("changed: the inputs the stack holds against what the import would adopt now, compared as the kind compares them", () => {
    const app = workspace("ws-app", "app", { description: "by hand", locked: true, lockedReason: "new reason", lockedBy: { type: "users", id: "u" }, dataRetentionPolicy: { id: "drp-1" } } as Partial<Workspace>);
    const objects = [
      held("Workspace", "app", "ws-app", { name: "app", description: "declared", tagNames: [] }),
      held("WorkspaceLock", "app-lock", "ws-app", { workspaceId: "ws-app", reason: "old reason" }),
      held("DataRetentionPolicy", "app-policy", "ws-app", { workspaceId: "ws-app", deleteOlderThanNDays: 30 }),
      held("RemoteStateConsumers", "app-consumers", "ws-app", { workspaceId: "ws-app", consumerIds: ["ws-a", "ws-b"] }, ["ws-a", "ws-b"]),
    ];
    const drift = driftOf(estate([{ workspace: app, policy, consumers: [workspace("ws-a", "a")] }]), holdings(objects));
    expect(drift.gone).toEqual([]);
    expect(drift.changed.map((c) => [c.name, c.differences])).toEqual([
      // Both sides as check completes them: the stack's program declares no execution mode (it inherits: both
      // overwrites false), while the workspace sets its own ("remote", overwrites true).
      ["app", [
        { property: "description", held: "declared", server: "by hand" },
        { property: "settingOverwrites", held: { executionMode: false, agentPool: false }, server: { executionMode: true, agentPool: true } },
      ]],
      ["app-lock", [{ property: "reason", held: "old reason", server: "new reason" }]],
      ["app-consumers", [{ property: "consumerIds", held: ["ws-a", "ws-b"], server: ["ws-a"] }]],
    ]);
  });

  test("changed: a value the server holds back at what leaving it out means is judged too, though the adoption leaves it out", () => {
    // The import of this workspace leaves out its empty trigger patterns and its empty lock reason (their
    // values when left out); the stack holds others, which the next up would send.
    const web = workspace("ws-web", "web", { locked: true, lockedReason: "", lockedBy: { type: "users", id: "u" } } as Partial<Workspace>);
    const objects = [
      held("Workspace", "web", "ws-web", { name: "web", executionMode: "remote", triggerPatterns: ["src/**"], fileTriggersEnabled: true }),
      held("WorkspaceLock", "web-lock", "ws-web", { workspaceId: "ws-web", reason: "freeze" }),
    ];
    const drift = driftOf(estate([{ workspace: web }]), holdings(objects));
    expect(drift.gone).toEqual([]);
    expect(drift.changed.map((c) => [c.name, c.differences])).toEqual([
      ["web", [{ property: "triggerPatterns", held: ["src/**"], server: [] }]],
      ["web-lock", [{ property: "reason", held: "freeze", server: "" }]],
    ]);
  });

  test("unchanged: settings objects whose keys come in another order (a stack's state sorts them)", () => {
    const web = workspace("ws-web", "web");
    const objects = [held("Workspace", "web", "ws-web", {
      name: "web", executionMode: "remote", settingOverwrites: { agentPool: true, executionMode: true },
    })];
    expect(driftOf(estate([{ workspace: web }]), holdings(objects)).changed).toEqual([]);
  });

  test("objects outside the run's selection are not judged", () => {
    const drift = driftOf(estate([], { unselected: new Map([["ws-other", "other"]]) }), holdings([held("Workspace", "other", "ws-other", { description: "x" })]));
    expect(drift).toEqual({ gone: [], changed: [] });
  });
});

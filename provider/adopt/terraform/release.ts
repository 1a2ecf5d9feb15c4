// The release: what the user gives Terraform so it lets go of what Pulumi took over, without deleting
// it, written for their tool and version.
//
// - `removed` blocks, one per released configuration address (instance keys stripped, de-duplicated; a
//   module call whose every instance moves is released whole), dependents first. Terraform's `removed`
//   destroys unless told not to (`lifecycle { destroy = false }`, Terraform 1.7 and later); OpenTofu's
//   forgets by default, and accepts the `lifecycle` block from 1.10 only. Before those versions there
//   is no `removed` block.
// - `state rm` commands where a block cannot say it: one `count` or `for_each` instance of several
//   (a `from` takes no instance key), and every address on older versions.
// - The resource blocks and module calls to delete from the configuration.
// - For each resource Terraform keeps that refers to a released one (the state's dependencies), what
//   to write instead so the configuration still plans: a `data "tfe_workspace"` block, or the literal id.
import { nameOfAddress } from "./addresses";
import type { TerraformInstance, TerraformState } from "./state";

export interface ReleaseTool {
  readonly name: "terraform" | "opentofu";
  readonly major: number;
  readonly minor: number;
}

/** `terraform 1.9.5`, `opentofu 1.10.0`, `tofu 1.8`: the tool and its version. */
export function parseReleaseTool(text: string): ReleaseTool | undefined {
  const match = /^(terraform|opentofu|tofu)[ @=v]*(\d+)\.(\d+)/i.exec(text.trim());
  if (match === null) return undefined;
  const [, tool = "", major = "0", minor = "0"] = match;
  return { name: tool.toLowerCase() === "terraform" ? "terraform" : "opentofu", major: Number(major), minor: Number(minor) };
}

/** The tool's command: `terraform` or `tofu`. */
export function commandOf(tool: ReleaseTool): "terraform" | "tofu" {
  return tool.name === "terraform" ? "terraform" : "tofu";
}

/** How the tool's version says "forget it": a block with lifecycle, a block alone, or only `state rm`. */
export function forgetForm(tool: ReleaseTool): "removed with lifecycle" | "removed" | "state rm" {
  const atLeast = (major: number, minor: number): boolean => tool.major > major || (tool.major === major && tool.minor >= minor);
  if (tool.name === "terraform") return atLeast(1, 7) ? "removed with lifecycle" : "state rm";
  if (atLeast(1, 10)) return "removed with lifecycle";
  return atLeast(1, 7) ? "removed" : "state rm";
}

/** A kept resource that refers to a released one, and what to write instead. */
export interface Rewrite {
  readonly address: string;
  readonly refersTo: string;
  readonly instead: string;
}

export interface Release {
  /**
   * The `removed` blocks, as a file of their own; empty when none. It needs no provider, so
   * `tofu init -backend=false && tofu validate` checks it alone (the data blocks below need the tfe provider).
   */
  readonly file: string;
  /** The `data "tfe_workspace"` blocks the rewrites refer to, for the configuration Terraform keeps; empty when none. */
  readonly dataBlocks: string;
  /** The `state rm` commands, each a shell line. */
  readonly stateRm: readonly string[];
  /** Resource blocks and module calls to delete from the configuration (a resource some of whose instances stay is edited instead: its count or for_each). */
  readonly deleteFromConfiguration: readonly string[];
  /** Resources only some of whose instances move: their block stays, with a smaller `count` or `for_each`. */
  readonly editInConfiguration: readonly string[];
  readonly rewrites: readonly Rewrite[];
}

/** One `from` of a `removed` block: a module call or a resource's configuration address, and the instances it covers. */
interface Unit {
  readonly from: string;
  readonly instances: readonly TerraformInstance[];
}

/**
 * `cdktf`: the configuration is CDKTF's, synthesized from code on every run, where a `removed` block is
 * not something the user writes: every instance is released with `state rm`, run in its stack's folder.
 */
export function writeRelease(state: TerraformState, released: readonly TerraformInstance[], tool: ReleaseTool, options: { readonly cdktf?: boolean } = {}): Release {
  const releasedAddresses = new Set(released.map((i) => i.address));
  const kept = state.instances.filter((i) => !releasedAddresses.has(i.address));
  const units: Unit[] = [];
  const partial: TerraformInstance[] = [];
  const byFrom = new Map<string, TerraformInstance[]>();
  for (const instance of released) {
    // A module call is released whole when nothing under it stays; else its resources one by one.
    const call = instance.module[0]?.name;
    const from = call !== undefined && !kept.some((k) => k.module[0]?.name === call) ? `module.${call}` : instance.configAddress;
    byFrom.set(from, [...(byFrom.get(from) ?? []), instance]);
  }
  for (const [from, instances] of byFrom) {
    // A resource some of whose instances stay cannot be named by a `removed` block (a module call
    // released whole has none that stay).
    if (kept.some((k) => k.configAddress === from)) partial.push(...instances);
    else units.push({ from, instances });
  }
  const form = options.cdktf === true ? "state rm" : forgetForm(tool);
  const blocks = form === "state rm" ? [] : dependentsFirst(units);
  const rmInstances = form === "state rm" ? released : partial;
  const binary = commandOf(tool);
  const stateRm = [...rmInstances].map((i) => i.address).sort().map((address) => `${binary} state rm '${address.replace(/'/g, "'\\''")}'`);

  const rewrites: Rewrite[] = [];
  const dataByName = new Map<string, string>();
  for (const instance of kept) {
    for (const dependency of instance.dependencies) {
      // The state records dependencies as resources' configuration addresses.
      const target = released.find((r) => r.configAddress === dependency);
      if (target === undefined) continue;
      if (target.type === "tfe_workspace" && target.module.length === 0 && target.key === undefined) {
        const name = nameOfAddress(target).replace(/-/g, "_");
        dataByName.set(name, `data "tfe_workspace" "${name}" {\n  name = ${JSON.stringify(String(target.attributes.name))}\n}\n`);
        rewrites.push({ address: instance.address, refersTo: dependency, instead: `data.tfe_workspace.${name}.id (or the literal id ${JSON.stringify(String(target.attributes.id))})` });
      } else {
        rewrites.push({ address: instance.address, refersTo: dependency, instead: `the literal id ${JSON.stringify(String(target.attributes.id))}` });
      }
    }
  }
  const removed = blocks.map((unit) => `removed {\n  from = ${unit.from}\n${form === "removed with lifecycle" ? "  lifecycle {\n    destroy = false\n  }\n" : ""}}\n`);
  return { file: removed.join("\n"), dataBlocks: [...dataByName.values()].join("\n"), stateRm, deleteFromConfiguration: units.map((u) => u.from).sort(), editInConfiguration: [...new Set(partial.map((i) => i.configAddress))].sort(), rewrites };
}

/** The units ordered so that one whose instances depend on another's comes first; ties by address. */
function dependentsFirst(units: readonly Unit[]): Unit[] {
  const covers = (unit: Unit, dependency: string): boolean => dependency === unit.from || dependency.startsWith(`${unit.from}.`);
  const dependsOn = (a: Unit, b: Unit): boolean => a !== b && a.instances.some((i) => i.dependencies.some((d) => covers(b, d)));
  const left = [...units].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const ordered: Unit[] = [];
  while (left.length > 0) {
    // Next: a unit no remaining unit depends on (a cycle, which Terraform would refuse, falls back to address order).
    const index = Math.max(0, left.findIndex((u) => !left.some((other) => dependsOn(other, u))));
    ordered.push(...left.splice(index, 1));
  }
  return ordered;
}

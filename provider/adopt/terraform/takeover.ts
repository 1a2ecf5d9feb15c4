// What moves from Terraform to Pulumi, from a state's managed instances (state.ts): adopt's selection
// (the workspaces, and which of their objects) and the names (addresses.ts), and every instance that
// stays with Terraform with the reason. The program itself is written from the server, as adopt
// always writes it: the state decides only what is taken and what it is called.
//
//   tfe_workspace                      Workspace, its ssh_key_id (when set) a SshKeyAssignment; its tags
//                                      as adopt writes tags
//   tfe_workspace_settings             the Workspace's execution settings, and RemoteStateConsumers; on a
//                                      workspace Terraform did not create, only the RemoteStateConsumers
//                                      (the workspace is someone else's: Pulumi does not claim it, and its
//                                      execution settings stay as they are, unmanaged: the report says so)
//   tfe_data_retention_policy          DataRetentionPolicy, when workspace-scoped; an organization's
//                                      policy stays (no kind of this package manages one)
//   any other tfe_ type, any other     stays with Terraform
//   provider
import type { AdoptedKind } from "../model";
import { nameOfAddress } from "./addresses";
import type { TerraformInstance, TerraformState } from "./state";

/** The tfe provider's source address, with either registry stripped (state.ts). */
export const TFE_PROVIDER = "hashicorp/tfe";

/** One object Pulumi takes over: which kind, on which workspace, named after which address. */
export interface Taken {
  readonly kind: AdoptedKind;
  readonly workspaceId: string;
  /** The address it is taken from (a Workspace's SshKeyAssignment: its tfe_workspace's). */
  readonly address: string;
  /** The resource's base name, before adopt's kind suffix (addresses.ts). */
  readonly name: string;
}

/** A managed instance Terraform keeps, and why. */
export interface Kept {
  readonly address: string;
  readonly reason: string;
}

export interface Takeover {
  readonly taken: readonly Taken[];
  readonly kept: readonly Kept[];
  /** The instances released from Terraform's state: every one something was taken from. */
  readonly released: readonly TerraformInstance[];
  /** Settings a released instance managed that nothing manages after the move, in sentences. */
  readonly unmanaged: readonly string[];
}

/** Refused input: nothing to take, or another organization's state. */
export class TakeoverError extends Error {
  constructor(readonly source: string, readonly reason: string) {
    super(`${source}: ${reason}`);
    this.name = "TakeoverError";
  }
}

/**
 * `address`, the server adopt reads: a state whose objects link to another host (the tfe provider
 * records each workspace's `html_url`) is another server's, and refused. Hosts are compared without
 * their ports, as the same server may be reached through another port (a TLS front, say).
 */
export function takeoverOf(state: TerraformState, organization: string, source: string, address?: string): Takeover {
  const tfe = state.instances.filter((i) => i.provider === TFE_PROVIDER && i.type.startsWith("tfe_"));
  if (tfe.length === 0) {
    throw new TakeoverError(source, "holds no object of the tfe provider (hashicorp/tfe): there is nothing for adopt to take over.");
  }
  const organizations = [...new Set(tfe.map((i) => i.attributes.organization).filter((o): o is string => typeof o === "string" && o !== ""))].sort();
  const foreign = organizations.filter((o) => o !== organization);
  if (foreign.length > 0) {
    throw new TakeoverError(source, `manages objects of organization ${foreign.map((o) => JSON.stringify(o)).join(", ")}, not of ${JSON.stringify(organization)}: run adopt with --organization ${foreign[0]}.`);
  }

  if (address !== undefined) refuseAnotherServer(tfe, address, source);

  const taken: Taken[] = [];
  const kept: Kept[] = [];
  const released: TerraformInstance[] = [];
  const unmanaged: string[] = [];
  const workspaces = new Map<string, TerraformInstance>();
  for (const instance of tfe) if (instance.type === "tfe_workspace") workspaces.set(workspaceIdOf(instance), instance);

  for (const instance of state.instances) {
    const take = (kind: AdoptedKind, workspaceId: string): void => {
      taken.push({ kind, workspaceId, address: instance.address, name: nameOfAddress(instance) });
    };
    if (instance.provider !== TFE_PROVIDER) {
      kept.push({ address: instance.address, reason: `another provider's (${instance.provider})` });
      continue;
    }
    switch (instance.type) {
      case "tfe_workspace": {
        const id = workspaceIdOf(instance);
        take("Workspace", id);
        if (typeof instance.attributes.ssh_key_id === "string" && instance.attributes.ssh_key_id !== "") take("SshKeyAssignment", id);
        released.push(instance);
        break;
      }
      case "tfe_workspace_settings": {
        const id = workspaceIdOf(instance);
        take("RemoteStateConsumers", id);
        if (!workspaces.has(id)) {
          unmanaged.push(`${instance.address}: the execution settings of workspace ${id}, which Terraform did not create: Pulumi takes its remote-state consumers only, and the workspace and its settings stay as they are, managed by neither`);
        }
        released.push(instance);
        break;
      }
      case "tfe_data_retention_policy": {
        const workspaceId = instance.attributes.workspace_id;
        if (typeof workspaceId !== "string" || workspaceId === "") {
          kept.push({ address: instance.address, reason: "an organization's data retention policy: DataRetentionPolicy manages a workspace's only" });
          break;
        }
        take("DataRetentionPolicy", workspaceId);
        released.push(instance);
        break;
      }
      default:
        kept.push({ address: instance.address, reason: `${instance.type} has no kind in this package` });
    }
  }
  return { taken, kept, released, unmanaged };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function refuseAnotherServer(instances: readonly TerraformInstance[], address: string, source: string): void {
  const server = hostOf(address);
  const hosts = [...new Set(instances.map((i) => i.attributes.html_url).filter((u): u is string => typeof u === "string" && u !== "")
    .map(hostOf).filter((h): h is string => h !== undefined))].sort();
  const others = hosts.filter((h) => h !== server);
  if (server === undefined || others.length === 0) return;
  throw new TakeoverError(source, `manages objects of ${others.join(", ")} (their html_url), not of ${server}: run adopt with --address https://${others[0] ?? ""}, the server Terraform applied to.`);
}

/** The workspace an instance taken over is about: a workspace's own id, a setting's or policy's workspace_id. */
export function workspaceIdOf(instance: TerraformInstance): string {
  const a = instance.attributes;
  return String(instance.type === "tfe_workspace" ? a.id : a.workspace_id ?? a.id);
}

/**
 * The takeover narrowed to the workspaces adopt's other selection flags kept (`--workspace`, `--project`,
 * …, given with the Terraform input): what is about a workspace left out stays with Terraform.
 */
export function narrowedTakeover(takeover: Takeover, isLeftOut: (workspaceId: string) => boolean, selection: string): Takeover {
  const out = takeover.released.filter((i) => isLeftOut(workspaceIdOf(i)));
  if (out.length === 0) return takeover;
  const leftOut = new Set(out.map((i) => i.address));
  return {
    taken: takeover.taken.filter((t) => !isLeftOut(t.workspaceId)),
    kept: [...takeover.kept, ...out.map((i) => ({ address: i.address, reason: `its workspace is outside the selection given with it (${selection})` }))]
      .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)),
    released: takeover.released.filter((i) => !leftOut.has(i.address)),
    unmanaged: takeover.unmanaged.filter((u) => !out.some((i) => u.startsWith(`${i.address}:`))),
  };
}

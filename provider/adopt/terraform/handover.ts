// What adopt writes for the Terraform side, in `terraform-release/` under --out: the release for the
// user's tool and version (release.ts) as files, what the gate reads (released.json), and a README that
// is the migration's checklist: the steps in their order, every address with the Pulumi resources it
// became, what Terraform keeps and why, and where Terraform's state differs from the server.
import type { AdoptedKind } from "../model";
import { subjectOfImportId } from "../model";
import type { Difference } from "./differences";
import type { TerraformInput } from "./input";
import { commandOf, forgetForm, writeRelease, type Release, type ReleaseTool } from "./release";

export const RELEASE_FOLDER = "terraform-release";
export const RELEASED_JSON = `${RELEASE_FOLDER}/released.json`;

/** A resource adopt declared, and the project folder it is in (relative to --out; `.` without a split). */
export interface DeclaredResource {
  readonly folder: string;
  readonly kind: AdoptedKind;
  readonly name: string;
  readonly importId: string;
}

/** released.json: what the gate checks a plan against. */
export interface ReleasedRecord {
  readonly source: string;
  readonly tool: string;
  readonly form: string;
  readonly cdktfStack?: string;
  /** Every released instance address, as Terraform prints it. */
  readonly released: readonly string[];
}

export interface HandoverOptions {
  readonly tool: ReleaseTool;
  readonly cdktfStack?: string;
  /** --out as the user gave it, for the commands. */
  readonly out: string;
}

export interface Handover {
  readonly files: ReadonlyMap<string, string>;
  readonly release: Release;
  /** Terraform address → the Pulumi resources it became. */
  readonly map: ReadonlyMap<string, readonly DeclaredResource[]>;
  readonly summary: string;
}

export function handoverOf(input: TerraformInput, resources: readonly DeclaredResource[], differences: readonly Difference[], options: HandoverOptions): Handover {
  const { tool, cdktfStack } = options;
  const release = writeRelease(input.state, input.takeover.released, tool, { cdktf: cdktfStack !== undefined });
  const binary = commandOf(tool);
  const toolText = `${tool.name === "terraform" ? "Terraform" : "OpenTofu"} ${tool.major}.${tool.minor}`;
  const form = cdktfStack !== undefined ? "state rm (CDKTF)" : forgetForm(tool);
  const map = addressMap(input, resources);
  const files = new Map<string, string>();
  const released = input.takeover.released.map((i) => i.address).sort();
  const record: ReleasedRecord = { source: input.source, tool: toolText, form, ...(cdktfStack !== undefined && { cdktfStack }), released };
  files.set(RELEASED_JSON, `${JSON.stringify(record, null, 2)}\n`);
  if (release.file !== "") files.set(`${RELEASE_FOLDER}/removed.tf`, `# Written by wsbridge adopt for ${toolText}: Terraform forgets these objects and deletes none.\n# Pulumi manages them now. Copy this file into the configuration's root module folder.\n\n${release.file}`);
  if (release.dataBlocks !== "") files.set(`${RELEASE_FOLDER}/data-blocks.tf`, `# Written by wsbridge adopt: what the resources Terraform keeps refer to instead (README.md, step 2).\n\n${release.dataBlocks}`);
  if (release.stateRm.length > 0) {
    const where = cdktfStack !== undefined ? `cdktf.out/stacks/${cdktfStack}, after \`cdktf synth\` of the code without these constructs` : "the configuration's root module folder";
    files.set(`${RELEASE_FOLDER}/state-rm.sh`, `#!/bin/sh\n# Written by wsbridge adopt for ${toolText}: run in ${where}.\n# \`state rm\` makes Terraform forget an object; it sends nothing to the server.\nset -e\n${release.stateRm.join("\n")}\n`);
  }
  files.set(`${RELEASE_FOLDER}/README.md`, readme(input, release, map, differences, { ...options, binary, toolText, form }));
  const taken = resources.length;
  const summary = [
    `Taken over from Terraform (${input.source}): ${released.length} addresses, as ${taken} resources; Terraform keeps ${input.takeover.kept.length}.`,
    ...(differences.length > 0 ? [`Terraform's state differs from the server in ${differences.length} attributes (${RELEASE_FOLDER}/README.md): the program holds the server's.`] : []),
    `The release for ${toolText} (${form}), the gate and the order: ${RELEASE_FOLDER}/README.md.`,
  ].join("\n");
  return { files, release, map, summary: `${summary}\n` };
}

/**
 * Each released address with the resources it became: a resource goes to the address it was taken
 * from, and the objects adopt takes with a workspace (its lock, say) to that workspace's address.
 */
function addressMap(input: TerraformInput, resources: readonly DeclaredResource[]): Map<string, DeclaredResource[]> {
  const map = new Map<string, DeclaredResource[]>(input.takeover.released.map((i) => [i.address, []]));
  const taken = input.takeover.taken;
  for (const resource of resources) {
    const subject = subjectOfImportId(resource.kind, resource.importId);
    const from = taken.find((t) => t.kind === resource.kind && t.workspaceId === subject)
      ?? taken.find((t) => t.kind === "Workspace" && t.workspaceId === subject);
    if (from === undefined) continue;
    map.set(from.address, [...(map.get(from.address) ?? []), resource]);
  }
  return map;
}

function codes(addresses: readonly string[]): string {
  return addresses.map((a) => `\`${a}\``).join(", ");
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function readme(
  input: TerraformInput, release: Release, map: ReadonlyMap<string, readonly DeclaredResource[]>, differences: readonly Difference[],
  options: HandoverOptions & { binary: string; toolText: string; form: string },
): string {
  const { binary, cdktfStack, out } = options;
  const folders = [...new Set([...map.values()].flat().map((r) => r.folder))].sort();
  const here = (file: string): string => `${out === "." ? "" : `${out.replace(/\/$/, "")}/`}${RELEASE_FOLDER}/${file}`;
  const plan = `${binary} plan -out=release.tfplan && ${binary} show -json release.tfplan > release-plan.json`;
  const releaseSteps = cdktfStack !== undefined
    ? [
      `   - delete from the stack's code the constructs of these resources (their logical ids): ${codes(release.deleteFromConfiguration)}${release.editInConfiguration.length > 0 ? `; of ${codes(release.editInConfiguration)}, only the instances that move` : ""}, and run \`cdktf synth\`;`,
      `   - in \`cdktf.out/stacks/${cdktfStack}\`: \`${binary} init\`, then \`sh ${here("state-rm.sh")}\` (it makes Terraform forget each object and sends nothing);`,
      `   - there: \`${plan}\`.`,
    ]
    : [
      ...(release.file !== "" ? [`   - copy \`${here("removed.tf")}\` into the configuration's root module folder;`] : []),
      ...(release.deleteFromConfiguration.length > 0 ? [`   - delete these resource blocks and module calls from the configuration: ${codes(release.deleteFromConfiguration)};`] : []),
      ...(release.editInConfiguration.length > 0
        ? [`   - only some instances of ${codes(release.editInConfiguration)} move: keep the block, and change its \`count\` or \`for_each\` so it no longer declares them (the \`state rm\` below makes Terraform forget them);`]
        : []),
      ...release.rewrites.map((r) => `   - \`${r.address}\` refers to \`${r.refersTo}\`: write ${r.instead} instead${r.instead.startsWith("data.") ? ` (the block is in \`${here("data-blocks.tf")}\`)` : ""};`),
      ...(release.stateRm.length > 0 ? [`   - run \`sh ${here("state-rm.sh")}\` (it makes Terraform forget each object and sends nothing);`] : []),
      `   - \`${plan}\`.`,
    ];
  const lines = [
    `# Leaving Terraform: the release of ${input.source}`,
    "",
    `Written by \`wsbridge adopt\` for ${options.toolText}${cdktfStack !== undefined ? `, CDKTF stack \`${cdktfStack}\`` : ""} (${options.form}). Pulumi takes over`,
    `${map.size} addresses of Terraform's state, and Terraform keeps ${input.takeover.kept.length}. In this order (docs/adopt.md, "Leaving Terraform"):`,
    "",
    `1. **The Pulumi adoption step**, read-only: in ${folders.map((f) => `\`${f}\``).join(", ") || "the project folder"}, \`pulumi stack init\`, then \`pulumi up\` imports every object`,
    "   and changes nothing on the server; `pulumi preview` then shows no change.",
    `2. **Terraform's release**${cdktfStack !== undefined ? "" : ", in the configuration's root module folder"}:`,
    ...releaseSteps,
    `3. **The gate**: \`wsbridge gate release-plan.json --out ${out}\` fails, naming each address, unless the plan forgets`,
    "   every released object and deletes, replaces or updates none of them. Never apply a plan it fails.",
    `4. **Terraform's apply**: \`${binary} apply release.tfplan\`${cdktfStack !== undefined ? ` in \`cdktf.out/stacks/${cdktfStack}\`` : ""}. Its state then holds none of them, and the server is unchanged.`,
    "5. **The hand-over**: delete the `wsbridge:readOnly` lines from each project's `Pulumi.yaml` and run `pulumi up`",
    "   once with a token that may change the estate (docs/adopt.md, step 6).",
    "",
    "## Each address and the Pulumi resources it became",
    "",
    "| Terraform address | Pulumi resources |",
    "|---|---|",
    ...[...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, list]) =>
      `| \`${cell(address)}\` | ${list.length === 0 ? "none (not found on the server)" : list.map((r) => `${r.kind} \`${r.name}\`${folders.length > 1 ? ` (${r.folder})` : ""}`).join(", ")} |`),
    "",
  ];
  if (input.takeover.kept.length > 0) {
    lines.push("## What Terraform keeps", "", "| Terraform address | Why |", "|---|---|",
      ...input.takeover.kept.map((k) => `| \`${cell(k.address)}\` | ${cell(k.reason)} |`), "");
  }
  if (input.takeover.unmanaged.length > 0) {
    lines.push("## Settings nothing manages after the move", "", ...input.takeover.unmanaged.map((u) => `- ${u}`), "");
  }
  if (differences.length > 0) {
    lines.push("## Where Terraform's state differs from the server", "",
      "The program holds the server's values; Terraform would put back its own on its next apply, which the release prevents.", "",
      "| Terraform address | Attribute | Terraform | Server |", "|---|---|---|---|",
      ...differences.map((d) => `| \`${cell(d.address)}\` | ${d.attribute} | \`${cell(JSON.stringify(d.terraform))}\` | \`${cell(JSON.stringify(d.server))}\` |`), "");
  }
  return lines.join("\n");
}

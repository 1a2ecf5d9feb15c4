// One run of `wsbridge adopt`: one folder (folder.ts), or, split (`--split-by`, or a folder a split
// wrote before), one folder per group (split-run.ts). With a Terraform input (terraform/), the state
// chooses the workspaces and names first, and the release for Terraform is written after the program.
import * as fs from "node:fs";
import * as path from "node:path";
import type { AdoptArguments } from "./arguments";
import { discoverFor, prepareFolder, writeFolder, type RunContext } from "./folder";
import { ADOPTED_KINDS, type AdoptedKind, type Estate } from "./model";
import { writeFiles } from "./output";
import { REPORT_JSON } from "./record";
import { readSplitRecord, runSplitAdoption, SPLIT_RECORD } from "./split-run";
import { differencesOf } from "./terraform/differences";
import { handoverOf, type DeclaredResource } from "./terraform/handover";
import { readTerraformInput, type TerraformInput } from "./terraform/input";
import { narrowedTakeover } from "./terraform/takeover";
import { describeSelection } from "./selection";

export { LanguageMismatchError, type RunContext } from "./folder";

/** Runs adopt; resolves to the summary it prints. */
export async function runAdoption(args: AdoptArguments, context: RunContext): Promise<string> {
  const terraform = args.terraform === undefined ? undefined : await readTerraformInput(args.terraform.from, context.organization, context.client.address, context.client);
  const taken = terraform === undefined ? args : fromTerraform(args, terraform);
  const { summary, estate } = await adoptFolders(taken, context);
  if (terraform === undefined || args.terraform === undefined) return summary;
  // Only what the program took is released: a workspace the other selection flags left out stays Terraform's.
  const takeover = narrowedTakeover(terraform.takeover, (id) => estate.unselected.has(id), describeSelection({ ...args.selection, chosen: undefined }));
  const released = { ...terraform, takeover };
  const handover = handoverOf(released, declaredResources(context.out), differencesOf(takeover.released, estate), {
    tool: args.terraform.tool, out: args.out, ...(args.terraform.cdktfStack !== undefined && { cdktfStack: args.terraform.cdktfStack }),
  });
  writeFiles(context.out, handover.files);
  return `${summary}\n${handover.summary}`;
}

async function adoptFolders(args: AdoptArguments, context: RunContext): Promise<{ summary: string; estate: Estate }> {
  const split = readSplitRecord(context.out);
  if (args.splitBy !== undefined || split !== undefined) return runSplitAdoption(args, context, split);
  const folder = await prepareFolder(args, context, context.out);
  const estate = await discoverFor(context, folder.selection, folder.modules, args.concurrency);
  return { summary: writeFolder(folder, estate, context), estate };
}

/** The selection the state makes: its workspaces, each with its objects and names; no registry modules (tfe manages no deprecation). */
function fromTerraform(args: AdoptArguments, terraform: TerraformInput): AdoptArguments {
  return {
    ...args, selectionGiven: true, modules: false,
    selection: { ...args.selection, chosen: { from: terraform.source, workspaces: terraform.chosen } },
  };
}

/** What the folder (or each folder of a split) declares now, from the adoption-report.json adopt just wrote. */
function declaredResources(out: string): DeclaredResource[] {
  const split = readJson(path.join(out, SPLIT_RECORD)) as { folders?: Record<string, string> } | undefined;
  const folders = split?.folders === undefined ? ["."] : Object.values(split.folders);
  return folders.flatMap((folder) => {
    const report = readJson(path.join(out, folder, REPORT_JSON)) as { resources?: { kind: string; name: string; importId: string }[] } | undefined;
    return (report?.resources ?? [])
      .filter((r) => (ADOPTED_KINDS as readonly string[]).includes(r.kind))
      .map((r) => ({ folder, kind: r.kind as AdoptedKind, name: r.name, importId: r.importId }));
  });
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

// One run of `wsbridge adopt`: one folder (folder.ts), or, split (`--split-by`, or a folder a split
// wrote before), one folder per group (split-run.ts).
import type { AdoptArguments } from "./arguments";
import { discoverFor, prepareFolder, writeFolder, type RunContext } from "./folder";
import { readSplitRecord, runSplitAdoption } from "./split-run";

export { LanguageMismatchError, type RunContext } from "./folder";

/** Runs adopt; resolves to the summary it prints. */
export async function runAdoption(args: AdoptArguments, context: RunContext): Promise<string> {
  const split = readSplitRecord(context.out);
  if (args.splitBy !== undefined || split !== undefined) return runSplitAdoption(args, context, split);
  const folder = await prepareFolder(args, context, context.out);
  const estate = await discoverFor(context, folder.selection, folder.modules, args.concurrency);
  return writeFolder(folder, estate, context);
}

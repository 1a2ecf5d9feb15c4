// A split run of `wsbridge adopt` (`--split-by`): one discovery of the whole selection, then one
// folder per group (split.ts), each a Pulumi project adopted and adopted again as a folder alone is
// (folder.ts), and beside them a README that lists them. Everything is read (each folder's record and
// stack, then the estate) before anything is written. The split is recorded (adoption-split.json), so
// a later run of the same --out keeps it, and each group its folder.
import * as fs from "node:fs";
import * as path from "node:path";
import type { AdoptArguments } from "./arguments";
import { eachAtMost } from "./each-at-most";
import { discoverFor, LanguageMismatchError, prepareFolder, writeFolder, type PreparedFolder, type RunContext } from "./folder";
import { ForeignProjectError, writeFiles } from "./output";
import type { Estate } from "./model";
import type { Language } from "./program/project";
import type { Selection } from "./selection";
import { groupsOf, stayingWorkspaces, type Group, type SplitBy } from "./split";

/** What a split wrote: how, with which selection and language, and each group's folder. */
export interface SplitRecord {
  readonly splitBy: SplitBy;
  readonly selection: Selection;
  readonly modules: boolean;
  readonly language: Language;
  /** Group key (a project's id, or "registry") → its folder. */
  readonly folders: Readonly<Record<string, string>>;
}

export const SPLIT_RECORD = "adoption-split.json";

/** Stacks read at once by a later run of a split (two `pulumi` processes each). */
const STACK_READS = 4;

export function readSplitRecord(out: string): SplitRecord | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(out, SPLIT_RECORD), "utf8")) as Partial<SplitRecord> | null;
    if (parsed === null || typeof parsed.splitBy !== "string" || typeof parsed.language !== "string" || typeof parsed.folders !== "object" || parsed.folders === null) return undefined;
    return parsed as SplitRecord;
  } catch {
    return undefined;
  }
}

/** The summary, and the estate as discovered (the Terraform input compares it with its state). */
export async function runSplitAdoption(args: AdoptArguments, context: RunContext, split: SplitRecord | undefined): Promise<{ summary: string; estate: Estate }> {
  const { out, organization } = context;
  if (split === undefined && fs.existsSync(path.join(out, "Pulumi.yaml"))) {
    throw new ForeignProjectError(`${out} holds a Pulumi project; a split writes one project per folder below --out: choose an empty folder (nothing was written).`);
  }
  const splitBy: SplitBy = args.splitBy ?? split?.splitBy ?? "project";
  if (split !== undefined && args.splitBy !== undefined && args.splitBy !== split.splitBy) {
    throw new LanguageMismatchError(`${out} holds projects split by ${split.splitBy}; a later run keeps that split. Drop --split-by, or choose another --out. Nothing was written.`);
  }
  if (split !== undefined && args.languageGiven && args.language !== split.language) {
    throw new LanguageMismatchError(`${out} holds ${split.language} programs that adopt wrote; a later run adds to them in ${split.language}. Drop --language, or choose another --out. Nothing was written.`);
  }
  const language = split?.language ?? args.language;
  const selection = args.selectionGiven || split === undefined ? args.selection : split.selection;
  const modules = args.selectionGiven || split === undefined ? args.modules : split.modules;
  const prefix = args.projectName ?? organization;
  const fixed = (group: Pick<Group, "selection" | "modules" | "folder">) =>
    ({ selection: group.selection, modules: group.modules, projectName: `${prefix}-${group.folder}`, language });

  // The folders earlier runs wrote, first: a workspace their stack holds stays with that stack. Each
  // stack is read with two `pulumi` commands (about a second of the machine): STACK_READS at once, so
  // an estate of 51 stacks is read in a fraction of its discovery's time, not in a minute of its own.
  const earlier = Object.entries(split?.folders ?? {}).filter(([, folder]) => fs.existsSync(path.join(out, folder)));
  const read = await eachAtMost(STACK_READS, earlier, ([, folder]) => prepareFolder(args, context, path.join(out, folder), fixed({ selection, modules: false, folder })));
  const prepared = new Map<string, PreparedFolder>(earlier.map(([key], i) => [key, read[i] as PreparedFolder]));
  const heldBy = new Map<string, string>();
  for (const [key, folder] of prepared) {
    for (const held of folder.holdings.objects) if (held.kind === "Workspace") heldBy.set(held.subject, split?.folders[key] ?? key);
  }

  const estate = await discoverFor(context, selection, modules, args.concurrency);
  const groups = groupsOf(estate, splitBy, selection, split?.folders ?? {}, heldBy);
  const folders: PreparedFolder[] = [];
  for (const group of groups) {
    const known = prepared.get(group.key);
    const folder = known ?? await prepareFolder(args, context, path.join(out, group.folder), fixed(group));
    folders.push({ ...folder, selection: group.selection, modules: group.modules });
  }

  const summaries = groups.map((group, i) =>
    `${group.folder}/ (${group.title}):\n${writeFolder(folders[i] as PreparedFolder, group.estate, { ...context, out: path.join(out, group.folder) })}`);
  const record: SplitRecord = {
    splitBy, selection, modules, language,
    folders: { ...(split?.folders ?? {}), ...Object.fromEntries(groups.map((g) => [g.key, g.folder])) },
  };
  writeFiles(out, new Map([
    [SPLIT_RECORD, `${JSON.stringify(record, null, 2)}\n`],
    ["README.md", splitReadme(organization, splitBy, groups)],
  ]));
  const staying = stayingWorkspaces(estate, splitBy, split?.folders ?? {}, heldBy);
  const stays = staying.length === 0 ? "" : `\n\nHeld by one stack, now of another group (${splitBy}): each stays with the stack that holds it, so nothing is adopted twice:\n${
    staying.map((s) => `  ${s.workspace}: held by ../${s.folder}, now ${s.now}`).join("\n")}`;
  return { summary: `${summaries.join("\n\n")}${stays}\n\nThe projects and how to run their adoption steps: ${path.join(out, "README.md")}`, estate };
}

/** The README beside the folders: what each holds, and that their adoption steps run side by side. */
function splitReadme(organization: string, splitBy: SplitBy, groups: readonly Group[]): string {
  const name = "<stack>";
  const rows = groups.map((g) => `| [\`${g.folder}/\`](${g.folder}/) | ${g.title} | ${g.key === "registry" ? "its deprecated module versions" : `${g.estate.workspaces.length} workspaces and what hangs off them`} |`);
  return [
    `# Organization ${organization}, adopted by ${splitBy}`,
    "",
    `Written by \`wsbridge adopt --split-by ${splitBy}\`, which rewrites this file on every run. Each folder is a`,
    "Pulumi project of its own, with its own stack, lock and state:",
    "",
    "| Folder | Holds | Objects |",
    "|---|---|---|",
    ...rows,
    "",
    "No project depends on another: a workspace another folder adopts (a remote-state consumer, say) is",
    "a literal id in the program, with a comment naming that folder. So the adoption steps run in any",
    "order, side by side (one token is enough: they only read). In each folder, as docs/adopt.md says:",
    "",
    "```sh",
    `for folder in ${groups.map((g) => g.folder).join(" ")}; do`,
    "  (cd \"$folder\" &&",
    `   pulumi stack init ${name} &&`,
    `   pulumi config set --stack ${name} wsbridge:organization ${organization} &&`,
    `   pulumi up --stack ${name} --yes) &`,
    "done",
    "wait",
    "```",
    "",
    "Each folder's adoption-report.md lists what it adopted and what it did not, and why.",
    "",
  ].join("\n");
}

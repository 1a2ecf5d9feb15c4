// One folder's run of `wsbridge adopt`: read what the folder already is (adopt's record, and the stack's
// state when there is a program), then, with the estate discovered, plan and write. An empty folder, or one whose
// program the stack holds none of and nobody edited, gets the whole program (batch 0). A folder whose
// stack holds what adopt declared gets only what is new (a batch of its own), and nothing the user
// wrote changes. Everything is read before anything is written.
import * as fs from "node:fs";
import * as path from "node:path";
import type { WsbridgeClient } from "../runtime/api";
import { UsageError, type AdoptArguments } from "./arguments";
import { discover } from "./discover";
import { driftOf, type Drift } from "./drift";
import { holdingsOf, type Holdings } from "./held";
import { ADOPTED_KINDS, type AdoptedKind, type AdoptionPlan, type Estate, type PlannedResource } from "./model";
import { ForeignProjectError, writeFiles } from "./output";
import { isHeld, ownedBy } from "./owned";
import { planAdoption } from "./plan";
import { MARKER, OLDER_MARKER } from "./program/header";
import {
  batchContent, batchFile, batchIndex, batchIndexFile, defaultForm, projectFiles, type Form, type Language, type ProjectContext,
} from "./program/project";
import { declaredResources, insertBlock, removeBlock } from "./program/yaml-batch";
import type { PackageSchema } from "./program/go";
import type { ProgressLine } from "./progress";
import { REPORT_JSON, readRecord, sha256, untouched, type BatchRecord, type RecordedResource, type WrittenRecord } from "./record";
import { reportJson, reportMarkdown, summaryText } from "./report";
import { describeSelection, type Selection } from "./selection";
import { readStack } from "./stack";

export interface RunContext {
  readonly organization: string;
  readonly out: string;
  readonly env: NodeJS.ProcessEnv;
  readonly client: WsbridgeClient;
  readonly progress: ProgressLine;
  readonly version: string;
  readonly schema: PackageSchema;
}

/** Thrown when the folder's program is in another language than --language asks. */
export class LanguageMismatchError extends Error {}

const NO_DRIFT: Drift = { gone: [], changed: [] };

/** What a folder is before a run writes it: adopt's record, what its stack holds, and how this run adopts into it. */
export interface PreparedFolder {
  readonly out: string;
  readonly record: WrittenRecord | undefined;
  readonly hasProject: boolean;
  readonly language: Language;
  readonly form: Form;
  readonly selection: Selection;
  readonly modules: boolean;
  readonly projectName: string;
  readonly state: Awaited<ReturnType<typeof readStack>> | undefined;
  readonly holdings: Holdings;
}

/**
 * Reads the folder (adopt's record, and the stack's state when there is a program). `fixed` gives the
 * selection and modules a split decides for each of its folders, instead of the flags or the record.
 */
export async function prepareFolder(
  args: AdoptArguments, context: RunContext, out: string, fixed?: { selection: Selection; modules: boolean; projectName: string; language: Language },
): Promise<PreparedFolder> {
  const folder = readFolder(out);
  const record = folder.record;
  const wanted = fixed?.language ?? args.language;
  if (record !== undefined && (args.languageGiven || fixed !== undefined) && wanted !== record.language) {
    throw new LanguageMismatchError(`${out} holds a ${record.language} program that adopt wrote; a later run adds to it in ${record.language}. Drop --language, or choose another --out. Nothing was written.`);
  }
  const language: Language = record?.language ?? wanted;
  // A folder written before forms existed holds blocks; a later batch keeps the folder's form unless told.
  const form: Form = args.form ?? (record === undefined ? defaultForm(language) : record.form ?? "blocks");
  if (language === "yaml" && form === "table") {
    throw new UsageError(`--form table: Pulumi YAML cannot loop (pulumi/pulumi-yaml#191), so its programs declare one block per object. Use --language typescript, python or go for the table form, or drop --form. Nothing was written.`);
  }
  const selection: Selection = fixed?.selection ?? (args.selectionGiven || record === undefined ? args.selection : record.selection);
  const modules = fixed?.modules ?? (args.selectionGiven || record === undefined ? args.modules : record.modules);
  const projectName = record?.projectName ?? fixed?.projectName ?? args.projectName ?? `${context.organization}-estate`;
  // What the stack holds, from the stack itself: only when there is a program for it to hold.
  const state = folder.hasProject ? await readStack(out, context.env, args.stack) : undefined;
  const holdings: Holdings = state === undefined ? { stack: "", objects: [], names: new Set() } : holdingsOf(state);
  return { out, record, hasProject: folder.hasProject, language, form, selection, modules, projectName, state, holdings };
}

/** Discovery, with the progress line. */
export async function discoverFor(context: RunContext, selection: Selection, modules: boolean, concurrency: number): Promise<Estate> {
  const estate = await discover(context.client, {
    organization: context.organization, selection, modules, concurrency,
    progress: (phase, done, total) => context.progress.report(phase, done, total),
  });
  context.progress.end();
  return estate;
}

/** Writes the folder's program (the whole of it, or a later batch) and its reports; the summary. */
export function writeFolder(folder: PreparedFolder, estate: Estate, context: RunContext): string {
  const { out, record, holdings, state, language, form, selection, modules, projectName } = folder;
  const described = describeSelection(selection);
  const projectContext: ProjectContext = { projectName, selection: described, version: context.version, schema: context.schema, form };
  const batches = record?.batches ?? [];
  const open = (b: BatchRecord): boolean => b.resources.every((r) => !isHeld(holdings, r)) && (record === undefined || untouched(out, record, b));
  // No program (never written, or deleted), or batch 0 still adopt's: the whole program is written afresh.
  const first = !folder.hasProject || batches.length === 0 || (batches[0]?.batch === 0 && open(batches[0]));

  const files = new Map<string, string | null>();
  const folderFacts = { out, language, holdings, record, projectContext, files, selection, modules, projectName };
  const { plan, written, outcome } = first ? wholeProgram(folderFacts, estate) : laterBatch(folderFacts, estate, open);

  const drift = state === undefined ? NO_DRIFT : driftOf(estate, holdings);
  const facts = { plan, record: written, drift };
  const report = { address: estate.address, selection: described, language, out };
  files.set("adoption-report.md", reportMarkdown(facts, report));
  files.set(REPORT_JSON, reportJson(facts));
  writeFiles(out, files);
  return summaryText(facts, { ...outcome, ...(state !== undefined && { stack: state.name }) }, report);
}

/** What the two ways of writing share: the folder, what its stack holds, and the files being written. */
interface FolderFacts {
  readonly out: string;
  readonly language: Language;
  readonly holdings: Holdings;
  readonly record: WrittenRecord | undefined;
  readonly projectContext: ProjectContext;
  /** The files to write (`null`: to remove), filled in. */
  readonly files: Map<string, string | null>;
  readonly selection: Selection;
  readonly modules: boolean;
  readonly projectName: string;
}

interface Written {
  readonly plan: AdoptionPlan;
  readonly written: WrittenRecord;
  readonly outcome: { batch?: { number: number; file: string }; pending: RecordedResource[] };
}

/** Batch 0: the whole program, and its other files where they are still as adopt wrote them. */
function wholeProgram(facts: FolderFacts, estate: Estate): Written {
  const { out, language, record, files } = facts;
  const plan = planAdoption(estate, undefined, facts.selection.chosen?.workspaces);
  const program = projectFiles(plan, language, facts.projectContext);
  const scaffolding: Record<string, string> = {};
  for (const [name, text] of program) {
    if (name === batchFile(language, 0)) continue;
    // A file the user changed (go.mod after `go mod tidy`, say) is theirs: left as it is.
    const recorded = record?.files[name];
    const present = readText(path.join(out, name));
    if (present !== undefined && recorded !== undefined && sha256(present) !== recorded) continue;
    if (present !== undefined && recorded === undefined && record !== undefined) continue;
    files.set(name, text);
    scaffolding[name] = sha256(text);
  }
  const programText = program.get(batchFile(language, 0)) ?? "";
  files.set(batchFile(language, 0), programText);
  return {
    plan,
    written: {
      language, ...(language !== "yaml" && { form: facts.projectContext.form }), projectName: facts.projectName, selection: facts.selection,
      modules: facts.modules, files: scaffolding,
      batches: [{ batch: 0, file: batchFile(language, 0), sha256: sha256(programText), resources: recorded(plan.resources) }],
    },
    outcome: { batch: { number: 0, file: batchFile(language, 0) }, pending: [] },
  };
}

/**
 * A later batch: what the program does not declare yet (held by the stack, or declared by a batch that
 * is now the user's), replacing the batches that are still adopt's; the index of batches rewritten.
 */
function laterBatch(facts: FolderFacts, estate: Estate, open: (batch: BatchRecord) => boolean): Written {
  const { out, language, holdings, record, files } = facts;
  const batches = record?.batches ?? [];
  const kept = batches.filter((b) => !(b.batch > 0 && open(b)));
  const reopened = batches.filter((b) => b.batch > 0 && open(b));
  let yamlText = language === "yaml" ? readText(path.join(out, "Pulumi.yaml")) ?? "" : undefined;
  for (const b of reopened) {
    if (yamlText !== undefined) yamlText = removeBlock(yamlText, b.batch);
    else files.set(b.file, null);
  }
  const plan = planAdoption(estate, ownedBy(holdings, kept, yamlText === undefined ? undefined : declaredResources(yamlText)), facts.selection.chosen?.workspaces);
  const pending = kept.flatMap((b) => b.resources).filter((r) => !isHeld(holdings, r));
  const newBatches: BatchRecord[] = [];
  let batch: { number: number; file: string } | undefined;
  if (plan.resources.length > 0) {
    const number = reopened.length > 0 ? Math.min(...reopened.map((b) => b.batch)) : Math.max(0, ...batches.map((b) => b.batch)) + 1;
    const content = batchContent(plan, language, facts.projectContext, number);
    const file = batchFile(language, number);
    let text: string;
    if (typeof content === "string") {
      files.set(file, content);
      text = content;
    } else {
      const inserted = insertBlock(yamlText ?? "", content);
      yamlText = inserted.text;
      text = inserted.block;
    }
    newBatches.push({ batch: number, file, sha256: sha256(text), resources: recorded(plan.resources) });
    batch = { number, file };
  }
  if (yamlText !== undefined) files.set("Pulumi.yaml", yamlText);
  const all = [...kept, ...newBatches].sort((a, b) => a.batch - b.batch);
  const indexFile = batchIndexFile(language);
  const index = batchIndex(language, all.filter((b) => b.batch > 0 && (newBatches.includes(b) || fs.existsSync(path.join(out, b.file)))).map((b) => b.batch));
  const scaffolding = { ...(record?.files ?? {}) };
  if (indexFile !== undefined && index !== undefined && (reopened.length > 0 || newBatches.length > 0)) {
    files.set(indexFile, index);
    scaffolding[indexFile] = sha256(index);
  }
  return {
    plan,
    written: {
      language, ...(language !== "yaml" && { form: facts.projectContext.form }), projectName: facts.projectName, selection: facts.selection,
      modules: facts.modules, files: scaffolding, batches: all,
    },
    outcome: { ...(batch !== undefined && { batch }), pending },
  };
}

/** What the output folder holds: a Pulumi project, and adopt's record of it (legacy folders: from their first line). */
function readFolder(out: string): { hasProject: boolean; record: WrittenRecord | undefined } {
  const project = readText(path.join(out, "Pulumi.yaml"));
  if (project === undefined) return { hasProject: false, record: readRecord(out) };
  const record = readRecord(out) ?? legacyRecord(out, project);
  if (record === undefined) {
    throw new ForeignProjectError(`${path.join(out, "Pulumi.yaml")} exists and was not written by \`wsbridge adopt\`: choose an empty folder with --out (nothing was written).`);
  }
  return { hasProject: true, record };
}

/**
 * A folder adopt wrote before records existed: recognized by the first line of its Pulumi.yaml; its
 * program is batch 0, declaring what its adoption-report.json lists (text not known: never "untouched").
 */
function legacyRecord(out: string, project: string): WrittenRecord | undefined {
  const first = project.split("\n", 1)[0];
  if (first !== MARKER && first !== OLDER_MARKER) return undefined;
  const runtime = /^runtime:\s*(\S+)/m.exec(project)?.[1];
  const language: Language = runtime === "nodejs" ? "typescript" : runtime === "go" ? "go" : runtime === "python" ? "python" : "yaml";
  let resources: RecordedResource[] = [];
  try {
    const report = JSON.parse(fs.readFileSync(path.join(out, REPORT_JSON), "utf8")) as { resources?: RecordedResource[] };
    resources = (report.resources ?? []).filter((r) => (ADOPTED_KINDS as readonly string[]).includes(r.kind));
  } catch {
    resources = [];
  }
  const name = /^name:\s*(\S+)/m.exec(project)?.[1] ?? "estate";
  // Its program is taken as adopt wrote it: rewritten while the stack holds none of it, as such folders always were.
  const file = batchFile(language, 0);
  return {
    language, projectName: name, selection: { projects: [], workspaces: [], tags: [], excludes: [] }, modules: true, files: {},
    batches: [{ batch: 0, file, sha256: sha256(readText(path.join(out, file)) ?? ""), resources }],
  };
}

function recorded(resources: readonly PlannedResource[]): RecordedResource[] {
  return resources.map((r) => ({ kind: r.kind as AdoptedKind, name: r.name, importId: r.importId }));
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

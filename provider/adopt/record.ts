// What adopt wrote, kept in adoption-report.json (`written`), so that a later run knows which text is
// still its own. The rule: a batch (the objects one run added) stays adopt's until the stack holds one
// of its objects or someone edits its text; until then a run rewrites it from what the server holds
// now. After that the batch is the user's, and adopt never touches it again, nor adds its objects a
// second time. The first run's program is batch 0; each later run that finds something new adds one.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { ADOPTED_KINDS, type AdoptedKind } from "./model";
import type { Form, Language } from "./program/project";
import { findBlock } from "./program/yaml-batch";
import type { Selection } from "./selection";

export interface RecordedResource {
  readonly kind: AdoptedKind;
  readonly name: string;
  readonly importId: string;
}

export interface BatchRecord {
  /** 0: the first run's program; then 1, 2, … */
  readonly batch: number;
  /** The file that holds it (for Pulumi YAML after batch 0, a marked block inside Pulumi.yaml). */
  readonly file: string;
  /** sha256 of its text as adopt wrote it: the whole file, or the block. */
  readonly sha256: string;
  readonly resources: readonly RecordedResource[];
}

export interface WrittenRecord {
  readonly language: Language;
  /** The form of the last batch written (absent in records of runs before forms: blocks). */
  readonly form?: Form;
  readonly projectName: string;
  /** What the run that wrote batch 0 was asked to take; later runs take the same unless given flags. */
  readonly selection: Selection;
  readonly modules: boolean;
  /** Files adopt wrote whole besides the batches (package.json, go.mod, adopted.go, …), with their sha256. */
  readonly files: Readonly<Record<string, string>>;
  readonly batches: readonly BatchRecord[];
}

export const REPORT_JSON = "adoption-report.json";

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The record of the folder's last run; undefined when adopt has not written there (or wrote before records). */
export function readRecord(dir: string): WrittenRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dir, REPORT_JSON), "utf8"));
  } catch {
    return undefined;
  }
  const written = (parsed as { written?: unknown } | null)?.written;
  return isRecord(written) ? written : undefined;
}

function isRecord(value: unknown): value is WrittenRecord {
  const v = value as Partial<WrittenRecord> | null;
  return typeof v === "object" && v !== null && typeof v.language === "string" && typeof v.projectName === "string" &&
    Array.isArray(v.batches) && v.batches.every((b) => typeof b.file === "string" && typeof b.sha256 === "string" &&
      Array.isArray(b.resources) && b.resources.every((r: { kind?: unknown }) => (ADOPTED_KINDS as readonly unknown[]).includes(r.kind)));
}

/** The batch's text as it is now: the whole file, or its block; undefined when it is gone. */
export function currentText(dir: string, record: WrittenRecord, batch: BatchRecord): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, batch.file), "utf8");
  } catch {
    return undefined;
  }
  if (!isBlock(record, batch)) return text;
  const where = findBlock(text, batch.batch);
  return where === undefined ? undefined : text.slice(where.start, where.end);
}

/** A YAML batch after the first lives as a block in Pulumi.yaml; every other batch is a file of its own. */
export function isBlock(record: Pick<WrittenRecord, "language">, batch: Pick<BatchRecord, "batch">): boolean {
  return record.language === "yaml" && batch.batch > 0;
}

/** The batch's text is exactly what adopt wrote. */
export function untouched(dir: string, record: WrittenRecord, batch: BatchRecord): boolean {
  const text = currentText(dir, record, batch);
  return text !== undefined && sha256(text) === batch.sha256;
}

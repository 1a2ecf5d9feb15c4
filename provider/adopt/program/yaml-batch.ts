// A later run's objects in a Pulumi YAML program: Pulumi YAML reads one file (pulumi-yaml's LoadDir:
// Main.yaml or Pulumi.yaml; several files are pulumi/pulumi-yaml#227, open), so they go into the user's
// Pulumi.yaml as one block between two marker comments, inserted after the last entry of its
// `resources:` and nowhere else: every byte the user wrote stays as it is. The YAML parser (the `yaml`
// package) finds where `resources:` ends, whatever follows it (outputs, variables, comments).
import { isMap, isScalar, parseDocument, type Pair } from "yaml";

const BEGIN = /^([ \t]*)# ---- wsbridge adopt, batch (\d+): .*$/;
const endPattern = (batch: number): RegExp => new RegExp(`^[ \\t]*# ---- end of wsbridge adopt, batch ${batch} ----$`);

function blockBegin(indent: string, batch: number, objects: number): string {
  return `${indent}# ---- wsbridge adopt, batch ${batch}: ${objects} object${objects === 1 ? "" : "s"} added (adoption-report.md); ` +
    "adopt's until the stack holds one of them or you edit this block, then yours ----";
}

function blockEnd(indent: string, batch: number): string {
  return `${indent}# ---- end of wsbridge adopt, batch ${batch} ----`;
}

/** Where batch `batch`'s block is in `text`: from its first line's start to after its last line's newline. */
export function findBlock(text: string, batch: number): { start: number; end: number } | undefined {
  let offset = 0;
  let start: number | undefined;
  for (const line of text.split("\n")) {
    const begin = BEGIN.exec(line);
    if (start === undefined && begin !== null && Number(begin[2]) === batch) start = offset;
    else if (start !== undefined && endPattern(batch).test(line)) return { start, end: Math.min(text.length, offset + line.length + 1) };
    offset += line.length + 1;
  }
  return undefined;
}

/** The program's resources: each key and its `type`, for references to what the user declared by name. */
export function declaredResources(text: string): Map<string, string> {
  const doc = parseDocument(text);
  const resources = isMap(doc.contents) ? doc.contents.get("resources") : undefined;
  const out = new Map<string, string>();
  if (!isMap(resources)) return out;
  for (const pair of resources.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const type = isMap(pair.value) ? pair.value.get("type") : undefined;
    if (key !== undefined && typeof type === "string") out.set(key, type);
  }
  return out;
}

/** A block's lines (entries at two spaces) re-indented to the entries of the program's `resources:`. */
export interface YamlBatch {
  readonly batch: number;
  /** The resources' lines, entries indented by two spaces, deeper lines relative to them. */
  readonly entryLines: readonly string[];
  readonly objects: number;
}

/** The block's text at `indent` (the column of the program's resource entries). */
function blockText(batch: YamlBatch, indent: string): string {
  const lines = batch.entryLines.map((line) => (line.startsWith("  ") ? `${indent}${line.slice(2)}` : line));
  return [blockBegin(indent, batch.batch, batch.objects), ...lines, blockEnd(indent, batch.batch), ""].join("\n");
}

/** Thrown when the program's Pulumi.yaml cannot take a block (not YAML, or `resources` not a mapping). */
export class UnwritableProgramError extends Error {}

/**
 * `text` with the block inserted after the last entry of its `resources:` mapping (added at the end
 * when there is none); the block's text and where it went are returned too.
 */
export function insertBlock(text: string, batch: YamlBatch): { text: string; block: string } {
  const doc = parseDocument(text, { keepSourceTokens: true });
  if (doc.errors.length > 0) throw new UnwritableProgramError(`Pulumi.yaml is not valid YAML (${doc.errors[0]?.message ?? "parse error"}): adopt adds its block to it.`);
  if (!isMap(doc.contents)) throw new UnwritableProgramError("Pulumi.yaml is not a YAML mapping: adopt adds its block to its `resources`.");
  const pair = (doc.contents.items as Pair[]).find((p) => isScalar(p.key) && p.key.value === "resources");
  const withNewline = text.endsWith("\n") || text === "" ? text : `${text}\n`;
  if (pair === undefined) {
    const block = blockText(batch, "  ");
    return { text: `${withNewline}resources:\n${block}`, block };
  }
  const value = pair.value;
  if (isMap(value) && value.flow !== true && value.items.length > 0 && value.range !== undefined && value.range !== null) {
    const firstKey = (value.items[0] as Pair).key as { range?: [number, number, number] } | null;
    const keyStart = firstKey?.range?.[0] ?? value.range[0];
    const indent = text.slice(text.lastIndexOf("\n", keyStart - 1) + 1, keyStart);
    const at = value.range[2];
    const before = text.slice(0, at);
    const head = before.endsWith("\n") ? before : `${before}\n`;
    const block = blockText(batch, /^[ \t]*$/.test(indent) ? indent : "  ");
    return { text: `${head}${block}${text.slice(at)}`, block };
  }
  // `resources: {}` or an empty `resources:`: the block becomes its only entries.
  const empty = value === null || value === undefined || (isScalar(value) && value.value === null) || (isMap(value) && value.items.length === 0);
  if (!empty) throw new UnwritableProgramError("Pulumi.yaml's `resources` is neither a block mapping nor empty: adopt adds its block to it.");
  const keyNode = pair.key as { range?: [number, number, number] };
  const lineEnd = text.indexOf("\n", keyNode.range?.[0] ?? 0);
  const line = text.slice(text.lastIndexOf("\n", (keyNode.range?.[0] ?? 1) - 1) + 1, lineEnd < 0 ? text.length : lineEnd);
  if (!/^resources:\s*(\{\s*\})?\s*(#.*)?$/.test(line)) {
    throw new UnwritableProgramError("Pulumi.yaml's `resources` is neither a block mapping nor empty: adopt adds its block to it.");
  }
  const lineStart = text.lastIndexOf("\n", (keyNode.range?.[0] ?? 1) - 1) + 1;
  const block = blockText(batch, "  ");
  const rest = lineEnd < 0 ? "" : text.slice(lineEnd + 1);
  return { text: `${text.slice(0, lineStart)}resources:\n${block}${rest}`, block };
}

/** `text` without batch `batch`'s block (unchanged when there is none). */
export function removeBlock(text: string, batch: number): string {
  const where = findBlock(text, batch);
  return where === undefined ? text : text.slice(0, where.start) + text.slice(where.end);
}

// The layout gofmt gives a composite literal's `key: value` lines, so the Go program `adopt` writes is
// already gofmt's own output (`gofmt -l` lists nothing) without requiring Go on the machine that runs it.
//
// gofmt (go/printer, nodes.go, exprList) aligns the values of consecutive one-line pairs in a column;
// a section ends at a pair that spans lines, at a comment line, or where a key is far longer or
// shorter than the keys before it: when either key is over 40 bytes, it breaks if the key's size is
// 2.5 times (or a 2.5th) the geometric mean of the sizes since the last break. The column is as wide
// as the section's widest `key:` (in characters, as text/tabwriter counts), plus one space.

/** One entry of a composite literal: an optional comment line, then `key: value` or, keyless, `value`. */
export interface GoEntry {
  readonly comment?: string;
  readonly key?: string;
  /** The value's lines: the first follows the key, the rest carry their own indentation. */
  readonly value: readonly string[];
}

const SMALL_KEY = 40;
const KEY_RATIO = 2.5;

/** The literal's body: every entry at `depth` tabs, each ending with a comma. */
export function literalBody(entries: readonly GoEntry[], depth: number): string[] {
  const pad = "\t".repeat(depth);
  const sections = sectionsOf(entries);
  const lines: string[] = [];
  entries.forEach((entry, i) => {
    if (entry.comment !== undefined) lines.push(`${pad}// ${entry.comment}`);
    const [first = "", ...rest] = entry.value;
    const column = sections[i] ?? 0;
    const lead = entry.key === undefined
      ? first
      : `${entry.key}:${" ".repeat(Math.max(1, column - characters(entry.key)))}${first}`;
    const entryLines = [`${pad}${lead}`, ...rest];
    entryLines[entryLines.length - 1] += ",";
    lines.push(...entryLines);
  });
  return lines;
}

/** For each entry, the width of its section's `key:` column (0 where it is not aligned). */
function sectionsOf(entries: readonly GoEntry[]): number[] {
  const widths = entries.map(() => 0);
  let size = 0;
  let lnsum = 0;
  let count = 0;
  let start = 0;
  const close = (end: number): void => {
    const members = entries.slice(start, end);
    if (members.length === 0 || members.some((e) => e.key === undefined || e.value.length !== 1)) return;
    const width = Math.max(...members.map((e) => characters(e.key ?? "") + 1));
    for (let j = start; j < end; j += 1) widths[j] = width;
  };
  entries.forEach((entry, i) => {
    const prevSize = size;
    size = entry.key !== undefined && entry.value.length === 1 ? bytes(entry.key) : 0;
    let newSection = true;
    if (prevSize > 0 && size > 0) {
      if (count === 0 || (prevSize <= SMALL_KEY && size <= SMALL_KEY)) newSection = false;
      else {
        const ratio = size / Math.exp(lnsum / count);
        newSection = KEY_RATIO * ratio <= 1 || KEY_RATIO <= ratio;
      }
    }
    // A comment line between two entries is a line gap: it ends the tabwriter's column and, like any
    // break of more than one line, restarts the mean.
    if (i > 0 && (newSection || entry.comment !== undefined)) {
      close(i);
      start = i;
      lnsum = 0;
      count = 0;
    }
    if (size > 0) {
      lnsum += Math.log(size);
      count += 1;
    }
  });
  close(entries.length);
  return widths;
}

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function characters(text: string): number {
  return [...text].length;
}

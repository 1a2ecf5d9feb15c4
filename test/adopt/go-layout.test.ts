// The Go `adopt` writes is gofmt's own layout, so `gofmt -l` lists none of its programs: checked against
// the gofmt on this machine with composite literals drawn at random (seeded): short and long keys (the
// 40-byte and 2.5x rules), keys of non-ASCII characters, comment lines and values spanning lines.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { mulberry32 } from "../../emulator/faults";
import { literalBody, type GoEntry } from "../../provider/adopt/program/go-layout";

const LITERALS = 400;

function randomLiteral(random: () => number, index: number): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const keyLength = (): number => pick([1, 3, 6, 12, 20, 38, 41, 45, 60, 90]);
  const letters = ["a", "b", "z", "é", "日", "-", "_"];
  const entries: GoEntry[] = Array.from({ length: 1 + Math.floor(random() * 9) }, (_, i): GoEntry => {
    const key = JSON.stringify(`${i}${Array.from({ length: keyLength() }, () => pick(letters)).join("")}`);
    const multiLine = random() < 0.15;
    const value = multiLine
      ? ["pulumi.StringArray{", '\t\t\tpulumi.String("x"),', "\t\t}"]
      : [`pulumi.String(${JSON.stringify("v".repeat(Math.floor(random() * 30)))})`];
    const comment = random() < 0.15 ? "a comment line" : undefined;
    return comment === undefined ? { key, value } : { comment, key, value };
  });
  return [`\tm${index} := map[string]pulumi.Input{`, ...literalBody(entries, 2), "\t}", `\t_ = m${index}`];
}

test("gofmt changes nothing in literals of keys short and long, non-ASCII keys, comment lines and multi-line values", () => {
  const random = mulberry32(20261126);
  const body = Array.from({ length: LITERALS }, (_, i) => randomLiteral(random, i)).flat();
  const source = [
    "package main", "", 'import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"', "", "func main() {", ...body, "}", "",
  ].join("\n");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wsbridge-go-layout-"));
  try {
    const file = path.join(dir, "main.go");
    fs.writeFileSync(file, source);
    // gofmt -d shows what it would change: the empty diff is the claim.
    expect(execFileSync("gofmt", ["-d", file], { encoding: "utf8" })).toBe("");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the layout's rules, each on its own: a column per run of one-line pairs, ended by a comment, a multi-line value or a key far longer", () => {
  const one = (key: string): GoEntry => ({ key, value: ["1"] });
  expect(literalBody([one("A"), one("Bbb")], 1)).toEqual(["\tA:   1,", "\tBbb: 1,"]);
  expect(literalBody([one("A"), { comment: "c", key: "Bbb", value: ["1"] }, one("C")], 1))
    .toEqual(["\tA: 1,", "\t// c", "\tBbb: 1,", "\tC:   1,"]);
  expect(literalBody([one("A"), { key: "Long", value: ["x{", "\t}"] }, one("Cc")], 1))
    .toEqual(["\tA: 1,", "\tLong: x{", "\t},", "\tCc: 1,"]);
  const long = `"${"k".repeat(50)}"`;
  expect(literalBody([one('"a"'), one('"bb"'), one(long), one('"cc"'), one('"ddd"')], 1))
    .toEqual(['\t"a":  1,', '\t"bb": 1,', `\t${long}: 1,`, '\t"cc":  1,', '\t"ddd": 1,']);
});

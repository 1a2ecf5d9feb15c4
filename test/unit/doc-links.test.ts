// The documentation's relative links and anchors resolve. README.md is a front door that links into
// docs/, the docs pages link to each other, and code paths move: a link to a page, a heading or a
// file that is not there any more fails this file, naming the file and line of the link.
//
// Checked: every Markdown link `[text](target)` and image `![alt](target)` (and reference definition
// `[id]: target`, HTML `href`/`src`) whose target is relative (no scheme such as http:, https:,
// mailto:), in README.md, CONTRIBUTING.md, docs/** (the generated docs/api/ too) and the examples'
// READMEs. The file or folder must exist; a `#anchor` into a Markdown file must be one of its
// headings' GitHub slugs or an explicit `<a id="…">` / `<a name="…">`. Links inside fenced code
// blocks and inline code are text, not links, and are ignored.
//
// Also: the resource pages in docs/resources/ keep one skeleton (the same sections in the same order).
import * as fs from "node:fs";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");

/** A link as written: where it is, and its target split into path and fragment. */
interface Link {
  file: string;
  line: number;
  target: string;
  pathPart: string;
  fragment: string | undefined;
}

/** Every Markdown file the check covers, relative to the repository root. */
function documentationFiles(): string[] {
  const files: string[] = [];
  for (const top of ["README.md", "CONTRIBUTING.md"]) {
    if (fs.existsSync(path.join(repoRoot, top))) files.push(top);
  }
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile() && entry.name.endsWith(".md")) files.push(rel);
    }
  };
  if (fs.existsSync(path.join(repoRoot, "docs"))) walk("docs");
  const examples = path.join(repoRoot, "examples");
  if (fs.existsSync(examples)) {
    for (const entry of fs.readdirSync(examples, { withFileTypes: true })) {
      const readme = path.posix.join("examples", entry.name, "README.md");
      if (entry.isDirectory() && fs.existsSync(path.join(repoRoot, readme))) files.push(readme);
    }
  }
  return files.sort();
}

/**
 * The text with fenced code blocks and inline code blanked out, line for line and column for column,
 * so that what remains is prose and the line numbers still match the file.
 */
function withoutCode(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: { char: string; length: number } | undefined;
  const prose = lines.map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined) {
      if (opening?.[1] !== undefined && !(opening[1].startsWith("`") && line.slice(opening[0].length).includes("`"))) {
        fence = { char: opening[1].charAt(0), length: opening[1].length };
        return "";
      }
      return line;
    }
    const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (closing?.[1] !== undefined && closing[1].charAt(0) === fence.char && closing[1].length >= fence.length) fence = undefined;
    return "";
  });
  // Inline code: a run of n backticks up to the next run of exactly n (it may span lines within a
  // paragraph). Its characters become spaces, except newlines, which keep the line count.
  return prose.join("\n").replace(/(?<!`)(`+)((?:(?!\n[ \t]*\n)[\s\S])*?[^`])\1(?!`)/g, (span) => span.replace(/[^\n]/g, " "));
}

/** A heading's anchor as GitHub writes it, before duplicates are numbered. */
function githubSlug(headingText: string): string {
  const text = headingText
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image counts as its text
    .replace(/<[^>]+>/g, ""); //                  HTML tags are not text
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a Markdown file offers: its headings' slugs (duplicates get -1, -2, …) and explicit anchors. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string): void => {
    const base = githubSlug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  // Headings are found in the text with code blocks removed, but read from the original line, since
  // inline code in a heading is part of its text (backticks are then dropped by the slug).
  const original = markdown.split("\n");
  const prose = withoutCode(markdown).split("\n");
  prose.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+|$)/.exec(line);
    if (atx) {
      const text = (original[i] ?? "").replace(/^ {0,3}#{1,6}[ \t]*/, "").replace(/[ \t]+#+[ \t]*$/, "").replace(/^#+[ \t]*$/, "");
      add(text);
      return;
    }
    const next = prose[i + 1];
    if (next !== undefined && /^ {0,3}(=+|-+)[ \t]*$/.test(next) && line.trim() !== "" && !/^ {0,3}([-*_])[ \t]*(\1[ \t]*){2,}$/.test(line)
      && !/^ {0,3}(=+|-+)[ \t]*$/.test(line) && !/^\s*([-*+]|\d+[.)])\s/.test(line) && !line.includes("|")) {
      add(original[i] ?? "");
    }
  });
  for (const match of markdown.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["'][^>]*>/gi)) {
    if (match[1] !== undefined) anchors.add(match[1]);
  }
  return anchors;
}

/** The position just after the `)` that closes a link destination starting at `start`, or -1. */
function closingParen(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
    } else if (c === "(") {
      depth++;
    } else if (c === ")") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "\n" && text[i + 1] === "\n") {
      return -1;
    }
  }
  return -1;
}

/** The destination of `(destination "title")`: angle brackets removed, the title dropped. */
function destinationOf(inside: string): string {
  const trimmed = inside.trim();
  if (trimmed.startsWith("<")) {
    const end = trimmed.indexOf(">");
    return end === -1 ? trimmed.slice(1) : trimmed.slice(1, end);
  }
  return trimmed.split(/\s+/)[0] ?? "";
}

/** Every link, image, reference definition and HTML href/src in a Markdown text, with its line. */
function linksIn(file: string, markdown: string): Link[] {
  const prose = withoutCode(markdown);
  const lineAt = (offset: number): number => prose.slice(0, offset).split("\n").length;
  const found: { offset: number; target: string }[] = [];
  for (const match of prose.matchAll(/\]\(/g)) {
    const open = (match.index ?? 0) + 2;
    const close = closingParen(prose, open);
    if (close !== -1) found.push({ offset: match.index ?? 0, target: destinationOf(prose.slice(open, close)) });
  }
  for (const match of prose.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*(\S+)/gm)) {
    if (match[1] !== undefined) found.push({ offset: match.index ?? 0, target: destinationOf(match[1]) });
  }
  for (const match of prose.matchAll(/<(?:a|img)\s[^>]*\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) {
    if (match[1] !== undefined) found.push({ offset: match.index ?? 0, target: match[1] });
  }
  return found
    .filter(({ target }) => target !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//"))
    .map(({ offset, target }) => {
      const hash = target.indexOf("#");
      return {
        file,
        line: lineAt(offset),
        target,
        pathPart: hash === -1 ? target : target.slice(0, hash),
        fragment: hash === -1 ? undefined : target.slice(hash + 1),
      };
    })
    .sort((a, b) => a.line - b.line);
}

/** The file a link's path names, relative to the repository root (the linking file itself for `#x`). */
function resolveTarget(link: Link): string {
  if (link.pathPart === "") return link.file;
  const decoded = decodeURIComponent(link.pathPart.split("?")[0] ?? "");
  const base = decoded.startsWith("/") ? decoded.slice(1) : path.posix.join(path.posix.dirname(link.file), decoded);
  return path.posix.normalize(base);
}

/** What is wrong with each link of the given files: `file:line: target: reason`. */
function brokenLinks(files: string[], read: (file: string) => string | undefined, isDirectory: (file: string) => boolean): {
  missingFiles: string[];
  missingAnchors: string[];
} {
  const missingFiles: string[] = [];
  const missingAnchors: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  for (const file of files) {
    const text = read(file);
    if (text === undefined) continue;
    for (const link of linksIn(file, text)) {
      const where = `${link.file}:${link.line}: ${link.target}`;
      const target = resolveTarget(link);
      if (target.startsWith("../") || target === "..") {
        missingFiles.push(`${where}: points outside the repository`);
        continue;
      }
      const targetText = read(target);
      if (targetText === undefined && !isDirectory(target)) {
        missingFiles.push(`${where}: ${target} does not exist`);
        continue;
      }
      if (link.fragment === undefined || link.fragment === "" || !target.endsWith(".md") || targetText === undefined) continue;
      let anchors = anchorCache.get(target);
      if (anchors === undefined) {
        anchors = anchorsOf(targetText);
        anchorCache.set(target, anchors);
      }
      const fragment = decodeURIComponent(link.fragment);
      if (!anchors.has(fragment)) missingAnchors.push(`${where}: ${target} has no heading or anchor "#${fragment}"`);
    }
  }
  return { missingFiles, missingAnchors };
}

function readFromRepo(file: string): string | undefined {
  const full = path.join(repoRoot, file);
  try {
    return fs.statSync(full).isFile() ? fs.readFileSync(full, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

function isDirectoryInRepo(file: string): boolean {
  try {
    return fs.statSync(path.join(repoRoot, file)).isDirectory();
  } catch {
    return false;
  }
}

describe("the documentation's links", () => {
  const files = documentationFiles();
  const result = brokenLinks(files, readFromRepo, isDirectoryInRepo);

  test("the check reads the README, CONTRIBUTING.md, the docs pages and the examples' READMEs, and finds their links", () => {
    expect(files).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/api/README.md", "examples/quickstart/README.md"]));
    expect(files.filter((f) => f.startsWith("docs/resources/")).length).toBe(7);
    const count = files.reduce((n, f) => n + linksIn(f, readFromRepo(f) ?? "").length, 0);
    expect(count).toBeGreaterThan(100);
  });

  test("every relative link and image in the README, CONTRIBUTING.md, docs/ and the examples' READMEs names a file that exists", () => {
    expect(result.missingFiles).toEqual([]);
  });

  test("every #anchor of those links names a heading or an explicit anchor of the page it points to", () => {
    expect(result.missingAnchors).toEqual([]);
  });
});

describe("the resource pages", () => {
  const dir = path.join(repoRoot, "docs", "resources");
  const pages = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".md")).sort() : [];
  /** A page's second-level headings, in order (outside code blocks). */
  const sections = (page: string): string[] =>
    withoutCode(fs.readFileSync(path.join(dir, page), "utf8")).split("\n").filter((l) => l.startsWith("## ")).map((l) => l.slice(3).trim());

  test("every resource page has the same sections in the same order, so a reader of one knows where everything is on the next", () => {
    const skeleton = [
      "Example", "Inputs", "Outputs", "Create and update", "Preview, refresh and drift", "Destroy", "Import",
      "Permissions and errors", "Requests per operation", "Notes",
    ];
    expect(pages.length).toBe(7);
    expect(pages.map((page) => ({ page, sections: sections(page) }))).toEqual(pages.map((page) => ({ page, sections: skeleton })));
  });
});

describe("the link check itself", () => {
  const page = [
    "# Title",
    "## Moving a stack to the plugin",
    "## `pulumi import`",
    "## Limits",
    "## Limits",
    "### What is the same, what differs",
    "<a id=\"explicit\"></a>",
    "See [import](#pulumi-import), [limits](#limits-1), [same](#what-is-the-same-what-differs), [x](#explicit).",
    "A [missing anchor](#nowhere) and a [missing file](other.md) and ![an image](img/none.png).",
    "Inline code is text: `[not a link](gone.md)`.",
    "```md",
    "[in a fence](gone-too.md)",
    "```",
    "[another page](more.md#second-heading) and [its missing anchor](more.md#third)",
  ].join("\n");
  const pages: Record<string, string> = { "docs/page.md": page, "docs/more.md": "# First\n\nSecond heading\n--------------\n" };
  const result = brokenLinks(["docs/page.md"], (f) => pages[f], () => false);

  test("GitHub's slugs: lower case, punctuation and backticks dropped, spaces as hyphens, duplicates numbered", () => {
    expect(githubSlug("`pulumi import`")).toBe("pulumi-import");
    expect(githubSlug("What is the same, what differs")).toBe("what-is-the-same-what-differs");
    expect(githubSlug("HTTPS, and Terraform's `tfe` provider")).toBe("https-and-terraforms-tfe-provider");
    expect(githubSlug("Two routes: dynamic resources or the provider plugin")).toBe("two-routes-dynamic-resources-or-the-provider-plugin");
    expect(githubSlug("opts?")).toBe("opts");
    expect([...anchorsOf(page)]).toEqual(expect.arrayContaining(["limits", "limits-1", "explicit"]));
  });

  test("a link to a file that does not exist is reported with its file and line", () => {
    expect(result.missingFiles).toEqual([
      "docs/page.md:9: other.md: docs/other.md does not exist",
      "docs/page.md:9: img/none.png: docs/img/none.png does not exist",
    ]);
  });

  test("an anchor that no heading has is reported, in the same page and in another; links in code are ignored", () => {
    expect(result.missingAnchors).toEqual([
      "docs/page.md:9: #nowhere: docs/page.md has no heading or anchor \"#nowhere\"",
      "docs/page.md:14: more.md#third: docs/more.md has no heading or anchor \"#third\"",
    ]);
  });
});

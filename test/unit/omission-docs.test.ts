// Each resource page holds the table of what an omitted input means, as generated from the table the
// provider's check and diff use (provider/schemas/omission-pages.ts; scripts/omission-tables.js
// rewrites the pages): one source, so the docs cannot drift from the code.
import * as fs from "node:fs";
import * as path from "node:path";
import { omissionTable } from "../../provider/schemas/omission";
import { OMISSION_PAGES, omissionSectionOf } from "../../provider/schemas/omission-pages";

const PAGES = path.join(__dirname, "..", "..", "docs", "resources");

test("every resource page has an omission table, and every kind's table has a page", () => {
  const pages = fs.readdirSync(PAGES).filter((f) => f.endsWith(".md")).sort();
  expect(Object.keys(OMISSION_PAGES).sort()).toEqual(pages);
});

test.each(Object.entries(OMISSION_PAGES))("docs/resources/%s holds the table the provider uses (run `npm run build && node scripts/omission-tables.js`)", (page, table) => {
  const section = omissionSectionOf(fs.readFileSync(path.join(PAGES, page), "utf8"));
  expect(section).toBe(omissionTable(table));
});

/** Every Markdown page of docs/ (the API reference included) and the README. */
function pages(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? pages(full) : entry.name.endsWith(".md") ? [full] : [];
  });
}

test("no page says a removed or left-out property stops being managed: only inputs with no fixed default are not managed, and the pages say so in those words", () => {
  const root = path.join(__dirname, "..", "..");
  for (const page of [...pages(path.join(root, "docs")), path.join(root, "README.md")]) {
    const text = fs.readFileSync(page, "utf8");
    const claims = /stops? (being )?manag|only declared properties are managed|managed only while it is declared|neither sends it nor/i.exec(text);
    expect([path.relative(root, page), claims?.[0]]).toEqual([path.relative(root, page), undefined]);
  }
});

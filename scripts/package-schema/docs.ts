// Descriptions for the package schema from the TSDoc comments of the source declarations: the
// comment's text as Markdown; its block tags (@pattern, @example, …) stay out.
import * as ts from "typescript";

/**
 * How `{@link X}` or `{@link X.member}` reads in the schema: the name an SDK user sees for X
 * (`WorkspaceInputs` → `Workspace`), or undefined to keep the source's name.
 */
export type LinkNames = (sourceName: string) => string | undefined;

type Part = string | ts.JSDocComment;
type Link = ts.JSDocLink | ts.JSDocLinkCode | ts.JSDocLinkPlain;

export class Docs {
  constructor(private readonly checker: ts.TypeChecker, private readonly linkNames: LinkNames) {}

  /** The description of a declaration, or undefined when it has no TSDoc text. */
  of(declaration: ts.Node | undefined): string | undefined {
    if (declaration === undefined) return undefined;
    const parts = ts.getJSDocCommentsAndTags(declaration).filter(ts.isJSDoc)
      .flatMap((doc): Part[] => (doc.comment === undefined ? [] : typeof doc.comment === "string" ? [doc.comment] : [...doc.comment]));
    // "See {@link GetModuleVersionArgs.organization}." points to a page the schema does not have:
    // the description is the text it points to.
    const pointer = this.pointsTo(parts);
    if (pointer !== undefined) return this.of(pointer);
    const text = parts.map((p) => (isText(p) ? textOf(p) : isLink(p) ? this.renderLink(p) : "")).join("").trim();
    return text === "" ? undefined : text;
  }

  /** A block tag's text (`@TJS-type integer` → "integer"): undefined when the tag is absent, "" when it has none. */
  tag(declaration: ts.Node | undefined, name: string): string | undefined {
    if (declaration === undefined) return undefined;
    const tag = ts.getJSDocTags(declaration).find((t) => t.tagName.text === name);
    if (tag === undefined) return undefined;
    return (typeof tag.comment === "string" ? tag.comment : (tag.comment ?? []).map((p) => p.text).join("")).trim();
  }

  /** The declaration a comment that reads only "See {@link X}." points to. */
  private pointsTo(parts: Part[]): ts.Declaration | undefined {
    const meaningful = parts.filter((p) => !(isText(p) && textOf(p).trim() === ""));
    const [see, link, end, ...more] = meaningful;
    if (more.length > 0 || see === undefined || !isText(see) || textOf(see).trim() !== "See") return undefined;
    if (link === undefined || !isLink(link) || link.name === undefined) return undefined;
    if (end !== undefined && !(isText(end) && textOf(end).trim() === ".")) return undefined;
    return this.checker.getSymbolAtLocation(link.name)?.declarations?.[0];
  }

  private renderLink(link: Link): string {
    if (link.text.trim() !== "") return link.text.trim();
    const [head = "", ...rest] = (link.name === undefined ? "" : entityText(link.name)).split(".");
    return "`" + [this.linkNames(head) ?? head, ...rest].join(".") + "`";
  }
}

function isText(part: Part): part is string | ts.JSDocText {
  return typeof part === "string" || part.kind === ts.SyntaxKind.JSDocText;
}

function textOf(part: string | ts.JSDocText): string {
  return typeof part === "string" ? part : part.text;
}


function isLink(part: Part): part is Link {
  return typeof part !== "string" && (ts.isJSDocLink(part) || ts.isJSDocLinkCode(part) || ts.isJSDocLinkPlain(part));
}

function entityText(name: ts.EntityName | ts.JSDocMemberName): string {
  if (ts.isIdentifier(name)) return name.text;
  if (ts.isQualifiedName(name)) return `${entityText(name.left)}.${name.right.text}`;
  return `${entityText(name.left)}#${name.right.text}`;
}

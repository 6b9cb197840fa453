import type { Node, Query } from "web-tree-sitter";

/** What one parse yields before any language-specific reading: the texts of its captures. */
export interface Captures {
  /** Texts captured as `@def`. */
  defs: string[];
  /** Texts captured as `@imp`. */
  imps: string[];
}

/** One declaration a symbol query matched, in plain data (see `declarationsOf` in symbols.ts). */
export interface Declaration {
  /** The capture naming its kind (`function`, `class`, ...). */
  kind: string;
  name: string;
  /** Extent of the declaration (with its decorators), as character offsets and rows. */
  start: number;
  end: number;
  startRow: number;
  endRow: number;
  endColumn: number;
  /** Rows of the declaration itself (without decorators). */
  declStartRow: number;
  declEndRow: number;
  /** Where its body starts, if it has one. */
  body: { row: number; column: number } | null;
}

/** The texts of a tree's `@def` and `@imp` captures (in-process and on the localize threads). */
export function capturesOf(query: Query, root: Node): Captures {
  const defs: string[] = [];
  const imps: string[] = [];
  for (const c of query.captures(root)) {
    if (c.name === "def") defs.push(c.node.text);
    else if (c.name === "imp") imps.push(c.node.text);
  }
  return { defs, imps };
}

/**
 * The declarations a symbol query matches in a tree, as plain data; Python decorators belong to
 * the declaration they decorate.
 */
export function declarationsOf(query: Query, root: Node, kinds: readonly string[]): Declaration[] {
  const out: Declaration[] = [];
  for (const match of query.matches(root)) {
    const decl = match.captures.find((c) => kinds.includes(c.name));
    const name = match.captures.find((c) => c.name === "name");
    if (!decl || !name) continue;
    const d = decl.node;
    const node = d.parent && d.parent.type === "decorated_definition" ? d.parent : d;
    const body = d.childForFieldName("body");
    out.push({
      kind: decl.name,
      name: name.node.text,
      start: node.startIndex,
      end: node.endIndex,
      startRow: node.startPosition.row,
      endRow: node.endPosition.row,
      endColumn: node.endPosition.column,
      declStartRow: d.startPosition.row,
      declEndRow: d.endPosition.row,
      body: body ? { row: body.startPosition.row, column: body.startPosition.column } : null,
    });
  }
  return out;
}

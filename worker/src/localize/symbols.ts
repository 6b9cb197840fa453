import { Query } from "web-tree-sitter";
import { type LanguageId, languageOf } from "./languages";
import { loader, wasmOf } from "./parse";
import { localizeThreads } from "./threads";
import { type Declaration, declarationsOf } from "./tree-query";

export type SymbolKind = "function" | "method" | "class" | "type";

/** A function, class or type declared in a file; lines are 1-based and inclusive. */
export interface FileSymbol {
  /** Qualified by enclosing classes: `Request.send`. */
  name: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  /** Last line of the signature or class header (the body follows it). */
  headerEnd: number;
  /** Index of the enclosing symbol in the same list, if any. */
  parent?: number;
}

/**
 * Declarations per language: the captured node is the whole declaration, `@name` its name, and
 * the capture name its kind. Kept apart from `languages.ts` (which finds names only) because
 * these need the declaration's extent.
 */
const QUERIES: Record<LanguageId, string> = {
  python: `
(function_definition name: (identifier) @name) @function
(class_definition name: (identifier) @name) @class`,
  javascript: `
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(class_declaration name: (_) @name) @class
(method_definition name: (_) @name) @method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @function`,
  typescript: "",
  tsx: "",
  go: `
(function_declaration name: (identifier) @name) @function
(method_declaration name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name) @type`,
  java: `
(class_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @class
(enum_declaration name: (identifier) @name) @class
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method`,
  rust: `
(function_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @type
(enum_item name: (type_identifier) @name) @type
(trait_item name: (type_identifier) @name) @class
(impl_item type: (_) @name) @class
(mod_item name: (identifier) @name body: (_)) @class`,
  ruby: `
(method name: (_) @name) @method
(singleton_method name: (_) @name) @method
(class name: (_) @name) @class
(module name: (_) @name) @class`,
  c: `
(function_definition declarator: (function_declarator declarator: (_) @name)) @function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @function
(struct_specifier name: (type_identifier) @name body: (_)) @type`,
  cpp: "",
  csharp: `
(class_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @class
(struct_declaration name: (identifier) @name) @class
(enum_declaration name: (identifier) @name) @type
(record_declaration name: (identifier) @name) @class
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method`,
  php: `
(class_declaration name: (name) @name) @class
(interface_declaration name: (name) @name) @class
(trait_declaration name: (name) @name) @class
(function_definition name: (name) @name) @function
(method_declaration name: (name) @name) @method`,
};
QUERIES.typescript = `${QUERIES.javascript}
(abstract_class_declaration name: (type_identifier) @name) @class
(interface_declaration name: (type_identifier) @name) @type
(enum_declaration name: (identifier) @name) @type`;
QUERIES.tsx = QUERIES.typescript;
QUERIES.cpp = `${QUERIES.c}
(class_specifier name: (type_identifier) @name body: (_)) @class`;

const queries = new Map<LanguageId, Promise<Query>>();

async function queryFor(id: LanguageId): Promise<Query> {
  let q = queries.get(id);
  if (!q) {
    q = loader(id).then(({ parser }) => {
      const language = parser.language;
      if (!language) throw new Error(`no grammar for ${id}`);
      return new Query(language, QUERIES[id]);
    });
    queries.set(id, q);
  }
  return q;
}

const KINDS = new Set<string>(["function", "method", "class", "type"]);
const CONTAINERS = new Set<SymbolKind>(["class", "type"]);
/** Beyond this a file is not parsed for symbols (the ranker does not parse it either). */
const MAX_CHARS = 400_000;

/** Last header row: the body's first row, unless the body starts its own line (Python blocks). */
function headerEndRow(d: Declaration, text: readonly string[]): number {
  if (!d.body) return Math.min(d.declStartRow, d.declEndRow);
  const row = d.body.row;
  const before = (text[row] ?? "").slice(0, d.body.column);
  return Math.max(d.declStartRow, before.trim() === "" ? row - 1 : row);
}

const KIND_LIST = [...KINDS];

/** Declarations in one file, parsed in-process; `undefined` without a tree. */
async function declarationsIn(id: LanguageId, text: string): Promise<Declaration[] | undefined> {
  const [{ parser }, query] = await Promise.all([loader(id), queryFor(id)]);
  const tree = parser.parse(text);
  if (!tree) return undefined;
  try {
    return declarationsOf(query, tree.rootNode, KIND_LIST);
  } finally {
    tree.delete();
  }
}

/** The declarations of one source file, outermost first; empty for unknown languages or parse failures. */
export async function fileSymbols(path: string, text: string): Promise<FileSymbol[]> {
  const id = languageOf(path);
  if (!id || text.length > MAX_CHARS) return [];
  return symbolsFrom((await declarationsIn(id, text)) ?? [], text);
}

/**
 * `fileSymbols` of several files, parsed on the localize threads when there are several (a file
 * whose thread fails is parsed here); a file that cannot be parsed gets none.
 */
export async function filesSymbols(files: readonly { path: string; text: string }[]): Promise<FileSymbol[][]> {
  const threads = localizeThreads();
  return Promise.all(
    files.map(async ({ path, text }) => {
      const id = languageOf(path);
      if (!id || text.length > MAX_CHARS) return [];
      const here = () => declarationsIn(id, text).catch(() => undefined);
      const decls =
        threads.size > 0 && files.length > 1
          ? await threads.declarations({ wasm: wasmOf(id), query: QUERIES[id], text, kinds: KIND_LIST }).catch(here)
          : await here();
      return symbolsFrom(decls ?? [], text);
    }),
  );
}

/** Symbols, outermost first and qualified by their classes, from a file's declarations. */
function symbolsFrom(decls: readonly Declaration[], text: string): FileSymbol[] {
  const lines = text.split("\n");
  const found = decls.flatMap((d) => {
    const name = d.name.replace(/^[~*&\s]+/, "");
    return name ? [{ d, name: name.split(/::|\./).pop() ?? name, kind: d.kind as SymbolKind }] : [];
  });
  found.sort((a, b) => a.d.start - b.d.start || b.d.end - a.d.end);
  const out: FileSymbol[] = [];
  const open: { at: number; start: number; end: number }[] = [];
  for (const f of found) {
    const start = f.d.start;
    while (open.length > 0 && (open[open.length - 1]?.end ?? 0) <= start) open.pop();
    const top = open[open.length - 1];
    if (top && top.start === start && top.end === f.d.end) continue; // the same node twice
    const parent = top ? out[top.at] : undefined;
    const endRow = f.d.endColumn === 0 && f.d.endRow > f.d.startRow ? f.d.endRow - 1 : f.d.endRow;
    const inClass = parent !== undefined && CONTAINERS.has(parent.kind);
    out.push({
      name: inClass ? `${parent.name}.${f.name}` : f.name,
      kind: f.kind === "function" && inClass ? "method" : f.kind,
      startLine: f.d.startRow + 1,
      endLine: endRow + 1,
      headerEnd: Math.min(headerEndRow(f.d, lines), endRow) + 1,
      ...(top ? { parent: top.at } : {}),
    });
    open.push({ at: out.length - 1, start, end: f.d.end });
  }
  return out;
}

/** The innermost symbol whose span holds `line`, if any. */
export function innermostAt(symbols: readonly FileSymbol[], line: number): FileSymbol | undefined {
  let best: FileSymbol | undefined;
  for (const s of symbols)
    if (s.startLine <= line && line <= s.endLine && (!best || s.endLine - s.startLine <= best.endLine - best.startLine))
      best = s;
  return best;
}

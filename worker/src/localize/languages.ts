/**
 * Languages the localizer understands: file extensions, the tree-sitter grammar (from
 * `tree-sitter-wasms`), a query naming definitions (`@def`) and one capturing import
 * statements (`@imp`), plus how to turn an import statement's text into import specifiers.
 * Statement text is parsed with small regexes because the grammar versions differ in field
 * names, while the statement node types are stable.
 */
export type LanguageId =
  "python" | "typescript" | "tsx" | "javascript" | "go" | "java" | "rust" | "ruby" | "c" | "cpp" | "csharp" | "php";

export interface LanguageSpec {
  id: LanguageId;
  wasm: string;
  defs: string;
  imports: string;
  /** Import specifiers found in one captured import statement (or string literal). */
  specs(text: string): string[];
}

const unquote = (s: string): string => s.trim().replace(/^["'`<]|["'`>]$/g, "");
const all = (re: RegExp, text: string, group = 1): string[] =>
  [...text.matchAll(re)].map((m) => m[group] ?? "").filter((s) => s !== "");

/**
 * What follows `import` in a `from … import …` statement, without one `(` before it, the blanks
 * at its end and one `)` there: `x, y` of `from a import (x, y)`. Plain string operations,
 * because the lazy regex that did this rescanned the trailing blanks from every position
 * (quadratic: a long run of blanks in a statement took minutes).
 */
const importedNames = (rest: string): string => {
  const open = rest.startsWith("(") ? rest.slice(1) : rest;
  const end = open.trimEnd();
  return end.endsWith(")") ? end.slice(0, -1) : end;
};

const pythonSpecs = (text: string): string[] => {
  const from = /^\s*from\s+([.\w]+)\s+import\s+/.exec(text);
  if (from) {
    const mod = from[1] ?? "";
    const names = importedNames(text.slice(from[0].length))
      .split(",")
      .map((n) => n.trim().split(/\s+/)[0] ?? "")
      .filter((n) => /^\w+$/.test(n));
    // `from a import b` may import module a.b; the resolver falls back to a.
    const sep = mod.endsWith(".") ? "" : ".";
    return [mod, ...names.map((n) => `${mod}${sep}${n}`)];
  }
  const imp = /^\s*import\s+([\s\S]+)$/.exec(text);
  return (imp?.[1] ?? "")
    .split(",")
    .map((p) => p.trim().split(/\s+/)[0] ?? "")
    .filter((p) => p !== "");
};

const jsImports = `
(import_statement source: (string) @imp)
(export_statement source: (string) @imp)
(call_expression function: (identifier) @fn arguments: (arguments (string) @imp) (#eq? @fn "require"))
(call_expression function: (import) arguments: (arguments (string) @imp))`;
const jsDefs = `
(function_declaration name: (identifier) @def)
(generator_function_declaration name: (identifier) @def)
(class_declaration name: (_) @def)
(method_definition name: (property_identifier) @def)
(program (lexical_declaration (variable_declarator name: (identifier) @def)))
(program (variable_declaration (variable_declarator name: (identifier) @def)))
(export_statement (lexical_declaration (variable_declarator name: (identifier) @def)))`;
const tsDefs = `${jsDefs}
(interface_declaration name: (type_identifier) @def)
(type_alias_declaration name: (type_identifier) @def)
(enum_declaration name: (identifier) @def)
(abstract_class_declaration name: (type_identifier) @def)`;

const cDefs = `
(function_definition declarator: (function_declarator declarator: (_) @def))
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @def)))
(declaration declarator: (function_declarator declarator: (_) @def))
(struct_specifier name: (type_identifier) @def)
(enum_specifier name: (type_identifier) @def)
(type_definition declarator: (type_identifier) @def)
(preproc_def name: (identifier) @def)
(preproc_function_def name: (identifier) @def)`;

export const LANGUAGES: Record<LanguageId, LanguageSpec> = {
  python: {
    id: "python",
    wasm: "python",
    defs: `
(function_definition name: (identifier) @def)
(class_definition name: (identifier) @def)
(module (expression_statement (assignment left: (identifier) @def)))`,
    imports: `(import_statement) @imp (import_from_statement) @imp`,
    specs: pythonSpecs,
  },
  typescript: { id: "typescript", wasm: "typescript", defs: tsDefs, imports: jsImports, specs: (t) => [unquote(t)] },
  tsx: { id: "tsx", wasm: "tsx", defs: tsDefs, imports: jsImports, specs: (t) => [unquote(t)] },
  javascript: { id: "javascript", wasm: "javascript", defs: jsDefs, imports: jsImports, specs: (t) => [unquote(t)] },
  go: {
    id: "go",
    wasm: "go",
    defs: `
(function_declaration name: (identifier) @def)
(method_declaration name: (field_identifier) @def)
(type_spec name: (type_identifier) @def)`,
    imports: `(import_spec path: (_) @imp)`,
    specs: (t) => [unquote(t)],
  },
  java: {
    id: "java",
    wasm: "java",
    defs: `
(class_declaration name: (identifier) @def)
(interface_declaration name: (identifier) @def)
(enum_declaration name: (identifier) @def)
(method_declaration name: (identifier) @def)`,
    imports: `(import_declaration) @imp`,
    specs: (t) => all(/import\s+(?:static\s+)?(\w+(?:\.\w+)*(?:\.\*)?)/g, t),
  },
  rust: {
    id: "rust",
    wasm: "rust",
    defs: `
(function_item name: (identifier) @def)
(struct_item name: (type_identifier) @def)
(enum_item name: (type_identifier) @def)
(trait_item name: (type_identifier) @def)
(type_item name: (type_identifier) @def)
(mod_item name: (identifier) @def)
(macro_definition name: (identifier) @def)`,
    imports: `(use_declaration) @imp (mod_item) @imp`,
    specs: (t) => {
      const mod = /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;\s*$/.exec(t);
      if (mod) return [`mod:${mod[1]}`];
      const use = /use\s+([\w:]+)/.exec(t);
      return use?.[1] ? [use[1].replace(/::$/, "")] : [];
    },
  },
  ruby: {
    id: "ruby",
    wasm: "ruby",
    defs: `
(method name: (_) @def)
(singleton_method name: (_) @def)
(class name: (_) @def)
(module name: (_) @def)`,
    imports: `((call method: (identifier) @fn arguments: (argument_list (string))) @imp (#match? @fn "^(require|require_relative|load)$"))`,
    specs: (t) => {
      const m = /^(require_relative|require|load)\s*\(?\s*['"]([^'"]+)/.exec(t);
      if (!m?.[2]) return [];
      return [m[1] === "require_relative" && !m[2].startsWith(".") ? `./${m[2]}` : m[2]];
    },
  },
  c: { id: "c", wasm: "c", defs: cDefs, imports: `(preproc_include path: (_) @imp)`, specs: (t) => [unquote(t)] },
  cpp: {
    id: "cpp",
    wasm: "cpp",
    defs: `${cDefs}
(class_specifier name: (type_identifier) @def)
(namespace_definition name: (_) @def)`,
    imports: `(preproc_include path: (_) @imp)`,
    specs: (t) => [unquote(t)],
  },
  csharp: {
    id: "csharp",
    wasm: "c_sharp",
    defs: `
(class_declaration name: (identifier) @def)
(interface_declaration name: (identifier) @def)
(struct_declaration name: (identifier) @def)
(enum_declaration name: (identifier) @def)
(record_declaration name: (identifier) @def)
(method_declaration name: (identifier) @def)`,
    imports: `(using_directive) @imp`,
    specs: (t) => all(/using\s+(?:static\s+)?(?:\w+\s*=\s*)?([\w.]+)\s*;/g, t),
  },
  php: {
    id: "php",
    wasm: "php",
    defs: `
(class_declaration name: (name) @def)
(interface_declaration name: (name) @def)
(trait_declaration name: (name) @def)
(function_definition name: (name) @def)
(method_declaration name: (name) @def)`,
    imports: `
(namespace_use_clause) @imp
(require_expression) @imp (require_once_expression) @imp
(include_expression) @imp (include_once_expression) @imp`,
    specs: (t) => {
      const str = /["']([^"']+)["']/.exec(t);
      if (str?.[1]) return [str[1]];
      const name = /([A-Za-z_\\][\w\\]*)/.exec(t.replace(/^\s*(function|const)\s+/, ""));
      return name?.[1] ? [name[1].replace(/^\\/, "")] : [];
    },
  },
};

const EXT: Record<string, LanguageId> = {
  py: "python",
  pyi: "python",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  go: "go",
  java: "java",
  rs: "rust",
  rb: "ruby",
  rake: "ruby",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  hxx: "cpp",
  cs: "csharp",
  php: "php",
};

export function languageOf(path: string): LanguageId | undefined {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  return EXT[path.slice(dot + 1).toLowerCase()];
}

/** Source languages without a parser here: indexed as text, ranked as code. */
const UNPARSED_CODE_EXTENSIONS = [
  "kt",
  "kts",
  "scala",
  "swift",
  "m",
  "mm",
  "lua",
  "ex",
  "exs",
  "erl",
  "hs",
  "ml",
  "dart",
  "vue",
  "svelte",
  "pyx",
  "pxd",
  "r",
  "jl",
  "pl",
  "pm",
  "zig",
  "nim",
  "clj",
  "cljs",
  "elm",
  "fs",
  "vb",
  "groovy",
  "sh",
  "bash",
];
const UNPARSED_CODE = new Set(UNPARSED_CODE_EXTENSIONS);

/** Extensions of text files worth indexing besides source code (docs, config, templates). */
export const TEXT_EXTENSIONS = new Set([
  "md",
  "rst",
  "txt",
  "json",
  "yaml",
  "yml",
  "toml",
  "cfg",
  "ini",
  "xml",
  "html",
  "htm",
  "css",
  "scss",
  "sql",
  "gradle",
  "proto",
  "graphql",
  "tf",
  "jinja",
  "j2",
  "tmpl",
  "ejs",
  "erb",
  "haml",
  "cmake",
  "mk",
  "dockerfile",
  ...UNPARSED_CODE_EXTENSIONS,
]);

/** Source-code files (rankable targets); other indexed text counts for less. */
export function isCodePath(path: string): boolean {
  if (languageOf(path)) return true;
  return UNPARSED_CODE.has(path.slice(path.lastIndexOf(".") + 1).toLowerCase());
}

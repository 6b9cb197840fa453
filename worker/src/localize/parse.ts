import { createRequire } from "node:module";
import { Language, Parser, Query } from "web-tree-sitter";
import { LANGUAGES, type LanguageId } from "./languages";

/** What one file declares and imports, as found by tree-sitter. */
export interface ParsedFile {
  defs: string[];
  imports: string[];
}

export interface Loaded {
  parser: Parser;
  defs: Query;
  imports: Query;
}

const require = createRequire(import.meta.url);
let init: Promise<void> | undefined;
const loaded = new Map<LanguageId, Promise<Loaded>>();

async function load(id: LanguageId): Promise<Loaded> {
  init ??= Parser.init();
  await init;
  const spec = LANGUAGES[id];
  const language = await Language.load(require.resolve(`tree-sitter-wasms/out/tree-sitter-${spec.wasm}.wasm`));
  const parser = new Parser();
  parser.setLanguage(language);
  return { parser, defs: new Query(language, spec.defs), imports: new Query(language, spec.imports) };
}

/** The parser (and grammar) of one language, loaded once per process. */
export function loader(id: LanguageId): Promise<Loaded> {
  let p = loaded.get(id);
  if (!p) {
    p = load(id);
    loaded.set(id, p);
  }
  return p;
}

/** Parsing beyond this many characters adds little to ranking and costs a lot. */
const MAX_PARSE_CHARS = 400_000;

/** Definitions and import specifiers of one source file; `undefined` if it cannot be parsed. */
export async function parseSource(id: LanguageId, text: string): Promise<ParsedFile | undefined> {
  const { parser, defs, imports } = await loader(id);
  const tree = parser.parse(text.length > MAX_PARSE_CHARS ? text.slice(0, MAX_PARSE_CHARS) : text);
  if (!tree) return undefined;
  try {
    const root = tree.rootNode;
    const names = new Set<string>();
    for (const c of defs.captures(root)) {
      if (c.name !== "def") continue;
      // C++ qualified names (`ns::Type::method`) are defined under their last segment.
      const name =
        c.node.text
          .split(/::|\./)
          .pop()
          ?.replace(/^[~*&\s]+/, "") ?? "";
      if (/^[A-Za-z_$][\w$]*[?!]?$/.test(name)) names.add(name);
    }
    const specs = new Set<string>();
    const toSpecs = LANGUAGES[id].specs;
    for (const c of imports.captures(root)) {
      if (c.name !== "imp") continue;
      for (const s of toSpecs(c.node.text)) specs.add(s);
    }
    return { defs: [...names], imports: [...specs] };
  } finally {
    tree.delete();
  }
}

import { createRequire } from "node:module";
import { Language, Parser, type Node } from "web-tree-sitter";
import { LANGUAGES, languageOf, type LanguageId } from "../../../localize/languages";
import { parseSource } from "../../../localize/parse";

const require = createRequire(import.meta.url);
const parsers = new Map<LanguageId, Promise<Parser>>();

async function parserFor(id: LanguageId): Promise<Parser> {
  let p = parsers.get(id);
  if (!p) {
    p = (async () => {
      // web-tree-sitter must be initialised once per process; the localizer owns that.
      await parseSource(id, "");
      const language = await Language.load(
        require.resolve(`tree-sitter-wasms/out/tree-sitter-${LANGUAGES[id].wasm}.wasm`),
      );
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    })();
    parsers.set(id, p);
  }
  return p;
}

function errorLines(root: Node, limit = 5): number[] {
  const lines: number[] = [];
  const walk = (n: Node) => {
    if (lines.length >= limit) return;
    if (n.isError || n.isMissing) {
      lines.push(n.startPosition.row + 1);
      return;
    }
    if (!n.hasError) return;
    for (const c of n.children) if (c) walk(c);
  };
  walk(root);
  return lines;
}

async function countErrors(parser: Parser, text: string): Promise<number[]> {
  const tree = parser.parse(text);
  if (!tree) return [];
  try {
    return errorLines(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * Syntax errors a change introduces, by tree-sitter. A file that already failed to parse before
 * the change is only reported if the change adds errors (grammars lag behind languages).
 */
export async function syntaxErrors(path: string, content: string, original: string): Promise<string[]> {
  const id = languageOf(path);
  if (!id || content.length > 400_000) return [];
  const parser = await parserFor(id);
  const after = await countErrors(parser, content);
  if (!after.length) return [];
  const before = original ? await countErrors(parser, original) : [];
  if (before.length >= after.length) return [];
  return [`does not parse as ${id} (syntax error near line ${after.join(", ")})`];
}

/** Syntax errors per file of a change, for the files that have some; deleted files are not parsed. */
export async function syntaxErrorsOf(
  files: { filename: string; content: string; originalContent: string; action?: string }[],
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const f of files) {
    if (f.action === "delete") continue;
    const errors = await syntaxErrors(f.filename, f.content, f.originalContent);
    if (errors.length) found[f.filename] = errors;
  }
  return found;
}

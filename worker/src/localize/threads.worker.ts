/**
 * Entry of a localize thread (see threads.ts): keeps one parser and query per grammar and
 * answers each message with `{ id, caps }`, `{ id, decls }`, `{ id, scan }` or `{ id, error }`.
 * It is bundled on first use (thread-bundle.ts), so it imports only pure modules.
 */
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type { Language, Parser, Query } from "web-tree-sitter";
import { type ScanItem, scanItems } from "./scan";
import { capturesOf, declarationsOf } from "./tree-query";

export interface ThreadData {
  /** Resolved path of web-tree-sitter (the bundle leaves it out). */
  treeSitter: string;
  defKeywords: string[];
}

/** One request to a thread: a batch to scan, or a parse (with `kinds`: a declarations query). */
export interface ThreadRequest {
  id: number;
  texts?: readonly ScanItem[];
  wasm?: string;
  query?: string;
  text?: string;
  kinds?: string[];
}

type TreeSitter = typeof import("web-tree-sitter");
interface Grammar {
  parser: Parser;
  query: Query;
}

const data = workerData as ThreadData;
const ts = createRequire(data.treeSitter)(data.treeSitter) as TreeSitter;
const defKeywords = new Set(data.defKeywords);
let init: Promise<unknown> | undefined;
const languages = new Map<string, Promise<Language>>();
const grammars = new Map<string, Promise<Grammar>>();

function grammar(wasm: string, source: string): Promise<Grammar> {
  const key = `${wasm}\0${source}`;
  let g = grammars.get(key);
  if (!g) {
    let language = languages.get(wasm);
    if (!language) {
      init ??= ts.Parser.init();
      // One grammar at a time: loading several at once can fail to link an external scanner.
      language = init.then(() => ts.Language.load(wasm));
      init = language.catch(() => undefined);
      languages.set(wasm, language);
    }
    g = language.then((lang) => {
      const parser = new ts.Parser();
      parser.setLanguage(lang);
      return { parser, query: new ts.Query(lang, source) };
    });
    grammars.set(key, g);
  }
  return g;
}

async function answer({ id, texts, wasm, query, text, kinds }: ThreadRequest): Promise<void> {
  const port = parentPort;
  if (!port) return;
  if (texts) {
    const scan = scanItems(texts, defKeywords);
    port.postMessage(
      { id, scan },
      scan.files.flatMap((f) => [f.pairs.buffer, f.defined.buffer]),
    );
    return;
  }
  if (wasm === undefined || query === undefined || text === undefined) throw new Error("malformed request");
  const g = await grammar(wasm, query);
  const tree = g.parser.parse(text);
  if (!tree) {
    port.postMessage({ id, caps: null });
    return;
  }
  try {
    if (kinds) port.postMessage({ id, decls: declarationsOf(g.query, tree.rootNode, kinds) });
    else port.postMessage({ id, caps: capturesOf(g.query, tree.rootNode) });
  } finally {
    tree.delete();
  }
}

parentPort?.on("message", (m: ThreadRequest) => {
  answer(m).catch((e: unknown) =>
    parentPort?.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) }),
  );
});

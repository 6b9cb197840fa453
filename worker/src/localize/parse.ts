import { createRequire } from "node:module";
import { Language, Parser, Query } from "web-tree-sitter";
import { LANGUAGES, type LanguageId } from "./languages";
import { localizeThreads } from "./threads";
import { type Captures, capturesOf } from "./tree-query";

/** What one file declares and imports, as found by tree-sitter. */
export interface ParsedFile {
  defs: string[];
  imports: string[];
}

export interface Loaded {
  parser: Parser;
  /** The language's definition and import patterns as one query (one pass over the tree). */
  query: Query;
}

const require = createRequire(import.meta.url);
let init: Promise<void> | undefined;
let loading: Promise<unknown> = Promise.resolve();
const loaded = new Map<LanguageId, Promise<Loaded>>();
/** Path of a language's tree-sitter grammar. */
export const wasmOf = (id: LanguageId): string =>
  require.resolve(`tree-sitter-wasms/out/tree-sitter-${LANGUAGES[id].wasm}.wasm`);
const querySource = (id: LanguageId): string => `${LANGUAGES[id].defs}\n${LANGUAGES[id].imports}`;

async function load(id: LanguageId): Promise<Loaded> {
  init ??= Parser.init();
  await init;
  // One grammar at a time: loading several at once can fail to link an external scanner.
  const next = loading.catch(() => undefined).then(() => Language.load(wasmOf(id)));
  loading = next;
  const language = await next;
  const parser = new Parser();
  parser.setLanguage(language);
  return { parser, query: new Query(language, querySource(id)) };
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
const clip = (text: string): string => (text.length > MAX_PARSE_CHARS ? text.slice(0, MAX_PARSE_CHARS) : text);

/** Definitions and import specifiers of one source file; `undefined` if it cannot be parsed. */
export async function parseSource(id: LanguageId, text: string): Promise<ParsedFile | undefined> {
  const { parser, query } = await loader(id);
  const tree = parser.parse(clip(text));
  if (!tree) return undefined;
  try {
    return readCaptures(id, capturesOf(query, tree.rootNode));
  } finally {
    tree.delete();
  }
}

/**
 * Several files at once, spread over the localize threads; each result is what `parseSource`
 * gives for that file (`undefined` when it cannot be parsed).
 */
export async function parseSources(
  items: readonly { id: LanguageId; text: string }[],
): Promise<(ParsedFile | undefined)[]> {
  const threads = localizeThreads();
  if (threads.size === 0 || items.length < 2) {
    const out: (ParsedFile | undefined)[] = [];
    for (const { id, text } of items) out.push(await parseSource(id, text).catch(() => undefined));
    return out;
  }
  const out: Promise<ParsedFile | undefined>[] = new Array(items.length);
  // Largest first, each to the least loaded thread: the threads then finish at about the same time.
  const order = items.map((_, k) => k).sort((a, b) => (items[b]?.text.length ?? 0) - (items[a]?.text.length ?? 0));
  for (const k of order) {
    const item = items[k];
    if (!item) continue;
    const { id, text } = item;
    out[k] = threads.parse({ wasm: wasmOf(id), query: querySource(id), text: clip(text) }).then(
      (caps) => (caps ? readCaptures(id, caps) : undefined),
      // A thread that failed: this file is parsed here instead.
      () => parseSource(id, text).catch(() => undefined),
    );
  }
  return Promise.all(out);
}

/**
 * Import statements are read up to this many characters: real ones are far shorter, and the
 * regexes that read them then never see unbounded repository text.
 */
const MAX_IMPORT_CHARS = 10_000;
const clipImport = (text: string): string => (text.length > MAX_IMPORT_CHARS ? text.slice(0, MAX_IMPORT_CHARS) : text);

/** Definition names and import specifiers from a file's captures. */
function readCaptures(id: LanguageId, caps: Captures): ParsedFile {
  const names = new Set<string>();
  for (const text of caps.defs) {
    // C++ qualified names (`ns::Type::method`) are defined under their last segment.
    const name =
      text
        .split(/::|\./)
        .pop()
        ?.replace(/^[~*&\s]+/, "") ?? "";
    if (/^[A-Za-z_$][\w$]*[?!]?$/.test(name)) names.add(name);
  }
  const specs = new Set<string>();
  const toSpecs = LANGUAGES[id].specs;
  for (const text of caps.imps) for (const s of toSpecs(clipImport(text))) specs.add(s);
  return { defs: [...names], imports: [...specs] };
}

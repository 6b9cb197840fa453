import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Node, Query } from "web-tree-sitter";
import { DEF_KEYWORDS, WORD_WALK } from "./tokenize";

/** What one parse yields before any language-specific reading: the texts of its captures. */
export interface Captures {
  /** Texts captured as `@def`. */
  defs: string[];
  /** Texts captured as `@imp`. */
  imps: string[];
}

export interface ParseJob {
  /** Absolute path of the grammar's wasm file. */
  wasm: string;
  /** Query source with `@def` and `@imp` captures. */
  query: string;
  text: string;
}

/**
 * The declarations a symbol query matches in a tree, as plain data; Python decorators belong to
 * the declaration they decorate. Source text, so that threads and the in-process path run the
 * same code.
 */
const DECLARATIONS = `
function declarations(query, root, kinds) {
  const out = [];
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
`;

/** The texts of a tree's `@def` and `@imp` captures; source text, like `DECLARATIONS`. */
const CAPTURES = `
function captureTexts(query, root) {
  const defs = [];
  const imps = [];
  for (const c of query.captures(root)) {
    if (c.name === "def") defs.push(c.node.text);
    else if (c.name === "imp") imps.push(c.node.text);
  }
  return { defs, imps };
}
`;

/** `CAPTURES` for in-process use. */
export const capturesOf = new Function(`${CAPTURES}\nreturn captureTexts;`)() as (query: Query, root: Node) => Captures;

/** `DECLARATIONS` for in-process use. */
export const declarationsOf = new Function(`${DECLARATIONS}\nreturn declarations;`)() as (
  query: Query,
  root: Node,
  kinds: readonly string[],
) => Declaration[];

/**
 * The thread's code, plain CommonJS so that it runs the same under any loader (tsx, vitest,
 * compiled). It keeps one parser and query per grammar and answers `{ id, caps }` or `{ id, error }`.
 */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { Parser, Language, Query } = require(workerData.treeSitter);
const DEF_KEYWORDS = new Set(workerData.defKeywords);
${WORD_WALK}
function scan(texts) {
  const index = new Map();
  const words = [];
  let counts = new Uint32Array(1 << 12);
  const files = texts.map((text) => {
    const key = createHash("sha1").update(text).digest("base64");
    const touched = [];
    const defs = [];
    forEachWord(text, DEF_KEYWORDS, (word, defined) => {
      let lid = index.get(word);
      if (lid === undefined) {
        lid = words.length;
        index.set(word, lid);
        words.push(word);
        if (lid >= counts.length) {
          const grown = new Uint32Array(counts.length * 2);
          grown.set(counts);
          counts = grown;
        }
      }
      if (counts[lid]++ === 0) touched.push(lid);
      if (defined) defs.push(lid);
    });
    const pairs = new Uint32Array(touched.length * 2);
    touched.forEach((lid, k) => {
      pairs[2 * k] = lid;
      pairs[2 * k + 1] = counts[lid];
      counts[lid] = 0;
    });
    return { key, pairs, defined: Uint32Array.from(defs) };
  });
  return { words, files };
}
let init;
const languages = new Map();
const grammars = new Map();
function grammar(wasm, source) {
  const key = wasm + "\\0" + source;
  let g = grammars.get(key);
  if (!g) {
    let language = languages.get(wasm);
    if (!language) {
      init = init || Parser.init();
      // One grammar at a time: loading several at once can fail to link an external scanner.
      language = init.then(() => Language.load(wasm));
      init = language.catch(() => undefined);
      languages.set(wasm, language);
    }
    g = language.then((lang) => {
      const parser = new Parser();
      parser.setLanguage(lang);
      return { parser, query: new Query(lang, source) };
    });
    grammars.set(key, g);
  }
  return g;
}
${DECLARATIONS}
${CAPTURES}
parentPort.on("message", async ({ id, texts, wasm, query, text, kinds }) => {
  try {
    if (texts) {
      const out = scan(texts);
      return parentPort.postMessage({ id, scan: out }, out.files.flatMap((f) => [f.pairs.buffer, f.defined.buffer]));
    }
    const g = await grammar(wasm, query);
    const tree = g.parser.parse(text);
    if (!tree) return parentPort.postMessage({ id, caps: null });
    try {
      if (kinds) return parentPort.postMessage({ id, decls: declarations(g.query, tree.rootNode, kinds) });
      parentPort.postMessage({ id, caps: captureTexts(g.query, tree.rootNode) });
    } finally {
      tree.delete();
    }
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

/** One scanned file: its content hash, its distinct words with counts, the words it defines. */
export interface ScannedFile {
  /** Content hash (see `contentHash`). */
  key: string;
  /** Pairs of (index into the batch's `words`, occurrences). */
  pairs: Uint32Array;
  /** Indexes into `words` of words that follow a definition keyword, in order of occurrence. */
  defined: Uint32Array;
}

/** A batch of texts cut into words on a thread (see `LocalizeCache.statsOfScan`). */
export interface ScannedBatch {
  /** The batch's distinct words (at most 64 characters each). */
  words: string[];
  files: ScannedFile[];
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

interface Reply {
  id: number;
  caps?: Captures | null;
  decls?: Declaration[];
  scan?: ScannedBatch;
  error?: string;
}

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * A few threads for the CPU-bound parts of a localization (tree-sitter parses, cutting file
 * contents into words), so that it uses every core. Threads start on first use, hold the
 * process open only while work is under way, and a thread that dies is replaced on the next
 * call (its pending work fails).
 */
export class LocalizeThreads {
  readonly size: number;
  readonly #data: { treeSitter: string; defKeywords: string[] };
  #threads: (Thread | undefined)[] = [];
  #next = 0;
  #ids = 0;

  constructor(size: number, treeSitter: string) {
    this.size = size;
    this.#data = { treeSitter, defKeywords: [...DEF_KEYWORDS] };
  }

  /** Captures of one parse; `undefined` when tree-sitter gives no tree. */
  async parse(job: ParseJob): Promise<Captures | undefined> {
    return (await this.#send(job)).caps ?? undefined;
  }

  /** Declarations matched by a symbol query whose kind captures are `kinds`; `undefined` without a tree. */
  async declarations(job: ParseJob & { kinds: string[] }): Promise<Declaration[] | undefined> {
    return (await this.#send(job)).decls;
  }

  /** Words of a batch of texts, with each text's content hash. */
  async scan(texts: string[]): Promise<ScannedBatch> {
    const { scan } = await this.#send({ texts });
    if (!scan) throw new Error("scan thread gave no result");
    return scan;
  }

  /** Stops the threads (pending work fails). */
  async close(): Promise<void> {
    const threads = this.#threads;
    this.#threads = [];
    await Promise.all(threads.map((t) => t?.worker.terminate()));
  }

  #send(message: object): Promise<Reply> {
    const slot = this.#next++ % this.size;
    const thread = this.#threads[slot] ?? this.#start(slot);
    const id = this.#ids++;
    return new Promise<Reply>((resolve, reject) => {
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, ...message });
    });
  }

  #start(slot: number): Thread {
    const worker = new Worker(THREAD, { eval: true, workerData: this.#data });
    worker.unref();
    const thread: Thread = { worker, pending: new Map() };
    const settle = (id: number, fn: (p: Pending) => void): void => {
      const p = thread.pending.get(id);
      if (!p) return;
      thread.pending.delete(id);
      if (thread.pending.size === 0) worker.unref();
      fn(p);
    };
    worker.on("message", (m: Reply) =>
      settle(m.id, (p) => (m.error !== undefined ? p.reject(new Error(m.error)) : p.resolve(m))),
    );
    const fail = (error: Error): void => {
      if (this.#threads[slot] === thread) this.#threads[slot] = undefined;
      for (const id of [...thread.pending.keys()]) settle(id, (p) => p.reject(error));
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`localize thread exited with code ${code}`)));
    this.#threads[slot] = thread;
    return thread;
  }
}

const require = createRequire(import.meta.url);
let shared: LocalizeThreads | undefined;

/** The process's localize threads: one per core, at most 4; none on a single core. */
export function localizeThreads(): LocalizeThreads {
  if (!shared) {
    const cores = availableParallelism();
    shared = new LocalizeThreads(cores > 1 ? Math.min(4, cores) : 0, require.resolve("web-tree-sitter"));
  }
  return shared;
}

/** Sets how many threads localizations use (0: all work in-process); stops the current ones. */
export function setLocalizeThreads(n: number): void {
  void shared?.close();
  shared = new LocalizeThreads(Math.max(0, Math.floor(n)), require.resolve("web-tree-sitter"));
}

/** Makes localizations use `threads` (tests use it to hand in a pool that fails). */
export function useLocalizeThreads(threads: LocalizeThreads): void {
  if (shared !== threads) void shared?.close();
  shared = threads;
}

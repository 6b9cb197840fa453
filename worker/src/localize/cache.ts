import { createHash } from "node:crypto";
import type { ParsedFile } from "./parse";
import type { ScannedFile } from "./scan";
import { DEF_KEYWORDS, pathTerms, wordTerms } from "./tokenize";
import { HASH_SEED, hashStep, WordTable } from "./word-table";

/** Token statistics of one file content, with terms interned in the cache's vocabulary. */
export interface FileStats {
  /** Number of index terms in the content. */
  length: number;
  /** Sorted term ids present in the content. */
  terms: Uint32Array;
  /** Occurrences of each term of `terms` (saturated at 65535). */
  counts: Uint16Array;
  /** Term ids of identifiers that follow a definition keyword (`class Foo`, `def foo`). */
  defs: Uint32Array;
}

/** Statistics of one chunk of a file, starting at 1-based `line`. */
export interface ChunkStats extends FileStats {
  line: number;
}

export interface LocalizeCacheOptions {
  /** Upper bound on cached per-file entries (stats and parse results each). Default 200,000. */
  maxFiles?: number;
  /** Upper bound on the interned vocabulary; past it the cache starts over. Default 3,000,000. */
  maxTerms?: number;
}

/**
 * Per-content parse results (imports, definitions) and token statistics, keyed by content hash
 * (or by a caller-provided stable key such as a git blob sha), so that several issues of the
 * same repository share the work. Memory is bounded: least recently used entries are dropped.
 */
export class LocalizeCache {
  readonly #maxFiles: number;
  readonly #maxTerms: number;
  #vocab = new Map<string, number>();
  #names: string[] = [];
  #stats = new Map<string, FileStats>();
  #parsed = new Map<string, ParsedFile | null>();
  #chunks = new Map<string, ChunkStats[]>();
  /** Raw word → its term ids; words repeat so much that this saves most tokenizing work. */
  #words = new WordTable();
  #paths = new Map<string, string[]>();
  #scratch = new Uint32Array(1 << 16);

  constructor(options: LocalizeCacheOptions = {}) {
    this.#maxFiles = options.maxFiles ?? 200_000;
    this.#maxTerms = options.maxTerms ?? 3_000_000;
  }

  /** Id of a term if any cached content contains it. */
  termId(term: string): number | undefined {
    return this.#vocab.get(term);
  }

  termName(id: number): string | undefined {
    return this.#names[id];
  }

  get size(): { files: number; parsed: number; terms: number } {
    return { files: this.#stats.size, parsed: this.#parsed.size, terms: this.#vocab.size };
  }

  stats(key: string): FileStats | undefined {
    return touch(this.#stats, key);
  }

  /** Tokenizes `text` (or its UTF-8 bytes) and stores its statistics under `key`. */
  index(key: string, text: string | Uint8Array): FileStats {
    const stats = this.statsOf(text);
    put(this.#stats, key, stats, this.#maxFiles);
    return stats;
  }

  /** Statistics of the function-sized chunks of a content (see chunks.ts), if cached. */
  chunks(key: string): ChunkStats[] | undefined {
    return touch(this.#chunks, key);
  }

  setChunks(key: string, chunks: ChunkStats[]): void {
    put(this.#chunks, key, chunks, this.#maxFiles);
  }

  /** Tokenizes `text` (a string or its UTF-8 bytes: the same words either way) without storing it. */
  statsOf(text: string | Uint8Array): FileStats {
    return this.#scan(typeof text === "string" ? Buffer.from(text, "utf8") : text);
  }

  #scan(text: Uint8Array): FileStats {
    this.#makeRoom();
    const touched: number[] = [];
    const defs = new Set<number>();
    let length = 0;
    const words = this.#words;
    const ids = words.ids;
    const termIds = this.#termIds;
    let scratch = this.#scratch;
    const n = text.length;
    let prevDef = false;
    let i = 0;
    while (i < n) {
      let c = text[i]!;
      if (CHAR_CLASS[c] !== WORD_START) {
        i++;
        continue;
      }
      let hash = hashStep(HASH_SEED, c);
      let j = i + 1;
      for (; j < n; j++) {
        c = text[j]!;
        if (CHAR_CLASS[c] === 0) break;
        hash = hashStep(hash, c);
      }
      if (j - i > 64) {
        prevDef = false;
        i = j;
        continue;
      }
      const e = words.lookupBytes(text, i, j, hash, termIds);
      i = j;
      const list = ids[e]!;
      for (let k = 0; k < list.length; k++) {
        const id = list[k]!;
        if (id >= scratch.length) {
          this.#grow(id);
          scratch = this.#scratch;
        }
        const seen = scratch[id]!;
        scratch[id] = seen + 1;
        if (seen === 0) touched.push(id);
      }
      length += list.length;
      if (prevDef) defs.add(this.#lowerId(e));
      prevDef = this.#keyword[e] === 1;
    }
    return this.#finish(touched, length, defs);
  }

  /** Stores statistics computed elsewhere (see `statsOfScan`) under `key`. */
  put(key: string, stats: FileStats): FileStats {
    put(this.#stats, key, stats, this.#maxFiles);
    return stats;
  }

  /**
   * Entries of a scanned batch's words in this cache's word table, for `statsOfScan`. Call once
   * per batch, before its files' `statsOfScan`.
   */
  wordEntries(words: readonly string[]): Int32Array {
    this.#makeRoom();
    const out = new Int32Array(words.length);
    words.forEach((word, k) => {
      let hash = HASH_SEED;
      for (let i = 0; i < word.length; i++) hash = hashStep(hash, word.charCodeAt(i));
      out[k] = this.#words.lookup(word, 0, word.length, hash, this.#termIds);
    });
    return out;
  }

  /**
   * The same statistics as `statsOf` for a file a thread has cut into words: `entries` maps the
   * batch's words to word-table entries (see `wordEntries`).
   */
  statsOfScan(entries: Int32Array, file: Pick<ScannedFile, "pairs" | "defined">): FileStats {
    const words = this.#words;
    const touched: number[] = [];
    const defs = new Set<number>();
    let length = 0;
    const { pairs } = file;
    for (let k = 0; k < pairs.length; k += 2) {
      const e = entries[pairs[k] ?? 0] ?? 0;
      const n = pairs[k + 1] ?? 0;
      const ids = words.ids[e] ?? [];
      for (const id of ids) {
        if (id >= this.#scratch.length) this.#grow(id);
        const seen = this.#scratch[id] ?? 0;
        this.#scratch[id] = seen + n;
        if (seen === 0) touched.push(id);
      }
      length += n * ids.length;
    }
    for (const lid of file.defined) defs.add(this.#lowerId(entries[lid] ?? 0));
    return this.#finish(touched, length, defs);
  }

  /** Starts afresh when the vocabulary or the word table has grown past its bound. */
  #makeRoom(): void {
    if (this.#vocab.size > this.#maxTerms) this.clear();
    if (this.#words.size > 1_000_000) this.#words = new WordTable();
  }

  /** Per word-table entry: 1 when it is a definition keyword (see `DEF_KEYWORDS`). */
  #keyword = new Uint8Array(1 << 16);

  /** Index term ids of a new word-table entry (noting whether it is a definition keyword). */
  #termIds = (word: string): number[] => {
    const e = this.#words.size;
    if (e >= this.#keyword.length) {
      const next = new Uint8Array(this.#keyword.length * 2);
      next.set(this.#keyword);
      this.#keyword = next;
    }
    this.#keyword[e] = DEF_KEYWORDS.has(word) ? 1 : 0;
    return wordTerms(word).map((t) => this.#intern(t));
  };

  /** Term id of a word-table entry's lower-cased word (a defined name), interned on first use. */
  #lowerId(e: number): number {
    const words = this.#words;
    let lower = words.lower[e] ?? -1;
    if (lower < 0) lower = words.lower[e] = this.#intern((words.words[e] ?? "").toLowerCase());
    return lower;
  }

  #finish(touched: number[], length: number, defs: Set<number>): FileStats {
    const terms = Uint32Array.from(touched).sort();
    const counts = new Uint16Array(terms.length);
    terms.forEach((id, i) => {
      counts[i] = Math.min(65_535, this.#scratch[id] ?? 0);
      this.#scratch[id] = 0;
    });
    return { length, terms, counts, defs: Uint32Array.from(defs) };
  }

  /** Index terms of a path (memoized: paths repeat across issues of a repository). */
  pathTerms(path: string): string[] {
    let terms = this.#paths.get(path);
    if (!terms) {
      terms = pathTerms(path);
      put(this.#paths, path, terms, this.#maxFiles);
    }
    return terms;
  }

  parsed(key: string): ParsedFile | null | undefined {
    return touch(this.#parsed, key);
  }

  setParsed(key: string, parsed: ParsedFile | null): void {
    put(this.#parsed, key, parsed, this.#maxFiles);
  }

  clear(): void {
    this.#vocab = new Map();
    this.#names = [];
    this.#stats = new Map();
    this.#parsed = new Map();
    this.#chunks = new Map();
    this.#words = new WordTable();
    this.#paths = new Map();
  }

  #grow(id: number): void {
    const next = new Uint32Array(Math.max(id + 1, this.#scratch.length * 2));
    next.set(this.#scratch);
    this.#scratch = next;
  }

  #intern(term: string): number {
    let id = this.#vocab.get(term);
    if (id === undefined) {
      id = this.#vocab.size;
      this.#vocab.set(term, id);
      this.#names.push(term);
    }
    return id;
  }
}

/** Occurrences of term `id` in `stats` (binary search over the sorted term ids). */
export function termFrequency(stats: FileStats, id: number): number {
  const { terms } = stats;
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = terms[mid] ?? 0;
    if (v === id) return stats.counts[mid] ?? 0;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Per byte: 1 starts a word (`[A-Za-z_]`), 2 only continues one (`[0-9]`), 0 neither. */
const WORD_START = 1;
const CHAR_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  CHAR_CLASS[c] = /[A-Za-z_]/.test(ch) ? WORD_START : /[0-9]/.test(ch) ? 2 : 0;
}

export const contentHash = (text: string): string => createHash("sha1").update(text).digest("base64");

function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const v = map.get(key);
  if (v !== undefined) {
    map.delete(key);
    map.set(key, v);
  }
  return v;
}

function put<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

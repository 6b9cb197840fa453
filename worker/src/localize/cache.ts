import { createHash } from "node:crypto";
import type { ParsedFile } from "./parse";
import type { ScannedFile } from "./scan";
import { pathTerms } from "./tokenize";
import { put, touch } from "./lru";
import type { ChunkStats, FileStats } from "./stats";
import { CHAR_CLASS, HASH_SEED, hashStep, WORD_START, WordTable } from "./word-table";

export { type ChunkStats, type FileStats, termFrequency } from "./stats";

export interface LocalizeCacheOptions {
  /** Upper bound on cached per-file entries (stats and parse results each). Default 200,000. */
  maxFiles?: number;
  /** Upper bound on the interned vocabulary; past it the cache starts over. Default 3,000,000. */
  maxTerms?: number;
  /**
   * Keep only these index terms (for one issue in a process of its own: see `issueTerms`). The
   * statistics then hold these terms' counts and definitions only, lengths still count every
   * term, and `termId` of any other term is an error.
   */
  terms?: ReadonlySet<string>;
}

/**
 * Per-content parse results (imports, definitions) and token statistics, keyed by content hash
 * (or by a caller-provided stable key such as a git blob sha), so that several issues of the
 * same repository share the work. Memory is bounded: least recently used entries are dropped.
 */
export class LocalizeCache {
  readonly #maxFiles: number;
  readonly #maxTerms: number;
  readonly #only: ReadonlySet<string> | undefined;
  #vocab = new Map<string, number>();
  #names: string[] = [];
  #stats = new Map<string, FileStats>();
  #parsed = new Map<string, ParsedFile | null>();
  #chunks = new Map<string, ChunkStats[]>();
  /** Raw word → its term ids; words repeat so much that this saves most tokenizing work. */
  #words = new WordTable();
  #paths = new Map<string, string[]>();
  #segments = new Map<string, string[]>();
  #scratch = new Uint32Array(1 << 16);

  constructor(options: LocalizeCacheOptions = {}) {
    this.#maxFiles = options.maxFiles ?? 200_000;
    this.#maxTerms = options.maxTerms ?? 3_000_000;
    this.#only = options.terms;
  }

  /** Id of a term if any cached content contains it. */
  termId(term: string): number | undefined {
    if (this.#only && !this.#only.has(term)) throw new Error(`localize cache: term outside its terms: ${term}`);
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
      length += words.termCount[e]!;
      if (prevDef) this.#addDef(defs, e);
      prevDef = words.keyword[e] === 1;
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
      length += n * (words.termCount[e] ?? 0);
    }
    for (const lid of file.defined) this.#addDef(defs, entries[lid] ?? 0);
    return this.#finish(touched, length, defs);
  }

  /** Starts afresh when the vocabulary or the word table has grown past its bound. */
  #makeRoom(): void {
    if (this.#vocab.size > this.#maxTerms) this.clear();
    if (this.#words.size > 1_000_000) this.#words = new WordTable();
  }

  /** Term ids of a new word-table entry's index terms (those kept). */
  #termIds = (terms: readonly string[]): number[] => {
    const only = this.#only;
    return (only ? terms.filter((t) => only.has(t)) : terms).map((t) => this.#intern(t));
  };

  /** Adds the term id of a word-table entry's lower-cased word (a defined name), interned on first use. */
  #addDef(defs: Set<number>, e: number): void {
    const words = this.#words;
    let lower = words.lower[e] ?? -1;
    if (lower === -1) {
      const name = (words.words[e] ?? "").toLowerCase();
      // -2: a name outside the kept terms.
      lower = words.lower[e] = this.#only && !this.#only.has(name) ? -2 : this.#intern(name);
    }
    if (lower >= 0) defs.add(lower);
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
      if (this.#segments.size > this.#maxFiles) this.#segments.clear();
      terms = pathTerms(path, this.#segments);
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
    this.#segments = new Map();
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

export const contentHash = (text: string): string => createHash("sha1").update(text).digest("base64");

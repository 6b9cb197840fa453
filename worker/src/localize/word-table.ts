import { DEF_KEYWORDS, wordTerms } from "./tokenize";

/** Term ids of a new word's index terms (see `wordTerms`), those its owner keeps. */
export type TermIds = (terms: readonly string[]) => number[];

/**
 * Interning table for the raw words of source text, looked up straight from a text range: the
 * tokenizer hashes a word while scanning it and finds its entry without allocating a string,
 * so a repeated word (most of them) costs one hash and one comparison. Words are ASCII
 * (`[A-Za-z_][A-Za-z0-9_]*`), so they are kept as bytes in one pool, and a text may be given as
 * a string or as its UTF-8 bytes (the same words either way).
 */
export class WordTable {
  #mask: number;
  /** Open-addressing slots holding entry index + 1 (0 = empty). */
  #slots: Int32Array;
  #hashes = new Int32Array(1 << 15);
  /** Per entry: where its bytes start in `#pool` (its length is `words[e].length`). */
  #starts = new Int32Array(1 << 15);
  #pool = new Uint8Array(1 << 18);
  #poolEnd = 0;
  readonly words: string[] = [];
  /** Per entry: its index term ids (see `wordTerms`; those its owner keeps). */
  readonly ids: number[][] = [];
  /** Per entry: how many index terms it has, kept or not. */
  termCount = new Uint8Array(1 << 15);
  /** Per entry: 1 when it is a definition keyword (see `DEF_KEYWORDS`). */
  keyword = new Uint8Array(1 << 15);
  /** Per entry: the term id of the lower-cased word once asked for (-2: not kept), else -1. */
  readonly lower: number[] = [];

  constructor(capacity = 1 << 16) {
    this.#slots = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }

  get size(): number {
    return this.words.length;
  }

  /** Entry of `text[start, end)` with hash `hash`, added (its terms' ids from `termIds`) if new. */
  lookup(text: string, start: number, end: number, hash: number, termIds: TermIds): number {
    const len = end - start;
    const pool = this.#pool;
    let slot = hash & this.#mask;
    for (;;) {
      const e = this.#slots[slot]! - 1;
      if (e < 0) break;
      if (this.#hashes[e] === hash && this.words[e]!.length === len) {
        const at = this.#starts[e]!;
        let k = 0;
        while (k < len && pool[at + k] === text.charCodeAt(start + k)) k++;
        if (k === len) return e;
      }
      slot = (slot + 1) & this.#mask;
    }
    // Copied, so that the table does not hold on to the whole text it was cut from.
    return this.#add((" " + text.slice(start, end)).slice(1), hash, slot, termIds);
  }

  /** `lookup` over UTF-8 bytes. */
  lookupBytes(bytes: Uint8Array, start: number, end: number, hash: number, termIds: TermIds): number {
    const len = end - start;
    const pool = this.#pool;
    let slot = hash & this.#mask;
    for (;;) {
      const e = this.#slots[slot]! - 1;
      if (e < 0) break;
      if (this.#hashes[e] === hash && this.words[e]!.length === len) {
        const at = this.#starts[e]!;
        let k = 0;
        while (k < len && pool[at + k] === bytes[start + k]) k++;
        if (k === len) return e;
      }
      slot = (slot + 1) & this.#mask;
    }
    const word = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1", start, end);
    return this.#add(word, hash, slot, termIds);
  }

  #add(word: string, hash: number, slot: number, termIds: TermIds): number {
    const e = this.words.length;
    const terms = wordTerms(word);
    this.words.push(word);
    if (e >= this.#hashes.length) {
      const size = this.#hashes.length * 2;
      this.#hashes = grow(this.#hashes, new Int32Array(size));
      this.#starts = grow(this.#starts, new Int32Array(size));
      this.termCount = grow(this.termCount, new Uint8Array(size));
      this.keyword = grow(this.keyword, new Uint8Array(size));
    }
    this.termCount[e] = terms.length;
    this.keyword[e] = DEF_KEYWORDS.has(word) ? 1 : 0;
    this.#hashes[e] = hash;
    if (this.#poolEnd + word.length > this.#pool.length) {
      const pool = new Uint8Array(Math.max(this.#pool.length * 2, this.#poolEnd + word.length));
      pool.set(this.#pool);
      this.#pool = pool;
    }
    this.#starts[e] = this.#poolEnd;
    for (let k = 0; k < word.length; k++) this.#pool[this.#poolEnd++] = word.charCodeAt(k);
    this.ids.push(termIds(terms));
    this.lower.push(-1);
    this.#slots[slot] = e + 1;
    if (this.words.length * 2 > this.#slots.length) this.#rehash();
    return e;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.words.length; e++) {
      let slot = (this.#hashes[e] ?? 0) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = e + 1;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

function grow<T extends Int32Array | Uint8Array>(a: T, next: T): T {
  next.set(a);
  return next;
}

/** Per byte: `WORD_START` starts a word (`[A-Za-z_]`), 2 only continues one (`[0-9]`), 0 neither. */
export const WORD_START = 1;
export const CHAR_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  CHAR_CLASS[c] = /[A-Za-z_]/.test(ch) ? WORD_START : /[0-9]/.test(ch) ? 2 : 0;
}

/** FNV-1a step over one UTF-16 code unit. */
export const hashStep = (hash: number, code: number): number => Math.imul(hash ^ code, 16777619);
export const HASH_SEED = 2166136261 | 0;

/**
 * Interning table for the raw words of source text, looked up straight from a text range: the
 * tokenizer hashes a word while scanning it and finds its entry without allocating a string,
 * so a repeated word (most of them) costs one hash and one comparison.
 */
export class WordTable {
  #mask: number;
  /** Open-addressing slots holding entry index + 1 (0 = empty). */
  #slots: Int32Array;
  #hashes = new Int32Array(1 << 15);
  readonly words: string[] = [];
  /** Per entry: its index term ids (see `wordTerms`). */
  readonly ids: number[][] = [];
  /** Per entry: the term id of the lower-cased word once asked for, else -1. */
  readonly lower: number[] = [];

  constructor(capacity = 1 << 16) {
    this.#slots = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }

  get size(): number {
    return this.words.length;
  }

  /**
   * Entry of `text[start, end)` with hash `hash`, added (with `termIds(word)`) if new.
   */
  lookup(text: string, start: number, end: number, hash: number, termIds: (word: string) => number[]): number {
    const len = end - start;
    let slot = hash & this.#mask;
    for (;;) {
      const e = (this.#slots[slot] ?? 0) - 1;
      if (e < 0) break;
      if (this.#hashes[e] === hash) {
        const w = this.words[e] ?? "";
        if (w.length === len) {
          let k = 0;
          while (k < len && w.charCodeAt(k) === text.charCodeAt(start + k)) k++;
          if (k === len) return e;
        }
      }
      slot = (slot + 1) & this.#mask;
    }
    // Copied, so that the table does not hold on to the whole text it was cut from.
    const word = (" " + text.slice(start, end)).slice(1);
    const e = this.words.length;
    this.words.push(word);
    if (e >= this.#hashes.length) {
      const grown = new Int32Array(this.#hashes.length * 2);
      grown.set(this.#hashes);
      this.#hashes = grown;
    }
    this.#hashes[e] = hash;
    this.ids.push(termIds(word));
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

/** FNV-1a step over one UTF-16 code unit. */
export const hashStep = (hash: number, code: number): number => Math.imul(hash ^ code, 16777619);
export const HASH_SEED = 2166136261 | 0;

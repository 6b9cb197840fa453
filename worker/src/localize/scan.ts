import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { looksBinary } from "./files";
import { forEachWord } from "./tokenize";

/** A text to scan, or a local file (see `RepoFile.local`) the thread reads itself. */
export type ScanItem = string | { path: string };

/** One scanned file: its content hash, its distinct words with counts, the words it defines. */
export interface ScannedFile {
  /** Content hash (see `contentHash`). */
  key: string;
  /** Pairs of (index into the batch's `words`, occurrences). */
  pairs: Uint32Array<ArrayBuffer>;
  /** Indexes into `words` of words that follow a definition keyword, in order of occurrence. */
  defined: Uint32Array<ArrayBuffer>;
}

/** A batch of texts cut into words on a thread (see `LocalizeCache.statsOfScan`). */
export interface ScannedBatch {
  /** The batch's distinct words (at most 64 characters each). */
  words: string[];
  files: ScannedFile[];
  /** Indexes of the local files that could not be read or look binary (scanned as empty texts). */
  skipped?: number[];
}

/** `scanTexts` over texts and local files, reading the files here (on the thread). */
export function scanItems(items: readonly ScanItem[], defKeywords: ReadonlySet<string>): ScannedBatch {
  const skipped: number[] = [];
  const texts = items.map((item, k) => {
    if (typeof item === "string") return item;
    let text: string | undefined;
    try {
      text = readFileSync(item.path, "utf8");
    } catch {
      text = undefined;
    }
    if (text !== undefined && !looksBinary(text)) return text;
    skipped.push(k);
    return "";
  });
  const batch = scanTexts(texts, defKeywords);
  return skipped.length > 0 ? { ...batch, skipped } : batch;
}

/** Cuts a batch of texts into words, numbering each distinct word once for the whole batch. */
export function scanTexts(texts: readonly string[], defKeywords: ReadonlySet<string>): ScannedBatch {
  const index = new Map<string, number>();
  const words: string[] = [];
  let counts = new Uint32Array(1 << 12);
  const files = texts.map((text): ScannedFile => {
    const key = createHash("sha1").update(text).digest("base64");
    const touched: number[] = [];
    const defs: number[] = [];
    forEachWord(
      text,
      (word, defined) => {
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
        if ((counts[lid] = (counts[lid] ?? 0) + 1) === 1) touched.push(lid);
        if (defined) defs.push(lid);
      },
      defKeywords,
    );
    const pairs = new Uint32Array(touched.length * 2);
    touched.forEach((lid, k) => {
      pairs[2 * k] = lid;
      pairs[2 * k + 1] = counts[lid] ?? 0;
      counts[lid] = 0;
    });
    return { key, pairs, defined: Uint32Array.from(defs) };
  });
  return { words, files };
}

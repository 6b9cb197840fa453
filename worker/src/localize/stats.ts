/** Token statistics of one file content, with terms interned in the cache's vocabulary. */
export interface FileStats {
  /** Number of index terms in the content. */
  length: number;
  /** Sorted term ids present in the content (those the cache keeps: see `LocalizeCacheOptions.terms`). */
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

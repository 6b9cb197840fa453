import { type FileStats, termFrequency } from "./cache";

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/**
 * Okapi BM25 score of every document for a weighted query (term id → query weight).
 * Only the query's terms are looked up, so the cost is documents × query terms.
 */
export function bm25Scores(
  docs: readonly FileStats[],
  query: ReadonlyMap<number, number>,
  { k1 = 1.2, b = 0.75 }: Bm25Options = {},
  idfOut?: Map<number, number>,
): Float64Array {
  const n = docs.length;
  const scores = new Float64Array(n);
  if (n === 0 || query.size === 0) return scores;
  let total = 0;
  for (const d of docs) total += d.length;
  const avg = total / n || 1;
  const norm = new Float64Array(n);
  docs.forEach((d, i) => {
    norm[i] = k1 * (1 - b + (b * d.length) / avg);
  });
  const tf = new Uint16Array(n);
  for (const [term, weight] of query) {
    let df = 0;
    for (let i = 0; i < n; i++) {
      const doc = docs[i];
      const f = doc ? termFrequency(doc, term) : 0;
      tf[i] = f;
      if (f > 0) df++;
    }
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    idfOut?.set(term, idf);
    for (let i = 0; i < n; i++) {
      const f = tf[i] ?? 0;
      if (f > 0) scores[i] = (scores[i] ?? 0) + (weight * idf * f * (k1 + 1)) / (f + (norm[i] ?? 1));
    }
  }
  return scores;
}

/** Indices of the `k` largest scores (ties keep input order), best first. */
export function topIndices(scores: ArrayLike<number>, k: number): number[] {
  const idx: number[] = [];
  for (let i = 0; i < scores.length; i++) if ((scores[i] ?? 0) > 0) idx.push(i);
  idx.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  return idx.slice(0, k);
}

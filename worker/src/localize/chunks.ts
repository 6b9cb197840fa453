import { type ChunkStats, type FileStats, type LocalizeCache, termFrequency } from "./cache";
import type { Corpus } from "./corpus";
import { cutLines } from "./cut-lines";
import { localizeThreads } from "./threads";

/** A line that starts a new top-level or member definition in the common languages. */
const DEFINITION_START = /^\s{0,4}(?:def |class |async def |func |function |fn |pub fn |export )/;
/** Longest chunk, in lines: a long definition is split into windows of this size. */
const MAX_LINES = 120;
const K1 = 1.2;
const B = 0.75;

export interface ChunkSignals {
  /** Best chunk's BM25 against the whole issue, scaled to [0, 1] over the candidates. */
  issue: Float64Array;
  /** Best chunk's BM25 against the issue title, scaled to [0, 1] over the candidates. */
  title: Float64Array;
  /** Per candidate: first line (1-based) of its best chunk for the whole issue. */
  bestLine: Map<number, number>;
}

/**
 * Function-level lexical evidence: each candidate file is cut at definition starts (and every
 * 120 lines), each chunk is scored with BM25 (corpus idf, chunk length normalization) and the
 * file gets its best chunk's score. A file whose one function matches the issue then beats a
 * long file that mentions the issue's words here and there.
 */
export async function chunkSignals(
  corpus: Corpus,
  cache: LocalizeCache,
  candidates: readonly number[],
  query: ReadonlyMap<number, number>,
  titleQuery: ReadonlyMap<number, number>,
  idf: ReadonlyMap<number, number>,
): Promise<ChunkSignals> {
  const n = corpus.docs.length;
  const out: ChunkSignals = { issue: new Float64Array(n), title: new Float64Array(n), bestLine: new Map() };
  const perDoc = await Promise.all(
    candidates.map(async (doc) => {
      const key = corpus.keys[doc];
      const cached = key ? cache.chunks(key) : undefined;
      if (cached) return { doc, key, cached };
      const text = await corpus.files[doc]?.read().catch(() => undefined);
      return { doc, key, parts: text === undefined ? [] : splitChunks(text) };
    }),
  );
  // Uncached chunks are cut into words on the localize threads, all at once.
  const parts = perDoc.flatMap((d) => d.parts ?? []);
  const stats = await chunkStats(
    cache,
    parts.map((p) => p.text),
  );
  let at = 0;
  const chunks: { doc: number; stats: ChunkStats }[] = [];
  for (const d of perDoc) {
    let cached = d.cached;
    if (!cached) {
      cached = (d.parts ?? []).map(({ line }) => ({ ...(stats[at++] as FileStats), line }));
      if (d.key) cache.setChunks(d.key, cached);
    }
    for (const s of cached) chunks.push({ doc: d.doc, stats: s });
  }
  const avg = chunks.reduce((a, c) => a + c.stats.length, 0) / Math.max(1, chunks.length) || 1;
  const bm25 = (c: ChunkStats, q: ReadonlyMap<number, number>): number => {
    let s = 0;
    for (const [id, w] of q) {
      const f = termFrequency(c, id);
      if (f > 0) s += (w * (idf.get(id) ?? 0) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * c.length) / avg));
    }
    return s;
  };
  for (const { doc, stats } of chunks) {
    const s = bm25(stats, query);
    if (s > (out.issue[doc] ?? 0)) {
      out.issue[doc] = s;
      out.bestLine.set(doc, stats.line);
    }
    out.title[doc] = Math.max(out.title[doc] ?? 0, bm25(stats, titleQuery));
  }
  scale(out.issue);
  scale(out.title);
  return out;
}

/** Token statistics of several texts, on the localize threads when there are enough of them. */
async function chunkStats(cache: LocalizeCache, texts: string[]): Promise<FileStats[]> {
  const threads = localizeThreads();
  if (threads.size === 0 || texts.length < 64) return texts.map((t) => cache.statsOf(t));
  const size = Math.ceil(texts.length / threads.size);
  const batches = await Promise.all(
    Array.from({ length: threads.size }, (_, k) =>
      threads.scan(texts.slice(k * size, (k + 1) * size)).catch(() => undefined),
    ),
  );
  const out: FileStats[] = [];
  batches.forEach((batch, k) => {
    const slice = texts.slice(k * size, (k + 1) * size);
    if (!batch) {
      for (const t of slice) out.push(cache.statsOf(t));
      return;
    }
    const entries = cache.wordEntries(batch.words);
    for (const f of batch.files) out.push(cache.statsOfScan(entries, f));
  });
  return out;
}

/** Cuts a text at definition starts (after at least 4 lines) and every 120 lines. */
export function splitChunks(text: string): { line: number; text: string }[] {
  const lines = text.split("\n");
  const rule = { minLines: 4, maxLines: MAX_LINES, startsPiece: (l: string) => DEFINITION_START.test(l) };
  return cutLines(lines, rule).map(([start, end]) => ({ line: start + 1, text: lines.slice(start, end).join("\n") }));
}

function scale(a: Float64Array): void {
  let max = 0;
  for (const v of a) if (v > max) max = v;
  if (max > 0) for (let i = 0; i < a.length; i++) a[i] = (a[i] ?? 0) / max;
}

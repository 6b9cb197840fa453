import { bm25Scores, topIndices } from "./bm25";
import { LocalizeCache } from "./cache";
import { buildCorpus } from "./corpus";
import { type LocalizedFile, type LocalizeInput, lexicalReason } from "./localize";
import { forEachTerm } from "./tokenize";

/** Plain BM25 of the issue text over all files' contents: the comparison baseline. */
export async function bm25Baseline(input: LocalizeInput): Promise<LocalizedFile[]> {
  const cache = input.cache ?? new LocalizeCache();
  const corpus = await buildCorpus(input.files, cache);
  const query = new Map<number, number>();
  forEachTerm(`${input.issueTitle}\n${input.issueBody}`, (t) => {
    const id = cache.termId(t);
    if (id !== undefined) query.set(id, 1);
  });
  const idf = new Map<number, number>();
  const scores = bm25Scores(
    corpus.docs.map((d) => d.stats),
    query,
    {},
    idf,
  );
  return topIndices(scores, input.top ?? 10).flatMap((i) => {
    const doc = corpus.docs[i];
    if (!doc) return [];
    const reason = lexicalReason(corpus, i, query, idf, cache);
    return [{ path: doc.path, score: Math.round((scores[i] ?? 0) * 1000) / 1000, reasons: reason ? [reason] : [] }];
  });
}

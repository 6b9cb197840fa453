import type { ChunkVector } from "@fixloop/db";
import { chunkFile } from "./embed-chunks";
import { parseIssue } from "./mentions";
import { RepoPaths } from "./paths";
import { mentionSignal } from "./rank";

/** An OpenAI-compatible embeddings endpoint, as the rerank needs it. */
export interface Embedder {
  model: string;
  /** One vector per text, in order; one HTTP request. */
  embed(texts: string[]): Promise<number[][]>;
}

/** Where chunk vectors are cached (per blob, for this repository, chunking and model). */
export interface ChunkVectorStore {
  find(blobShas: string[]): Promise<Map<string, ChunkVector[]>>;
  save(chunks: ChunkVector[]): Promise<void>;
}

export interface RerankCandidate {
  path: string;
  score: number;
  reasons: string[];
  blobSha: string;
  read(): Promise<string>;
}

export interface EmbeddingRerankInput {
  candidates: RerankCandidate[];
  issueTitle: string;
  issueBody: string;
  /** Every path of the repository, to tell which candidates the issue names by path. */
  allPaths: string[];
  embedder: Embedder;
  store: ChunkVectorStore;
}

export interface EmbeddingRerankStats {
  model: string;
  files: number;
  chunksEmbedded: number;
  chunksCached: number;
  requests: number;
  ms: number;
}

/** Share of the embedding similarity in the blended score; the rest is the localizer's. */
export const EMBEDDING_WEIGHT = 0.4;
/** Chunks sent in one embeddings request. */
const BATCH = 64;

const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const cosine = (a: readonly number[], b: readonly number[]): number => {
  const n = Math.sqrt(dot(a, a) * dot(b, b));
  return n === 0 ? 0 : dot(a, b) / n;
};
const round2 = (x: number): string => x.toFixed(2);

/** Candidates the issue names by path or stack frame; embeddings alone never push them down. */
export function mentionedPaths(title: string, body: string, allPaths: string[]): Set<string> {
  const issue = parseIssue(title, body);
  return new Set(mentionSignal({ ...issue, dotted: new Set() }, new RepoPaths(allPaths)).keys());
}

/**
 * Reranks the localizer's candidates by how close their best chunks are to the issue text in
 * an embedding space, blended with the localizer's own score (its order breaks ties). Vectors
 * of chunks are cached per blob, so files already embedded cost nothing but a lookup.
 */
export async function embeddingRerank(
  input: EmbeddingRerankInput,
): Promise<{ files: RerankCandidate[]; stats: EmbeddingRerankStats }> {
  const started = performance.now();
  const { candidates, embedder, store } = input;
  const cached = await store.find([...new Set(candidates.map((c) => c.blobSha))]);
  const fresh = new Map<string, ChunkVector[]>();
  const pending: { blobSha: string; chunk: ReturnType<typeof chunkFile>[number] }[] = [];
  for (const c of candidates) {
    if (cached.has(c.blobSha) || fresh.has(c.blobSha)) continue;
    fresh.set(c.blobSha, []);
    for (const chunk of chunkFile(c.path, await c.read())) pending.push({ blobSha: c.blobSha, chunk });
  }
  const issueText = `${input.issueTitle}\n\n${input.issueBody}`.slice(0, 8_000);
  const [issueVector = []] = await embedder.embed([issueText]);
  let requests = 1;
  for (let i = 0; i < pending.length; i += BATCH) {
    const batch = pending.slice(i, i + BATCH);
    const vectors = await embedder.embed(batch.map((p) => p.chunk.text));
    requests++;
    batch.forEach(({ blobSha, chunk }, k) => {
      fresh.get(blobSha)?.push({
        blobSha,
        chunk: chunk.chunk,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        vector: vectors[k] ?? [],
      });
    });
  }
  await store.save([...fresh.values()].flat());

  const top = Math.max(...candidates.map((c) => c.score), Number.EPSILON);
  const sims = candidates.map((c) => {
    const chunks = (cached.get(c.blobSha) ?? fresh.get(c.blobSha) ?? []).map((v) => ({
      v,
      sim: cosine(issueVector, v.vector),
    }));
    chunks.sort((a, b) => b.sim - a.sim);
    const [best, second] = chunks;
    return best ? { sim: second ? 0.7 * best.sim + 0.3 * second.sim : best.sim, best } : undefined;
  });
  const known = sims.flatMap((s) => (s ? [s.sim] : []));
  const lo = Math.min(...known);
  const span = Math.max(...known) - lo;
  const blended = candidates.map((c, i) => {
    const s = sims[i];
    const e = s && span > 0 ? (s.sim - lo) / span : 0;
    const score = (1 - EMBEDDING_WEIGHT) * (c.score / top) + EMBEDDING_WEIGHT * e;
    const reasons = s
      ? [...c.reasons, `embedding similarity ${round2(s.best.sim)} (lines ${s.best.v.startLine}-${s.best.v.endLine})`]
      : c.reasons;
    return { ...c, score: Math.round(score * 1000) / 1000, reasons, was: i };
  });
  const order = [...blended].sort((a, b) => b.score - a.score || a.was - b.was);
  const mentioned = mentionedPaths(input.issueTitle, input.issueBody, input.allPaths);
  for (const f of blended.filter((f) => mentioned.has(f.path))) {
    const now = order.indexOf(f);
    if (now <= f.was) continue;
    order.splice(now, 1);
    order.splice(f.was, 0, f);
    f.reasons.push(`kept at rank ${f.was + 1}: named in the issue`);
  }
  const chunksEmbedded = pending.length;
  const chunksCached = candidates.reduce((n, c) => n + (cached.get(c.blobSha)?.length ?? 0), 0);
  return {
    files: order.map(({ was: _was, ...f }) => f),
    stats: {
      model: embedder.model,
      files: candidates.length,
      chunksEmbedded,
      chunksCached,
      requests,
      ms: Math.round(performance.now() - started),
    },
  };
}

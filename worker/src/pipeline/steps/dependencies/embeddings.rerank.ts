import { findChunkVectors, saveChunkVectors } from "@fixloop/db";
import type { WorkerContext } from "../../../context";
import { CHUNKER } from "../../../localize/embed-chunks";
import { embeddingRerank } from "../../../localize/embed-rerank";
import { embeddingsSettings, openAiEmbedder } from "../../../models/embeddings.client";
import type { ContextOutput } from "@fixloop/contract";
import type { RequestMeter } from "../../../models/meter";
import type { PoolRerank } from "./dependencies.rerank";

/**
 * The embedding rerank of the dependencies step, when the operator configured an embeddings
 * endpoint; undefined otherwise (then no request is made). Chunk vectors are cached in Postgres
 * per repository, blob, chunking and model. Each request goes through the meter (reserved, then settled).
 */
export function embeddingRerankFor(
  ctx: WorkerContext,
  c: ContextOutput,
  issue: { title: string; body: string },
  readBlob: (sha: string) => Promise<string>,
  signal?: AbortSignal,
  meter?: RequestMeter,
): PoolRerank | undefined {
  const settings = embeddingsSettings(ctx.env);
  if (!settings) return undefined;
  const key = { repository: `${c.owner}/${c.repo}`, chunker: CHUNKER, model: settings.model };
  return {
    pool: ctx.env.EMBEDDINGS_RERANK_TOP,
    async run(candidates) {
      const { files, stats } = await embeddingRerank({
        candidates: candidates.map((f) => ({ ...f, blobSha: f.sha, read: () => readBlob(f.sha) })),
        issueTitle: issue.title,
        issueBody: issue.body,
        allPaths: c.files.map((f) => f.path),
        embedder: openAiEmbedder(settings, signal, meter),
        store: {
          find: (shas) => findChunkVectors(ctx.db, key, shas),
          save: (chunks) => saveChunkVectors(ctx.db, key, chunks),
        },
      });
      const summary =
        `Embedding rerank (${stats.model}) of the top ${stats.files} files: ` +
        `${stats.chunksEmbedded} chunks embedded, ${stats.chunksCached} cached, ` +
        `${stats.requests} ${stats.requests === 1 ? "request" : "requests"} (${stats.ms} ms)`;
      return { files: files.map(({ blobSha, read: _read, ...f }) => ({ ...f, sha: blobSha })), info: [summary] };
    },
  };
}

import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../schema";

type Conn = Kysely<Database> | Transaction<Database>;

/** How the vectors are stored: pgvector's `vector`, or `real[]` where the extension is not available. */
export type VectorStorage = "pgvector" | "real[]";

/** One embedded chunk: which lines of which blob, and its vector. */
export interface ChunkVector {
  blobSha: string;
  chunk: number;
  startLine: number;
  endLine: number;
  vector: number[];
}

/** The cache key besides the blob: a chunk's vector depends on the repository's content, the chunking and the model. */
export interface ChunkCacheKey {
  repository: string;
  chunker: string;
  model: string;
}

const storageOf = new WeakMap<Conn, Promise<VectorStorage>>();

/** Which column type the migration created (it depends on the server having pgvector). */
export function vectorStorage(db: Conn): Promise<VectorStorage> {
  let found = storageOf.get(db);
  if (!found) {
    found = sql<{ type: string }>`
      select format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = 'embedding_chunks'::regclass and attname = 'embedding'`
      .execute(db)
      .then((r) => (r.rows[0]?.type.startsWith("vector") ? "pgvector" : "real[]"));
    found.catch(() => storageOf.delete(db));
    storageOf.set(db, found);
  }
  return found;
}

/** `vector` and `real[]` both read back as text: `[1,2]` or `{1,2}`. */
const parseVector = (text: string): number[] => (text.length <= 2 ? [] : text.slice(1, -1).split(",").map(Number));

/** Cached vectors of these blobs, by blob sha, chunks in order. Blobs with none are absent. */
export async function findChunkVectors(
  db: Conn,
  key: ChunkCacheKey,
  blobShas: readonly string[],
): Promise<Map<string, ChunkVector[]>> {
  const out = new Map<string, ChunkVector[]>();
  if (blobShas.length === 0) return out;
  const rows = await db
    .selectFrom("embedding_chunks")
    .select(["blob_sha", "chunk", "start_line", "end_line", sql<string>`embedding::text`.as("vector")])
    .where("repository", "=", key.repository)
    .where("chunker", "=", key.chunker)
    .where("model", "=", key.model)
    .where("blob_sha", "in", [...new Set(blobShas)])
    .orderBy("blob_sha")
    .orderBy("chunk")
    .execute();
  for (const r of rows) {
    const list = out.get(r.blob_sha) ?? [];
    list.push({
      blobSha: r.blob_sha,
      chunk: r.chunk,
      startLine: r.start_line,
      endLine: r.end_line,
      vector: parseVector(r.vector),
    });
    out.set(r.blob_sha, list);
  }
  return out;
}

const INSERT_BATCH = 500;

/** Stores chunk vectors; a chunk already cached (another worker got there first) is left as it is. */
export async function saveChunkVectors(db: Conn, key: ChunkCacheKey, chunks: readonly ChunkVector[]): Promise<void> {
  if (chunks.length === 0) return;
  const pgvector = (await vectorStorage(db)) === "pgvector";
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const rows = chunks.slice(i, i + INSERT_BATCH).map((c) => {
      const list = c.vector.join(",");
      return {
        ...key,
        blob_sha: c.blobSha,
        chunk: c.chunk,
        start_line: c.startLine,
        end_line: c.endLine,
        embedding: pgvector ? sql<string>`cast(${`[${list}]`} as vector)` : sql<string>`cast(${`{${list}}`} as real[])`,
      };
    });
    await db
      .insertInto("embedding_chunks")
      .values(rows)
      .onConflict((oc) => oc.columns(["repository", "blob_sha", "chunker", "model", "chunk"]).doNothing())
      .execute();
  }
}

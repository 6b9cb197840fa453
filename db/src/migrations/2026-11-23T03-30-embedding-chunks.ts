import { sql, type Kysely } from "kysely";

/**
 * Cached embedding vectors of file chunks, keyed by repository, blob sha, chunking version and
 * model, so an unchanged file is embedded once whatever commit it appears in. The vectors are
 * pgvector's `vector` when the extension can be installed here; otherwise `real[]` (managed
 * Postgres without pgvector, the embedded binaries). The extension attempt runs in its own
 * subtransaction so its failure leaves the migration's transaction usable. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$ begin
      create extension if not exists vector;
    exception when others then
      raise notice 'pgvector is not available (%); embedding vectors are stored as real[]', sqlerrm;
    end $$`.execute(db);
  const pgvector = await sql<{ ok: number }>`select 1 as ok from pg_extension where extname = 'vector'`.execute(db);
  const vectorType = pgvector.rows.length > 0 ? sql`vector` : sql`real[]`;
  await db.schema
    .createTable("embedding_chunks")
    .addColumn("repository", "text", (c) => c.notNull())
    .addColumn("blob_sha", "text", (c) => c.notNull())
    .addColumn("chunker", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("chunk", "integer", (c) => c.notNull().check(sql`chunk >= 0`))
    .addColumn("start_line", "integer", (c) => c.notNull())
    .addColumn("end_line", "integer", (c) => c.notNull())
    .addColumn("embedding", vectorType, (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("embedding_chunks_pkey", ["repository", "blob_sha", "chunker", "model", "chunk"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("embedding_chunks").execute();
}

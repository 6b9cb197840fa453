import { sql, type Kysely } from "kysely";

/**
 * A repository's backtests: its recently fixed issues localized at their pull requests' base
 * commits. The latest finished one is the repository's trust card. The partial unique index lets
 * one backtest per repository row be queued or running at a time. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("repository_backtests")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("repository_id", "uuid", (c) => c.notNull().references("repositories.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`status in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn("requested", "integer", (c) => c.notNull().check(sql`requested between 1 and 20`))
    .addColumn("found", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("checked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("found_at_1", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("found_at_5", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("issues", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("repository_backtests_one_active")
    .on("repository_backtests")
    .column("repository_id")
    .unique()
    .where(sql.ref("status"), "in", ["queued", "running"])
    .execute();
  await db.schema
    .createIndex("repository_backtests_repository_created")
    .on("repository_backtests")
    .columns(["repository_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("repository_backtests").execute();
}

import { sql, type Kysely } from "kysely";

/**
 * What GitHub reported on Fixloop's pull requests after they were opened (reviews, review
 * comments, commits by others, checks, merge/close): one row per GitHub object, so a webhook
 * redelivery or a later poll of the same object changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("pull_request_events")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("pull_request_id", "uuid", (c) => c.notNull().references("pull_requests.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) =>
      c.notNull().check(sql`kind in ('review','review_comment','commit','check','merged','closed')`),
    )
    .addColumn("source_id", "text", (c) => c.notNull())
    .addColumn("actor", "text")
    .addColumn("state", "text")
    .addColumn("title", "text")
    .addColumn("body", "text")
    .addColumn("path", "text")
    .addColumn("line", "integer")
    .addColumn("url", "text")
    .addColumn("occurred_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("pull_request_events_source_unique", ["pull_request_id", "kind", "source_id"])
    .execute();
  await db.schema
    .createIndex("pull_request_events_timeline")
    .on("pull_request_events")
    .columns(["pull_request_id", "occurred_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("pull_request_events").execute();
}

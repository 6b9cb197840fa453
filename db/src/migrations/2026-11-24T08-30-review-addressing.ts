import type { Kysely } from "kysely";

/**
 * Addressing a review: a review comment keeps its diff hunk and the thread it answers, and when
 * Fixloop was asked to address it and in which pushed commit it was; a pull request keeps the
 * solution revision and commit Fixloop last pushed to its branch (a later push builds on it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("pull_request_events")
    .addColumn("diff_hunk", "text")
    .addColumn("in_reply_to", "text")
    .addColumn("address_requested_at", "timestamptz")
    .addColumn("addressed_commit", "text")
    .execute();
  await db.schema
    .alterTable("pull_requests")
    .addColumn("pushed_revision", "integer")
    .addColumn("head_sha", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("pull_requests").dropColumn("pushed_revision").dropColumn("head_sha").execute();
  await db.schema
    .alterTable("pull_request_events")
    .dropColumn("diff_hunk")
    .dropColumn("in_reply_to")
    .dropColumn("address_requested_at")
    .dropColumn("addressed_commit")
    .execute();
}

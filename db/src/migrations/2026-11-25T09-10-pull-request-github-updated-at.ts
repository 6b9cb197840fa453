import type { Kysely } from "kysely";

/**
 * The `updated_at` GitHub gave with the status a pull request last took (from a webhook or a read):
 * GitHub does not deliver webhooks in order, so a `closed` or `reopened` older than it changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("pull_requests").addColumn("github_updated_at", "timestamptz").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("pull_requests").dropColumn("github_updated_at").execute();
}

import type { Kysely } from "kysely";

/** Per-user choice to open upstream pull requests as drafts; on by default, for existing users too. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("draft_pull_requests", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("draft_pull_requests").execute();
}

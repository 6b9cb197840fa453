import { sql, type Kysely } from "kysely";

/**
 * The users who answered the one-time prompt to move from their OAuth repository grant to the
 * GitHub App ("Not now", or they went to install it): the prompt is asked once, remembered here
 * rather than in the browser, so another device or a cleared browser is not asked again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("github_app_prompts")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("answered_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("github_app_prompts").execute();
}

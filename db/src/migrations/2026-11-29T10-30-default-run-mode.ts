import { sql, type Kysely } from "kysely";

/** Per-user default of how step 4 writes a fix: `single` (one request) or `investigate` (the agent loop). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("default_run_mode", "text", (c) =>
      c
        .notNull()
        .defaultTo("single")
        .check(sql`default_run_mode in ('single', 'investigate')`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("default_run_mode").execute();
}

import type { Kysely } from "kysely";

/** Per-repository test command override (null = detect / .fixloop.yml). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("repositories").addColumn("test_settings", "jsonb").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("repositories").dropColumn("test_settings").execute();
}

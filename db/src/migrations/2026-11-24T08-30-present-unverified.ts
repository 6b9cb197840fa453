import type { Kysely } from "kysely";

/** Per-user choice whether unverified solutions are presented; null keeps the operator's default (PRESENT_UNVERIFIED). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("present_unverified", "boolean").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("present_unverified").execute();
}

import type { Kysely } from "kysely";

/** A login code is bound to the browser that started sign-in (the OAuth state's binding). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_codes").addColumn("browser_binding_hash", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_codes").dropColumn("browser_binding_hash").execute();
}

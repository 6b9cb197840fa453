import { sql, type Kysely } from "kysely";

/**
 * An issue deleted on GitHub, or transferred to another repository, is kept closed with the
 * reason (`gone`) and, for a transfer, where it went (`moved_to`): it can be neither solved nor
 * given a pull request that claims to fix it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("issues")
    .addColumn("gone", "text", (c) => c.check(sql`gone in ('deleted','transferred')`))
    .addColumn("moved_to", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("issues").dropColumn("gone").dropColumn("moved_to").execute();
}

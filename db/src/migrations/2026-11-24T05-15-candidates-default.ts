import { sql, type Kysely } from "kysely";

/** Per-user default of how many candidate patches a solve generates (1–4); one for everyone until they change it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("default_candidates", "smallint", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`default_candidates between 1 and 4`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("default_candidates").execute();
}

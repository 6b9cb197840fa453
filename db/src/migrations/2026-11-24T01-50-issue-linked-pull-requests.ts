import { sql, type Kysely } from "kysely";

/** Open pull requests on GitHub that reference an issue (anyone's), as last read from GitHub. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("issues")
    .addColumn("linked_pull_requests", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("issues").dropColumn("linked_pull_requests").execute();
}

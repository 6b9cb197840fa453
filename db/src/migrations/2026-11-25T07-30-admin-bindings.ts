import { sql, type Kysely } from "kysely";

/**
 * The GitHub account each administrator login (ADMIN_GITHUB_LOGINS) belonged to when it was first
 * seen signed in. A login freed by a rename or a deleted account can be taken by anyone on GitHub;
 * whoever holds it later is no administrator (admin-bindings.repository.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("admin_bindings")
    .addColumn("login", "text", (c) => c.primaryKey())
    .addColumn("github_id", "bigint", (c) => c.notNull())
    .addColumn("bound_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("admin_bindings").execute();
}

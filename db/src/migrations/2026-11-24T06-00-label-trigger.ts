import { sql, type Kysely } from "kysely";

/**
 * Opt-in per repository: issues carrying `solve_label` are solved automatically under the
 * repository row's user (null = off). `label_triggers` holds one row per issue and label seen, so
 * the same label seen twice (webhook and sync, or a redelivery) starts one run. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repositories")
    .addColumn("solve_label", "text", (c) => c.check(sql`char_length(solve_label) between 1 and 50`))
    .addColumn("solve_label_enabled_at", "timestamptz")
    .execute();
  await db.schema
    .createTable("label_triggers")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("issue_id", "uuid", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("sender_login", "text")
    .addColumn("outcome", "text", (c) => c.notNull().defaultTo("claimed"))
    .addColumn("run_id", "uuid", (c) => c.references("solve_runs.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("label_triggers_issue_label_key", ["issue_id", "label"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("label_triggers").execute();
  await db.schema.alterTable("repositories").dropColumn("solve_label").dropColumn("solve_label_enabled_at").execute();
}

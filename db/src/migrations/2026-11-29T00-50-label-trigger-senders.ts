import { sql, type Kysely } from "kysely";

/**
 * Who may start a solve by label. A label's sender must have write access to the repository, or be
 * one of the logins the enabling user lists here (a bot or an auto-labeler, say); the last trigger
 * refused for its sender is kept on the repository, so its settings can say whose and why.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repositories")
    .addColumn("solve_label_senders", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("solve_label_refused_at", "timestamptz")
    .addColumn("solve_label_refused_issue", "integer")
    .addColumn("solve_label_refused_sender", "text")
    .addColumn("solve_label_refused_reason", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repositories")
    .dropColumn("solve_label_senders")
    .dropColumn("solve_label_refused_at")
    .dropColumn("solve_label_refused_issue")
    .dropColumn("solve_label_refused_sender")
    .dropColumn("solve_label_refused_reason")
    .execute();
}

import type { Kysely } from "kysely";

/** The issues list shows what started each issue's newest run. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("solve_runs_issue_created")
    .on("solve_runs")
    .columns(["issue_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("solve_runs_issue_created").execute();
}

import { sql, type Kysely } from "kysely";

/**
 * Why a run was asked to stop (the user's or the ops page's Cancel, or its issue gone from GitHub),
 * written with `cancel_requested_at` by the first request and kept: whoever ends the run later
 * (the worker, or the queued-run cancel) ends it with this reason, not with what is true by then.
 * Null for runs never asked to stop, and for those asked before this column (their reason is
 * worked out as before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("solve_runs")
    .addColumn("cancel_error_code", "text")
    .addColumn("cancel_error_message", "text")
    .execute();
  await db.schema
    .alterTable("solve_runs")
    .addCheckConstraint(
      "solve_runs_cancel_reason_whole",
      sql`(cancel_error_code is null) = (cancel_error_message is null)`,
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("solve_runs").dropConstraint("solve_runs_cancel_reason_whole").execute();
  await db.schema.alterTable("solve_runs").dropColumn("cancel_error_code").dropColumn("cancel_error_message").execute();
}

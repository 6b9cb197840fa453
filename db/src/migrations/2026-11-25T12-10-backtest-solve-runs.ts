import { sql, type Kysely } from "kysely";

/**
 * A backtest's solve runs name their backtest (`backtest_id`), so that when the backtest ends
 * (finished, failed, ended as not finishing in time, its job given up) any of them a worker left
 * running can be ended with it and its quota unit given back. Null for every other run, and for
 * backtest runs started before this column (those are still ended by the next solve of their issue).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("solve_runs")
    .addColumn("backtest_id", "uuid", (c) => c.references("repository_backtests.id").onDelete("set null"))
    .execute();
  await db.schema
    .createIndex("solve_runs_backtest_active")
    .on("solve_runs")
    .column("backtest_id")
    .where(sql.ref("status"), "in", ["queued", "running"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("solve_runs_backtest_active").execute();
  await db.schema.alterTable("solve_runs").dropColumn("backtest_id").execute();
}

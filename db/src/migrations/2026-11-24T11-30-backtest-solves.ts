import { sql, type Kysely } from "kysely";

/**
 * A backtest may also solve each past issue (`solve`, with `model_id`, null for the server's
 * default). Each of those solves is a run of kind `backtest`: metered and capped like any run, it
 * never becomes a solution or a pull request and never changes its issue. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repository_backtests")
    .addColumn("solve", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("model_id", "text")
    .execute();
  await sql`alter table solve_runs drop constraint solve_runs_kind_check`.execute(db);
  await sql`alter table solve_runs add constraint solve_runs_kind_check check (kind in ('solve', 'refine', 'backtest'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from solve_runs where kind = 'backtest'`.execute(db);
  await sql`alter table solve_runs drop constraint solve_runs_kind_check`.execute(db);
  await sql`alter table solve_runs add constraint solve_runs_kind_check check (kind in ('solve', 'refine'))`.execute(
    db,
  );
  await db.schema.alterTable("repository_backtests").dropColumn("solve").dropColumn("model_id").execute();
}

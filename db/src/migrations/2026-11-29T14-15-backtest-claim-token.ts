import type { Kysely } from "kysely";

/**
 * The claim of the worker attempt that runs a repository backtest now (see runs.claims): written
 * when a worker begins the backtest, carried by the backtest solve runs it starts, and required by
 * the backtest's progress and end, so a worker whose job was handed to another changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("repository_backtests").addColumn("claim_token", "uuid").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("repository_backtests").dropColumn("claim_token").execute();
}

import type { Kysely } from "kysely";

/**
 * The claim of the worker attempt that runs a solve run now: a fresh token written when a worker
 * claims the run (queued/running → running), so each of the run's later writes (its status, its
 * steps, its ledger rows) lands only while the token on the row is still the writer's. A worker
 * whose job was handed to another (its lock lapsed) then changes nothing: the new holder's claim
 * replaced its token. Null for a run no worker claimed yet, and for runs that ended before it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("solve_runs").addColumn("claim_token", "uuid").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("solve_runs").dropColumn("claim_token").execute();
}

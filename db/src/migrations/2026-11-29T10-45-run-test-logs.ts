import { sql, type Kysely } from "kysely";

/**
 * Each run's test log, one row per phase (base, patched, repair): the end of its output (the
 * worker keeps the last 256 KB), what was dropped before it, and its final counts. The live log
 * comes from the run's Redis event stream, which expires a day after the run; this row is what a
 * finished solve shows when it is opened later. Deleted with its run.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table run_test_logs (
      run_id uuid not null references solve_runs(id) on delete cascade,
      phase text not null,
      output text not null,
      dropped bigint not null default 0,
      counts jsonb not null,
      done boolean not null default false,
      updated_at timestamptz not null default now(),
      primary key (run_id, phase)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table run_test_logs`.execute(db);
}

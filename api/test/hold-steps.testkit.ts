import { sql } from "kysely";
import type { Db } from "@fixloop/db";

/**
 * Holds every write to run_steps until `release`: the worker that claimed a run waits at its first
 * step's start, so what the test sends meanwhile (a Cancel, a webhook) lands before the worker can
 * store a step or end the run, in the order the test sends it. Reads (the run page, the worker's)
 * go on.
 */
export function holdStepWrites(db: Db) {
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  let locked = () => {};
  const held = new Promise<void>((r) => (locked = r));
  const done = db.transaction().execute(async (trx) => {
    await sql`lock table run_steps in exclusive mode`.execute(trx);
    locked();
    await released;
  });
  return {
    held,
    release: async () => {
      release();
      await done;
    },
  };
}

/** True once a worker is waiting on the held run_steps table (it has claimed its run). */
export async function workerWaits(db: Db): Promise<boolean> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from pg_locks where not granted and relation = 'run_steps'::regclass`.execute(db);
  return (r.rows[0]?.n ?? 0) > 0;
}

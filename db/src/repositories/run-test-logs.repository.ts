import { LiveTestCounts, TestsPhase } from "@fixloop/contract";
import type { Conn } from "./conn";

export interface StoredTestLog {
  phase: TestsPhase;
  output: string;
  /** Characters of output before `output` that were not kept. */
  dropped: number;
  counts: LiveTestCounts;
  done: boolean;
}

/** Stores (or replaces) one phase of a run's test log. */
export async function savePhase(db: Conn, runId: string, log: StoredTestLog): Promise<void> {
  const values = {
    output: log.output,
    dropped: log.dropped,
    counts: JSON.stringify(log.counts),
    done: log.done,
    updated_at: new Date(),
  };
  await db
    .insertInto("run_test_logs")
    .values({ run_id: runId, phase: log.phase, ...values })
    .onConflict((oc) => oc.columns(["run_id", "phase"]).doUpdateSet(values))
    .execute();
}

const ORDER = TestsPhase.options;

/** A run's stored test log, its phases in the order they run. */
export async function ofRun(db: Conn, runId: string): Promise<StoredTestLog[]> {
  const rows = await db.selectFrom("run_test_logs").selectAll().where("run_id", "=", runId).execute();
  return rows
    .flatMap((r) => {
      const phase = TestsPhase.safeParse(r.phase);
      if (!phase.success) return [];
      const counts = LiveTestCounts.catch({ passed: 0, failed: 0, errored: 0 }).parse(r.counts);
      return [{ phase: phase.data, output: r.output, dropped: Number(r.dropped), counts, done: r.done }];
    })
    .sort((a, b) => ORDER.indexOf(a.phase) - ORDER.indexOf(b.phase));
}

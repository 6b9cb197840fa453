import { STORED_TEST_LOG_CHARS, type TestsEvent, type TestsPhase } from "@fixloop/contract";
import { runTestLogs } from "@fixloop/db";

type Db = Parameters<typeof runTestLogs.savePhase>[0];

/**
 * Folds a run's `tests` events into its stored test log, as the page folds them (a phase's output
 * appended, its end kept, a phase that had ended and streams again starting afresh), and stores a
 * phase when it ends: the live stream expires, the row stays with the run.
 */
export function testLogRecorder(db: Db, runId: string) {
  const phases = new Map<TestsPhase, runTestLogs.StoredTestLog>();
  return async (e: TestsEvent): Promise<void> => {
    const found = phases.get(e.phase);
    const current = found && !found.done ? found : { output: "", dropped: 0 };
    const joined = current.output + e.output;
    const cut = Math.max(0, joined.length - STORED_TEST_LOG_CHARS);
    const next = {
      phase: e.phase,
      output: joined.slice(cut),
      dropped: current.dropped + cut,
      counts: e.counts,
      done: e.done,
    };
    phases.set(e.phase, next);
    if (e.done) await runTestLogs.savePhase(db, runId, next);
  };
}

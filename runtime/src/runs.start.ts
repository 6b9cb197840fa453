import { notifyUsageThreshold, runs, type Db } from "@fixloop/db";
import type { Logger } from "pino";
import { enqueueRun, type Queues } from "./queues";

/**
 * Starts a run (solve or refine) through db's one `runs.start` transition, then queues its job. A run
 * whose job cannot be queued fails at once with its quota unit given back (it would otherwise wait
 * for the sweeper). The 80% usage notice goes out as soon as the reservation crosses it (once per period).
 * Outcomes other than "started" are the caller's to answer. Shared by the API (Solve, refine) and
 * the label trigger (webhook and sync), so every run waits its turn the same way.
 */
export async function startAndEnqueue(
  deps: { db: Db; queues: Pick<Queues, "solve">; logger: Pick<Logger, "warn"> },
  prepare: Parameters<typeof runs.start>[1],
): Promise<runs.StartOutcome> {
  const { db } = deps;
  const outcome = await runs.start(db, prepare);
  if (outcome.status !== "started") return outcome;
  try {
    await enqueueRun(deps, outcome.runId);
  } catch (err) {
    await runs.failUnqueued(db, outcome.runId);
    throw err;
  }
  await notifyUsageThreshold(db, outcome.userId, outcome.usage).catch((err: Error) =>
    deps.logger.warn({ err: err.message }, "usage notification failed"),
  );
  return outcome;
}

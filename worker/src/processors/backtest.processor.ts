import type { Job } from "bullmq";
import { backtests } from "@fixloop/db";
import { BacktestJob, type BacktestResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { failureText, runBacktest } from "../backtest/backtest.run";
import { holdsJob, JobLockLost, lockLost } from "../job.lock";

/**
 * Runs a repository backtest. Any failure ends the backtest as failed with its reason (the card
 * says it, and the repository may be backtested again); a worker stopping mid-way hands the job
 * back, and the next worker starts it over. A worker that lost the job's lock stops at once and
 * leaves the backtest as it is to the worker that now holds the job.
 */
export async function processBacktest(job: Job, ctx: WorkerContext, signal: AbortSignal): Promise<BacktestResult> {
  const { backtestId } = BacktestJob.parse(job.data);
  try {
    const result = await runBacktest(ctx, backtestId, signal, async (p) => {
      await job.updateProgress({ found: p.found, checked: p.issues.length });
    });
    holdsJob(signal, `backtest ${backtestId}`);
    await backtests.finish(ctx.db, backtestId, { error: null });
    return result;
  } catch (err) {
    if (lockLost(signal)) {
      const lost = new JobLockLost(`backtest ${backtestId}`);
      ctx.logger.warn(
        { backtestId, jobId: job.id, code: lost.code },
        "lost the job's lock: the backtest was stopped here and left to its new worker",
      );
      throw lost;
    }
    if (signal.aborted) throw err;
    const message = failureText(err);
    ctx.logger.warn({ backtestId, err: message }, "backtest failed");
    await backtests.finish(ctx.db, backtestId, { error: `The backtest failed: ${message}` });
    return { checked: 0, foundAt1: 0, foundAt5: 0 };
  }
}

/** The card's reason for a backtest whose job BullMQ gave up (it stalled more often than allowed). */
export const GIVEN_UP = "The backtest stopped: the workers running it stopped too often";

/**
 * Ends the backtest of a job that failed without its processor ending it (BullMQ fails a job that
 * stalled more often than allowed before any processor runs it again): failed, with its solve
 * runs left running (see backtests.finish). Only for a job BullMQ holds as failed: a worker that
 * lost the job's lock may still see its own attempt fail while a new holder runs the backtest.
 */
export async function endGivenUpBacktest(job: Job | undefined, ctx: WorkerContext): Promise<void> {
  const parsed = BacktestJob.safeParse(job?.data);
  if (!job || !parsed.success || typeof job.finishedOn !== "number") return;
  if ((await job.getState()) !== "failed") return;
  await backtests.finish(ctx.db, parsed.data.backtestId, { error: GIVEN_UP });
}

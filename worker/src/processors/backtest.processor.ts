import type { Job } from "bullmq";
import { backtests, ClaimLost } from "@fixloop/db";
import { BacktestJob, QUEUES } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { failureText, runBacktest } from "../backtest/backtest.run";
import { defineProcessor } from "./processor.define";

/**
 * Runs a repository backtest. Any failure ends the backtest as failed with its reason (the card
 * says it, and the repository may be backtested again); a worker stopping mid-way hands the job
 * back, and the next worker starts it over. Every write of the backtest carries this attempt's
 * claim: a worker that lost the job writes nothing more (see defineProcessor). Its solves are runs
 * of their own jobs (see solvePast): a lost lock leaves them going, for the next attempt to wait for.
 */
export const processBacktest = defineProcessor({
  name: QUEUES.backtest,
  what: (job) => `backtest ${BacktestJob.parse(job.data).backtestId}`,
  async run({ job, ctx, signal, claim }) {
    const { backtestId } = BacktestJob.parse(job.data);
    try {
      const result = await runBacktest(
        ctx,
        backtestId,
        signal,
        async (p) => {
          await job.updateProgress({ found: p.found, checked: p.issues.length });
        },
        claim,
      );
      await backtests.finish(ctx.db, backtestId, { error: null }, claim);
      return result;
    } catch (err) {
      if (signal.aborted || err instanceof ClaimLost) throw err;
      const message = failureText(err);
      ctx.logger.warn({ backtestId, err: message }, "backtest failed");
      await backtests.finish(ctx.db, backtestId, { error: `The backtest failed: ${message}` }, claim);
      return { checked: 0, foundAt1: 0, foundAt5: 0 };
    }
  },
  async onLockLost({ job, ctx, claim }) {
    const { backtestId } = BacktestJob.parse(job.data);
    await backtests.releaseClaim(ctx.db, backtestId, claim);
  },
});

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

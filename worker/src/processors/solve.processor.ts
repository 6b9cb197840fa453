import type { Job } from "bullmq";
import { SolveJob, type SolveResult } from "@fixloop/contract";
import { runs } from "@fixloop/db";
import type { WorkerContext } from "../context";
import { processRun } from "../pipeline/run.processor";
import { watchCancel } from "./cancel.watch";
import { announceUserQueue, deferJob, RunDeferred } from "../pipeline/run.queue";
import { JobLockLost } from "../job.lock";

/**
 * One job per solve or refine run; everything else is read from Postgres. A run whose user is at
 * their cap goes back to the delayed set, still queued; a run that ends frees a slot for the user's next.
 */
export async function processSolve(
  job: Job,
  ctx: WorkerContext,
  signal: AbortSignal,
  token?: string,
): Promise<SolveResult> {
  const { runId } = SolveJob.parse(job.data);
  const maxAttempts = job.opts.attempts ?? 1;
  const cancel = watchCancel(ctx, runId, signal);
  let lost = false;
  try {
    return await processRun(runId, ctx, cancel.signal, {
      finalAttempt: job.attemptsMade + 1 >= maxAttempts,
      retry: job.attemptsMade > 0,
    });
  } catch (err) {
    if (err instanceof RunDeferred) return await deferJob(job, token);
    if (err instanceof JobLockLost) {
      lost = true;
      ctx.logger.warn(
        { runId, jobId: job.id, code: err.code },
        "lost the job's lock: the run was stopped here and left to its new worker",
      );
    }
    throw err;
  } finally {
    cancel.stop();
    // The user's queue is the new holder's to move on.
    if (!lost) await afterRun(ctx, runId);
  }
}

async function afterRun(ctx: WorkerContext, runId: string): Promise<void> {
  try {
    const run = await runs.load(ctx.db, runId);
    if (run && run.status !== "queued" && run.status !== "running") await announceUserQueue(ctx, run.user_id);
  } catch (err) {
    ctx.logger.warn({ runId, err: (err as Error).message }, "could not update the user's queued runs");
  }
}

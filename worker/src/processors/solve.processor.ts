import { QUEUES, SolveJob } from "@fixloop/contract";
import { runs } from "@fixloop/db";
import type { WorkerContext } from "../context";
import { processRun } from "../pipeline/run.processor";
import { watchCancel } from "./cancel.watch";
import { announceUserQueue } from "../pipeline/run.queue";
import { defineProcessor } from "./processor.define";

/**
 * One job per solve or refine run; everything else is read from Postgres. A run whose user is at
 * their cap goes back to the delayed set, still queued; a run that ends frees a slot for the user's
 * next. Every write of the run carries this attempt's claim: a worker that lost the job writes nothing.
 */
export const processSolve = defineProcessor({
  name: QUEUES.solve,
  what: (job) => `run ${SolveJob.parse(job.data).runId}`,
  async run({ job, ctx, signal, claim }) {
    const { runId } = SolveJob.parse(job.data);
    const maxAttempts = job.opts.attempts ?? 1;
    const cancel = watchCancel(ctx, runId, signal);
    try {
      return await processRun({ runId, token: claim }, ctx, cancel.signal, {
        finalAttempt: job.attemptsMade + 1 >= maxAttempts,
        retry: job.attemptsMade > 0,
      });
    } finally {
      cancel.stop();
    }
  },
  async onLockLost({ job, ctx, claim }) {
    await runs.releaseClaim(ctx.db, { runId: SolveJob.parse(job.data).runId, token: claim });
  },
  // The user's queue moves on (not after a lost lock: it is then the new holder's to move on).
  after: ({ job, ctx }) => afterRun(ctx, SolveJob.parse(job.data).runId),
});

async function afterRun(ctx: WorkerContext, runId: string): Promise<void> {
  try {
    const run = await runs.load(ctx.db, runId);
    if (run && run.status !== "queued" && run.status !== "running") await announceUserQueue(ctx, run.user_id);
  } catch (err) {
    ctx.logger.warn({ runId, err: (err as Error).message }, "could not update the user's queued runs");
  }
}

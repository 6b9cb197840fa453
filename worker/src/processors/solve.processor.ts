import type { Job } from "bullmq";
import { SolveJob, type SolveResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { processRun } from "../pipeline/run.processor";

/** One job per solve or refine run; everything else is read from Postgres. */
export async function processSolve(job: Job, ctx: WorkerContext, signal: AbortSignal): Promise<SolveResult> {
  const { runId } = SolveJob.parse(job.data);
  const maxAttempts = job.opts.attempts ?? 1;
  return processRun(runId, ctx, signal, {
    finalAttempt: job.attemptsMade + 1 >= maxAttempts,
    retry: job.attemptsMade > 0,
  });
}

import { UnrecoverableError, type Job } from "bullmq";
import type { WorkerContext } from "../context";

export async function processFork(job: Job, _ctx: WorkerContext, _signal: AbortSignal): Promise<unknown> {
  throw new UnrecoverableError(`${job.queueName} jobs are not handled yet`);
}

import type { Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { jobIds, runCancelChannel } from "@fixloop/contract";

/**
 * Listens for cancel requests from any API process; the worker holding the run's job aborts it
 * (BullMQ's cancelJob fires the job's AbortSignal, which reaches the model call).
 */
export async function startCancelSubscriber(
  redis: Redis,
  prefix: string,
  solveWorker: Worker,
  logger: Logger,
): Promise<{ close(): Promise<void> }> {
  const sub = redis.duplicate();
  sub.on("error", (err) => logger.warn({ err: err.message }, "cancel subscriber connection error"));
  await sub.subscribe(runCancelChannel(prefix));
  sub.on("message", (_channel: string, runId: string) => {
    if (solveWorker.cancelJob(jobIds.solve(runId), "cancelled by the user")) logger.info({ runId }, "run cancelled");
  });
  return {
    async close() {
      sub.disconnect();
    },
  };
}

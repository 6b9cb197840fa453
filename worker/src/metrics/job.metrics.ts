import type { Job, Worker } from "bullmq";
import { CLUSTER_METRICS, incrementCounter, observeDuration, type Queues } from "@fixloop/runtime";
import type { WorkerContext } from "../context";

/** BullMQ's message for a job that stalled more often than maxStalledCount allows. */
const STALLED_LIMIT = /stalled more than allowable limit/i;
const CODE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

/**
 * The error code a job failed with: a coded JobRefusedError/JobRetryableError (`code` or the JSON
 * message jobFailed writes), a run's `UnrecoverableError("code: message")`, BullMQ's stall limit;
 * anything else is `unknown` (free text would make unbounded label values).
 */
export function failureCode(err: Error): string {
  const own = (err as { code?: unknown }).code;
  if (typeof own === "string" && CODE.test(own)) return own;
  if (STALLED_LIMIT.test(err.message)) return "job.stalled_limit";
  try {
    const parsed = JSON.parse(err.message) as { code?: unknown };
    if (typeof parsed.code === "string" && CODE.test(parsed.code)) return parsed.code;
  } catch {
    // not a JSON message
  }
  const prefix = /^([a-z][a-z0-9_.]*): /.exec(err.message)?.[1];
  return prefix && CODE.test(prefix) ? prefix : "unknown";
}

/**
 * Records a worker's job outcomes in the cluster-wide metrics (see runtime's metrics.store):
 * the duration of each attempt it ran, final failures and retries by code, and stalled jobs
 * (emitted by whichever worker's stall check found them). Writes never hold up or fail a job.
 */
export function recordJobMetrics(
  worker: Worker,
  queue: string,
  ctx: Pick<WorkerContext, "redis" | "logger"> & { queues: Pick<Queues, "prefix"> },
) {
  const { redis } = ctx;
  const prefix = ctx.queues.prefix;
  const warn = (err: Error) => ctx.logger.warn({ queue, err: err.message }, "a job metric could not be recorded");
  const duration = (job: Job, result: string) => {
    if (job.processedOn === undefined) return;
    const seconds = (Date.now() - job.processedOn) / 1000;
    void observeDuration(redis, prefix, CLUSTER_METRICS.jobDuration, { queue, result }, seconds).catch(warn);
  };
  worker.on("completed", (job) => duration(job, "completed"));
  worker.on("failed", (job, err) => {
    const code = failureCode(err);
    // BullMQ sets finishedOn only when the job moved to the failed set (no retry follows).
    const final = job === undefined || typeof job.finishedOn === "number";
    const family = final ? CLUSTER_METRICS.jobFailures : CLUSTER_METRICS.jobRetries;
    void incrementCounter(redis, prefix, family, { queue, code }).catch(warn);
    if (job && code !== "job.stalled_limit") duration(job, final ? "failed" : "retried");
  });
  worker.on("stalled", () => {
    void incrementCounter(redis, prefix, CLUSTER_METRICS.jobsStalled, { queue }).catch(warn);
  });
}

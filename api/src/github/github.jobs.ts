import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JobsOptions, Queue } from "bullmq";
import type { QueueName } from "@fixloop/worker/contract";
import { parseJobFailure } from "@fixloop/worker/contract";
import type { AppDeps } from "../deps";
import { AppError } from "../http/errors";

const STATUS: Record<string, ContentfulStatusCode> = {
  "github.not_found": 404,
  "github.rate_limited": 429,
  "github.unauthorized": 401,
  "github.not_connected": 401,
  "github.authorization_required": 403,
  "github.forbidden": 403,
  "github.invalid": 422,
  "github.unavailable": 502,
  "github.not_an_issue": 400,
  "github.fork_timeout": 504,
  "contributions.blocked": 409,
  "contributions.acknowledgement_required": 422,
};

/** Turns a job's failedReason (`code: message`) back into the API error it stands for. */
export function jobError(reason: string | undefined): AppError {
  const parsed = parseJobFailure(reason);
  if (!parsed) return new AppError(500, "job.failed", "The background job failed");
  return new AppError(STATUS[parsed.code] ?? 500, parsed.code, parsed.message);
}

export type JobOutcome<T> = { done: true; value: T } | { done: false; jobId: string };

/**
 * Enqueues a job and waits for it up to JOB_WAIT_SECONDS; past that the caller answers 202 with
 * the job id. A job failure becomes the matching API error. With a fixed jobId a finished failed
 * job is cleared first, so a retry from the user really runs again.
 */
export async function runJob<T>(deps: AppDeps, name: QueueName, data: object, opts: JobsOptions = {}): Promise<JobOutcome<T>> {
  const queue = pick(deps, name);
  if (opts.jobId) {
    const old = await queue.getJob(opts.jobId);
    if (old && (await old.isFailed())) await old.remove();
  }
  const events = deps.queues.events(name);
  await events.waitUntilReady();
  const job = await queue.add(name, data, opts);
  try {
    const value = (await job.waitUntilFinished(events, Math.max(1, deps.env.JOB_WAIT_SECONDS * 1000))) as T;
    return { done: true, value };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/timed out before finishing/.test(message)) return { done: false, jobId: String(job.id) };
    throw jobError(message);
  }
}

function pick(deps: AppDeps, name: QueueName): Queue {
  const q = { solve: deps.queues.solve, sync: deps.queues.sync, fork: deps.queues.fork, "pull-request": deps.queues.pullRequest }[name];
  return q as unknown as Queue;
}

import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JobsOptions, Queue } from "bullmq";
import {
  JOB_RESULT_SCHEMAS,
  parseJobFailure,
  type JobErrorCode,
  type JobPayload,
  type JobResult,
  type QueueName,
} from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { AppError } from "../http/errors";

/** The one place a job failure code becomes an HTTP status. Policy refusals are 422, not gateway errors. */
const STATUS: Record<JobErrorCode, ContentfulStatusCode> = {
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
  "pull_request.not_approved": 409,
  "pull_request.solution_not_found": 404,
  "pull_request.path_denied": 422,
  "pull_request.too_large": 422,
  "pull_request.symlink": 422,
  "pull_request.empty": 422,
  "pull_request.binary_content": 422,
  "pull_request.conflict_open": 409,
  "pull_request.conflict_duplicate": 409,
  "github.not_your_repository": 403,
  "github.reauthorize_required": 403,
  "github.installation_suspended": 403,
  "contributions.blocked": 409,
  "contributions.acknowledgement_required": 422,
  "pull_request.no_write_access": 403,
  "pull_request.conflict": 409,
  "pull_request.no_fork": 409,
  "pull_request.not_a_fork": 409,
  "pull_request.base_branch_gone": 409,
  "pull_request.branch_moved": 409,
  "pull_request.not_open": 409,
  "pull_request.issue_gone": 410,
  "repository.access_lost": 403,
  "job.invalid_payload": 400,
  "syntax_check.failed": 502,
};

/** A job failure (or the same GitHub failure met inline) as the API error it stands for. */
export const failureError = (f: { code: JobErrorCode; message: string }) =>
  new AppError(STATUS[f.code], f.code, f.message);

/** A job's failed reason as the API error it stands for; a reason that is no job failure (a crash) is a 502. */
export function jobError(reason: string | undefined): AppError {
  const failure = parseJobFailure(reason);
  return failure ? failureError(failure) : new AppError(502, "job.failed", "The background job failed");
}

export type JobOutcome<T> = { done: true; value: T } | { done: false; jobId: string };

/**
 * Enqueues a job and waits for it up to JOB_WAIT_SECONDS; past that the caller answers 202 with
 * the job id. A job failure becomes the matching API error. With a fixed jobId a finished failed
 * job is cleared first, so a retry from the user really runs again.
 */
export async function runJob<Q extends QueueName>(
  deps: AppDeps,
  name: Q,
  data: JobPayload<Q>,
  opts: JobsOptions = {},
): Promise<JobOutcome<JobResult<Q>>> {
  type T = JobResult<Q>;
  const queue = queueOf(deps, name);
  if (opts.jobId) {
    const old = await queue.getJob(opts.jobId);
    if (old && (await old.isFailed())) await old.remove();
  }
  const events = deps.queues.events(name);
  await events.waitUntilReady();
  const job = await queue.add(name, data, opts);
  const jobId = String(job.id);
  if (deps.env.JOB_WAIT_SECONDS <= 0) return { done: false, jobId };
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<JobOutcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: false, jobId }), deps.env.JOB_WAIT_SECONDS * 1000);
  });
  const finished = job.waitUntilFinished(events).then(
    (value: unknown): JobOutcome<T> => {
      // The worker's answer is read with the queue's result schema, like any input.
      const result = JOB_RESULT_SCHEMAS[name].safeParse(value);
      if (!result.success) throw new AppError(502, "job.failed", "The background job answered in an unexpected shape");
      return { done: true, value: result.data as T };
    },
    (err: unknown) => {
      throw jobError(err instanceof Error ? err.message : String(err));
    },
  );
  try {
    return await Promise.race([finished, pending]);
  } finally {
    clearTimeout(timer);
  }
}

function queueOf(deps: AppDeps, name: QueueName): Queue {
  const byName: Record<QueueName, Queue> = {
    solve: deps.queues.solve,
    sync: deps.queues.sync,
    fork: deps.queues.fork,
    "pull-request": deps.queues.pullRequest,
    "syntax-check": deps.queues.syntaxCheck,
    "tests-rerun": deps.queues.testsRerun,
    backtest: deps.queues.backtest,
  };
  return byName[name];
}

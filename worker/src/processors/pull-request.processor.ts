import type { Job } from "bullmq";
import { PullRequestJob, QUEUES, type PullRequestResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { solutions } from "@fixloop/db";
import { GithubError, jobFailed, toGithubError } from "@fixloop/runtime";
import { openPullRequest } from "../pull-requests/pull-requests.job";
import { pushRevision } from "../pull-requests/pull-requests.push";
import { PullRequestError } from "../pull-requests/pull-requests.errors";
import { lockLost } from "../job.lock";
import { defineProcessor } from "./processor.define";

/**
 * Opens the pull request for an approved solution, or pushes a new revision to it; the job's return
 * value carries `githubUrl`. A lost lock is defineProcessor's: the worker that now holds the job
 * opens the pull request (or says why not), and the solution stays approved.
 */
export const processPullRequest = defineProcessor({
  name: QUEUES.pullRequest,
  what: (job) => `the pull request of solution ${PullRequestJob.parse(job.data).solutionId}`,
  async run({ job, ctx, signal }): Promise<PullRequestResult> {
    const data = PullRequestJob.parse(job.data);
    if (signal.aborted) throw new Error("pull-request job aborted");
    try {
      return await attempt(job, ctx, data, signal);
    } catch (err) {
      if (lockLost(signal)) throw err;
      // A refusal, or the last attempt: the solution is not left "approved" with no pull request.
      const last = err instanceof PullRequestError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (last) await solutions.returnToPending(ctx.db, data.solutionId);
      throw err;
    }
  },
});

async function attempt(
  job: Job,
  ctx: WorkerContext,
  data: PullRequestJob,
  signal: AbortSignal,
): Promise<PullRequestResult> {
  try {
    // With a revision: a new commit on the open pull request's branch (addressing its review).
    return await (data.revision !== undefined
      ? pushRevision(ctx, data, signal)
      : openPullRequest(ctx, data, { signal }));
  } catch (err) {
    if (err instanceof PullRequestError) throw err;
    // Not an answer from GitHub (Octokit errors carry an HTTP status, network failures included):
    // retry as is instead of blaming GitHub.
    if (!(err instanceof GithubError) && typeof (err as { status?: unknown }).status !== "number") throw err;
    const gh = toGithubError(err, "Repository", { write: true });
    ctx.logger.warn(
      { jobId: job.id, solutionId: data.solutionId, code: gh.code, status: gh.status },
      "pull-request job failed",
    );
    // Missing or forbidden resources and rejected input do not get better on retry.
    if (err instanceof GithubError || [401, 403, 404, 422].includes(gh.status))
      throw new PullRequestError(gh.code, gh.message);
    throw jobFailed({ code: gh.code, message: gh.message, retryable: true }, { cause: err });
  }
}

import type { Job } from "bullmq";
import { PullRequestJob, QUEUES, type PullRequestResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { claims, solutions, type Claim } from "@fixloop/db";
import { GithubError, jobFailed, toGithubError } from "@fixloop/runtime";
import { openPullRequest } from "../pull-requests/pull-requests.job";
import { pushRevision } from "../pull-requests/pull-requests.push";
import { PullRequestError, prErrors } from "../pull-requests/pull-requests.errors";
import { defineProcessor } from "./processor.define";

/**
 * Opens the pull request for an approved solution, or pushes a new revision to it; the job's return
 * value carries `githubUrl`. The job is claimed on the solution's row and every record is written
 * under the claim; a lost lock gives the claim up (defineProcessor's): the worker that now holds
 * the job opens the pull request (or says why not), and the solution stays approved.
 */
export const processPullRequest = defineProcessor({
  name: QUEUES.pullRequest,
  what: (job) => `the pull request of solution ${PullRequestJob.parse(job.data).solutionId}`,
  async run({ job, ctx, signal, claim: token }): Promise<PullRequestResult> {
    const data = PullRequestJob.parse(job.data);
    if (signal.aborted) throw new Error("pull-request job aborted");
    const claim = await solutions.claimPullRequest(ctx.db, data.solutionId, token);
    if (!claim) throw prErrors.notFound();
    try {
      return await attempt(job, ctx, data, signal, claim);
    } catch (err) {
      // A refusal, or the last attempt: the solution is not left "approved" with no pull request
      // (under the claim too: after a lost lock, ClaimLost, and the approval is the new holder's).
      const last = err instanceof PullRequestError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (last) await solutions.returnToPending(ctx.db, data.solutionId, claim);
      throw err;
    }
  },
  async onLockLost({ job, ctx, claim }) {
    const { solutionId } = PullRequestJob.parse(job.data);
    await claims.releaseClaim(ctx.db, { kind: "pullRequest", id: solutionId, token: claim });
  },
});

async function attempt(
  job: Job,
  ctx: WorkerContext,
  data: PullRequestJob,
  signal: AbortSignal,
  claim: Claim,
): Promise<PullRequestResult> {
  try {
    // With a revision: a new commit on the open pull request's branch (addressing its review).
    return await (data.revision !== undefined
      ? pushRevision(ctx, data, claim)
      : openPullRequest(ctx, data, { signal, claim }));
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

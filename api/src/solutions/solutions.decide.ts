import { AppError } from "../http/errors";
import type { AppDeps } from "../deps";
import { jobIds, type SolutionStatus, ANSWERING_SOLUTION_STATUSES, standing } from "@fixloop/contract";
import { runJob } from "../jobs/jobs.run";
import { findOpenPullRequestForIssue, issues, pullRequests, runs, solutions } from "@fixloop/db";
import { assertAllowed } from "../issues/issues.standing";
import { solutionErrors } from "./solutions.errors";
import { lockOwnedSolution } from "./solutions.owned";
import type { DecideBody } from "./solutions.schemas";

export type DecisionResult =
  { kind: "rejected" } | { kind: "created"; githubUrl: string } | { kind: "queued"; jobId: string };

/** Records the reviewer's decision; approval opens the pull request through the pull-request job. */
export async function decideSolution(
  deps: AppDeps,
  userId: string,
  id: string,
  body: DecideBody,
): Promise<DecisionResult> {
  const { db } = deps;
  const comments = body.comments?.trim() || null;
  const existingUrl = await db.transaction().execute(async (trx) => {
    const { solution } = await lockOwnedSolution(trx, userId, id);
    if (solution.status === "pr_created") {
      if (body.status === "rejected") throw solutionErrors.hasPullRequest();
      const pr = await pullRequests.forSolution(trx, id);
      if (pr) return pr.htmlUrl;
    }
    // Approving again after a failed pull-request job retries it; anything else must still be pending.
    const allowed: readonly SolutionStatus[] = body.status === "approved" ? ANSWERING_SOLUTION_STATUSES : ["pending"];
    if (!allowed.includes(solution.status)) throw solutionErrors.notPending(solution.status);
    // A refinement still running would rewrite the files after the decision (after the pull
    // request was opened from them). The row lock orders this against a refinement starting.
    if (await runs.activeRefineOf(trx, id)) throw solutionErrors.refining();
    if (body.status === "approved") {
      const made = solution.metadata.defaultBranch;
      if (body.baseBranch && made && body.baseBranch !== made) throw solutionErrors.baseMismatch(made, body.baseBranch);
      // One pull request per issue: the approval holds the issue until its job opens the pull request or gives it back.
      await solutions.lockIssueDecisions(trx, solution.issue_id);
      // The pull request is opened on the repository itself, for an issue GitHub still has, and only one per issue.
      const issue = (await issues.findForRun(trx, userId, solution.issue_id)) ?? {};
      const pullRequestOpen = !!(await findOpenPullRequestForIssue(trx, solution.issue_id, id));
      assertAllowed("approve", standing(issue, { pullRequestOpen }));
      if (await solutions.approvedRival(trx, solution.issue_id, id)) throw solutionErrors.issueTaken();
    }
    await solutions.decide(trx, solution, userId, { status: body.status, comments });
    return null;
  });
  if (existingUrl) return { kind: "created", githubUrl: existingUrl };
  if (body.status === "rejected") return { kind: "rejected" };

  const outcome = await runJob(deps, "pull-request", { userId, solutionId: id }, { jobId: jobIds.pullRequest(id) });
  if (!outcome.done) return { kind: "queued", jobId: outcome.jobId };
  // Only a test stops the job before the pull request (stopAfterPush); the API never asks it to.
  if (!outcome.value) throw new AppError(502, "job.failed", "The pull-request job ended without a pull request");
  return { kind: "created", githubUrl: outcome.value.githubUrl };
}

import { actionsOf, standing } from "@fixloop/contract";
import type { pullRequests } from "@fixloop/db";

/** A pull request in the spec's shape. */
export function presentPullRequest(pr: pullRequests.PullRequestRecord) {
  const meta = pr.metadata;
  return {
    _id: pr.id,
    title: pr.title,
    prNumber: pr.pr_number,
    repoFullName: pr.repo_full_name,
    headRepoFullName: pr.head_repo_full_name,
    branchName: pr.branch_name,
    baseBranch: pr.base_branch,
    status: pr.status,
    createdAt: pr.created_at.toISOString(),
    htmlUrl: pr.html_url,
    issueId: pr.issue_id,
    solutionId: pr.solution_id,
    /** What may be done with the pull request's issue ("Address review", the push of a revision), or why not. */
    actions: actionsOf(standing(pr)),
    syncedAt: pr.synced_at?.toISOString() ?? null,
    /**
     * "Address review" as it stands, whatever page started it: the refinement still running, and
     * the solution's revision made since the last push, waiting for the user's approval to be pushed.
     */
    address: {
      runId: pr.active_refine_run_id ?? null,
      pendingRevision:
        pr.pushed_revision !== null && pr.solution_revision > pr.pushed_revision ? pr.solution_revision : null,
    },
    metadata: {
      labels: meta.labels ?? [],
      hasBreakingChanges: meta.hasBreakingChanges === true,
      generatedWithGuidelines: meta.generatedWithGuidelines === true,
      draft: meta.draft === true,
      draftRefused: meta.draftRefused === true,
    },
  };
}
export type PullRequestView = ReturnType<typeof presentPullRequest>;

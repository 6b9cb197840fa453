import { actionsOf, standing } from "@fixloop/contract";
import type { issues } from "@fixloop/db";

export function issueView(i: issues.IssueWithPullRequest) {
  return {
    _id: i.id,
    title: i.title,
    body: i.body,
    issueNumber: i.issue_number,
    repoFullName: i.repo_full_name,
    labels: i.labels,
    status: i.status,
    state: i.state,
    createdAt: (i.github_created_at ?? i.created_at).toISOString(),
    updatedAt: i.updated_at.toISOString(),
    openPullRequest:
      i.open_pr_url && i.open_pr_number !== null
        ? { htmlUrl: i.open_pr_url, number: i.open_pr_number, draft: i.open_pr_draft === true }
        : null,
    /** The solution waiting for the user's review: the issue stays in the Open tab until it is decided. */
    awaitingReview: i.review_solution_id
      ? { solutionId: i.review_solution_id, unverified: i.review_unverified ?? null }
      : null,
    /** Open pull requests on GitHub (anyone's) that reference the issue, other than Fixloop's own. */
    linkedPullRequests: i.linked_pull_requests.filter((p) => p.htmlUrl !== i.open_pr_url),
    /** The issue's newest run was started by the repository's solve label (its name; empty when not recorded). */
    startedByLabel: i.latest_run_label,
    htmlUrl: i.html_url,
    /** GitHub no longer has the issue here: deleted, or transferred (to `movedTo`). The issue is closed. */
    gone: i.gone,
    movedTo: i.moved_to,
    /** What may be done with the issue (solve, resume, refine, address, approve, push), or why not. */
    actions: actionsOf(standing(i, { pullRequestOpen: !!i.open_pr_url })),
    isImported: i.is_imported,
    upstreamFullName: i.upstream_full_name,
    forkFullName: i.fork_full_name,
  };
}

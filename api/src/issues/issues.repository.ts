import { sql } from "kysely";
import { issueLinkedPulls, type Db, type Issue } from "@fixloop/db";

/** An issue row with the newest open pull request Fixloop opened for it and its solution awaiting review, if any. */
type IssueRow = Issue & {
  open_pr_url: string | null;
  open_pr_number: number | null;
  open_pr_draft: boolean | null;
  review_solution_id: string | null;
};

export function issueView(i: IssueRow) {
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
    awaitingReview: i.review_solution_id ? { solutionId: i.review_solution_id } : null,
    /** Open pull requests on GitHub (anyone's) that reference the issue, other than Fixloop's own. */
    linkedPullRequests: issueLinkedPulls.read(i.linked_pull_requests).filter((p) => p.htmlUrl !== i.open_pr_url),
    htmlUrl: i.html_url,
    isImported: i.is_imported,
    upstreamFullName: i.upstream_full_name,
    forkFullName: i.fork_full_name,
  };
}

function selectIssues(db: Db) {
  return db
    .selectFrom("issues")
    .selectAll("issues")
    .select((eb) => {
      const openPr = eb
        .selectFrom("pull_requests")
        .whereRef("pull_requests.issue_id", "=", "issues.id")
        .where("pull_requests.status", "=", "open")
        .orderBy("pull_requests.created_at", "desc")
        .limit(1);
      return [
        openPr.select("pull_requests.html_url").as("open_pr_url"),
        openPr.select("pull_requests.pr_number").as("open_pr_number"),
        openPr.select(sql<boolean>`(pull_requests.metadata->>'draft')::boolean`.as("draft")).as("open_pr_draft"),
        eb
          .selectFrom("solutions")
          .select("solutions.id")
          .whereRef("solutions.issue_id", "=", "issues.id")
          .where("solutions.status", "=", "pending")
          .orderBy("solutions.created_at", "desc")
          .limit(1)
          .as("review_solution_id"),
      ];
    });
}

export async function listIssues(db: Db, userId: string, status?: Issue["status"]): Promise<IssueRow[]> {
  let q = selectIssues(db).where("user_id", "=", userId);
  if (status) q = q.where("status", "=", status);
  return q.orderBy("created_at", "desc").orderBy("issue_number", "desc").execute();
}

/** Another user's issue is indistinguishable from a missing one. */
export async function findIssue(db: Db, userId: string, id: string): Promise<IssueRow | undefined> {
  return selectIssues(db).where("user_id", "=", userId).where("issues.id", "=", id).executeTakeFirst();
}

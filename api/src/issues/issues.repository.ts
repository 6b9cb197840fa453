import { sql } from "kysely";
import type { Db, Issue } from "@fixloop/db";

/** An issue row with the newest open pull request Fixloop opened for it, if any. */
type IssueRow = Issue & { open_pr_url: string | null; open_pr_number: number | null; open_pr_draft: boolean | null };

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

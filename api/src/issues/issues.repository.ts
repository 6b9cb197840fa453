import type { Db, Issue } from "@fixloop/db";

export function issueView(i: Issue) {
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
    htmlUrl: i.html_url,
    isImported: i.is_imported,
    upstreamFullName: i.upstream_full_name,
    forkFullName: i.fork_full_name,
  };
}

export async function listIssues(db: Db, userId: string, status?: Issue["status"]) {
  let q = db.selectFrom("issues").selectAll().where("user_id", "=", userId);
  if (status) q = q.where("status", "=", status);
  return q.orderBy("created_at", "desc").orderBy("issue_number", "desc").execute();
}

/** Another user's issue is indistinguishable from a missing one. */
export async function findIssue(db: Db, userId: string, id: string) {
  return db.selectFrom("issues").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

import { pullRequests, type Db, type Issue, type PullRequest, type Solution } from "@fixloop/db";
import { prErrors } from "./pull-requests.errors";

export async function loadSolution(
  db: Db,
  userId: string,
  solutionId: string,
): Promise<{
  solution: Solution;
  issue: Issue;
  reviewer: { username: string; email: string | null; draftPullRequests: boolean };
}> {
  const solution = await db
    .selectFrom("solutions")
    .selectAll()
    .where("id", "=", solutionId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!solution || solution.status === "deleted") throw prErrors.notFound();
  const issue = await db.selectFrom("issues").selectAll().where("id", "=", solution.issue_id).executeTakeFirstOrThrow();
  const user = await db
    .selectFrom("users")
    .select(["username", "email", "draft_pull_requests"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    solution,
    issue,
    reviewer: { username: user.username, email: user.email, draftPullRequests: user.draft_pull_requests },
  };
}

export async function findPullRequest(db: Db, solutionId: string): Promise<PullRequest | undefined> {
  return db.selectFrom("pull_requests").selectAll().where("solution_id", "=", solutionId).executeTakeFirst();
}

/** Stores the pull request and moves solution and issue to pr_created, all at once. */
export async function savePullRequest(db: Db, r: pullRequests.NewPullRequestRow): Promise<PullRequest> {
  return pullRequests.record(db, r).catch((err: unknown) => {
    // Another solution's record holds this pull request: say so without the constraint's name.
    if ((err as { code?: string }).code === "23505") throw prErrors.duplicate();
    throw err;
  });
}

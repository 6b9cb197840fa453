import { sql } from "kysely";
import type { Db, Issue, PullRequest, Solution } from "@fixloop/db";
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

export interface NewPullRequestRow {
  userId: string;
  solutionId: string;
  issueId: string;
  repoFullName: string;
  headRepoFullName: string;
  number: number;
  title: string;
  body: string;
  branch: string;
  baseBranch: string;
  status: "open" | "closed" | "merged";
  htmlUrl: string;
  metadata: Record<string, unknown>;
}

/** Stores the pull request and moves solution and issue to pr_created, all at once. */
export async function savePullRequest(db: Db, r: NewPullRequestRow): Promise<PullRequest> {
  return insertPullRequest(db, r).catch((err: unknown) => {
    // Another solution's record holds this pull request: say so without the constraint's name.
    if ((err as { code?: string }).code === "23505") throw prErrors.duplicate();
    throw err;
  });
}

async function insertPullRequest(db: Db, r: NewPullRequestRow): Promise<PullRequest> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("pull_requests")
      .values({
        user_id: r.userId,
        solution_id: r.solutionId,
        issue_id: r.issueId,
        repo_full_name: r.repoFullName,
        head_repo_full_name: r.headRepoFullName,
        pr_number: r.number,
        title: r.title,
        body: r.body,
        branch_name: r.branch,
        base_branch: r.baseBranch,
        status: r.status,
        html_url: r.htmlUrl,
        metadata: JSON.stringify(r.metadata),
        synced_at: sql`now()`,
      })
      .onConflict((oc) =>
        oc.column("solution_id").doUpdateSet({ pr_number: r.number, html_url: r.htmlUrl, updated_at: sql`now()` }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("solutions")
      .set({ status: "pr_created", updated_at: sql`now()` })
      .where("id", "=", r.solutionId)
      .execute();
    await trx
      .updateTable("issues")
      .set({ status: "pr_created", updated_at: sql`now()` })
      .where("id", "=", r.issueId)
      .execute();
    return row;
  });
}
